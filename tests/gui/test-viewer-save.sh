#!/bin/bash
# test-viewer-save.sh: under Xvfb, Save writes what the window holds, as a user drives it:
# with a filter typed in, "Save Events Shown" (Shift+Ctrl+S) writes exactly the events the
# filter shows and "Save All Events" (Ctrl+S) every event of the window, each through the
# file chooser; the files are compared with the capture, the status bar's counts with the
# files. A file that cannot be written is an error, never "Saved".
#   test-viewer-save.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test

"$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" 3000 "$tmp/capture.jsonl" || fail "cannot make a capture"
n_failed=$(grep -c '"result":-' "$tmp/capture.jsonl")
[ "$n_failed" -gt 0 ] && [ "$n_failed" -lt 3000 ] || fail "the capture has $n_failed failed calls"
start_xvfb "$tmp"
VIEWER_TITLE=capture.jsonl
start_viewer "$tmp" root "$tmp/capture.jsonl"
wait_for_log "$tmp" "list shows 3000 of 3000 events" 60
wait_for_window "$tmp" save-start 60

viewer_key ctrl+k
xdotool type --delay 20 'result<0'
wait_for_log "$tmp" "list shows $n_failed of 3000 events" 60

save_through_chooser shift+ctrl+s 'Save the Events Shown' "$tmp/shown.jsonl"
wait_for_log "$tmp" 'saved: ' 60
grep -q "saved: $n_failed shown" "$tmp/viewer.log" || fail "the viewer says $(grep 'saved: ' "$tmp/viewer.log")"
park_pointer
wait_for_window "$tmp" save-shown 60
cp "$tmp/save-shown.png" "$out/viewer-save-shown.png"
grep '"result":-' "$tmp/capture.jsonl" | cmp - "$tmp/shown.jsonl" ||
  fail "the shown events saved are not the capture's failed calls"

save_through_chooser ctrl+s 'Save All Events' "$tmp/all.jsonl"
wait_for_log "$tmp" 'saved: 3000 all' 60
cmp "$tmp/capture.jsonl" "$tmp/all.jsonl" || fail "Save All did not write the window's events"

# A file that cannot be created: an error in the window, never "Saved". (A short write
# and its "N of M events written" are the model test's /viewer/capture/save-reports-short-writes.)
save_through_chooser ctrl+s 'Save All Events' /proc/filemon-cannot-be-here.jsonl
wait_for_log "$tmp" 'save failed: ' 60
[ "$(grep -c 'saved: ' "$tmp/viewer.log")" = 2 ] || fail "a failed save was reported as saved"
park_pointer
wait_for_window "$tmp" save-failed 60
cp "$tmp/save-failed.png" "$out/viewer-save-failed.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
