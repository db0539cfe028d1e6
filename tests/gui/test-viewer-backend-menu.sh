#!/bin/bash
# test-viewer-backend-menu.sh (run by tests/bus/with-bus.sh --config no-stap.conf): where
# SystemTap cannot run, the Start menu shows it insensitive with the daemon's reason
# instead of offering it, and still offers eBPF.
set -uo pipefail
. "$FILEMON_SOURCE_DIR/tests/gui/viewer-lib.sh"

begin_bus_test

why=$(gdbus call --system --dest org.filemond.Filemond1 --object-path /org/filemond/Filemond1 \
  --method org.freedesktop.DBus.Properties.Get org.filemond.Filemond1 AvailableBackends)
case $why in *"'stap': ''"*) fail "the daemon says stap can run with Path=/nonexistent/stap: $why" ;; esac

start_xvfb "$tmp"
start_viewer "$tmp" fmtest
wait_for_log "$tmp" 'event stream open' 60
wait_for_log "$tmp" 'backend menu: stap cannot run: ' 60
grep -q 'backend menu: bpf cannot run' "$tmp/viewer.log" && fail "bpf shown as unavailable: $why"
park_pointer
wait_for_window "$tmp" idle 60
# the arrow beside Start opens the capture options
xdotool mousemove 100 27 click 1
sleep 1
screenshot "$tmp/menu.png"
cp "$tmp/menu.png" "$out/viewer-backend-menu.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
