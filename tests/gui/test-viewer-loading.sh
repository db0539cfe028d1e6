#!/bin/bash
# test-viewer-loading.sh: under Xvfb, a capture being opened shows how far the reading
# has come, and Stop Reading (Escape) keeps the events read so far. The capture comes
# through a named pipe, so the test decides how much of it exists: 1000 events, then
# nothing more while the window says "1000 events read" and Escape asks it to stop, then
# one more event, after which the reading ends where it was: 1001 events listed, and the
# info bar says the rest of the file was not read.
#   test-viewer-loading.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test

"$FILEMON_BUILD_DIR/tests/gui/fmv-make-capture" 3000 "$tmp/capture.jsonl" || fail "cannot make a capture"
mkfifo "$tmp/pipe.jsonl" || fail "cannot make a named pipe"
start_xvfb "$tmp"
VIEWER_TITLE=pipe.jsonl
start_viewer "$tmp" root "$tmp/pipe.jsonl"
# the viewer's open() of the pipe returns once a writer has it
exec 3>"$tmp/pipe.jsonl"
head -n 1000 "$tmp/capture.jsonl" >&3
wait_for_log "$tmp" 'loading: Reading “pipe.jsonl”…: 1,\?000 events read' 60
park_pointer
wait_for_window "$tmp" loading 60
cp "$tmp/loading.png" "$out/viewer-loading.png"
grep -q 'list shows [1-9]' "$tmp/viewer.log" && fail "the list was shown before the reading ended"

viewer_key Escape
wait_for_log "$tmp" 'loading: stop asked' 60
sed -n 1001p "$tmp/capture.jsonl" >&3
wait_for_log "$tmp" 'partial load: Reading “pipe.jsonl” was stopped' 60
wait_for_log "$tmp" 'list shows 1001 of 1001 events' 60
exec 3>&-
park_pointer
wait_for_window "$tmp" stopped 60
cp "$tmp/stopped.png" "$out/viewer-loading-stopped.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
