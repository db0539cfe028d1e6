#!/bin/bash
# test-viewer-bookmarks.sh: under Xvfb, a user bookmarks a selected event with Ctrl+B and
# another from its row's menu; the bookmarked rows are marked, and F2 / Shift+F2 go from
# bookmark to bookmark (and no further than the last).
#   test-viewer-bookmarks.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

BAR='#1c71d8'   # the bar at the left of a bookmarked row's cells (style.css)

begin_file_test
open_generated_capture 300 main
[ "$(colour_pixels "$tmp/main.png" "$BAR" 2%)" = 0 ] || fail "bookmark bars before any bookmark"

# Rows start at y 124, 18 px apart: select event 3 and bookmark it.
xdotool mousemove 400 167 click 1
viewer_key ctrl+b
wait_for_log "$tmp" "bookmarks: 1$" 60

# Event 10 from its row's menu (items 30 px apart: Include, Exclude, Highlight, Bookmark).
park_pointer
screenshot "$tmp/main.png"
xdotool mousemove 190 293 click 3
wait_for_change "$tmp" main 60
xdotool mousemove 260 $((293 + 111)) click 1
wait_for_log "$tmp" "bookmarks: 2$" 60
park_pointer
# 11 cells x 18 px x 3 px per row, less what the selection covers.
wait_for_colour "$tmp" "$BAR" 300 100000 60 marked
cp "$tmp/marked.png" "$out/viewer-bookmarks.png"

# From event 3 (selected): down to 10, back up to 3, and nothing above 3.
viewer_key F2
wait_for_log "$tmp" "bookmark: selected event 10$" 60
viewer_key shift+F2
wait_for_log "$tmp" "bookmark: selected event 3$" 60
viewer_key shift+F2
viewer_key F2
wait_for_log_count "$tmp" "bookmark: selected event 10$" 2 60
[ "$(grep -c 'bookmark: selected event 3$' "$tmp/viewer.log")" = 1 ] || fail "Shift+F2 went above the first bookmark"

# Ctrl+B on a bookmarked event removes its bookmark.
viewer_key ctrl+b
wait_for_log "$tmp" "bookmarks: 1$" 60
stop_viewer

check_log_clean "$tmp"
echo PASS
