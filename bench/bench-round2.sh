#!/bin/bash
# bench-round2.sh: one build's part of a round of issue 20's measurements; run-bench.sh
# runs it inside tests/bus/with-bus.sh (a fresh daemon of that build, bench.conf) for the
# build under test and, when given one, for the old build, alternating which goes first.
#
#   bench-round2.sh ROUND RAW_FILE SECONDS TAG LOAD_CPU SATURATED
#
# For the failed-openat loop and the stat loop, one after the other, each with an
# untraced run right before its traced ones (the host's speed moves within a round):
#   - pinned to LOAD_CPU, untraced, then under full capture with one `filemonctl watch
#     --json` into fm-bench-count (r2-untraced-TAG, r2-full-TAG): the cost a captured
#     event adds to the traced thread, and filemond's CPU an event;
#   - unpinned (the scheduler places the load, filemond and the watch), untraced, then
#     under full capture with one watch writing to a file (r2-untraced-unpinned-TAG,
#     r2-full-unpinned-TAG): the ratio, and the time from the load's end until the file
#     holds every event of the load.
# Then the failed-openat loop pinned with one watch and with two (r2-full1-TAG,
# r2-full2-TAG: filemond's CPU for two stream subscribers against one). filemond's CPU is read from a cpuacct cgroup the
# script puts it in for the while. With SATURATED=1: one unpinned load per CPU untraced
# (their summed rate), then bench-saturated-round.sh under full capture (calls =
# delivered + dropped + missed, checked).
set -euo pipefail

round=$1 raw=$2 secs=$3 tag=$4 load_cpu=$5 saturated=$6
build=$FILEMON_BUILD_DIR
fmctl=("$build/client-cli/filemonctl" --no-ask-password)
loadgen=$build/bench/fm-loadgen
pinned=("$loadgen" --cpu="$load_cpu")
unpinned=("$loadgen")
counter=$build/bench/fm-bench-count
tmp=$FILEMON_TEST_TMP

put() { printf '%s\t%s\t%s\n' "$round" "$1" "$2" >> "$raw"; }
note() { echo "round $round ($tag): $*" >> "$raw.notes"; echo "bench-round2: $*" >&2; }
# shellcheck source=bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

cpu_cgroup_enter
trap cpu_cgroup_leave EXIT
rate() { "$@" --seconds="$secs" | awk '{ print $4 }'; }

start() {
  "${fmctl[@]}" start --backend=bpf > /dev/null
  wait_state running 10 && return 0
  note "no capture: $(prop LastError)"
  exit 1
}
stop() {
  "${fmctl[@]}" stop > /dev/null
  for _ in $(seq 500); do [ "$(prop State)" = idle ] && return 0; sleep 0.02; done
}

for op in open-missing stat; do
  put "rate.r2-untraced-$tag.$op" "$(rate "${pinned[@]}" --op="$op")"
  put "rate.r2-untraced-unpinned-$tag.$op" "$(rate "${unpinned[@]}" --op="$op")"
  start
  capture_load "r2-full-$tag" "$op" 1 pipe "${pinned[@]}"
  capture_load "r2-full-unpinned-$tag" "$op" 1 file "${unpinned[@]}"
  stop
done
# one watch and two, back to back: by now the ring is full (bench.conf: 1M events), and
# its CPU an event is lower full than growing (no first touch of its pages)
start
capture_load "r2-full1-$tag" open-missing 1 pipe "${pinned[@]}"
capture_load "r2-full2-$tag" open-missing 2 pipe "${pinned[@]}"
stop

if [ "$saturated" = 1 ]; then
  n=$(nproc)
  pids=()
  for i in $(seq "$n"); do
    "${unpinned[@]}" --op=open-missing --seconds="$secs" > "$tmp/sat-untraced$i" &
    pids+=($!)
  done
  wait "${pids[@]}"
  put "rate.r2-untraced-saturated-$tag.open-missing" "$(cat "$tmp"/sat-untraced* | awk '{ s += $4 } END { printf "%.0f", s }')"
  # its own scratch directory: it sums the load reports it finds there
  mkdir -p "$tmp/saturated"
  FILEMON_TEST_TMP=$tmp/saturated "$(dirname "$0")/bench-saturated-round.sh" saturated "$tmp/sat" "$secs" open-missing "$n"
  # "LABEL calls=N delivered=N dropped=N missed=N unaccounted=N rate=CALLS/S"
  for k in calls delivered dropped missed unaccounted rate; do
    put "saturated-$k.r2-$tag.open-missing" "$(sed -n "s/.* $k=\(-\?[0-9]*\).*/\1/p" "$tmp/sat")"
  done
fi
