#!/bin/bash
# test-viewer-open-folder.sh: under Xvfb, "Open Containing Folder" in a row's menu asks
# the desktop's file manager (org.freedesktop.FileManager1 on the session bus, here a
# stand-in started by D-Bus activation) to show the event's file.
#   test-viewer-open-folder.sh   (FILEMON_BUILD_DIR and FILEMON_SOURCE_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
# The viewer's session bus (start_viewer: dbus-run-session, XDG_DATA_HOME=$tmp/home-root/data)
# activates services from XDG_DATA_HOME/dbus-1/services.
mkdir -p "$tmp/home-root/data/dbus-1/services"
cat > "$tmp/home-root/data/dbus-1/services/org.freedesktop.FileManager1.service" <<SERVICE
[D-BUS Service]
Name=org.freedesktop.FileManager1
Exec=/usr/bin/python3 $FILEMON_SOURCE_DIR/tests/gui/fake-file-manager.py $tmp/shown
SERVICE
open_generated_capture 300 menu
first_path=$(head -n 1 "$tmp/capture.jsonl" | sed 's/.*"path":"\([^"]*\)".*/\1/')

# The first row's Path cell; the menu's last item, 30 px below each of Include, Exclude,
# Highlight, Bookmark, Before and After.
xdotool mousemove 800 131 click 3
wait_for_change "$tmp" menu 60
cp "$tmp/menu.png" "$out/viewer-open-folder-menu.png"
xdotool mousemove 870 $((131 + 21 + 6 * 30)) click 1
wait_for_log "$tmp" "open containing folder: file://$first_path$" 60
wait_for_line "$tmp/shown" "file://$first_path" 60
stop_viewer

check_log_clean "$tmp"
echo PASS
