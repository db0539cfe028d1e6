#!/bin/bash
# test-stap-p1.sh PRINT-SCRIPT: every combination of Start options gives a script that
# SystemTap's own parser (stap -p1) accepts, and a Start filter's kernel part is what the
# script tests at the source. Pass 1 needs a kernel tree only to start:
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

# The kernel part of a filter in the script: the sets it fills and the conditions it tests.
kernel_part() {
  local name=$1 options=$2 script
  shift 2
  n=$((n + 1))
  script=$("$print_script" "$options") || { echo "not ok $n - $name: refused"; failed=$((failed + 1)); return; }
  for want in "$@"; do
    case $want in
      !*) if grep -qF -- "${want#!}" <<< "$script"; then
            echo "not ok $n - $name: the script has ${want#!}"; failed=$((failed + 1)); return
          fi ;;
      *) if ! grep -qF -- "$want" <<< "$script"; then
           echo "not ok $n - $name: the script lacks $want"; failed=$((failed + 1)); return
         fi ;;
    esac
  done
  echo "ok $n - $name"
}
kernel_part "kernel-part/syscalls-uids-comms-failed" \
  "{'filter': <\"syscall=openat and (comm=sshd or comm=cron) and user=root and failed and path=/etc/*\">}" \
  'fm_uids[0] = 1' 'fm_comms["sshd"] = 1' 'fm_comms["cron"] = 1' 'if (!(uid() in fm_uids)) return 0' \
  'if (!(fm_comm() in fm_comms)) return 0' 'if (ret >= 0)' '__x64_sys_openat")' '!__x64_sys_close'
kernel_part "kernel-part/pids" "{'filter': <'pid=3 or pid=4'>}" 'fm_pids[3] = 1' 'fm_pids[4] = 1' \
  '!fm_uids[' '!fm_comms[' '!if (ret >= 0)' '__x64_sys_close")'
# what the kernel cannot apply leaves the script unrestricted: the session filters it
kernel_part "kernel-part/globs-and-negations-stay-in-user-space" \
  "{'filter': <'comm=ssh* or not pid=1 or user!=root or errno!=EACCES'>}" \
  '!  fm_pids[' '!fm_uids[' '!fm_comms[' '!if (ret >= 0)'
kernel_part "kernel-part/filter-and-keys-meet" \
  "{'filter': <'comm=sshd or comm=cron'>, 'comms': <['cron', 'atd']>}" \
  'fm_comms["cron"] = 1' '!fm_comms["sshd"]' '!fm_comms["atd"]'
# path prefixes: tested in the script where their quoted form is their bytes, else in
# filemond alone
kernel_part "kernel-part/path-prefixes" \
  "{'filter': <'path=/etc/* or path2=/srv/www/*'>}" \
  'fm_prefixes["\"/etc"] = 1' 'fm_prefixes["\"/srv/www"] = 1' \
  'if (!fm_wanted(sp, sb) && !fm_wanted(sp2, sb2)) { fm_forget(t); return 0 }'
kernel_part "kernel-part/path-prefixes-not-ascii-stay-in-user-space" \
  "{'path-prefixes': <['/etc', '/home/jos\u00e9']>}" \
  '!fm_prefixes' '!fm_wanted('
echo "1..$n"
[ "$failed" = 0 ]
