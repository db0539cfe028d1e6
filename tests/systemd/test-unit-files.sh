#!/bin/bash
# test-unit-files.sh: the installed service files are valid, and the units are as hardened
# as the README says. Arguments: the built unit, the built precompile unit, the polkit
# policy, the bus policy.
#   systemd-analyze verify only warns (exit 0) on unknown keys, so any output fails here.
set -euo pipefail

unit=$1 precompile_unit=$2 policy=$3 bus_conf=$4
fail=0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for u in "$unit" "$precompile_unit"; do
  name=$(basename "$u")
  # verify needs ExecStart to exist; point a copy at a binary that surely does.
  sed 's|^ExecStart=.*|ExecStart=/bin/true|' "$u" > "$tmp/$name"
  out=$(systemd-analyze verify --man=no "$tmp/$name" 2>&1) || true
  if [ -n "$out" ]; then
    echo "not ok: systemd-analyze verify $name printed:"; echo "$out"; fail=1
  else
    echo "ok: systemd-analyze verify $name is silent"
  fi

  score=$(systemd-analyze security --offline=yes "$tmp/$name" 2>&1 |
          sed -n "s/.*Overall exposure level for $name: \\([0-9.]*\\).*/\\1/p")
  if [ -z "$score" ]; then
    echo "not ok: systemd-analyze security $name printed no exposure level"; fail=1
  elif ! awk -v s="$score" 'BEGIN { exit !(s <= 3.0) }'; then
    echo "not ok: $name: exposure $score is above 3.0"; fail=1
  else
    echo "ok: $name: exposure $score <= 3.0"
  fi
done

# The outer walls of doc/security.md ("Resource bounds"): each set, with a reason above it.
for key in LimitNOFILE MemoryHigh MemoryMax TasksMax; do
  if grep -B2 "^$key=" "$unit" | grep -q '^#'; then
    echo "ok: $key is set, with its reason"
  else
    echo "not ok: $key is not set (or has no comment saying why)"; fail=1
  fi
done

for f in "$policy" "$bus_conf"; do
  if xmllint --noout --nonet "$f"; then
    echo "ok: $f is well-formed"
  else
    echo "not ok: $f"; fail=1
  fi
done

# Every action the daemon checks is declared, with the defaults of the design.
for action in start stop save subscribe; do
  block=$(xmllint --nonet --xpath "//action[@id='org.filemond.$action']/defaults" "$policy" 2>/dev/null || true)
  if [[ "$block" == *"<allow_any>no</allow_any>"* && "$block" == *"<allow_inactive>no</allow_inactive>"* &&
        "$block" == *"<allow_active>auth_admin_keep</allow_active>"* ]]; then
    echo "ok: org.filemond.$action defaults"
  else
    echo "not ok: org.filemond.$action is missing or has other defaults: $block"; fail=1
  fi
done

exit $fail
