#!/bin/bash
# bench-memory.sh: filemond's memory with its ring full (1M events, bench.conf), for one
# load; run inside tests/bus/with-bus.sh with bench/bench.conf (run-memory.sh does that).
#
#   bench-memory.sh LOAD OUT_FILE
#
# LOAD: single  `fm-loadgen --op=open-missing` under full capture: one path, one command,
#               one flag set, a million times (the best case for a string table);
#       mix     a build and a sweep of the file system under `--pid` of the workload with
#               `--follow-children`: the C files of common/ and daemon/core/ compiled
#               (each compile looks up its headers along the include path: many distinct
#               paths, most of them missing, the same ones for every file) and
#               `find /usr -printf %s` (every file of /usr stat'ed once a round), four
#               rounds; the ring keeps the last million events.
# Writes key=value lines to OUT_FILE: buffered events, distinct paths among them, VmRSS
# and its parts, the BPF ring buffer's mappings (Size and Rss from smaps), stream replay
# events/s, dump time.
set -euo pipefail

load=$1 out=$2
build=$FILEMON_BUILD_DIR
src=$FILEMON_SOURCE_DIR
fmctl=("$build/client-cli/filemonctl" --no-ask-password)
tmp=$FILEMON_TEST_TMP

put() { printf '%s=%s\n' "$1" "$2" >> "$out"; }
# shellcheck source=bench/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

wait_running() {
  wait_state running 10 && return 0
  echo "bench-memory: the capture did not start: $(prop LastError)" >&2
  return 1
}

mix_workload() {
  local cflags
  cflags=$(pkg-config --cflags gio-2.0 gio-unix-2.0 polkit-gobject-1 libsystemd 2>/dev/null || pkg-config --cflags gio-2.0)
  for _ in 1 2 3 4; do
    for f in "$src"/common/*.c "$src"/daemon/core/*.c; do
      # shellcheck disable=SC2086
      cc -c $cflags -I"$build" -I"$build/common" -I"$src/common" -I"$src/daemon/core" \
        -o /dev/null "$f" 2>/dev/null || true
    done
    find /usr -xdev -printf '%s\n' > /dev/null
  done
}

case $load in
  single)
    "${fmctl[@]}" start --backend=bpf > /dev/null
    wait_running
    "$build/bench/fm-loadgen" --op=open-missing --count=1001000 > /dev/null
    ;;
  mix)
    mkfifo "$tmp/go"
    (read -r _ < "$tmp/go"; mix_workload) &
    wpid=$!
    "${fmctl[@]}" start --backend=bpf --pid="$wpid" --follow-children > /dev/null
    wait_running
    echo go > "$tmp/go"
    wait "$wpid"
    ;;
  *) echo "usage: $0 single|mix OUT_FILE" >&2; exit 2 ;;
esac
wait_drained
"${fmctl[@]}" stop > /dev/null

put load "$load"
put buffered "$(prop BufferedCount)"
put dropped "$(prop DroppedCount)"
status=/proc/$FILEMOND_PID/status
put rss-mib "$(awk '/^VmRSS:/ { print $2 / 1024 }' "$status")"
put rss-anon-mib "$(awk '/^RssAnon:/ { print $2 / 1024 }' "$status")"
put rss-file-shmem-mib "$(awk '/^Rss(File|Shmem):/ { s += $2 } END { print s / 1024 }' "$status")"
# The BPF ring buffer: its data pages are mapped twice in a row (so a record can wrap),
# and VmRSS counts both mappings.
awk '/^[0-9a-f]+-[0-9a-f]+ / { bpf = ($6 ~ /bpf/) }
     bpf && /^Size:/ { size += $2 } bpf && /^Rss:/ { rss += $2 }
     END { printf "bpf-maps-size-mib=%.1f\nbpf-maps-rss-mib=%.1f\n", size / 1024, rss / 1024 }' \
  "/proc/$FILEMOND_PID/smaps" >> "$out"

t0=$(date +%s.%N)
"${fmctl[@]}" dump --format=jsonl | wc -c > "$tmp/dump-bytes"
t1=$(date +%s.%N)
put dump-s "$(calc "$t1 - $t0")"
put dump-bytes "$(cat "$tmp/dump-bytes")"
# the temp directory is a small tmpfs: counted on the way, not stored
put distinct-paths "$("${fmctl[@]}" dump --format=jsonl | grep -o '"path":"[^"]*"' | sort -u | wc -l)"
"$build/bench/fm-bench-reader" --mode=stream --since=0 --count="$(prop BufferedCount)" --idle=2 > "$tmp/replay"
put replay-events-per-s "$(calc "$(kv events "$tmp/replay") / ($(kv t_last "$tmp/replay") - $(kv t_ready "$tmp/replay"))")"
put replay-lost "$(( $(kv missed "$tmp/replay") + $(kv seq_holes "$tmp/replay") ))"
