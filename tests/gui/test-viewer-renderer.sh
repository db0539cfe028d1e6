#!/bin/bash
# test-viewer-renderer.sh: under Xvfb, whose OpenGL Mesa renders on the CPU, the viewer
# left to choose (no GSK_RENDERER) draws with cairo, and says why; a renderer the user
# names is kept. Either way the capture's rows are drawn.
#   test-viewer-renderer.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
VIEWER_GSK_RENDERER= open_generated_capture 50 chosen
grep 'renderer:' "$tmp/viewer.log"
if grep -q 'renderer: GTK.s default (OpenGL: none)' "$tmp/viewer.log"; then
  echo "no OpenGL under this Xvfb: GTK draws with cairo by itself, nothing to choose"
else
  grep -q 'renderer: cairo, OpenGL is rendered in software (' "$tmp/viewer.log" ||
    fail "the viewer kept GL rendered in software: $(grep 'renderer:' "$tmp/viewer.log")"
fi
check_not_blank "$tmp/chosen.png"
stop_viewer
stop_xvfb

: >"$tmp/viewer.log"
VIEWER_GSK_RENDERER=gl open_generated_capture 50 named
wait_for_log "$tmp" 'renderer: gl (GSK_RENDERER)' 60
check_log_clean "$tmp"
echo PASS
