#!/bin/bash
# test-viewer-file.sh: under Xvfb, the viewer opens a saved capture without any daemon or
# system bus and shows its rows, failed calls in red; a capture without failures shows no
# red, and a file that is not a capture leaves a readable window. Screenshots go to the
# build directory (tests/gui/viewer-*.png).
#   test-viewer-file.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test

"$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" 3000 "$tmp/capture.jsonl" || fail "cannot make a capture"
start_xvfb "$tmp"

start_viewer "$tmp" root "$tmp/capture.jsonl"
wait_for_red "$tmp" 300 60 viewer-file
check_not_blank "$tmp/viewer-file.png"
wait_for_status "$tmp" "3000 events" 60
check_list_shows "$tmp" 3000
cp "$tmp/viewer-file.png" "$out/viewer-file.png"
stop_viewer

# Only successful calls: rows, but nothing red. Proves the red above is the failed rows.
grep -v '"result":-' "$tmp/capture.jsonl" > "$tmp/ok.jsonl"
[ -s "$tmp/ok.jsonl" ] || fail "no successful events in the capture"
start_viewer "$tmp" root "$tmp/ok.jsonl"
n_ok=$(wc -l < "$tmp/ok.jsonl")
wait_for_status "$tmp" "$n_ok events" 60
check_list_shows "$tmp" "$n_ok"
wait_for_window "$tmp" viewer-ok 60
red=$(red_pixels "$tmp/viewer-ok.png")
[ "$red" -lt 50 ] || fail "a capture without failures shows $red red pixels"
stop_viewer

# Not a capture: the window stays up and says why.
printf 'hello\nworld\n' > "$tmp/not-a-capture.jsonl"
start_viewer "$tmp" root "$tmp/not-a-capture.jsonl"
wait_for_window "$tmp" viewer-bad 60
cp "$tmp/viewer-bad.png" "$out/viewer-bad-file.png"
stop_viewer

check_log_clean "$tmp"
echo "PASS"
