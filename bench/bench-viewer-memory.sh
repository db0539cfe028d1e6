#!/bin/bash
# bench-viewer-memory.sh BUILD_DIR...: the viewer's memory per held event, as the slope of
# its VmRSS between a 1M- and a 2M-event capture opened from a file (Xvfb), for captures
# whose paths repeat and whose paths are all distinct; one line per build and kind.
# Several build directories are measured side by side on the same files.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR..." >&2; exit 2; }
work=$(mktemp -d /var/tmp/fm-bench-viewer-memory.XXXXXX)
trap 'rm -rf "$work"' EXIT

# rss BUILD FILE N: VmRSS (kB) of BUILD's viewer once it lists the N events of FILE
rss() (
  export FILEMON_BUILD_DIR=$1
  . "$here/../tests/gui/viewer-lib.sh"
  local tmp
  tmp=$(mktemp -d "$work/run.XXXXXX")
  trap 'stop_viewer; stop_xvfb' EXIT
  export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$tmp/no-such-bus
  start_xvfb "$tmp"
  start_viewer "$tmp" root "$2"
  wait_for_log "$tmp" "list shows $3 of $3 events" 900
  awk '/^VmRSS/ { print $2 }' "/proc/$(pgrep -n -x filemon-viewer)/status"
)

for kind in repeated distinct; do
  for n in 1000000 2000000; do
    /usr/bin/python3 "$here/fm-bench-capture.py" "$n" "$work/$kind-$n.jsonl" "$kind" || exit 1
  done
  for build in "$@"; do
    one=$(rss "$build" "$work/$kind-1000000.jsonl" 1000000) || exit 1
    two=$(rss "$build" "$work/$kind-2000000.jsonl" 2000000) || exit 1
    awk -v b="$build" -v k="$kind" -v one="$one" -v two="$two" 'BEGIN {
      printf "%s %s: RSS %.1f MiB at 1M, %.1f MiB at 2M, %.1f bytes an event\n",
             b, k, one / 1024, two / 1024, (two - one) * 1024 / 1000000 }'
  done
  rm -f "$work/$kind-"*.jsonl
done
