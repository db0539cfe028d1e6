#!/bin/bash
# bench-viewer-load.sh: the viewer under load (issue 33, item 3): is every input answered
# within 200 ms, what CPU does it take when the capture is quiet, and how much of a busy
# capture does it take in? Each build's filemon-viewer, as a desktop starts it (no
# GSK_RENDERER: under Xvfb GTK picks GL, which Mesa renders in software, as on a machine
# without a GPU), follows a bpf capture of fm-loadgen's failed opens at each RATE in turn
# (5 000/s quiet and 80 000/s loaded by default), the builds alternating in each round.
# Run inside tests/bus/with-bus.sh with bench/bench.conf:
#
#   FILEMON_BUILD_DIR=build tests/bus/with-bus.sh --config bench/bench.conf -- \
#     bench/bench-viewer-load.sh RAW_FILE ROUNDS LABEL=BUILD_DIR[,NAME=VALUE...]... [-- RATE...]
#
# NAME=VALUE words after a build go into its viewer's environment (GSK_RENDERER=cairo). A RATE
# of "ls" is the real load instead: `ls -R /usr` in a loop, the capture taking processes
# named ls (every event of the machine's `ls` runs, as fast as they come).
#
# Each run: the load goes for 16 s. Seconds 1-6 measure the viewer's CPU (utime + stime of
# the process, every thread, from /proc/PID/stat) without input; from second 6 on, 12 key
# presses 0.7 s apart (Page_Up and End in turn: leave the tail, follow again) go to the
# window with xdotool, and tests/gui/libfmv-frame-probe.so (FMV_FRAME_PROBE_IDLE=1: it logs
# frames and key presses and leaves the frame clock alone) times each from the moment
# xdotool was run to the end of the first frame after the window got the key. Once the
# load is over and the list stops growing, the rows it holds are the events it received,
# and filemond's EventCount less those is what the viewer could not take in. Appends
# "ROUND<TAB>LABEL<TAB>RATE<TAB>measure<TAB>value" lines to RAW_FILE. With FILEMON_BENCH_KEEP=DIR,
# each run's frame log, key times and viewer log stay in DIR/ROUND-LABEL-RATE/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
. "$FILEMON_SOURCE_DIR/tests/gui/viewer-lib.sh"

raw=$1 rounds=$2
shift 2
builds=() rates=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do builds+=("$1"); shift; done
[ $# -gt 0 ] && shift
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(5000 80000)
[ ${#builds[@]} -gt 0 ] || { echo "usage: $0 RAW ROUNDS LABEL=BUILD_DIR... [-- RATE...]" >&2; exit 2; }

fmctl=("$FILEMON_BUILD_DIR/client-cli/filemonctl" --no-ask-password)
loadgen=$FILEMON_BUILD_DIR/bench/fm-loadgen
probe=$FILEMON_BUILD_DIR/tests/gui/libfmv-frame-probe.so
hz=$(getconf CLK_TCK)
load_s=16 cpu_from=1 cpu_to=6 keys=12 key_gap=0.7

cleanup() { set +e; bench_viewer_stop; stop_xvfb; }
# the rows in the list at the last frame of DIR's log
last_rows() { awk 'NF == 8 { r = $5 } END { print r + 0 }' "$1/frames"; }
put_run() { printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$label" "$rate" "$1" "$2" >> "$raw"; }
trap cleanup EXIT

# one_run BUILD: one run of the globals round, label and rate
one_run() {
  local build=$1
  local tmp pid lpid t0 c0 c1 t1 rows events events0 before stable cpu rss
  tmp=$FILEMON_TEST_TMP/load-$round-$label-$rate
  mkdir -p -m 0755 "$tmp"
  start_xvfb "$tmp"
  before=$(grep -c 'stream opened for' "$FILEMOND_LOG" || true)
  # shellcheck disable=SC2086  # the spec's NAME=VALUE words
  bench_viewer_start "$tmp" "$build/client-gtk/filemon-viewer" $extra_env \
    FMV_FRAME_PROBE="$tmp/frames" FMV_FRAME_PROBE_IDLE=1 LD_PRELOAD="$probe"
  pid=$(bench_viewer_pid) || { echo "bench-viewer-load: $label did not start" >&2; return 1; }
  for _ in $(seq 400); do
    [ "$(grep -c 'stream opened for' "$FILEMOND_LOG" || true)" -gt "$before" ] && [ -s "$tmp/frames" ] && break
    sleep 0.05
  done
  [ -s "$tmp/frames" ] || { echo "bench-viewer-load: $label drew no frame: $(head -c 300 "$tmp/viewer.log")" >&2; return 1; }
  xdotool windowfocus --sync "$(xdotool search --sync --onlyvisible --name 'filemon Viewer' | head -n 1)"
  xdotool mousemove 1279 799

  rm -f "$tmp/go"
  mkfifo "$tmp/go"
  if [ "$rate" = ls ]; then
    # the real load: every directory of /usr listed, again and again, by fresh processes
    sh -c 'read -r _ < "$1"; end=$(($(date +%s) + $2)); while [ "$(date +%s)" -lt "$end" ]; do ls -R /usr > /dev/null; done' \
      sh "$tmp/go" $load_s > "$tmp/lg" &
    lpid=$!
    "${fmctl[@]}" start --backend=bpf --comm=ls > /dev/null
  else
    sh -c 'read -r _ < "$1"; shift; exec "$@"' sh "$tmp/go" \
      "$loadgen" --op=open-missing --rate="$rate" --seconds=$load_s > "$tmp/lg" &
    lpid=$!
    "${fmctl[@]}" start --backend=bpf --pid="$lpid" > /dev/null
  fi
  wait_state running 5 || { echo "bench-viewer-load: the capture did not start" >&2; return 1; }
  # what filemond holds from earlier runs is replayed to the viewer first: let it in
  events0=$(prop EventCount)
  for _ in $(seq 600); do
    [ "$(last_rows "$tmp")" -ge "$events0" ] && break
    sleep 0.1
  done
  sleep 1
  echo go > "$tmp/go"
  sleep $cpu_from
  t0=$(now) c0=$(proc_cpu_ticks "$pid")
  sleep $((cpu_to - cpu_from))
  t1=$(now) c1=$(proc_cpu_ticks "$pid")
  # the key presses, each timed just before xdotool runs (CLOCK_MONOTONIC, the probe's clock)
  /usr/bin/python3 - "$tmp/sent" "$keys" "$key_gap" <<'EOF'
import subprocess, sys, time
out, n, gap = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
with open(out, "w") as f:
    for i in range(n):
        key = "Page_Up" if i % 2 == 0 else "End"
        f.write("%d %s\n" % (time.monotonic_ns() // 1000, key))
        f.flush()
        subprocess.run(["xdotool", "key", key], check=True)
        time.sleep(gap)
EOF
  wait "$lpid"
  # until the view holds what filemond took in, or stops growing for 3 s
  stable=0 before=-1
  for _ in $(seq 600); do
    sleep 0.1
    rows=$(last_rows "$tmp")
    [ "$rows" -ge "$(prop EventCount)" ] && break
    if [ "$rows" = "$before" ]; then
      stable=$((stable + 1))
      [ "$stable" -ge 30 ] && break
    else
      stable=0
    fi
    before=$rows
  done
  "${fmctl[@]}" stop > /dev/null
  events=$(prop EventCount)
  rss=$(proc_status_kb "$pid" VmRSS)
  bench_viewer_stop
  stop_xvfb
  if [ -n "${FILEMON_BENCH_KEEP:-}" ]; then
    mkdir -p "$FILEMON_BENCH_KEEP/$round-$label-$rate"
    cp "$tmp/frames" "$tmp/sent" "$tmp/viewer.log" "$FILEMON_BENCH_KEEP/$round-$label-$rate/"
  fi

  /usr/bin/python3 - "$tmp/frames" "$tmp/sent" > "$tmp/latency" <<'EOF'
import sys
frames, keys, sent = [], [], []
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 8:
        frames.append(int(p[1]))
    elif len(p) == 3 and p[0] == "key":
        keys.append(int(p[1]))
for line in open(sys.argv[2]):
    sent.append(int(line.split()[0]))
frames.sort()
lat, unanswered = [], 0
for i, t in enumerate(sent):
    nxt = sent[i + 1] if i + 1 < len(sent) else float("inf")
    got = [k for k in keys if t <= k < nxt]
    done = [f for f in frames if got and f >= got[0]]
    if not done:
        unanswered += 1
    else:
        lat.append((done[0] - t) / 1000)
lat.sort()
print("answered=%d" % len(lat))
print("unanswered=%d" % unanswered)
print("worst_ms=%.1f" % (lat[-1] if lat else -1))
print("median_ms=%.1f" % (lat[len(lat) // 2] if lat else -1))
print("over_200ms=%d" % (sum(1 for x in lat if x > 200) + unanswered))
EOF
  cpu=$(calc "round(100.0 * ($c1 - $c0) / $hz / ($t1 - $t0), 1)")
  put_run offered-per-s "$(((events - events0) / load_s))"
  put_run cpu-percent "$cpu"
  put_run events "$((events - events0))"
  put_run received "$((rows - events0))"
  put_run dropped-to-viewer "$((events - rows))"
  put_run rss-mib "$(calc "round($rss / 1024, 1)")"
  for m in answered unanswered worst_ms median_ms over_200ms; do
    put_run "key-$m" "$(kv "$m" "$tmp/latency")"
  done
  echo "bench-viewer-load: round $round $label rate $rate: cpu $cpu%, received $((rows - events0)) of $((events - events0)), rss $rss kB, keys $(tr '\n' ' ' < "$tmp/latency")" >&2
}

for ((round = 1; round <= rounds; round++)); do
  # the builds' order turns each round, so neither always runs first
  n=${#builds[@]}
  for ((i = 0; i < n; i++)); do
    spec=${builds[$(((i + round) % n))]}
    for rate in "${rates[@]}"; do
      label=${spec%%=*} build=${spec#*=}
      extra_env=
      [[ $build == *,* ]] && extra_env=$(echo "${build#*,}" | tr , ' ')
      one_run "${build%%,*}"
    done
  done
done
