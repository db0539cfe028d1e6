#!/bin/bash
# test-stap-p1.sh PRINT-SCRIPT: every combination of Start options gives a script and
# module parameters that SystemTap's own parser (stap -p1, with -G) accepts; the script
# depends on the syscalls alone (one module serves every filter); and a Start filter's
# kernel part is what the parameters give the script to test at the source. Pass 1 needs
# a kernel tree only to start: a stand-in with the running kernel's .config and release is
# enough (ENVIRONMENT.md).
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
  local name=$1 options=$2 out params=() p
  n=$((n + 1))
  if ! "$print_script" "$options" > "$tree/script.stp" ||
     ! "$print_script" --parameters "$options" > "$tree/params"; then
    echo "not ok $n - $name: the options were refused"; failed=$((failed + 1)); return
  fi
  while read -r p; do params+=(-G "$p"); done < "$tree/params"
  if out=$(stap -r "$tree" -p1 "${params[@]}" - < "$tree/script.stp" 2>&1); then
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

# One script for every filter of the same syscalls: the filters are parameters.
n=$((n + 1))
same=0 different=0
for_each_script() {
  local sum
  sum=$("$print_script" "$1" | sha256sum | cut -c1-64)
  # the syscalls part of the options names the script
  local key=${1%%>*}
  [[ "$1" == "{'syscalls'"* ]] || key=all
  if [ -z "${seen[$key]:-}" ]; then seen[$key]=$sum
  elif [ "${seen[$key]}" = "$sum" ]; then same=$((same + 1))
  else different=$((different + 1)); echo "# another script for $1"
  fi
}
declare -A seen
for_each_options for_each_script
if [ "$different" = 0 ] && [ "$same" -gt 0 ] && [ "${#seen[@]}" = "${#syscall_sets[@]}" ]; then
  echo "ok $n - one script per syscall set (${#seen[@]} scripts for $((same + ${#seen[@]})) option sets)"
else
  echo "not ok $n - scripts that differ with the filters: $different"; failed=$((failed + 1))
fi

# The kernel part of a filter in the module parameters: exactly those given.
kernel_part() {
  local name=$1 options=$2 params want
  shift 2
  n=$((n + 1))
  params=$("$print_script" --parameters "$options") || { echo "not ok $n - $name: refused"; failed=$((failed + 1)); return; }
  want=$(printf '%s\n' "$@")
  if [ "$params" = "$want" ]; then
    echo "ok $n - $name"
  else
    echo "not ok $n - $name: parameters"; sed 's/^/#   /' <<< "$params"
    echo "# wanted"; sed 's/^/#   /' <<< "$want"
    failed=$((failed + 1))
  fi
}
# comms in hexadecimal: sshd 73736864, cron 63726f6e, atd 617464
kernel_part "kernel-part/syscalls-uids-comms-failed" \
  "{'filter': <\"syscall=openat and (comm=sshd or comm=cron) and user=root and failed and path=/etc/*\">}" \
  'fm_uids1=0' 'fm_comms1=73736864.63726f6e' 'fm_failed_only=1' 'fm_prefixes1=2f657463'
kernel_part "kernel-part/pids" "{'filter': <'pid=3 or pid=4'>}" 'fm_pids1=3.4'
kernel_part "kernel-part/pids-followed" "{'pids': <[@u 10, 4194304]>, 'follow-children': <true>}" \
  'fm_pids1=a.400000' 'fm_follow=1'
# what the kernel cannot apply leaves the module unrestricted: the session filters it
kernel_part "kernel-part/globs-and-negations-stay-in-user-space" \
  "{'filter': <'comm=ssh* or not pid=1 or user!=root or errno!=EACCES'>}"
kernel_part "kernel-part/filter-and-keys-meet" \
  "{'filter': <'comm=sshd or comm=cron'>, 'comms': <['cron', 'atd']>}" 'fm_comms1=63726f6e'
# path prefixes: given to the script where their quoted form is their bytes, else left
# to filemond alone
kernel_part "kernel-part/path-prefixes" \
  "{'filter': <'path=/etc/* or path2=/srv/www/*'>}" 'fm_prefixes1=2f657463.2f7372762f777777'
kernel_part "kernel-part/path-prefixes-not-ascii-stay-in-user-space" \
  "{'path-prefixes': <['/etc', '/home/jos\u00e9']>}"
kernel_part "kernel-part/comms-not-ascii-stay-in-user-space" \
  "{'comms': <['sshd', 'caf\u00e9']>, 'uids': <[@u 5]>}" 'fm_uids1=5'
# a quote or a backslash in a name is no trouble: the parameter is hexadecimal
kernel_part "kernel-part/comms-quoted" "{'comms': <['a\"b\\\\c']>}" 'fm_comms1=6122625c63'
# lists longer than a parameter continue in a second one; every id is kept
ids=$(seq 4000000000 4000001023 | paste -sd, | sed 's/,/, /g')
n=$((n + 1))
params=$("$print_script" --parameters "{'uids': <[@u $ids]>}")
got=$(sed -n 's/^fm_uids[12]=//p' <<< "$params" | tr . '\n' | while read -r x; do echo $((16#$x)); done | sort -n | paste -sd, | sed 's/,/, /g')
longest=$(sed 's/^[^=]*=//' <<< "$params" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
if [ "$got" = "$ids" ] && [ "$(grep -c '^fm_uids[12]=' <<< "$params")" = 2 ] && [ "$longest" -lt 8192 ]; then
  echo "ok $n - kernel-part/1024-uids-in-two-parameters (the longest value $longest bytes)"
else
  echo "not ok $n - kernel-part/1024-uids-in-two-parameters"; failed=$((failed + 1))
fi
echo "1..$n"
[ "$failed" = 0 ]
