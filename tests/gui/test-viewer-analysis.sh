#!/bin/bash
# test-viewer-analysis.sh: under Xvfb, the analysis views of a known fork/exec workload
# (fixtures/fork-exec.jsonl: bash runs make, which runs cc1 with a worker thread "gdbus",
# and ls): Ctrl+T opens the process tree, whose shape and counts the debug log spells
# out; the file summary's counts; counting a column's values. Selecting an entry in each
# filters the main list to that entry's events.
#   test-viewer-analysis.sh   (FILEMON_BUILD_DIR and FILEMON_SOURCE_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
open_fixture fork-exec.jsonl 10

# The tree: make (200) was forked by bash (100) and exec'd; cc1 (300) is named by its
# leader thread, not by its thread "gdbus"; ls (400) is bash's second child.
viewer_key ctrl+t
wait_for_log "$tmp" "process tree: 100 bash \[200 make \[300 cc1\] 400 ls\]" 60
wait_for_log "$tmp" "analysis: 4 processes, 8 files of 10 events" 60
# command lines as a shell writes them, not as the detail's list
wait_for_log "$tmp" "process 200 command line: make -j2$" 10
wait_for_log "$tmp" "process 300 command line: cc1 main.c$" 10
# The analysis window opens at the top left, over the list; its rows are 32 px apart from
# y 91: bash, make, cc1, ls. Selecting make shows make's events.
click_until 300 123 "filter entry: pid=200$" 60
wait_for_log "$tmp" "list shows 3 of 10 events" 60
park_pointer
screenshot "$tmp/tree.png"
cp "$tmp/tree.png" "$out/viewer-process-tree.png"

# The file summary, sorted by events: /src/Makefile (opened and read by make) first.
wait_for_log "$tmp" "file summary: /src/main.c opens=0 reads=2 (1024 bytes) writes=0 (0 bytes) failures=0 processes=1 events=2" 10
wait_for_log "$tmp" "file summary: /etc/shadow opens=1 reads=0 (0 bytes) writes=0 (0 bytes) failures=1 processes=1 events=1" 10
wait_for_log "$tmp" "file summary: /src/Makefile opens=1 reads=1 (100 bytes) writes=0 (0 bytes) failures=0 processes=1 events=2" 10
xdotool mousemove 488 26 click 1
wait_for_change "$tmp" tree 60
# The entry replaces the process's term (the filter the analysis started from was empty).
click_until 300 91 "filter entry: path=/src/Makefile$" 60
wait_for_log "$tmp" "list shows 2 of 10 events" 60
park_pointer
screenshot "$tmp/files.png"
cp "$tmp/files.png" "$out/viewer-file-summary.png"

# Count occurrences of the Process column: cc1 3, and the fixture's worker thread under
# its own name (a capture from a backend that recorded threads' names), most frequent first.
wait_for_log "$tmp" "count of Process: cc1 3" 10
wait_for_log "$tmp" "count of Process: gdbus 2" 10
xdotool mousemove 632 26 click 1
wait_for_change "$tmp" files 60
click_until 300 135 "filter entry: comm=cc1$" 60
wait_for_log "$tmp" "list shows 3 of 10 events" 60
park_pointer
screenshot "$tmp/counts.png"
cp "$tmp/counts.png" "$out/viewer-count-occurrences.png"
stop_viewer

check_log_clean "$tmp"
echo PASS
