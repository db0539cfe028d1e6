#!/bin/bash
# test-viewer-mmap-result.sh: under Xvfb, mmap's result (an address) is shown in hex, as
# strace shows it, whole in the list's Result column and in the detail pane.
#   test-viewer-mmap-result.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
for i in 1 2 3; do
  printf '{"seq":%d,"time_ns":1764763200000000000,"duration_ns":800,"pid":400,"ppid":1,"tid":400,"uid":0,"comm":"cc1","syscall":"mmap","result":140737351847936,"errno":null,"path":"/usr/lib/x86_64-linux-gnu/libc.so.6","path2":"","detail":"len=4096, PROT_READ, MAP_PRIVATE|MAP_DENYWRITE, fd=3, off=0"}\n' "$i"
done > "$tmp/mmap.jsonl"
start_xvfb "$tmp"
VIEWER_TITLE=mmap.jsonl
start_viewer "$tmp" root "$tmp/mmap.jsonl"
wait_for_log "$tmp" "list shows 3 of 3 events" 60
park_pointer
wait_for_window "$tmp" main 60
# the first row (rows start at y 124), then the detail pane (F9) with its result
xdotool mousemove 400 131 click 1
wait_for_log "$tmp" "selection: a row" 60
viewer_key F9
wait_for_log "$tmp" "detail pane: result: 0x7ffff7dd1000" 60
screenshot "$tmp/detail.png"
cp "$tmp/detail.png" "$out/viewer-mmap-result.png"
if grep 'cell text clipped' "$tmp/viewer.log"; then
  fail "a cell's figures are cut off by their column"
fi
grep -q 'cell text clipped: 140737351847936' "$tmp/viewer.log" && fail "mmap's result is shown in decimal"
stop_viewer

check_log_clean "$tmp"
echo PASS
