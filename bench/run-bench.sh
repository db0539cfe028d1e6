#!/bin/bash
# run-bench.sh: the benchmark of filemon (issue 9): the load generator's rate untraced and
# under each tracer, interleaved per round, plus filemond's own figures; writes
# bench/results.md and bench/results.json. Needs root. See bench/README.md.
#
#   bench/run-bench.sh [--rounds N] [--seconds S] [--old OLD_BUILDDIR] [BUILDDIR]
#
# BUILDDIR defaults to build/ in the source tree; bench/ and, for the filemond variants,
# daemon/ and client-cli/ must be built in it. Each round runs, one after the other: every
# load untraced, under strace, bpftrace, perf trace and auditd, then the filemond round
# (bench-filemond.sh inside tests/bus/with-bus.sh with bench/bench.conf). A peer that
# cannot run here is skipped with a note in the results. Issue 20's round 2 comes on top:
# the peers once more with the loads unpinned, then bench-round2.sh (unpinned full capture
# and its delivery, the saturated machine, the pinned cost and CPU an event with one and
# two watches) for BUILDDIR's filemond and, with --old, for OLD_BUILDDIR's (an older
# commit built with its filemond, filemonctl and bench/), each in a bus of its own, never
# both at once, which goes first alternating by round.
set -euo pipefail

source_dir=$(cd "$(dirname "$(realpath "$0")")/.." && pwd)
rounds=5
secs=1
build_dir=$source_dir/build
old_build_dir=""

usage() {
  echo "usage: $0 [--rounds N] [--seconds S] [--old OLD_BUILDDIR] [BUILDDIR]" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) [ $# -ge 2 ] || usage; rounds=$2; shift 2 ;;
    --rounds=*) rounds=${1#*=}; shift ;;
    --seconds) [ $# -ge 2 ] || usage; secs=$2; shift 2 ;;
    --seconds=*) secs=${1#*=}; shift ;;
    --old) [ $# -ge 2 ] || usage; old_build_dir=$(realpath "$2"); shift 2 ;;
    -h|--help) usage ;;
    -*) usage ;;
    *) build_dir=$1; shift ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || usage
[ "$(id -u)" = 0 ] || { echo "run-bench: must run as root (tracers, the private bus)" >&2; exit 1; }
build_dir=$(realpath "$build_dir")
loadgen=$build_dir/bench/fm-loadgen
[ -x "$loadgen" ] || { echo "run-bench: $loadgen is not built (ninja -C $build_dir)" >&2; exit 1; }
# Every load runs on one CPU: the virtual CPUs of these machines differ in speed (by a
# third, measured), and a ratio of two runs on different CPUs would measure that.
load_cpu=0
load=("$loadgen" --cpu="$load_cpu")

work=$(mktemp -d /tmp/filemon-bench.XXXXXX)
raw=$work/raw.tsv
: > "$raw"
: > "$raw.notes"
ops=(open-missing stat open-close getppid)
started_auditd=""
audit_was_enabled=""

cleanup() {
  set +e
  if [ -n "$audit_was_enabled" ]; then
    auditctl -D -k filemon-bench >/dev/null 2>&1
    auditctl -e "$audit_was_enabled" >/dev/null 2>&1
    if [ "$audit_quiet" = 1 ] && ! auditctl -l 2>/dev/null | grep -q 'never,task'; then
      auditctl -a task,never >/dev/null 2>&1
    fi
  fi
  if [ -n "$started_auditd" ]; then
    kill -TERM "$started_auditd" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT

put() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$raw"; }
note() { echo "$*" >> "$raw.notes"; echo "run-bench: $*" >&2; }

# The loop's rate under a command prefix: "PREFIX... fm-loadgen --op=OP"; 0 when it failed.
rate_of() {
  local out
  if out=$("$@" 2>/dev/null | tail -n 1) && [ -n "$out" ]; then
    awk '{ print $4 }' <<< "$out"
  else
    echo 0
  fi
}

[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true

# ---- the syscall subset every peer traces: the file-name syscalls (strace's %file) -----
peer_syscalls=(open openat openat2 creat stat lstat newfstatat statx access faccessat
  faccessat2 readlink readlinkat unlink unlinkat rename renameat renameat2 mkdir mkdirat
  rmdir chmod fchmodat chown fchownat lchown link linkat symlink symlinkat truncate
  utimensat mknod mknodat chdir execve execveat getxattr lgetxattr setxattr lsetxattr
  listxattr llistxattr removexattr lremovexattr)
tp_dir=/sys/kernel/tracing/events/syscalls

tracepoint_of() {
  case "$1" in
    stat) echo newstat ;;
    lstat) echo newlstat ;;
    *) echo "$1" ;;
  esac
}

# bpftrace: one entry probe per syscall keeps the path pointer, one exit probe prints
# "comm pid probe path = result" (what a user of such a script reads).
write_bpftrace_script() {
  local s tp field exits=()
  echo "BEGIN { system(\"touch $work/bpftrace.ready\"); }"
  for s in "${peer_syscalls[@]}"; do
    tp=$(tracepoint_of "$s")
    [ -r "$tp_dir/sys_enter_$tp/format" ] || continue
    field=$(sed -n 's/.*field:const char \* \([a-z]*\);.*/\1/p' "$tp_dir/sys_enter_$tp/format" | head -n 1)
    [ -n "$field" ] || continue
    echo "tracepoint:syscalls:sys_enter_$tp { @p[tid] = args->$field; }"
    exits+=("tracepoint:syscalls:sys_exit_$tp")
  done
  local IFS=,
  echo "${exits[*]} /@p[tid]/ { printf(\"%s %d %s %s = %d\\n\", comm, pid, probe, str(@p[tid]), args->ret); delete(@p[tid]); }"
}

perf_list() {
  local s list=()
  for s in "${peer_syscalls[@]}"; do
    [ -d "$tp_dir/sys_enter_$(tracepoint_of "$s")" ] && list+=("$s")
  done
  local IFS=,
  echo "${list[*]}"
}

# ---- which peers can run ---------------------------------------------------------------
have_strace=0 have_bpftrace=0 have_perf=0 have_audit=0
if command -v strace >/dev/null; then have_strace=1; else note "strace: not installed (apt-get install strace); skipped"; fi
if command -v bpftrace >/dev/null; then
  write_bpftrace_script > "$work/peer.bt"
  have_bpftrace=1
else
  note "bpftrace: not installed (apt-get install bpftrace); skipped"
fi
if command -v perf >/dev/null && perf trace -o /dev/null -e "$(perf_list)" -- true >/dev/null 2>&1; then
  have_perf=1
else
  note "perf trace: not usable here (perf missing, or 'perf trace' fails); skipped"
fi
# Once audit was enabled, the kernel puts every new process on the slow syscall path with
# audit work (even with audit disabled again) unless a "task,never" rule says otherwise: so
# outside the auditd variant the rule stays in place, or every other variant would pay for
# it. It is left in place at the end (auditctl -d task,never removes it).
audit_quiet=0
if command -v auditctl >/dev/null && auditctl -s >/dev/null 2>&1; then
  audit_was_enabled=$(auditctl -s | awk '$1 == "enabled" { print $2 }')
  if ! pgrep -x auditd >/dev/null; then
    if command -v auditd >/dev/null && auditd >/dev/null 2>&1; then
      sleep 0.5
      started_auditd=$(pgrep -x auditd | head -n 1 || true)
    fi
  fi
  if [ "$audit_was_enabled" = 0 ]; then
    auditctl -e 0 >/dev/null 2>&1 || true
    auditctl -l 2>/dev/null | grep -q 'never,task' || auditctl -a task,never >/dev/null 2>&1 || true
    audit_quiet=1
  fi
  if pgrep -x auditd >/dev/null; then
    have_audit=1
  else
    note "auditd: auditd does not run here and could not be started; skipped"
  fi
else
  note "auditd: auditctl missing or the kernel's audit unreachable (apt-get install auditd); skipped"
fi

add_audit_rules() {
  local args=() s
  for s in "${peer_syscalls[@]}"; do
    ausyscall "$s" >/dev/null 2>&1 && args+=(-S "$s")
  done
  auditctl -a always,exit -F arch=b64 "${args[@]}" -k filemon-bench >/dev/null
}

# ---- filemond variants: need the daemon and filemonctl ------------------------------------
have_filemond=0
if [ -x "$build_dir/daemon/filemond" ] && [ -x "$build_dir/client-cli/filemonctl" ] && \
   [ -x "$build_dir/bench/fm-bench-reader" ] && [ -x "$build_dir/bench/fm-bench-count" ]; then
  have_filemond=1
else
  note "filemond variants: filemond, filemonctl or the bench readers are not built in $build_dir; skipped"
fi
# the real viewer under Xvfb following a live capture of 110 000 events/s (bench-viewer.sh)
have_viewer=0
if [ ! -x "$build_dir/client-gtk/filemon-viewer" ] || [ ! -e "$build_dir/tests/gui/libfmv-frame-probe.so" ]; then
  note "viewer live append: filemon-viewer is not built (it needs GTK 4); skipped"
elif [ "$have_filemond" = 0 ] || ! { command -v Xvfb && command -v xdotool && command -v import; } >/dev/null; then
  note "viewer live append: needs filemond and Xvfb, xdotool, import (apt-get install xvfb xdotool imagemagick); skipped"
else
  have_viewer=1
fi

# ---- the loads untraced and under each peer ---------------------------------------------
# variants SUFFIX: the loads of v_ops, run as v_load, untraced and under each peer that can
# run; measures "rate.VARIANT$SUFFIX.OP".
variants() {
  local suffix=$1 op bt_pid
  for op in "${v_ops[@]}"; do
    put "$round" "rate.untraced$suffix.$op" "$(rate_of "${v_load[@]}" --op="$op" --seconds="$secs")"
  done
  if [ "$have_strace" = 1 ]; then
    for op in "${v_ops[@]}"; do
      put "$round" "rate.strace$suffix.$op" \
        "$(rate_of strace -f -qq -e trace=%file -o /dev/null "${v_load[@]}" --op="$op" --seconds="$secs")"
    done
  fi
  if [ "$have_bpftrace" = 1 ]; then
    rm -f "$work/bpftrace.ready"
    bpftrace --unsafe -o /dev/null "$work/peer.bt" > "$work/bpftrace.log" 2>&1 &
    bt_pid=$!
    for _ in $(seq 600); do [ -e "$work/bpftrace.ready" ] && break; kill -0 "$bt_pid" 2>/dev/null || break; sleep 0.1; done
    if [ -e "$work/bpftrace.ready" ]; then
      for op in "${v_ops[@]}"; do
        put "$round" "rate.bpftrace$suffix.$op" "$(rate_of "${v_load[@]}" --op="$op" --seconds="$secs")"
      done
    else
      note "round $round: bpftrace did not start: $(grep -v RLIMIT_MEMLOCK "$work/bpftrace.log" | head -c 300)"
    fi
    kill -INT "$bt_pid" 2>/dev/null || true
    wait "$bt_pid" 2>/dev/null || true
  fi
  if [ "$have_perf" = 1 ]; then
    for op in "${v_ops[@]}"; do
      put "$round" "rate.perf-trace$suffix.$op" \
        "$(rate_of perf trace -o /dev/null -e "$(perf_list)" -- "${v_load[@]}" --op="$op" --seconds="$secs")"
    done
  fi
  if [ "$have_audit" = 1 ]; then
    [ "$audit_quiet" = 0 ] || auditctl -d task,never >/dev/null 2>&1 || true
    if auditctl -e 1 >/dev/null && add_audit_rules; then
      for op in "${v_ops[@]}"; do
        put "$round" "rate.auditd$suffix.$op" "$(rate_of "${v_load[@]}" --op="$op" --seconds="$secs")"
      done
    else
      note "round $round: auditctl refused the rules"
    fi
    auditctl -D -k filemon-bench >/dev/null 2>&1 || true
    auditctl -e "$audit_was_enabled" >/dev/null 2>&1 || true
    [ "$audit_quiet" = 0 ] || auditctl -a task,never >/dev/null 2>&1 || true
  fi
}

uptime_before=$(uptime)
# ---- rounds ------------------------------------------------------------------------------
for ((round = 1; round <= rounds; round++)); do
  echo "run-bench: round $round of $rounds" >&2
  v_load=("${load[@]}") v_ops=("${ops[@]}")
  variants ""
  # issue 20: the same unpinned (the scheduler places the load and the tracer), for the
  # loads of its goals
  v_load=("$loadgen") v_ops=(open-missing stat)
  variants -unpinned
  if [ "$have_filemond" = 1 ]; then
    FILEMON_BUILD_DIR=$build_dir "$source_dir/tests/bus/with-bus.sh" --config "$source_dir/bench/bench.conf" \
      -- "$source_dir/bench/bench-filemond.sh" "$round" "$raw" "$secs" "$load_cpu" > "$work/filemond-round.log" 2>&1 ||
      note "round $round: the filemond round failed: $(tail -n 5 "$work/filemond-round.log" | tr '\n' ' ')"
  fi
  if [ "$have_filemond" = 1 ]; then
    builds=(new)
    [ -z "$old_build_dir" ] || { ((round % 2)) && builds=(old new) || builds=(new old); }
    for tag in "${builds[@]}"; do
      dir=$build_dir
      [ "$tag" = new ] || dir=$old_build_dir
      FILEMON_BUILD_DIR=$dir "$source_dir/tests/bus/with-bus.sh" --config "$source_dir/bench/bench.conf" \
        -- "$source_dir/bench/bench-round2.sh" "$round" "$raw" "$secs" "$tag" "$load_cpu" \
        "$([ "$tag" = new ] && echo 1 || echo 0)" > "$work/round2.log" 2>&1 ||
        note "round $round: the round-2 part of the $tag build failed: $(tail -n 5 "$work/round2.log" | tr '\n' ' ')"
    done
  fi
  if [ "$have_viewer" = 1 ]; then
    FILEMON_BUILD_DIR=$build_dir "$source_dir/tests/bus/with-bus.sh" --config "$source_dir/bench/bench.conf" \
      -- "$source_dir/bench/bench-viewer.sh" "$round" "$raw" > "$work/viewer.log" 2>&1 ||
      note "round $round: the viewer's live append run failed: $(tail -n 5 "$work/viewer.log" | tr '\n' ' ')"
  fi
done

# ---- once: the viewer's refilter of 1M rows, the synthetic ring + stream throughput ------
if [ -x "$build_dir/tests/gui/bench-model" ]; then
  echo "run-bench: the viewer's model with 1M rows" >&2
  if "$build_dir/tests/gui/bench-model" 1000000 > "$work/bench-model.txt" 2>&1; then
    # the slowest of its refilters counts
    put 1 viewer-refilter-s "$(sed -n 's/^refilter .*: \([0-9.]*\) s.*/\1/p' "$work/bench-model.txt" | sort -g | tail -n 1)"
  else
    note "tests/gui/bench-model failed: $(tail -n 3 "$work/bench-model.txt" | tr '\n' ' ')"
  fi
else
  note "viewer refilter: tests/gui/bench-model is not built (the viewer needs GTK 4); skipped"
fi
if [ -x "$build_dir/tests/daemon/bench-ring-stream" ]; then
  echo "run-bench: the ring and one stream reader, in process" >&2
  out=$("$build_dir/tests/daemon/bench-ring-stream" 2>&1 || true)
  v=$(sed -n 's/^ring + 1 stream reader: .* \([0-9.]*\) M events\/s offered.*/\1/p' <<< "$out")
  [ -n "$v" ] && put 1 synthetic-stream-events-per-s "$(awk -v v="$v" 'BEGIN { print v * 1e6 }')"
fi

# ---- the report --------------------------------------------------------------------------
{
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "kernel=$(uname -r)"
  echo "cpus=$(nproc)"
  echo "cpu=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)"
  echo "rounds=$rounds"
  echo "seconds=$secs"
  echo "uptime_before=$uptime_before"
  echo "uptime_after=$(uptime)"
  [ -z "$old_build_dir" ] || echo "old=$(git -C "$old_build_dir/.." log -1 --format=%h 2>/dev/null || echo "$old_build_dir")"
} > "$work/meta"
/usr/bin/python3 "$source_dir/bench/bench-report.py" "$raw" "$raw.notes" "$work/meta" \
  "$source_dir/bench/results.md" "$source_dir/bench/results.json"
cp "$raw" "$source_dir/bench/results-raw.tsv"
echo "run-bench: wrote bench/results.md and bench/results.json" >&2
