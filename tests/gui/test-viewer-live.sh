#!/bin/bash
# test-viewer-live.sh (run by tests/bus/with-bus.sh): filemon-viewer against the real
# filemond on the private bus, as unprivileged users.
#  - fmtest (in the filemon group) opens the viewer on an idle daemon, starts a capture
#    with Ctrl+E (polkit allows it through the group rule), sees the fake stap's 240 events
#    with the failed calls in red and all of them counted as shown (no filter), stops with
#    Ctrl+E; the rows stay.
#  - a second viewer opened after that replays the daemon's buffer (OpenStream since-seq 0).
#  - the capture filter (Shift+Ctrl+E): a bad one is refused at its column in the dialog,
#    a good one goes to Start as "filter" and the capture keeps only what it matches (the
#    120 failed calls of the fixture's 240).
#  - nobody is refused by polkit: no rows, and Ctrl+E cannot start a capture.
#  - with polkitd gone, fmtest is told that (not to join the group) and how to start it.
set -uo pipefail
. "$FILEMON_SOURCE_DIR/tests/gui/viewer-lib.sh"

begin_bus_test

cat > "$FILEMON_FAKE_STAP_ENV" <<ENV
export FILEMON_FAKE_STAP_FIXTURE=$FILEMON_SOURCE_DIR/tests/gui/fixtures/failures.out
export FILEMON_FAKE_STAP_AFTER=hang
ENV

start_xvfb "$tmp"
[ "$(daemon_property State)" = "'idle'" ] || fail "filemond is not idle at the start"

# --- fmtest: Start, events, Stop ----------------------------------------------------------
start_viewer "$tmp" fmtest
wait_for_log "$tmp" 'event stream open' 60
park_pointer
wait_for_window "$tmp" live-idle 60
[ "$(red_pixels "$tmp/live-idle.png")" -lt 50 ] || fail "red on screen before any event"

viewer_key ctrl+e
wait_state running 60
park_pointer
wait_for_red "$tmp" 300 60 live-running
check_not_blank "$tmp/live-running.png"
wait_for_status "$tmp" "240 events" 60
check_list_shows "$tmp" 240
cp "$tmp/live-running.png" "$out/viewer-live.png"

# Following: on from the start; a click on a row stops it (the row must stay under the
# pointer), End resumes it, and the follow toggle stops it again.
grep -q 'follow: on' "$tmp/viewer.log" || fail "a live window does not follow at first"
n_off=$(grep -c 'follow: off' "$tmp/viewer.log")
xdotool mousemove 300 200 click 1
wait_for_log_count "$tmp" 'follow: off' $((n_off + 1)) 60
park_pointer
screenshot "$tmp/live-paused.png"
cp "$tmp/live-paused.png" "$out/viewer-paused.png"
n_on=$(grep -c 'follow: on' "$tmp/viewer.log")
viewer_key End
wait_for_log_count "$tmp" 'follow: on' $((n_on + 1)) 60
viewer_key ctrl+End
wait_for_log_count "$tmp" 'follow: off' $((n_off + 2)) 60
viewer_key ctrl+End
wait_for_log_count "$tmp" 'follow: on' $((n_on + 2)) 60

viewer_key ctrl+e
wait_state idle 60
park_pointer
sleep 1
screenshot "$tmp/live-stopped.png"
[ "$(red_pixels "$tmp/live-stopped.png")" -ge 300 ] || fail "the rows went away on Stop"
check_list_shows "$tmp" 240
[ "$(last_status "$tmp")" = "240 events" ] || fail "after Stop the status bar says '$(last_status "$tmp")'"
stop_viewer

# --- a viewer opened later replays the buffer ----------------------------------------------
: > "$tmp/viewer.log"
start_viewer "$tmp" fmtest
park_pointer
wait_for_red "$tmp" 300 60 live-replayed
wait_for_status "$tmp" "240 events" 60
check_list_shows "$tmp" 240
grep -q 'since-seq 0' "$tmp/viewer.log" || fail "the viewer did not ask for the whole buffer"

# --- the capture filter ---------------------------------------------------------------------
viewer_key shift+ctrl+e
wait_for_log "$tmp" 'capture filter editor open' 60
sleep 0.5
xdotool type --delay 20 'failed and (pid=1'
xdotool key Return
wait_for_log "$tmp" 'capture filter refused: column 18: expected ) to close the ( at column 12' 60
xdotool key ctrl+a
xdotool type --delay 20 'failed'
xdotool key Return
wait_for_log "$tmp" 'capture filter: failed$' 60
viewer_key ctrl+e
wait_state running 60
[ "$(daemon_property Options | grep -o "'filter': <'[^']*'>")" = "'filter': <'failed'>" ] \
  || fail "Start did not get the capture filter: $(daemon_property Options)"
daemon_property Options | grep -q "'failed-only': <true>" \
  || fail "the filter's kernel part is not in Options: $(daemon_property Options)"
wait_for_status "$tmp" "360 events" 60
viewer_key ctrl+e
wait_state idle 60
[ "$(last_status "$tmp")" = "360 events" ] || fail "the filtered capture kept '$(last_status "$tmp")'"
stop_viewer

# --- nobody: refused --------------------------------------------------------------------
: > "$tmp/viewer.log"
start_viewer "$tmp" nobody
wait_for_log "$tmp" 'filemond appeared' 60
wait_for_window "$tmp" live-refused 60
viewer_key ctrl+e
sleep 1
park_pointer
screenshot "$tmp/live-refused.png"
check_not_blank "$tmp/live-refused.png"
cp "$tmp/live-refused.png" "$out/viewer-refused.png"
[ "$(red_pixels "$tmp/live-refused.png")" -lt 50 ] || fail "nobody sees events"
grep -q 'event stream open' "$tmp/viewer.log" && fail "nobody got an event stream"
[ "$(daemon_property State)" = "'idle'" ] || fail "nobody started a capture"
# says it in the user's terms: the polkit action's id is for the administrator's log
page=$(grep 'status page: ' "$tmp/viewer.log" | tail -n 1)
case $page in
  *"Not Allowed: Your account may not watch file activity."*"filemon group"*) ;;
  *) fail "the refusal page says: $page" ;;
esac
case $page in *org.filemond*) fail "the refusal page shows a polkit action id: $page" ;; esac
stop_viewer
check_log_clean "$tmp"

# --- polkit is gone: not a refusal, and the viewer says what to do ----------------------
touch "$FILEMON_TEST_TMP/polkitd-exit-expected"   # the harness would restart it otherwise
polkitd_pid=$(cat "$POLKITD_PID_FILE")
kill -KILL "$polkitd_pid"
while kill -0 "$polkitd_pid" 2>/dev/null; do sleep 0.1; done
: > "$tmp/viewer.log"
start_viewer "$tmp" fmtest
wait_for_log "$tmp" 'status page: Permissions Cannot Be Checked' 60
park_pointer
wait_for_window "$tmp" polkit-down 60
cp "$tmp/polkit-down.png" "$out/viewer-polkit-down.png"
page=$(grep 'status page: ' "$tmp/viewer.log" | tail -n 1)
case $page in *"systemctl start polkit"*) ;; *) fail "the polkit page says: $page" ;; esac
case $page in *group*) fail "the polkit page gives the group advice: $page" ;; esac
stop_viewer

check_log_clean "$tmp"
echo PASS
