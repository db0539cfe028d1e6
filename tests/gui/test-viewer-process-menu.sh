#!/bin/bash
# test-viewer-process-menu.sh: under Xvfb, a right click on a process in the analysis
# window's process tree (fixtures/fork-exec.jsonl: bash runs make, which runs cc1, and
# ls) offers Include / Exclude the process and its descendants, which edit the main
# window's filter text, and Go to its first event, which selects it in the main list
# (whose detail pane shows an exec's command line as shell words).
#   test-viewer-process-menu.sh   (FILEMON_BUILD_DIR and FILEMON_SOURCE_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
open_fixture fork-exec.jsonl 10
viewer_key ctrl+t
wait_for_log "$tmp" "process tree: 100 bash \[200 make \[300 cc1\] 400 ls\]" 60

# tree_menu Y ITEM PATTERN: right-clicks the tree's row at y Y (rows 32 px apart from
# y 91: bash, make, cc1, ls) until its menu opens (a row not laid out yet takes no
# click), then its ITEMth entry (from 0, 30 px apart below the pointer), and waits for
# PATTERN in the log.
n_menus=0
tree_menu() {
  local y=$1 item=$2 pattern=$3 start=$SECONDS i
  park_pointer
  screenshot "$tmp/menu.png"
  while [ $((SECONDS - start)) -lt 60 ]; do
    xdotool mousemove 300 "$y" click 3
    for i in $(seq 10); do
      [ "$(grep -c 'process tree: menu of process' "$tmp/viewer.log")" -gt "$n_menus" ] && break 2
      sleep 0.2
    done
  done
  n_menus=$((n_menus + 1))
  wait_for_log_count "$tmp" "process tree: menu of process" "$n_menus" 1
  wait_for_change "$tmp" menu 60
  xdotool mousemove 380 $((y + 21 + 30 * item)) click 1
  wait_for_log "$tmp" "$pattern" 10
  park_pointer
}

# make and cc1, its child: 3 + 5 events
tree_menu 123 0 "filter entry: (pid=200 or pid=300)$"
wait_for_log "$tmp" "list shows 8 of 10 events" 60
cp "$tmp/menu.png" "$out/viewer-process-menu.png"

# then not cc1 (a process without children: its pid alone): make's 3 events
tree_menu 155 1 "filter entry: (pid=200 or pid=300) and not pid=300$"
wait_for_log "$tmp" "list shows 3 of 10 events" 60

# make's first event is its exec, whose command line the detail pane shows
tree_menu 123 2 "process 200: went to its first event"
wait_for_log "$tmp" "detail pane: command line: make -j2$" 10
stop_viewer

check_log_clean "$tmp"
echo PASS
