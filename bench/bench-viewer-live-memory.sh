#!/bin/bash
# bench-viewer-live-memory.sh: the viewer's memory on a live capture over time (issue 33,
# item 4): what RSS does it take at its history depth (2M events by default), and does
# anything grow while the depth holds? Each build's filemon-viewer, as a desktop starts it
# (no GSK_RENDERER unless given), follows the same bpf capture of `ls -R /usr` run again and
# again (a pause of FILEMON_BENCH_LS_PAUSE seconds, default 2, between two runs), all the
# viewers at once on one Xvfb screen, for SECONDS; every INTERVAL seconds each one's VmRSS,
# RssAnon and RssFile (/proc/PID/status) and the rows its list holds (from
# tests/gui/libfmv-frame-probe.so, which leaves the frame clock alone here) are appended
# to RAW_FILE as "SECONDS<TAB>LABEL<TAB>measure<TAB>value". Run inside tests/bus/with-bus.sh:
#
#   FILEMON_BUILD_DIR=build tests/bus/with-bus.sh --config bench/bench.conf -- \
#     bench/bench-viewer-live-memory.sh RAW_FILE SECONDS INTERVAL LABEL=BUILD_DIR[,NAME=VALUE...]...
#
# NAME=VALUE words after a build go into its viewer's environment (GSK_RENDERER=cairo).
# At the end it prints, per viewer: RSS when its list first held the depth, at the end, the
# most, and the slope over the second half of the run (MiB an hour; 0 when nothing grows).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/bench-lib.sh"
. "$FILEMON_SOURCE_DIR/tests/gui/viewer-lib.sh"

[ $# -ge 4 ] || { echo "usage: $0 RAW_FILE SECONDS INTERVAL LABEL=BUILD_DIR[,NAME=VALUE...]..." >&2; exit 2; }
raw=$1 secs=$2 interval=$3
shift 3
fmctl=("$FILEMON_BUILD_DIR/client-cli/filemonctl" --no-ask-password)
probe=$FILEMON_BUILD_DIR/tests/gui/libfmv-frame-probe.so
pause=${FILEMON_BENCH_LS_PAUSE:-2}
sids=() pids=() labels=() dirs=() load=""

cleanup() {
  set +e
  [ -z "$load" ] || kill "$load" 2>/dev/null
  for sid in "${sids[@]}"; do
    BENCH_VIEWER_SID=$sid bench_viewer_stop
  done
  stop_xvfb
}
trap cleanup EXIT

start_xvfb "$FILEMON_TEST_TMP"
for spec in "$@"; do
  label=${spec%%=*} spec=${spec#*=}
  extra_env=
  [[ $spec == *,* ]] && extra_env=$(echo "${spec#*,}" | tr , ' ')
  dir=$FILEMON_TEST_TMP/memory-$label
  mkdir -p -m 0755 "$dir"
  # shellcheck disable=SC2086  # the spec's NAME=VALUE words
  bench_viewer_start "$dir" "${spec%%,*}/client-gtk/filemon-viewer" $extra_env \
    FMV_FRAME_PROBE="$dir/frames" FMV_FRAME_PROBE_IDLE=1 LD_PRELOAD="$probe"
  sids+=("$BENCH_VIEWER_SID")
  pids+=("$(bench_viewer_pid)")
  labels+=("$label")
  dirs+=("$dir")
done

"${fmctl[@]}" start --backend=bpf --comm=ls > /dev/null
wait_state running 5 || { echo "bench-viewer-live-memory: the capture did not start" >&2; exit 1; }
sh -c 'while :; do ls -R /usr > /dev/null; sleep "$1"; done' sh "$pause" &
load=$!

start=$SECONDS
while :; do
  t=$((SECONDS - start))
  for i in "${!pids[@]}"; do
    for m in VmRSS RssAnon RssFile; do
      printf '%s\t%s\t%s\t%s\n' "$t" "${labels[$i]}" "$m" "$(proc_status_kb "${pids[$i]}" "$m")" >> "$raw"
    done
    printf '%s\t%s\trows\t%s\n' "$t" "${labels[$i]}" \
      "$(tail -n 20 "${dirs[$i]}/frames" | awk 'NF == 8 { r = $5 } END { print r + 0 }')" >> "$raw"
  done
  printf '%s\tfilemond\tEventCount\t%s\n' "$t" "$(prop EventCount)" >> "$raw"
  [ "$t" -ge "$secs" ] && break
  sleep "$interval"
done
kill "$load"
load=""
"${fmctl[@]}" stop > /dev/null

/usr/bin/python3 - "$raw" "${labels[@]}" <<'EOF'
import sys
raw, labels = sys.argv[1], sys.argv[2:]
rows = {}
for line in open(raw):
    t, label, m, v = line.rstrip("\n").split("\t")
    rows.setdefault(label, {}).setdefault(m, []).append((int(t), int(v or 0)))
for label in labels:
    rss = rows[label]["VmRSS"]
    held = dict(rows[label]["rows"])
    full = next(((t, v) for t, v in rss if held.get(t, 0) >= 2000000), None)
    half = [(t, v) for t, v in rss if t >= rss[-1][0] / 2]
    n = len(half)
    mt = sum(t for t, _ in half) / n
    mv = sum(v for _, v in half) / n
    var = sum((t - mt) ** 2 for t, _ in half)
    slope = sum((t - mt) * (v - mv) for t, v in half) / var if var else 0
    print("%s: RSS %s at the depth, %.1f MiB at %d s (list %d rows), most %.1f MiB, "
          "second half's slope %.1f MiB an hour"
          % (label, "%.1f MiB (%d s)" % (full[1] / 1024, full[0]) if full else "never",
             rss[-1][1] / 1024, rss[-1][0], held.get(rss[-1][0], 0),
             max(v for _, v in rss) / 1024, slope * 3600 / 1024))
EOF
