#!/bin/bash
# bench-filemond.sh: one round of the filemond measurements; run-bench.sh runs it inside
# tests/bus/with-bus.sh (private system bus, polkitd, the built filemond with bench.conf).
#
#   bench-filemond.sh ROUND RAW_FILE SECONDS LOAD_CPU
#
# Appends "ROUND<TAB>measure<TAB>value" lines to RAW_FILE (ratios are computed later against
# the untraced rates run-bench.sh measured in the same round) and notes to RAW_FILE.notes.
# Order: cold Start to first event, warm Start, full capture with one `filemonctl watch
# --json` per load, RSS / dump / stream replay with the ring full, Events signals, the
# kernel filter that excludes the load (each load then under fm-hook-floor), daemon exit
# on SIGTERM.
set -euo pipefail

round=$1 raw=$2 secs=$3 load_cpu=$4
build=$FILEMON_BUILD_DIR
fmctl=("$build/client-cli/filemonctl" --no-ask-password)
load=("$build/bench/fm-loadgen" --cpu="$load_cpu")   # see run-bench.sh
counter=$build/bench/fm-bench-count
reader=$build/bench/fm-bench-reader
tmp=$FILEMON_TEST_TMP
ops=(open-missing stat open-close getppid)

put() { printf '%s\t%s\t%s\n' "$round" "$1" "$2" >> "$raw"; }
note() { echo "round $round: $*" >> "$raw.notes"; echo "bench-filemond: $*" >&2; }
# shellcheck source=bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

expect_state() {
  wait_state "$1" 4 && return 0
  note "State did not become $1 (it is $(prop State); LastError: $(prop LastError))"
  return 1
}

# filemond's CPU time (filemond_cpu_ns) is read from a cgroup of its own for the round
cpu_cgroup_enter
trap cpu_cgroup_leave EXIT

# filemonctl start: its wall time, then State running.
start_capture() {
  local t0 t1
  t0=$(now)
  "${fmctl[@]}" start --backend=bpf "$@" >/dev/null
  t1=$(now)
  put start.call-s "$(calc "$t1 - $t0")"
  expect_state running
}

stop_capture() {
  local t0 t1
  t0=$(now)
  "${fmctl[@]}" stop >/dev/null
  t1=$(now)
  put stop.latency-s "$(calc "$t1 - $t0")"
  expect_state idle || true
}

# Time from `filemonctl start` to the first event one stream reader gets, while a paced
# load makes an event every 0.5 ms.
first_event() {
  local kind=$1 t0 rpid lpid
  rm -f "$tmp/ready"
  "$reader" --mode=stream --count=1 --timeout=10 --ready-file="$tmp/ready" > "$tmp/first" &
  rpid=$!
  for _ in $(seq 100); do [ -e "$tmp/ready" ] && break; sleep 0.02; done
  "${load[@]}" --op=open-missing --rate=2000 --seconds=4 > /dev/null &
  lpid=$!
  sleep 0.1
  t0=$(now)
  "${fmctl[@]}" start --backend=bpf >/dev/null
  wait "$rpid"
  put "first-event.$kind-s" "$(calc "$(kv t_first "$tmp/first") - $t0")"
  kill "$lpid" 2>/dev/null || true
  wait "$lpid" 2>/dev/null || true
  expect_state running
}

# ---- cold and warm Start ----------------------------------------------------------------
first_event cold
stop_capture
first_event warm

# ---- full capture, one watch reader ----------------------------------------------------
cpu0=$(filemond_cpu_ns)
events0=$(prop EventCount)
for op in "${ops[@]}"; do
  capture_load filemond-all "$op" 1 pipe "${load[@]}"
done
cpu1=$(filemond_cpu_ns)
events1=$(prop EventCount)
# top the ring up to 1M events for the RSS, dump and replay figures
buffered=$(prop BufferedCount)
if [ "$buffered" -lt 1000000 ]; then
  "${load[@]}" --op=open-missing --count=$((1000000 - buffered + 1000)) > /dev/null
  wait_drained
fi
put cpu-per-event-us "$(calc "($cpu1 - $cpu0) / 1e3 / max(1, $events1 - $events0)")"
# The same once the ring is full: its chunks and strings are then reused, where the figure
# above pays for the first touch of each page the growing ring takes (on these virtual
# machines a fault on a new page costs about as much as the rest of an event's work).
"${fmctl[@]}" watch --json > /dev/null 2>&1 &
wpid=$!
sleep 0.5
cpu2=$(filemond_cpu_ns)
events2=$(prop EventCount)
"${load[@]}" --op=open-missing --seconds="$secs" > /dev/null
wait_drained
cpu3=$(filemond_cpu_ns)
events3=$(prop EventCount)
kill -INT "$wpid" 2>/dev/null || true
wait "$wpid" 2>/dev/null || true
put cpu-per-event-full-ring-us "$(calc "($cpu3 - $cpu2) / 1e3 / max(1, $events3 - $events2)")"
stop_capture

# ---- the ring full: RSS, dump, stream replay -------------------------------------------
buffered=$(prop BufferedCount)
put buffered-events "$buffered"
[ "$buffered" -ge 1000000 ] || note "only $buffered events buffered (the RSS and dump figures are for that many)"
put rss-mb "$(awk '/^VmRSS:/ { print $2 / 1024 }' "/proc/$FILEMOND_PID/status")"
put rss-anon-mb "$(awk '/^RssAnon:/ { print $2 / 1024 }' "/proc/$FILEMOND_PID/status")"
put rss-shared-mb "$(awk '/^Rss(File|Shmem):/ { s += $2 } END { print s / 1024 }' "/proc/$FILEMOND_PID/status")"
t0=$(now)
"${fmctl[@]}" dump --format=jsonl | "$counter" > "$tmp/count"
t1=$(now)
put dump-jsonl-s "$(calc "$t1 - $t0")"
put dump-jsonl-events "$(kv events "$tmp/count")"
"$reader" --mode=stream --since=0 --count="$buffered" --idle=2 > "$tmp/replay"
put stream-replay-events-per-s "$(calc "$(kv events "$tmp/replay") / ($(kv t_last "$tmp/replay") - $(kv t_ready "$tmp/replay"))")"
put stream-replay-lost "$(( $(kv missed "$tmp/replay") + $(kv seq_holes "$tmp/replay") ))"

# ---- Events signals: at 165 000/s offered (1.1 x the goal), then as fast as it goes; one
# subscriber receiving with sd-bus, one with GDBus (which decodes each record into a tree
# of GVariants, see fm-bench-reader-sdbus.c), alternated ------------------------------------
signals_run() {
  local mode=$1 kind=$2 rpid
  shift 2
  rm -f "$tmp/ready"
  "$reader" --mode="$mode" --comm=fm-loadgen --idle=1 --timeout=60 --ready-file="$tmp/ready" > "$tmp/sig" &
  rpid=$!
  for _ in $(seq 100); do [ -e "$tmp/ready" ] && break; sleep 0.02; done
  "${load[@]}" --op=open-missing --seconds=2 "$@" > "$tmp/lg"
  wait "$rpid"
  put "$mode-$kind-events-per-s" "$(calc "$(kv comm_events "$tmp/sig") / max(1e-9, $(kv t_comm_last "$tmp/sig") - $(kv t_comm_first "$tmp/sig"))")"
  put "$mode-$kind-lost" "$(( $(kv missed "$tmp/sig") + $(kv seq_holes "$tmp/sig") ))"
  put "$mode-$kind-offered-per-s" "$(awk '{ print $4 }' "$tmp/lg")"
}
start_capture
for mode in signals-sd-bus signals; do
  signals_run "$mode" paced --rate=165000
  signals_run "$mode" max
done
stop_capture

# ---- kernel filter: the capture is for another process; each load then runs again with
# two empty programs on the same hooks (fm-hook-floor, filemond's stopped), the floor any
# program there puts on a syscall, and untraced: the three side by side, since the host's
# speed moves within a round ---------------------------------------------------------------
hook_floor=$build/bench/fm-hook-floor
if [ ! -x "$hook_floor" ]; then
  note "hook floor: fm-hook-floor is not built (the bpf option is off); skipped"
  hook_floor=""
elif ! "$hook_floor" true 2>/dev/null; then
  note "hook floor: fm-hook-floor cannot attach its programs here; skipped"
  hook_floor=""
fi
sleep 600 &
other=$!
for op in "${ops[@]}"; do
  start_capture --pid="$other"
  "${load[@]}" --op="$op" --seconds="$secs" > "$tmp/lg"
  put "rate.filemond-excluded.$op" "$(awk '{ print $4 }' "$tmp/lg")"
  stop_capture
  if [ -n "$hook_floor" ]; then
    "$hook_floor" "${load[@]}" --op="$op" --seconds="$secs" > "$tmp/lg"
    put "rate.hook-floor.$op" "$(awk '{ print $4 }' "$tmp/lg")"
  fi
  "${load[@]}" --op="$op" --seconds="$secs" > "$tmp/lg"
  put "rate.untraced-adjacent.$op" "$(awk '{ print $4 }' "$tmp/lg")"
done
kill "$other"
wait "$other" 2>/dev/null || true

# ---- exit on SIGTERM ---------------------------------------------------------------------
t0=$(now)
kill -TERM "$FILEMOND_PID"
for _ in $(seq 1000); do [ -s "$FILEMOND_EXIT_FILE" ] && break; sleep 0.01; done
t1=$(now)
put exit-after-sigterm-s "$(calc "$t1 - $t0")"
[ "$(cat "$FILEMOND_EXIT_FILE" 2>/dev/null)" = 0 ] || note "filemond exited with status '$(cat "$FILEMOND_EXIT_FILE" 2>/dev/null)' on SIGTERM"
