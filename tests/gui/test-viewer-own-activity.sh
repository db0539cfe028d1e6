#!/bin/bash
# test-viewer-own-activity.sh: under Xvfb, the viewer hides filemon's own activity
# (filemond, filemonctl, filemon-viewer) by default, says so with its "Hide filemon" toggle,
# and shows it after Ctrl+H; the user's filter is applied on top, unchanged in the entry. In
# a capture opened from a file, a pid that happens to be the viewer's is another program's:
# its events are shown.
#   test-viewer-own-activity.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test

# A capture in which three of its programs are filemon's own.
"$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" 3000 "$tmp/made.jsonl" || fail "cannot make a capture"
sed -e 's/"comm":"sshd"/"comm":"filemond"/' -e 's/"comm":"bash"/"comm":"filemonctl"/' \
    -e 's/"comm":"make"/"comm":"filemon-viewer"/' "$tmp/made.jsonl" > "$tmp/capture.jsonl"
n_own=$(grep -c -E '"comm":"(filemond|filemonctl|filemon-viewer)"' "$tmp/capture.jsonl")
n_other=$((3000 - n_own))
[ "$n_own" -gt 0 ] && [ "$n_other" -gt 0 ] || fail "the capture has $n_own events of filemon"
n_own_failed=$(grep -E '"comm":"(filemond|filemonctl|filemon-viewer)"' "$tmp/capture.jsonl" | grep -c '"result":-')
n_failed=$(grep -c '"result":-' "$tmp/capture.jsonl")

start_xvfb "$tmp"
VIEWER_TITLE=capture.jsonl
start_viewer "$tmp" root "$tmp/capture.jsonl"
wait_for_log "$tmp" "list shows $n_other of 3000 events" 60
park_pointer
wait_for_window "$tmp" own-hidden 60
cp "$tmp/own-hidden.png" "$out/viewer-own-activity-hidden.png"

viewer_key ctrl+h
wait_for_log "$tmp" 'hide monitor: off' 60
wait_for_log "$tmp" "list shows 3000 of 3000 events" 60

# The user's filter alone, then with the hiding again.
viewer_key ctrl+k
xdotool type --delay 20 'result<0'
wait_for_log "$tmp" "list shows $n_failed of 3000 events" 60
viewer_key ctrl+h
wait_for_log "$tmp" 'hide monitor: on' 60
wait_for_log "$tmp" "list shows $((n_failed - n_own_failed)) of 3000 events" 60

# 2000 events of other programs, all with the viewer's pid, opened in the running viewer
# (a second invocation hands the file to it over its session bus).
# this test's viewer: other tests' may run beside it (start_viewer makes it a session's)
viewer=$(pgrep -s "$VIEWER_PID" -x filemon-viewer) || fail "no viewer process"
head -n 2000 "$tmp/made.jsonl" | sed -e "s/\"pid\":[0-9]*/\"pid\":$viewer/" > "$tmp/same-pid.jsonl"
[ "$(grep -c "\"pid\":$viewer," "$tmp/same-pid.jsonl")" = 2000 ] || fail "the capture does not name the viewer's pid"
session=$(tr '\0' '\n' < "/proc/$viewer/environ" | sed -n 's/^DBUS_SESSION_BUS_ADDRESS=//p')
[ -n "$session" ] || fail "the viewer has no session bus"
DBUS_SESSION_BUS_ADDRESS=$session HOME=$tmp/home-root XDG_RUNTIME_DIR=$tmp/home-root/runtime \
  GDK_BACKEND=x11 G_DEBUG="$VIEWER_G_DEBUG" "$VIEWER" "$tmp/same-pid.jsonl" >>"$tmp/viewer.log" 2>&1 || fail "the viewer did not take the file"
wait_for_log "$tmp" "list shows 2000 of 2000 events" 60
stop_viewer

check_log_clean "$tmp"
echo PASS
