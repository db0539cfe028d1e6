#!/bin/bash
# test-viewer-no-criticals.sh: under Xvfb with G_DEBUG=fatal-criticals (start_viewer), the
# actions that once logged GTK criticals run clean: Clear (Ctrl+L) with a row selected in
# a sorted list, End afterwards turning following on, and Quit (Ctrl+Q) with the list
# sorted by a column. The viewer must exit 0 on Ctrl+Q; a critical aborts it.
#   test-viewer-no-criticals.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
open_generated_capture 300 criticals

# Sort by the Process column (its header is above the first row's Process cell).
click_until 190 110 'sort: column' 60
wait_for_log "$tmp" 'list shows 300 of 300 events' 60
# Select the first row, then clear: the list empties under the selection.
click_until 190 131 'selection: a row' 60
grep 'follow: ' "$tmp/viewer.log" | tail -n 1 | grep -q 'follow: off' || fail "following is on with a row selected"
viewer_key ctrl+l
wait_for_log "$tmp" 'list shows 0 of 0 events' 60
wait_for_status "$tmp" "0 events" 60
# End turns following on again, and says so.
n_on=$(grep -c 'follow: on' "$tmp/viewer.log")
viewer_key End
wait_for_log_count "$tmp" 'follow: on' $((n_on + 1)) 60
viewer_alive || viewer_exited "$tmp"
park_pointer
wait_for_window "$tmp" cleared 60

# Sorted again (the other way), then Quit: the window goes with no critical on the way.
click_until 190 110 'sort: column .*, descending' 60
viewer_key ctrl+q
start=$SECONDS
while viewer_alive && [ $((SECONDS - start)) -lt 60 ]; do sleep 0.2; done
viewer_alive && fail "the viewer did not quit on Ctrl+Q"
wait "$VIEWER_PID"
status=$?
VIEWER_PID=
[ "$status" = 0 ] || { cat "$tmp/viewer.log" >&2; fail "the viewer exited with status $status on Ctrl+Q"; }

check_log_clean "$tmp"
echo PASS
