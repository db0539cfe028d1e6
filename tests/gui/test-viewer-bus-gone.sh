#!/bin/bash
# test-viewer-bus-gone.sh (run by tests/bus/with-bus.sh --no-daemon): when the system bus
# itself goes (its dbus-daemon ends, as when run-live.sh stops the bus it started), the
# viewer stays up with every event it holds, says the system bus is gone, saves them, and
# connects again when a bus runs at the same address.
set -uo pipefail
. "$FILEMON_SOURCE_DIR/tests/gui/viewer-lib.sh"

tmp=$FILEMON_TEST_TMP/gui
out=$FILEMON_BUILD_DIR/tests/gui
mkdir -p -m 0755 "$tmp"
daemon_pid= bus_pid= polkitd_pid=
socket=${DBUS_SYSTEM_BUS_ADDRESS#unix:path=}
socket=${socket%%,*}
bus_config=$(dirname "$socket")/system.conf

cleanup() {
  local status=$?
  if [ "$status" != 0 ] && [ -s "$tmp/filemond.log" ]; then
    echo "---- filemond.log, last 40 lines ----" >&2
    tail -n 40 "$tmp/filemond.log" >&2
  fi
  stop_viewer
  stop_xvfb
  [ -z "$daemon_pid" ] || { kill -TERM "$daemon_pid" 2>/dev/null; wait "$daemon_pid"; }
  [ -z "$polkitd_pid" ] || { kill -TERM "$polkitd_pid" 2>/dev/null; wait "$polkitd_pid"; }
  [ -z "$bus_pid" ] || { kill -TERM "$bus_pid" 2>/dev/null; wait "$bus_pid"; }
}
trap cleanup EXIT

received() {
  grep -o '[0-9]* received in all' "$tmp/viewer.log" | tail -n 1 | cut -d' ' -f1
}

export G_MESSAGES_DEBUG=filemon-viewer
start_xvfb "$tmp"
start_fixture_daemon "$tmp"
start_capture
start_viewer "$tmp" fmtest
park_pointer
wait_for_red "$tmp" 300 60 before
wait_for_status "$tmp" "240 events" 60
n=$(received)

# --- the bus goes: filemond and polkitd go with it, on purpose -----------------------------
touch "$FILEMON_TEST_TMP/polkitd-exit-expected" "$FILEMON_TEST_TMP/filemond-exit-expected"
kill -TERM "$DBUS_DAEMON_PID"
wait "$daemon_pid" 2>/dev/null
daemon_pid=
wait_for_log "$tmp" 'the system bus connection closed' 60
wait_for_log "$tmp" 'info bar: The system bus is gone' 60
viewer_alive || viewer_exited "$tmp"
[ "$(last_status "$tmp")" = "240 events" ] || fail "without a bus the status bar says '$(last_status "$tmp")'"
park_pointer
# the pause only lets the info bar slide in for the saved screenshot; the checks above
# and below do not depend on it
sleep 2
wait_for_red "$tmp" 300 60 bus-gone
cp "$tmp/bus-gone.png" "$out/viewer-bus-gone.png"

# --- every event can be saved ------------------------------------------------------------
save_dir=$FILEMON_TEST_DISK/fmtest
mkdir -p "$save_dir"
chown fmtest "$save_dir"
save_through_chooser ctrl+s 'Save All Events' "$save_dir/kept.jsonl"
wait_for_log "$tmp" "saved: 240 all" 60
[ "$(wc -l < "$save_dir/kept.jsonl")" = 240 ] || fail "the saved file has $(wc -l < "$save_dir/kept.jsonl") lines, not 240"

# --- a bus runs again at the same address: the viewer connects to it ----------------------
setpriv --pdeathsig TERM -- dbus-daemon --nofork --nopidfile --config-file="$bus_config" \
  >"$tmp/dbus.log" 2>&1 &
bus_pid=$!
for _ in $(seq 300); do
  gdbus call --system --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetId >/dev/null 2>&1 && break
  sleep 0.2
done
setpriv --pdeathsig TERM -- /usr/lib/polkit-1/polkitd >"$tmp/polkitd.log" 2>&1 &
polkitd_pid=$!
gdbus wait --system --timeout 60 org.freedesktop.PolicyKit1 || fail "polkitd did not start again"
start_fixture_daemon "$tmp"
start_capture
wait_for_log_count "$tmp" 'event stream open' 2 60
# The new bus may give the new filemond the old one's unique name: a new daemon still.
grep 'event stream open' "$tmp/viewer.log" | tail -n 1 | grep -q 'since-seq 0$' ||
  fail "the new daemon's buffer was not asked for from the start"
wait_for_status "$tmp" "$((2 * n)) events" 60
banner=$(grep -o 'info bar: .*' "$tmp/viewer.log" | tail -n 1)
[ "$banner" = "info bar: hidden" ] || fail "connected again, the info bar still says: $banner"
stop_viewer

check_log_clean "$tmp"
echo PASS
