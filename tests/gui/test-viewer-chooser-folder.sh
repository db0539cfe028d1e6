#!/bin/bash
# test-viewer-chooser-folder.sh: under Xvfb, the Open and Save file choosers start in the
# folder the last capture was saved to or opened from, in a later run of the viewer too.
# A first viewer saves into keep/ by its full path; a second one, in the same home, saves
# by a bare name and the file lands in keep/; a third opens that file by a bare name.
#   test-viewer-chooser-folder.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
# whatever the choosers' own default, it is not keep/
cd "$tmp" || fail "cannot enter $tmp"
mkdir "$tmp/keep"
"$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" 3000 "$tmp/capture.jsonl" || fail "cannot make a capture"
start_xvfb "$tmp"

VIEWER_TITLE=capture.jsonl
start_viewer "$tmp" root "$tmp/capture.jsonl"
wait_for_log "$tmp" "list shows 3000 of 3000 events" 60
save_through_chooser ctrl+s 'Save All Events' "$tmp/keep/first.jsonl"
wait_for_log "$tmp" 'saved: 3000 all' 60
stop_viewer

: >"$tmp/viewer.log"
start_viewer "$tmp" root "$tmp/capture.jsonl"
wait_for_log "$tmp" "list shows 3000 of 3000 events" 60
save_through_chooser ctrl+s 'Save All Events' second.jsonl
wait_for_log "$tmp" "file chooser starts in file://$tmp/keep$" 60
wait_for_log "$tmp" 'saved: 3000 all' 60
[ -f "$tmp/keep/second.jsonl" ] || fail "the second run's Save did not start in keep/: $(find "$tmp" -name second.jsonl)"
cmp "$tmp/capture.jsonl" "$tmp/keep/second.jsonl" || fail "keep/second.jsonl is not the capture"
stop_viewer

# A window with nothing in it (no bus here) opens the capture in place.
: >"$tmp/viewer.log"
VIEWER_TITLE='filemon Viewer'
start_viewer "$tmp" root
wait_for_log "$tmp" 'status page: ' 60
viewer_key ctrl+o
win=$(timeout 60 xdotool search --sync --onlyvisible --name 'Open Capture' | head -n 1)
[ -n "$win" ] || fail "no 'Open Capture' dialog"
wait_for_log "$tmp" "file chooser starts in file://$tmp/keep$" 60
xdotool windowfocus --sync "$win" key --clearmodifiers ctrl+l
xdotool type --delay 10 second.jsonl
xdotool key --clearmodifiers Return
wait_for_log "$tmp" "list shows 3000 of 3000 events" 60
park_pointer
wait_for_window "$tmp" opened 60
stop_viewer

check_log_clean "$tmp"
echo PASS
