#!/bin/bash
# test-viewer-filter-help.sh: under Xvfb, the ? button next to the filter lists the filter
# language's fields (the filter module's own table) with examples; clicking an example
# filters; filters applied with Enter are kept as recent filters, also for the next run;
# Tab completes field and value names.
#   test-viewer-filter-help.sh   (FILEMON_BUILD_DIR set)
set -uo pipefail
. "$(dirname "$0")/viewer-lib.sh"

begin_file_test
open_generated_capture 300 main
n_eacces=$(grep -c '"errno":"EACCES"' "$tmp/capture.jsonl")
n_sshd=$(grep -c '"comm":"sshd"' "$tmp/capture.jsonl")
wait_for_log "$tmp" "filter help: 15 fields, 0 recent filters" 10

# The ? button at the filter bar's right end; the popover lists the fields 34 px apart
# from y 152 in the field table's order, their examples at the right (errno=EACCES is the 12th).
xdotool mousemove 1250 73 click 1
wait_for_change "$tmp" main 60
cp "$tmp/main.png" "$out/viewer-filter-help.png"
click_until 1193 $((152 + 11 * 34)) "filter entry: errno=EACCES$" 60
wait_for_log "$tmp" "list shows $n_eacces of 300 events" 60

# Enter in the filter entry keeps a filter among the recent ones, newest first.
viewer_key ctrl+k
viewer_key Return
wait_for_log "$tmp" "recent filters: errno=EACCES$" 60
viewer_key ctrl+a
xdotool type --delay 20 'comm=sshd'
viewer_key Return
wait_for_log "$tmp" "list shows $n_sshd of 300 events" 60
wait_for_log "$tmp" "recent filters: comm=sshd | errno=EACCES$" 60
wait_for_log "$tmp" "filter help: 15 fields, 2 recent filters" 10
stop_viewer

# They are still there in the next run, and an entry with a quote and a backslash survives.
: > "$tmp/viewer.log"
start_viewer "$tmp" root "$tmp/capture.jsonl"
wait_for_log "$tmp" "filter help: 15 fields, 2 recent filters" 60
viewer_key ctrl+k
viewer_key ctrl+a
xdotool type --delay 20 'path~"\.so"'
viewer_key Return
wait_for_log "$tmp" 'recent filters: path~"\\.so" | comm=sshd | errno=EACCES$' 60
stop_viewer
: > "$tmp/viewer.log"
start_viewer "$tmp" root "$tmp/capture.jsonl"
wait_for_log "$tmp" "filter help: 15 fields, 3 recent filters" 60
viewer_key ctrl+k
viewer_key ctrl+a
xdotool type --delay 20 'pid=1'
viewer_key Return
wait_for_log "$tmp" 'recent filters: pid=1 | path~"\\.so" | comm=sshd | errno=EACCES$' 60

# Tab completes: a field name with its operator, then a value, offering the candidates.
n_rename=$(grep -c '"syscall":"renameat2"' "$tmp/capture.jsonl")
viewer_key ctrl+a BackSpace
xdotool type --delay 20 'sys'
viewer_key Tab
xdotool type --delay 20 'renamea'
viewer_key Tab
wait_for_log "$tmp" "completion candidates: renameat renameat2$" 60
park_pointer
screenshot "$tmp/candidates.png"
cp "$tmp/candidates.png" "$out/viewer-filter-completion.png"
xdotool type --delay 20 '2'
viewer_key Tab
wait_for_log "$tmp" "filter entry: syscall=renameat2$" 60
wait_for_log "$tmp" "list shows $n_rename of 300 events" 60
stop_viewer

check_log_clean "$tmp"
echo PASS
