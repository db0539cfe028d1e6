#!/bin/bash
# test-viewer-reconnect.sh (run by tests/bus/with-bus.sh --no-daemon): filemon-viewer
# opened while filemond is absent says so (a status page, no rows) and stays up; when
# filemond appears it connects by itself and shows the capture; when filemond restarts it
# keeps the rows it has, says filemond stopped, reconnects to the new daemon taking its
# whole buffer, and the "stopped" banner goes.
set -uo pipefail
. "$FILEMON_SOURCE_DIR/tests/gui/viewer-lib.sh"

tmp=$FILEMON_TEST_TMP/gui
out=$FILEMON_BUILD_DIR/tests/gui
mkdir -p -m 0755 "$tmp"
daemon_pid=
cleanup() {
  local status=$?
  # the daemons' own words first (stop_daemon may fail in turn): the scratch directory
  # goes with the test
  if [ "$status" != 0 ] && [ -s "$tmp/filemond.log" ]; then
    echo "---- filemond.log (both daemons), last 60 lines ----" >&2
    tail -n 60 "$tmp/filemond.log" >&2
  fi
  stop_viewer
  stop_xvfb
  stop_daemon
}

stop_daemon() {
  [ -n "$daemon_pid" ] || return 0
  kill -TERM "$daemon_pid" 2>/dev/null
  wait "$daemon_pid"
  local status=$?
  daemon_pid=
  # filemond kills its stap on exit; a fake stap left behind would be a bug.
  if [ -s "$FILEMON_FAKE_STAP_PIDS" ]; then
    while read -r pid; do
      kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; fail "filemond left stap $pid running"; }
    done < "$FILEMON_FAKE_STAP_PIDS"
  fi
  [ "$status" = 0 ] || fail "filemond exited with $status on SIGTERM"
}

trap cleanup EXIT

export G_MESSAGES_DEBUG=filemon-viewer
start_xvfb "$tmp"

# --- absent ------------------------------------------------------------------------------
start_viewer "$tmp" fmtest
wait_for_log "$tmp" 'filemond is not on the bus' 60
park_pointer
wait_for_window "$tmp" absent 60
cp "$tmp/absent.png" "$out/viewer-absent.png"
grep 'status page: ' "$tmp/viewer.log" | tail -n 1 | grep -q 'systemctl start filemond' ||
  fail "the absent page does not say how to start filemond"
[ "$(red_pixels "$tmp/absent.png")" -lt 50 ] || fail "red on screen without a daemon"

# --- it appears --------------------------------------------------------------------------
start_fixture_daemon "$tmp"
start_capture
park_pointer
wait_for_red "$tmp" 300 60 appeared
wait_for_status "$tmp" "240 events" 60
check_list_shows "$tmp" 240
grep -c 'event stream open' "$tmp/viewer.log" | grep -qx 1 || fail "expected one stream so far"

# --- it restarts ---------------------------------------------------------------------------
received_before=$(grep -o '[0-9]* received in all' "$tmp/viewer.log" | tail -n 1 | cut -d' ' -f1)
stop_daemon
sleep 1
viewer_alive || { cat "$tmp/viewer.log"; fail "the viewer exited when filemond stopped"; }
park_pointer
screenshot "$tmp/gone.png"
[ "$(red_pixels "$tmp/gone.png")" -ge 300 ] || fail "the rows went away with the daemon"
[ "$(last_status "$tmp")" = "240 events" ] || fail "without the daemon the status bar says '$(last_status "$tmp")'"
wait_for_log "$tmp" 'info bar: filemond stopped' 60

start_fixture_daemon "$tmp"
start_capture
for _ in $(seq 300); do
  [ "$(grep -c 'event stream open' "$tmp/viewer.log")" -ge 2 ] && break
  sleep 0.2
done
[ "$(grep -c 'event stream open' "$tmp/viewer.log")" -ge 2 ] || { cat "$tmp/viewer.log"; fail "no reconnection"; }
grep 'event stream open' "$tmp/viewer.log" | tail -n 1 | grep -q 'since-seq 0' ||
  fail "the new daemon's buffer was not asked for from the start"
for _ in $(seq 300); do
  received=$(grep -o '[0-9]* received in all' "$tmp/viewer.log" | tail -n 1 | cut -d' ' -f1)
  [ "${received:-0}" -gt "${received_before:-0}" ] && break
  sleep 0.2
done
[ "${received:-0}" -gt "${received_before:-0}" ] || fail "no events from the restarted daemon"
echo "received $received_before events before the restart, $received in all"
# The new daemon replays the same fixture from its start, after the rows kept.
wait_for_status "$tmp" "$((2 * received_before)) events" 60
check_list_shows "$tmp" $((2 * received_before))
# connected again: the "filemond stopped" banner is gone
banner=$(grep -o 'info bar: .*' "$tmp/viewer.log" | tail -n 1)
[ "$banner" = "info bar: hidden" ] || fail "after reconnecting the info bar still says: $banner"
stop_viewer

check_log_clean "$tmp"
echo PASS
