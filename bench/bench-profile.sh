#!/bin/bash
# bench-profile.sh: where filemond's time goes under full capture, run inside
# tests/bus/with-bus.sh (bench.conf):
#
#   bench-profile.sh OUT_DIR WATCHERS SECONDS [perf-record|perf-trace]
#
# Starts a bpf full capture with WATCHERS `filemonctl watch --json` readers writing to
# /dev/null, then runs a pinned failed-openat loop (CPU 0) for SECONDS while `perf stat`
# counts filemond's CPU time, context switches, main loop iterations (poll/ppoll calls),
# stream sends and ring buffer reads (epoll_wait). Writes OUT_DIR/stat (perf's output) and
# OUT_DIR/summary: events taken in, CPU an event, events a main loop iteration and a send.
# With perf-record, the same run is sampled (`perf record -g`, OUT_DIR/perf.data); with
# perf-trace, filemond's syscalls are counted by kind (`perf trace -s`, OUT_DIR/trace).
set -euo pipefail

out=$1 watchers=$2 secs=$3 record=${4:-}
build=$FILEMON_BUILD_DIR
fmctl=("$build/client-cli/filemonctl" --no-ask-password)
# shellcheck source=bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"
mkdir -p "$out"

"${fmctl[@]}" start --backend=bpf > /dev/null
wait_state running 10 || { echo "bench-profile: no capture: $(prop LastError)" >&2; exit 1; }
before=$(streams_opened)
wpids=()
for ((w = 0; w < watchers; w++)); do
  "${fmctl[@]}" watch --json > /dev/null &
  wpids+=($!)
  wait_subscribed $((before + w))
done

events=(-e task-clock -e context-switches -e syscalls:sys_enter_poll -e syscalls:sys_enter_ppoll
        -e syscalls:sys_enter_sendto -e syscalls:sys_enter_epoll_wait -e syscalls:sys_enter_read
        -e syscalls:sys_enter_write -e syscalls:sys_enter_bpf ${FM_PROFILE_EVENTS:-})
e0=$(prop EventCount)
if [ "$record" = perf-record ]; then
  perf record -q -g -o "$out/perf.data" -p "$FILEMOND_PID" -- sleep $((secs + 1)) &
elif [ "$record" = perf-trace ]; then
  perf trace -s -o "$out/trace" -p "$FILEMOND_PID" -- sleep $((secs + 1)) &
else
  perf stat -x, -o "$out/stat" "${events[@]}" -p "$FILEMOND_PID" -- sleep $((secs + 1)) &
fi
perf_pid=$!
"$build/bench/fm-loadgen" --cpu=0 --op=open-missing --seconds="$secs" > "$out/load"
wait "$perf_pid"
e1=$(prop EventCount)
kill -INT "${wpids[@]}" 2>/dev/null || true
wait "${wpids[@]}" 2>/dev/null || true
"${fmctl[@]}" stop > /dev/null

n=$((e1 - e0))
{
  echo "events=$n"
  echo "load=$(cat "$out/load")"
  if [ -f "$out/stat" ]; then
    # perf stat -x,: value,unit,event,...
    val() { awk -F, -v e="$1" '$3 == e { print $1 }' "$out/stat"; }
    polls=$(( $(val syscalls:sys_enter_poll) + $(val syscalls:sys_enter_ppoll) ))
    echo "cpu-ms=$(val task-clock)"
    echo "cpu-us-per-event=$(calc "$(val task-clock) * 1e3 / max(1, $n)")"
    echo "context-switches=$(val context-switches)"
    echo "loop-iterations=$polls events-per-iteration=$(calc "$n / max(1, $polls)")"
    echo "sends=$(val syscalls:sys_enter_sendto) events-per-send=$(calc "$n * $watchers / max(1, $(val syscalls:sys_enter_sendto))")"
    echo "epoll-waits=$(val syscalls:sys_enter_epoll_wait) reads=$(val syscalls:sys_enter_read) writes=$(val syscalls:sys_enter_write) bpf=$(val syscalls:sys_enter_bpf)"
  fi
} > "$out/summary"
cat "$out/summary"
