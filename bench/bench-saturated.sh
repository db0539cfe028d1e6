#!/bin/bash
# bench-saturated.sh: the saturated machine (issue 20, goal 2) at several sizes of the BPF
# ring buffer: full capture with one `filemonctl watch --json` reader and one unpinned load
# per CPU (or --loads N), every event accounted for (bench-saturated-round.sh). The sizes are interleaved
# within each round, so that a slow moment of the machine hits them alike. Needs root.
#
#   bench/bench-saturated.sh [--rounds N] [--seconds S] [--op OP] [--loads N] [BUILDDIR] [RING_MB...]
#
# RING_MB defaults to "8 16 64" ([Bpf] RingBufferMB= of filemond.conf, 64 the default).
# Prints one line per round and size (see bench-saturated-round.sh), then per size the
# medians of the loss (dropped + missed) over the calls and of the summed rate.
set -euo pipefail

source_dir=$(cd "$(dirname "$(realpath "$0")")/.." && pwd)
rounds=3 secs=2 op=open-missing loads=$(nproc) build_dir=$source_dir/build sizes=()
usage() { echo "usage: $0 [--rounds N] [--seconds S] [--op OP] [--loads N] [BUILDDIR] [RING_MB...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) [ $# -ge 2 ] || usage; rounds=$2; shift 2 ;;
    --seconds) [ $# -ge 2 ] || usage; secs=$2; shift 2 ;;
    --op) [ $# -ge 2 ] || usage; op=$2; shift 2 ;;
    --loads) [ $# -ge 2 ] || usage; loads=$2; shift 2 ;;
    -*) usage ;;
    *) if [[ $1 =~ ^[0-9]+$ ]]; then sizes+=("$1"); else build_dir=$1; fi; shift ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ && $secs =~ ^[1-9][0-9]*$ && $loads =~ ^[1-9][0-9]*$ ]] || usage
[ ${#sizes[@]} -gt 0 ] || sizes=(8 16 64)
[ "$(id -u)" = 0 ] || { echo "bench-saturated: must run as root (the private bus, bpf)" >&2; exit 1; }
build_dir=$(realpath "$build_dir")
[ -x "$build_dir/bench/fm-loadgen" ] || { echo "bench-saturated: $build_dir is not built" >&2; exit 1; }

work=$(mktemp -d /tmp/filemon-bench-saturated.XXXXXX)
trap 'rm -rf "$work"' EXIT
out=$work/lines
: > "$out"
for ((r = 1; r <= rounds; r++)); do
  for mb in "${sizes[@]}"; do
    { cat "$source_dir/bench/bench.conf"; printf '[Bpf]\nRingBufferMB=%s\n' "$mb"; } > "$work/$mb.conf"
    FILEMON_BUILD_DIR=$build_dir "$source_dir/tests/bus/with-bus.sh" --config "$work/$mb.conf" -- \
      "$source_dir/bench/bench-saturated-round.sh" "round=$r ring=${mb}MiB" "$out" "$secs" "$op" "$loads"
    tail -n 1 "$out"
  done
done
echo "medians over $rounds rounds, $op, $loads loads of ${secs} s on $(nproc) CPUs:"
for mb in "${sizes[@]}"; do
  grep " ring=${mb}MiB " "$out" | /usr/bin/python3 -c '
import re, statistics, sys
rows = [dict(re.findall(r"(\w+)=(-?\d+)", line)) for line in sys.stdin]
loss = [(int(r["dropped"]) + int(r["missed"])) / max(1, int(r["calls"])) for r in rows]
print("  ring %s MiB: loss %.3f%% of the calls (max %.3f%%), rate %d calls/s, unaccounted %s" % (
    sys.argv[1], 100 * statistics.median(loss), 100 * max(loss),
    statistics.median(int(r["rate"]) for r in rows), " ".join(r["unaccounted"] for r in rows)))
' "$mb"
done
