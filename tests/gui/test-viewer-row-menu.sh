#!/bin/bash
# test-viewer-row-menu.sh: under Xvfb, a right click on a cell offers Include / Exclude
# <that value> for its column and Exclude Events Before / After This One; choosing one
# edits the filter entry's text (the entry shows what happened) and the list follows.
#   test-viewer-row-menu.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
open_generated_capture 300 menu
first_comm=$(head -n 1 "$tmp/capture.jsonl" | sed 's/.*"comm":"\([^"]*\)".*/\1/')
n_other=$(grep -c -v "\"comm\":\"$first_comm\"" "$tmp/capture.jsonl")

# The first row's Process cell (the list starts at y 124, rows are 18 px high).
xdotool mousemove 190 131 click 3
wait_for_change "$tmp" menu 60
cp "$tmp/menu.png" "$out/viewer-row-menu.png"
# The menu opens at the pointer, its items 30 px apart: Include, Exclude, Highlight,
# Bookmark, Before, After.
xdotool mousemove 260 $((131 + 51)) click 1
wait_for_log "$tmp" "filter entry: not comm=$first_comm" 60
wait_for_log "$tmp" "list shows $n_other of 300 events" 60

# Exclude the events after the (new) first row: one row is left.
park_pointer
screenshot "$tmp/menu.png"
xdotool mousemove 190 131 click 3
wait_for_change "$tmp" menu 60
xdotool mousemove 260 $((131 + 171)) click 1
wait_for_log "$tmp" "filter entry: not comm=$first_comm and seq<=" 60
wait_for_log "$tmp" "list shows 1 of 300 events" 60
park_pointer
wait_for_window "$tmp" after 60
cp "$tmp/after.png" "$out/viewer-row-menu-applied.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
