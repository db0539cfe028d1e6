#!/bin/bash
# test-viewer-highlight.sh: under Xvfb, "Highlight <value>" in a row's menu colours the
# rows with that value; the Highlight button lists the rules, takes a new one typed as a
# filter expression, and removes one, its colour leaving the list.
#   test-viewer-highlight.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

YELLOW='#f9f06b'   # the first rule's colour (style.css)
GREEN='#8ff0a4'    # the second's

begin_file_test
open_generated_capture 300 menu
first_comm=$(head -n 1 "$tmp/capture.jsonl" | sed 's/.*"comm":"\([^"]*\)".*/\1/')
# Nothing is highlighted yet.
[ "$(colour_pixels "$tmp/menu.png" "$YELLOW" 2%)" = 0 ] || fail "yellow rows before any highlight"

# The first row's Process cell; the menu's items are 30 px apart: Include, Exclude,
# Highlight, Bookmark, Before, After.
xdotool mousemove 190 131 click 3
wait_for_change "$tmp" menu 60
xdotool mousemove 260 $((131 + 81)) click 1
wait_for_log "$tmp" "highlight rules: comm=$first_comm$" 60
park_pointer
# A cell is about 100 x 18 px: at least a row's worth of yellow.
wait_for_colour "$tmp" "$YELLOW" 1000 10000000 60 highlighted

# The Highlight button (in the filter bar) lists the rule; a second one is typed in.
xdotool mousemove 950 73 click 1
wait_for_change "$tmp" highlighted 60
xdotool type --delay 20 'errno=EACCES'
xdotool key Return
wait_for_log "$tmp" "highlight rules: comm=$first_comm; errno=EACCES$" 60
wait_for_colour "$tmp" "$GREEN" 1000 10000000 60 two
cp "$tmp/two.png" "$out/viewer-highlight.png"

# Removing the first rule takes its colour away; the second stays. The popover opens
# below the button and lists the rules from y 152, 40 px apart, each with its remove
# button at its right end (x 1095).
click_until 1095 152 "highlight rules: errno=EACCES$" 60
viewer_key Escape
park_pointer
wait_for_colour "$tmp" "$YELLOW" 0 0 60 removed
wait_for_colour "$tmp" "$GREEN" 1000 10000000 60 removed
stop_viewer

check_log_clean "$tmp"
echo PASS
