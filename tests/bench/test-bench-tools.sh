#!/bin/bash
# test-bench-tools.sh: the benchmark's own tools count what they claim to (run by
# tests/bus/with-bus.sh, as root, with the bpf backend). The goals of bench/README.md are
# judged on these counts, so each reader must see exactly the load's events: a kernel
# filter keeps only the load's failed opens under a directory of the test's own, and each
# reader must count that many, no more, with nothing missed.
set -uo pipefail

bench=$FILEMON_BUILD_DIR/bench
ctl=("$FILEMON_BUILD_DIR/client-cli/filemonctl" --no-ask-password)
tmp=$FILEMON_TEST_TMP
calls=20000
n=0 failed=0
check() {
  n=$((n + 1))
  # a command's own output goes to stderr: stdout is the TAP stream
  if "${@:2}" >&2; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=$((failed + 1)); fi
}
kv() { sed -n "s/^$1=//p" "$2"; }
# into FILE COMMAND...: COMMAND's stdout to FILE (check sends it to stderr otherwise)
into() { local out=$1; shift; "$@" > "$out"; }
# equals FILE KEY VALUE: FILE's KEY=VALUE line says VALUE (else shows the file)
equals() {
  [ "$(kv "$2" "$1")" = "$3" ] || { echo "# $2 is '$(kv "$2" "$1")', not $3 in:"; sed 's/^/#   /' "$1"; return 1; }
}
# field N OUT VALUE: the load generator's line has VALUE in field N
field() { [ "$(awk "{ print \$$1 }" "$2")" = "$3" ] || { echo "# $(cat "$2")"; return 1; }; }

# ---- fm-loadgen and fm-hook-floor, without any capture ------------------------------------
check "fm-loadgen makes --count calls" into "$tmp/lg" "$bench/fm-loadgen" --op=getppid --count=1000
check "fm-loadgen reports them" field 2 "$tmp/lg" 1000
check "fm-loadgen refuses an unknown op" bash -c "! '$bench/fm-loadgen' --op=bogus 2>/dev/null"
check "fm-hook-floor runs a load with its programs attached" \
  into "$tmp/floor" "$bench/fm-hook-floor" "$bench/fm-loadgen" --op=stat --count=1000
check "the load under fm-hook-floor reports its calls" field 2 "$tmp/floor" 1000
check "fm-hook-floor passes a command's failure on" bash -c "'$bench/fm-hook-floor' false; [ \$? = 1 ]"
check "fm-hook-floor says when a command does not exist" \
  bash -c "'$bench/fm-hook-floor' '$tmp/none' 2>/dev/null; [ \$? = 127 ]"

# ---- the readers, against a capture of the load alone --------------------------------------
mkdir "$tmp/load"
check "a bpf capture of the load's directory starts" \
  "${ctl[@]}" start --backend=bpf --syscalls=openat --path-prefix="$tmp/load"
check "the capture runs when start returns" bash -c "'${ctl[0]}' status | grep -q '^State: *running'"

# read_with MODE: one fm-bench-reader while a paced load makes $calls failed opens
read_with() {
  rm -f "$tmp/ready"
  "$bench/fm-bench-reader" --mode="$1" --comm=fm-loadgen --idle=1 --timeout=60 \
    --ready-file="$tmp/ready" > "$tmp/$1" &
  local reader=$!
  for _ in $(seq 250); do [ -e "$tmp/ready" ] && break; sleep 0.02; done
  "$bench/fm-loadgen" --op=open-missing --path="$tmp/load/missing" --count=$calls --rate=50000 > /dev/null
  wait "$reader"
}
for mode in stream signals signals-sd-bus; do
  check "fm-bench-reader --mode=$mode runs" read_with "$mode"
  check "fm-bench-reader --mode=$mode counts every event" equals "$tmp/$mode" events $calls
  check "fm-bench-reader --mode=$mode counts them as the load's" equals "$tmp/$mode" comm_events $calls
  check "fm-bench-reader --mode=$mode misses none" equals "$tmp/$mode" missed 0
  check "fm-bench-reader --mode=$mode sees no hole" equals "$tmp/$mode" seq_holes 0
done

# fm-bench-count behind `filemonctl watch --json`, up to the load's end marker. The watch
# starts at the next event's sequence number, so it has every event of the load however
# late it connects, and ends by itself after the load's calls and the marker's open.
next_seq=$(( $("${ctl[0]}" status | sed -n 's/^Events: *\([0-9]*\).*/\1/p') + 1 ))
timeout 120 "${ctl[@]}" watch --json --since="$next_seq" --count=$((calls + 1)) \
  > "$tmp/watch.jsonl" 2> "$tmp/watch.err" &
watch=$!
check "fm-loadgen makes its end marker" "$bench/fm-loadgen" --op=open-missing --path="$tmp/load/missing" \
  --count=$calls --end-marker="$tmp/load/end"
check "the watch ends after the load's events and the marker" wait "$watch"
"$bench/fm-bench-count" --comm=fm-loadgen --until-path="$tmp/load/end" < "$tmp/watch.jsonl" > "$tmp/count"
check "fm-bench-count stops at the end marker" equals "$tmp/count" until_seen 1
check "fm-bench-count counts the load's events, not the marker" equals "$tmp/count" pid_events $calls
check "fm-bench-count sees no hole" equals "$tmp/count" seq_holes 0
check "the capture stops" "${ctl[@]}" stop

echo "1..$n"
[ "$failed" = 0 ]
