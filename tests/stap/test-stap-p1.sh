#!/bin/bash
# test-stap-p1.sh PRINT-SCRIPT: every combination of Start options gives a script that
# SystemTap's own parser (stap -p1) accepts. Pass 1 needs a kernel tree only to start:
# a stand-in with the running kernel's .config and release is enough (ENVIRONMENT.md).
set -euo pipefail
print_script=$1
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
release=$(uname -r)
mkdir -p "$tree/include/config"
if [ -r /proc/config.gz ]; then
  zcat /proc/config.gz > "$tree/.config"
else
  echo "CONFIG_MODULES=y" > "$tree/.config"
fi
echo "$release" > "$tree/include/config/kernel.release"
: > "$tree/Module.symvers"

n=0 failed=0
check() {
  local name=$1 options=$2 out
  n=$((n + 1))
  if ! "$print_script" "$options" > "$tree/script.stp"; then
    echo "not ok $n - $name: the options were refused"; failed=$((failed + 1)); return
  fi
  if out=$(stap -r "$tree" -p1 - < "$tree/script.stp" 2>&1); then
    echo "ok $n - $name"
  else
    echo "not ok $n - $name"
    echo "$out" | head -20 | sed 's/^/# /'
    failed=$((failed + 1))
  fi
}

. "$(dirname "$0")/option-sets.sh"
check_options() { check "options $1" "$1"; }
for_each_options check_options
echo "1..$n"
[ "$failed" = 0 ]
