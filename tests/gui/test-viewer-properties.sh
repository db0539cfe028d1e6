#!/bin/bash
# test-viewer-properties.sh: under Xvfb, a double-click on a row and Enter on a row each
# open the event's properties, with an Event tab (the user name beside the uid) and a
# Process tab (command line as shell words, parents up to PID 1, first and last event),
# read from the events the viewer holds.
#   test-viewer-properties.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

# The rows start at y 124 and are 18 px high; with the properties open at this width,
# their tab switcher's buttons are at these places (see viewer-properties.png).
row_y() { echo $((131 + 18 * $1)); }
EVENT_TAB_X=997
PROCESS_TAB_X=1131
TABS_Y=167

begin_file_test
open_fixture fork-exec.jsonl 10
user=$(getent passwd 1000 | cut -d: -f1)
[ -n "$user" ] || user=1000

# A double-click on make's openat (row 2) opens the properties on the Event tab.
xdotool mousemove 300 "$(row_y 2)" click --repeat 2 --delay 80 1
wait_for_log "$tmp" "properties: opened for the row at 2" 30
wait_for_log "$tmp" "details: shown" 30
park_pointer
wait_for_window "$tmp" event 30
# the name beside the uid, as the list's User column shows it
wait_for_log "$tmp" "detail pane: user: $user (1000)$" 10
grep -q "properties: process tab" "$tmp/viewer.log" && fail "the Process tab was filled before it was shown"

xdotool mousemove "$PROCESS_TAB_X" "$TABS_Y" click 1
wait_for_log "$tmp" "properties: process tab$" 30
wait_for_log "$tmp" "properties: process tab of make (PID 200)" 30
log=$(cat "$tmp/viewer.log")
for line in "Command line: make -j2" "Executable: /usr/bin/make" \
            "User: $user (1000)" \
            "First event: 12:00:00.100000 execve /usr/bin/make (event 2)" \
            "Last event: 12:00:00.300000 read /src/Makefile (event 4)" \
            "  PID 100: bash: command line not known (its exec is not in the capture)" \
            "  PID 1: The init process: no event of it in the capture, so its command line is not known"; do
  grep -qxF -- "$line" <<<"$log" || fail "the Process tab has no line '$line'"
done
park_pointer
wait_for_window "$tmp" process 30
cp "$tmp/process.png" "$out/viewer-properties.png"

# Enter on a row: hidden again (F9), a click on cc1's exec (row 5), Down to its read
# (row 6) and Enter open them again, the Process tab still chosen.
viewer_key F9
xdotool mousemove 300 "$(row_y 5)" click 1
wait_for_log "$tmp" "selection: a row" 30
n=$(grep -c "process tab of" "$tmp/viewer.log")
viewer_key Down Return
wait_for_log "$tmp" "properties: opened for the row at 6" 30
wait_for_log_count "$tmp" "details: shown" 2 30
wait_for_log "$tmp" "properties: process tab of cc1 (PID 300)" 30
log=$(sed -n '/process tab of cc1 (PID 300)/,$p' "$tmp/viewer.log")
for line in "Command line: cc1 main.c" "  PID 200: make -j2" "  PID 100: bash: command line not known (its exec is not in the capture)"; do
  grep -qxF -- "$line" <<<"$log" || fail "the Process tab of cc1 has no line '$line'"
done
[ "$(grep -c "process tab of" "$tmp/viewer.log")" -gt "$n" ] || fail "Enter did not show the row's process"

xdotool mousemove "$EVENT_TAB_X" "$TABS_Y" click 1
wait_for_log "$tmp" "properties: event tab$" 30
park_pointer
wait_for_window "$tmp" event-enter 30
cp "$tmp/event-enter.png" "$out/viewer-properties-event.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
