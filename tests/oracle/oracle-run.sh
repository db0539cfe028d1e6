#!/bin/bash
# oracle-run.sh: runs COMMAND under `strace -f -y` while filemond captures it with the bpf
# backend, then compares the two call by call (oracle-compare.py).
#
#   oracle-run.sh [--keep DIR] [--limitations FILE] [--name NAME] -- COMMAND [ARGS...]
#
# Needs root (strace, and filemonctl start unless polkit lets the caller start captures)
# and a filemond on the system bus ($DBUS_SYSTEM_BUS_ADDRESS is honoured) that is idle:
# the capture is started here, for COMMAND's process tree only, and stopped at the end.
# The output is the comparer's report; the exit status is 0 when every difference is a
# documented limitation, 1 otherwise, 2 when the run itself failed.
#
# Completeness: after strace has ended (every traced call of COMMAND has returned, so
# every record of them is in the kernel's ring buffer), this script makes one marker call
# from the captured process tree and waits until filemond shows it; the ring buffer is
# read in order, so everything before the marker has been read by then.
set -euo pipefail

here=$(cd "$(dirname "$(realpath "$0")")" && pwd)
source_dir=${FILEMON_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
ctl=${FILEMONCTL:-filemonctl}
[ -n "${FILEMON_BUILD_DIR:-}" ] && ctl=$FILEMON_BUILD_DIR/client-cli/filemonctl
limitations=$here/limitations.ini
keep=""
name=""

die() { echo "oracle-run: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --keep) keep=$2; shift 2 ;;
    --limitations) limitations=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --) shift; break ;;
    *) die "usage: $0 [--keep DIR] [--limitations FILE] [--name NAME] -- COMMAND [ARGS...]" ;;
  esac
done
[ $# -gt 0 ] || die "no command"
command -v strace >/dev/null || die "strace is not installed"
name=${name:-$(basename "$1")}
# ORACLE_KEEP=DIR keeps every run's files in DIR/NAME (for a look after a failure)
[ -n "$keep" ] || [ -z "${ORACLE_KEEP:-}" ] || keep=$ORACLE_KEEP/$name

if [ -n "$keep" ]; then
  mkdir -p "$keep"
  out=$(cd "$keep" && pwd)
else
  out=$(mktemp -d /tmp/filemon-oracle.XXXXXX)
fi
gate_pid=""
cleanup() {
  local rc=$?
  [ -n "$gate_pid" ] && kill -KILL "$gate_pid" 2>/dev/null
  "$ctl" stop >/dev/null 2>&1 || true
  [ -n "$keep" ] || rm -rf "$out"
  exit "$rc"
}
trap cleanup EXIT

# The syscalls strace traces: the table's, and what the comparer needs to follow the cwd
# of each process (clone and friends, fchdir).
traced=$(python3 "$here/oracle-compare.py" --table "$source_dir/common/fm-syscalls.c" --list-strace)
marker="$out/oracle-end-marker"
rm -f "$out/go"
mkfifo "$out/go"

# The gate waits for the capture to run, then runs strace; its own calls and strace's are
# captured too (the pid filter follows children) and left out by the comparer, which
# looks only at the threads strace reports. The marker is its last call.
(
  read -r _ < "$out/go"
  rc=0
  strace -f -y -qq -xx -s 65536 -e signal=none -e trace="$traced" -o "$out/strace.txt" \
    -- "$@" || rc=$?
  echo "$rc" > "$out/command.rc"
  [ -e "$marker" ] || true
) &
gate_pid=$!

"$ctl" start --backend=bpf --pid="$gate_pid" --follow-children > "$out/start.log" 2>&1 \
  || die "filemonctl start failed: $(cat "$out/start.log")"
echo go > "$out/go"
wait "$gate_pid" || true
gate_pid=""

# Wait (bounded) until the marker's event has been read by filemond.
found=0
for _ in $(seq 600); do
  if "$ctl" dump --format=jsonl "path~'oracle-end-marker\$'" 2>/dev/null | grep -q .; then
    found=1
    break
  fi
  sleep 0.1
done
[ "$found" = 1 ] || die "the marker call never reached filemond (60 s)"
"$ctl" dump --format=jsonl > "$out/filemon.jsonl"
"$ctl" status > "$out/status.txt"
"$ctl" stop >/dev/null

python3 "$here/oracle-compare.py" --table "$source_dir/common/fm-syscalls.c" \
  --limitations "$limitations" --name "$name" --status "$out/status.txt" \
  --strace "$out/strace.txt" --filemon "$out/filemon.jsonl" --cwd "$PWD"
