#!/bin/bash
# test-viewer-live-loading.sh (run by tests/bus/with-bus.sh): a live window that connects
# to a filemond holding many events says how many of them have come while it takes them in
# (the status bar, with a progress bar), then counts them as usual once it is live.
# filemond captures 96 000 events (the fixture's 240, 400 times); the viewer reads its
# stream 256 KiB at a time, so the replay of those takes many reads and the status bar
# passes through counts between 0 and 96 000 whatever the machine's speed.
set -uo pipefail
. "$FILEMON_SOURCE_DIR/tests/gui/viewer-lib.sh"

begin_bus_test

start_fixture_capture 400 BufferedCount

start_xvfb "$tmp"
start_viewer "$tmp" root
loading='status bar: Loading the events filemond holds: '
wait_for_log "$tmp" "${loading}0 of 96,\?000…" 60
wait_for_log "$tmp" "status bar: 96,\?000 events$" 120
grep -q "${loading}[1-9][0-9,]* of 96,\?000…" "$tmp/viewer.log" ||
  fail "the status bar never said how many of the 96000 had come"
grep -q "${loading}96,\?000 of" "$tmp/viewer.log" && fail "the status bar said all had come and still loading"
sed -n "/status bar: 96,\?000 events$/,\$p" "$tmp/viewer.log" | grep -q "$loading" &&
  fail "the status bar said it was loading after the events had all come"
echo "the status bar gave $(grep -c "$loading" "$tmp/viewer.log") counts while loading:"
grep "$loading" "$tmp/viewer.log" | sed -n '1p;2p;$p'
park_pointer
wait_for_red "$tmp" 300 60 live-loaded
stop_viewer

check_log_clean "$tmp"
echo PASS
