#!/bin/bash
# test-viewer-open-folder-none.sh: under Xvfb, "Open Containing Folder" on a session bus
# where no file manager runs (nothing offers org.freedesktop.FileManager1) says so in
# words, without the bus's error, and its Copy Path button puts the path on the clipboard.
#   test-viewer-open-folder-none.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
open_generated_capture 300 menu
first_path=$(head -n 1 "$tmp/capture.jsonl" | sed 's/.*"path":"\([^"]*\)".*/\1/')

# The first row's Path cell; the menu's last item (as in test-viewer-open-folder.sh).
xdotool mousemove 800 131 click 3
wait_for_change "$tmp" menu 60
xdotool mousemove 870 $((131 + 21 + 6 * 30)) click 1
wait_for_log "$tmp" "info bar: No file manager is running that can show the folder of $first_path.$" 60
grep -E 'info bar: .*(GDBus|org\.freedesktop\.DBus\.Error|FileManager1)' "$tmp/viewer.log" &&
  fail "the info bar shows the bus's error"
park_pointer
screenshot "$tmp/none.png"
cp "$tmp/none.png" "$out/viewer-open-folder-none.png"

# Copy Path (Alt+C), then paste it into the filter entry.
viewer_key alt+c
wait_for_log "$tmp" "info bar: copied $first_path$" 60
viewer_key ctrl+k
viewer_key ctrl+v
wait_for_log "$tmp" "filter entry: $first_path$" 60
stop_viewer

check_log_clean "$tmp"
echo PASS
