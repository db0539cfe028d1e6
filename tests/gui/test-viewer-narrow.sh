#!/bin/bash
# test-viewer-narrow.sh: under Xvfb, in a narrow window the detail pane (F9) takes a third
# of the width (at least its minimum), and the list keeps the rest.
#   test-viewer-narrow.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
open_generated_capture 300 wide
win=$(xdotool search --sync --onlyvisible --name capture.jsonl | head -n 1)
xdotool windowsize --sync "$win" 720 600

# The pane is sized when it is shown, from the width GTK has allocated by then: show it
# until the allocation has caught up with the resize (each try waits for its log line).
width=
for try in $(seq 30); do
  viewer_key F9
  wait_for_log_count "$tmp" 'details: shown' "$try" 60
  read -r pane width < <(grep -o 'details: shown, [0-9]* of [0-9]* px' "$tmp/viewer.log" |
                          tail -n 1 | sed 's/details: shown, \([0-9]*\) of \([0-9]*\) px/\1 \2/')
  [ "$width" -lt 800 ] && break
  viewer_key F9
done
[ "${width:-9999}" -lt 800 ] || fail "the window did not become narrow (width $width)"
echo "detail pane $pane of $width px"
[ "$pane" -le $(( width / 3 > 240 ? width / 3 + 1 : 241 )) ] || fail "the detail pane takes $pane of $width px"
[ $(( width - pane )) -ge $(( width / 2 )) ] || fail "the list keeps $(( width - pane )) of $width px"
park_pointer
screenshot "$tmp/narrow.png"
cp "$tmp/narrow.png" "$out/viewer-narrow-details.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
