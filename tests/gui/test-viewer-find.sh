#!/bin/bash
# test-viewer-find.sh: under Xvfb, Find (Ctrl+F) takes a filter expression, Enter and F3
# select the next match and Shift+F3 the previous one, in the order shown, and the list
# keeps showing every event; a text that does not parse says where.
#   test-viewer-find.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
open_generated_capture 300 main
# the positions of the EACCES events: the list shows the file's order
mapfile -t want < <(grep -n '"errno":"EACCES"' "$tmp/capture.jsonl" | cut -d: -f1 | head -n 3 |
                    while read -r line; do echo $((line - 1)); done)
[ "${#want[@]}" -eq 3 ] || fail "the capture has fewer than 3 EACCES events"

viewer_key ctrl+f
wait_for_log "$tmp" "find: entry has the keyboard" 60
xdotool type --delay 10 'errno=EACCES'
viewer_key Return
wait_for_log_count "$tmp" "find: position" 1 60
viewer_key F3
wait_for_log_count "$tmp" "find: position" 2 60
viewer_key F3
wait_for_log_count "$tmp" "find: position" 3 60
viewer_key shift+F3
wait_for_log_count "$tmp" "find: position" 4 60
got=$(sed -n 's/.*find: position \([0-9]*\)$/\1/p' "$tmp/viewer.log" | tr '\n' ' ')
[ "$got" = "${want[0]} ${want[1]} ${want[2]} ${want[1]} " ] ||
  fail "find selected positions $got, not ${want[*]} then ${want[1]}"
grep 'list shows [0-9]* of 300 events' "$tmp/viewer.log" | grep -v 'list shows 300 of 300 events' &&
  fail "Find filtered the list"

# a text that is not a filter: the status says what is wrong, nothing is selected anew
viewer_key ctrl+f
xdotool type --delay 10 "path~'("
viewer_key F3
wait_for_log "$tmp" "find: Find: column" 60
[ "$(grep -c 'find: position' "$tmp/viewer.log")" -eq 4 ] || fail "a bad text moved the selection"
park_pointer
screenshot "$tmp/find.png"
cp "$tmp/find.png" "$out/viewer-find.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
