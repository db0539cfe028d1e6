#!/bin/bash
# test-viewer-depth.sh: under Xvfb, the history depth. With a depth of 100 000 in the
# viewer's persisted settings, a capture of 300 000 events opens with its newest 100 000:
# the list holds them, the status bar says how many were kept and let go, and Save All
# writes exactly those (the oldest kept is event 200 001). Then History Depth in the main
# menu, with the keyboard alone (F10, down to it below Columns, Return), sets 50 000: the
# list lets the oldest 50 000 go at once, and the setting is kept for the next run.
#   test-viewer-depth.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test

"$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" 300000 "$tmp/capture.jsonl" || fail "cannot make a capture"
settings=$tmp/home-root/state/filemon-viewer/settings
mkdir -p "$(dirname "$settings")"
printf '[history]\ndepth=100000\n' >"$settings"

start_xvfb "$tmp"
VIEWER_TITLE=capture.jsonl
start_viewer "$tmp" root "$tmp/capture.jsonl"
wait_for_log "$tmp" "list shows 100000 of 100000 events" 120
# thousands separators or none, as the locale says
wait_for_log "$tmp" "status bar: 100,\?000 events · newest 100,\?000 kept, 200,\?000 older let go$" 60
park_pointer
wait_for_window "$tmp" depth 60
cp "$tmp/depth.png" "$out/viewer-history-depth.png"

save_through_chooser ctrl+s 'Save All Events' "$tmp/all.jsonl"
wait_for_log "$tmp" 'saved: 100000 all' 120
tail -n 100000 "$tmp/capture.jsonl" | cmp - "$tmp/all.jsonl" ||
  fail "Save All did not write the newest 100000 events"
head -n 1 "$tmp/all.jsonl" | grep -q '"seq":200001,' || fail "the oldest event kept is not event 200001"

# The main menu's History Depth, with the keyboard alone.
park_pointer
screenshot "$tmp/menu.png"
viewer_key F10
wait_for_change "$tmp" menu 60
viewer_key Down Down Down Down Down Down Down Down Return
wait_for_log "$tmp" 'history depth editor open' 60
win=$(timeout 60 xdotool search --sync --onlyvisible --name 'History Depth' | head -n 1)
[ -n "$win" ] || fail "no 'History Depth' dialog"
xdotool windowfocus --sync "$win" key --clearmodifiers ctrl+a
xdotool type --delay 10 50000
xdotool key --clearmodifiers Return
wait_for_log "$tmp" 'history depth: 50000$' 60
wait_for_log "$tmp" "list shows 50000 of 50000 events" 60
wait_for_log "$tmp" "status bar: 50,\?000 events · newest 50,\?000 kept, 250,\?000 older let go$" 60
grep -qx 'depth=50000' "$settings" || fail "the depth was not kept: $(cat "$settings")"
stop_viewer

check_log_clean "$tmp"
echo PASS
