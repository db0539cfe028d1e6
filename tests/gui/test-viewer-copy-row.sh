#!/bin/bash
# test-viewer-copy-row.sh: under Xvfb, Ctrl+C in the list copies the selected event as a
# line of filemonctl's text output; pasted into the filter entry, that line arrives.
#   test-viewer-copy-row.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
open_generated_capture 300 main
first_path=$(head -n 1 "$tmp/capture.jsonl" | sed 's/.*"path":"\([^"]*\)".*/\1/')

# Select the first row (rows start at y 124) and copy it.
xdotool mousemove 400 131 click 1
viewer_key ctrl+c
wait_for_log "$tmp" "copied row: .*openat.*$first_path" 60
copied=$(sed -n 's/.*filemon-viewer-DEBUG: [0-9:.]*: copied row: //p' "$tmp/viewer.log" | tail -n 1)

# The clipboard holds it: paste it into the filter entry.
viewer_key ctrl+k
viewer_key ctrl+v
wait_for_log "$tmp" "filter entry: $(printf '%s' "$copied" | sed 's/[][\\.*^$]/\\&/g')$" 60
stop_viewer

check_log_clean "$tmp"
echo PASS
