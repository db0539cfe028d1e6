#!/bin/bash
# test-viewer-columns.sh: under Xvfb, the User and Duration columns are shown, TID and
# PPID are offered in the column chooser (main menu > Columns) and a user can show one
# with the keyboard alone: F10, down to Columns (below the analysis views), into it, down
# to TID, Return.
#   test-viewer-columns.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test

"$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" 300 "$tmp/capture.jsonl" || fail "cannot make a capture"
start_xvfb "$tmp"
VIEWER_TITLE=capture.jsonl
start_viewer "$tmp" root "$tmp/capture.jsonl"
wait_for_log "$tmp" "list shows 300 of 300 events" 60
grep -q 'column TID: shown' "$tmp/viewer.log" && fail "TID is shown before it was chosen"

# Each key waits for what the one before it opened (the menu, the submenu's page).
park_pointer
screenshot "$tmp/menu.png"
viewer_key F10
wait_for_change "$tmp" menu 60
viewer_key Down Down Down Down Down Down Down Right
wait_for_change "$tmp" menu 60
viewer_key Down Down Down Down Return
wait_for_log "$tmp" 'column TID: shown' 60
viewer_key Escape
park_pointer
wait_for_window "$tmp" columns 60
cp "$tmp/columns.png" "$out/viewer-columns.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
