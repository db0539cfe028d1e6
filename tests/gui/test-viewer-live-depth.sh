#!/bin/bash
# test-viewer-live-depth.sh (run by tests/bus/with-bus.sh): a live window keeps its history
# depth. filemond captures 96 000 events (the fixture's 240, 400 times) with filemonctl;
# a viewer with a depth of 10 000 (the least) in its persisted settings then takes all of
# them from the daemon's buffer through its event stream, as a live window does, a page of
# 64 Ki rows going while it follows: it ends with the newest 10 000 listed, the status bar
# saying that 86 000 older went, and Save All writes events 86 001 to 96 000.
set -uo pipefail
. "$FILEMON_SOURCE_DIR/tests/gui/viewer-lib.sh"

begin_bus_test

start_fixture_capture 400 EventCount
filemonctl=$FILEMON_BUILD_DIR/client-cli/filemonctl
"$filemonctl" stop >"$tmp/stop.log" 2>&1 || fail "filemonctl stop: $(cat "$tmp/stop.log")"
wait_state idle 60

settings=$tmp/home-root/state/filemon-viewer/settings
mkdir -p "$(dirname "$settings")"
printf '[history]\ndepth=10000\n' >"$settings"
start_xvfb "$tmp"
start_viewer "$tmp" root
wait_for_log "$tmp" 'since-seq 0' 60
wait_for_log "$tmp" "status bar: 10,\?000 events · newest 10,\?000 kept, 86,\?000 older let go$" 120
wait_for_log "$tmp" "list shows 10000 of 10000 events" 60
park_pointer
wait_for_red "$tmp" 300 60 live-depth

save_through_chooser ctrl+s 'Save All Events' "$tmp/all.jsonl"
wait_for_log "$tmp" 'saved: 10000 all' 60
[ "$(sed -n 's/.*"seq":\([0-9]*\),.*/\1/p' "$tmp/all.jsonl" | tr '\n' ' ')" = "$(seq -s ' ' 86001 96000) " ] ||
  fail "Save All did not write events 86001 to 96000"
stop_viewer

check_log_clean "$tmp"
echo PASS
