#!/bin/bash
# bench-viewer-depth.sh BUILD_DIR [KIND]: the viewer's VmRSS with a history depth of 1M
# events, after opening captures of 1M and of 3M events (Xvfb), and for comparison after
# opening the 3M one with a depth of 3M: with the bound, three times the events should
# cost no more memory than the depth's. KIND is fm-bench-capture.py's (repeated, the
# default, or distinct).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [repeated|distinct]" >&2; exit 2; }
build=$1
kind=${2:-repeated}
work=$(mktemp -d /var/tmp/fm-bench-viewer-depth.XXXXXX)
trap 'rm -rf "$work"' EXIT

# rss FILE DEPTH N: VmRSS (kB) of the viewer with history depth DEPTH once it lists the
# N events it keeps of FILE
rss() (
  export FILEMON_BUILD_DIR=$build
  . "$here/../tests/gui/viewer-lib.sh"
  local tmp
  tmp=$(mktemp -d "$work/run.XXXXXX")
  trap 'stop_viewer; stop_xvfb' EXIT
  export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$tmp/no-such-bus
  mkdir -p "$tmp/home-root/state/filemon-viewer"
  printf '[history]\ndepth=%s\n' "$2" >"$tmp/home-root/state/filemon-viewer/settings"
  start_xvfb "$tmp"
  start_viewer "$tmp" root "$1"
  wait_for_log "$tmp" "list shows $3 of $3 events" 900
  awk '/^VmRSS/ { print $2 }' "/proc/$(pgrep -n -x filemon-viewer)/status"
)

for n in 1000000 3000000; do
  /usr/bin/python3 "$here/fm-bench-capture.py" "$n" "$work/$n.jsonl" "$kind" || exit 1
done
one=$(rss "$work/1000000.jsonl" 1000000 1000000) || exit 1
three=$(rss "$work/3000000.jsonl" 1000000 1000000) || exit 1
all=$(rss "$work/3000000.jsonl" 3000000 3000000) || exit 1
awk -v k="$kind" -v one="$one" -v three="$three" -v all="$all" 'BEGIN {
  printf "%s, depth 1M: RSS %.1f MiB holding 1M of 1M, %.1f MiB holding 1M of 3M; depth 3M: %.1f MiB holding 3M\n",
         k, one / 1024, three / 1024, all / 1024 }'
