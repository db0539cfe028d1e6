#!/bin/bash
# bench-saturated-round.sh: one round of the saturated-machine measurement; run by
# bench-saturated.sh inside tests/bus/with-bus.sh (the built filemond, a config that sizes
# the BPF ring buffer).
#
#   bench-saturated-round.sh LABEL OUT_FILE SECONDS OP LOADS
#
# Full capture (bpf) with one `filemonctl watch --json` reader, and LOADS fm-loadgen --op=OP
# (one per CPU makes the machine saturated), unpinned (the scheduler places the loads, filemond and the reader, as on a
# user's machine), for SECONDS. Then every event is accounted for: the loop calls the
# loads made, the events of the loads the reader got, the events filemond dropped
# (DroppedCount) and those the reader was told it missed. Appends one line to OUT_FILE:
#
#   LABEL calls=N delivered=N dropped=N missed=N unaccounted=N rate=CALLS/S
#
# unaccounted = calls - delivered - dropped - missed, where delivered counts only the
# loops' events (each load's own start and end, exec, loader, its report, are measured
# apart by a load of one call and taken off): 0 when the accounting is exact. The loads run
# under a name of their own (a link to fm-loadgen), so that other fm-loadgen processes on
# the machine are not counted. rate: the loads' calls a second of wall time, summed.
set -euo pipefail

label=$1 out=$2 secs=$3 op=$4 loads=$5
build=$FILEMON_BUILD_DIR
fmctl=("$build/client-cli/filemonctl" --no-ask-password)
tmp=$FILEMON_TEST_TMP
# comm is the name of the file executed
name=fmsat-$$
loadgen=$tmp/$name
ln -s "$build/bench/fm-loadgen" "$loadgen"
counter=$build/bench/fm-bench-count
# shellcheck source=bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

case $op in
  open-missing|stat) per=1 ;;
  open-close) per=2 ;;
  *) echo "bench-saturated-round: OP must be open-missing, stat or open-close" >&2; exit 2 ;;
esac

"${fmctl[@]}" start --backend=bpf > /dev/null
wait_state running 10 || { echo "bench-saturated-round: no capture: $(prop LastError)" >&2; exit 1; }

# the events of a load besides its loop (exec, loader, its report, exit), taken off each
# load's count: a load of one call, that call taken off
startup_events() {
  local cpid wpid before
  rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"
  "$counter" --comm="$name" < "$tmp/fifo" > "$tmp/count0" &
  cpid=$!
  before=$(streams_opened)
  "${fmctl[@]}" watch --json > "$tmp/fifo" 2> /dev/null &
  wpid=$!
  wait_subscribed "$before"
  "$loadgen" --op="$op" --count=1 > /dev/null
  wait_drained
  kill -INT "$wpid" 2>/dev/null || true
  wait "$wpid" 2>/dev/null || true
  wait "$cpid"
  per_load=$(( $(kv pid_events "$tmp/count0") - per ))
}

# a failing step must not leave a reader or a load behind the harness
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
startup_events
rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"
"$counter" --comm="$name" < "$tmp/fifo" > "$tmp/count" &
cpid=$!
before=$(streams_opened)
"${fmctl[@]}" watch --json > "$tmp/fifo" 2> "$tmp/notes" &
wpid=$!
wait_subscribed "$before"
dropped0=$(prop DroppedCount)
pids=()
for i in $(seq "$loads"); do
  "$loadgen" --op="$op" --seconds="$secs" > "$tmp/lg$i" &
  pids+=($!)
done
wait "${pids[@]}"
wait_drained
kill -INT "$wpid" 2>/dev/null || true
wait "$wpid" 2>/dev/null || true
wait "$cpid"
dropped=$(( $(prop DroppedCount) - dropped0 ))
"${fmctl[@]}" stop > /dev/null

calls=$(cat "$tmp"/lg* | awk -v per="$per" '{ s += $2 * per } END { print s }')
rate=$(cat "$tmp"/lg* | awk '{ s += $4 } END { printf "%.0f", s }')
delivered=$(( $(kv pid_events "$tmp/count") - loads * per_load ))
missed=$(sed -n 's/.*missed \([0-9]*\) events.*/\1/p' "$tmp/notes" | awk '{ s += $1 } END { print s + 0 }')
echo "$label calls=$calls delivered=$delivered dropped=$dropped missed=$missed" \
     "unaccounted=$((calls - delivered - dropped - missed)) rate=$rate" >> "$out"
