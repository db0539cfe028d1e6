#!/bin/bash
# fm-vm-scenario: runs inside the guest, under systemd, from filemon-vm-scenario.service once
# the system is up. The kernel command line names the backends, in order
# (filemon.backend=stap,bpf) and the storm's size (filemon.storm=N). For each backend, two
# captures of fm-vm-workload through the installed service, each step bounded by a timeout
# that only a hang reaches (HANG, 900 s: under TCG on a loaded host the bpf verifier alone
# took over 60 s of the guest's time):
#   root-B:   `systemctl start filemond`, then filemonctl as root;
#   fmuser-B: filemond stopped, then activated over D-Bus by fmuser's first filemonctl call
#             (fmuser is in the filemon group; the shipped rule lets the group in).
# One boot serves every backend of the image: the boot is most of a scenario's time under
# TCG, and the comparison of backends wants the same workload in the same guest anyway.
# Around the captures, the package's life (guest/fm-vm-package.sh): the image has the
# earlier package installed; it is upgraded to this one before the captures (during one),
# removed during a capture after them, purged, installed again and purged again.
# Everything it learns goes to /run/fm-vm/results, written as a tar onto the second disk
# (/dev/vdb) when it ends, whatever happened; the host checks it. The unit powers off after.
set -uo pipefail
res=/run/fm-vm/results
mkdir -p "$res"
chmod 755 /run/fm-vm

arg() { sed -n "s/.*\bfilemon\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
IFS=, read -r -a backends <<< "$(arg backend)"
storm=$(arg storm)
storm=${storm:-20000}
# filemonctl start returns once the capture runs: milliseconds for bpf; for stap, a module
# load: every capture here loads the module the image precompiled, its filters (the
# workload's pid and children; fmuser's path prefixes, user and process names) given as
# module parameters; a capture of other syscalls would compile a module of its own, many
# minutes under TCG (README.md).
HANG=900
[ ${#backends[@]} -gt 0 ] || { echo "fm-vm: no filemon.backend= on the kernel command line" >&2; exit 1; }
for b in "${backends[@]}"; do
  case $b in
    bpf | stap) ;;
    *) echo "fm-vm: '$b' of filemon.backend= on the kernel command line is no backend" >&2; exit 1 ;;
  esac
done

uptime_s() { cut -d' ' -f1 /proc/uptime; }
log() { echo "fm-vm[$(uptime_s)]: $*" | tee -a "$res/scenario.log"; }

finish() {
  local rc=$?
  log "scenario ends with status $rc"
  echo "$rc" > "$res/rc"
  journalctl -b --no-pager -o short-monotonic > "$res/journal.txt" 2>&1
  # where the boot's time went (README.md, "Where the time goes")
  { systemd-analyze; systemd-analyze blame; systemd-analyze critical-chain; } > "$res/boot.txt" 2>&1
  tar -C "$res" -cf /dev/vdb . && sync
  # at once: the results are on the disk, and nothing of the guest is worth a clean shutdown
  # (the unit's FailureAction powers off too: the backstop for a scenario that is killed
  # before this trap could run, e.g. by SIGKILL after its timeout)
  echo o > /proc/sysrq-trigger
}
trap finish EXIT

fail() {
  log "FAIL: $*"
  systemctl status filemond --no-pager --lines=20 2>&1 | cut -c1-300 | tee -a "$res/scenario.log"
  exit 1
}

# step NAME CMD...: CMD bounded by HANG, its output in NAME.out and its diagnostics in
# NAME.err (apart: a dump's stdout is the capture, and filemonctl warns on stderr, e.g.
# when the capture lost events)
step() {
  local name=$1 secs=$HANG rc
  shift
  log "step $name"
  timeout --kill-after=5 "$secs" "$@" > "$res/$name.out" 2> "$res/$name.err"
  rc=$?
  [ $rc = 124 ] || [ $rc = 137 ] && fail "step $name timed out after $secs s: $(tail -5 "$res/$name.err" "$res/$name.out")"
  [ $rc = 0 ] || fail "step $name exited with $rc: $(tail -5 "$res/$name.err" "$res/$name.out")"
}

# The command prefix that runs as USER (an array: timeout cannot run shell functions).
user_prefix() {
  if [ "$1" = root ]; then
    asu=()
  else
    asu=(setpriv --reuid="$1" --regid="$1" --init-groups env HOME="/home/$1")
  fi
}

# wait_until SECONDS CMD...: CMD again until it succeeds
wait_until() {
  local secs=$1 end
  shift
  end=$(( $(date +%s) + secs ))
  until "$@"; do
    [ "$(date +%s)" -lt "$end" ] || return 1
    sleep 0.2
  done
}

marker_seen() { [ -n "$(timeout "$HANG" "${asu[@]}" filemonctl dump --format=jsonl "path=$1")" ]; }
# filemonctl stop returns while the backend may still be ending (stap unloading its module)
idle() { timeout "$HANG" "${asu[@]}" filemonctl status | grep -q '^State: *idle'; }

# capture LABEL USER BACKEND [START-ARG...]: the workload as USER, captured by USER's
# filemonctl through BACKEND (its pid and children followed), started with START-ARGs
# too; the dump, the workload's own account and the status go to the results. The
# workload's files, fifo and output are named by USER, not LABEL: two captures of one user
# see the same paths.
capture() {
  local label=$1 user=$2 b=$3 fifo=/run/fm-vm/go-$2 dir=/var/tmp/fm-vm-$2 wpid t0
  local out=/run/fm-vm/workload-$2.jsonl
  shift $(( $# < 3 ? $# : 3 ))
  user_prefix "$user"
  rm -rf "$fifo" "$dir"
  mkfifo -m 666 "$fifo"
  # setpriv execs the workload: $! is the workload's pid. It waits on the fifo.
  "${asu[@]}" /usr/local/bin/fm-vm-workload "$fifo" "$dir" "$storm" \
    > "$out" 2> "$res/workload-$label.err" &
  wpid=$!
  t0=$(uptime_s)
  step "start-$label" "${asu[@]}" filemonctl start --backend="$b" --pid="$wpid" --follow-children "$@"
  echo "start_seconds_$label=$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }')" >> "$res/timings"
  step "release-$label" sh -c "echo go > $fifo"
  step "wait-workload-$label" tail --pid="$wpid" -f /dev/null
  wait "$wpid" || fail "the workload failed: $(cat "$res/workload-$label.err")"
  mv "$out" "$res/expected-$label.jsonl"
  # every event of the workload is in once its last call's is
  log "step marker-$label"
  wait_until "$HANG" marker_seen "/fm-vm-end/$wpid" \
    || fail "the workload's end marker /fm-vm-end/$wpid never reached the dump"
  step "status-$label" "${asu[@]}" filemonctl status
  step "dump-$label" "${asu[@]}" filemonctl dump --format=jsonl
  mv "$res/dump-$label.out" "$res/dump-$label.jsonl"
  step "stop-$label" "${asu[@]}" filemonctl stop
  # the counters once the backend has ended: stap counts the probes that did not run only then
  log "step idle-$label"
  wait_until "$HANG" idle || fail "filemond not idle $HANG s after filemonctl stop"
  step "status-stopped-$label" "${asu[@]}" filemonctl status
}

log "kernel $(uname -r), backends ${backends[*]}, storm $storm"
echo "kernel=$(uname -r)" > "$res/timings"
. /usr/local/lib/fm-vm/package.sh

# polkitd is bus-activated by filemond's first check, within D-Bus's 25 s activation timeout:
# under TCG on a loaded host its start took longer. Started first, it is a condition waited
# for, not a race.
step start-polkit systemctl start polkit

# the image has the earlier package: the captures run on the one it is upgraded to
package_as_booted
package_upgrade

mapfile -t prefixes < /usr/local/share/fm-vm/user-capture.prefixes
for b in "${backends[@]}"; do
  # root: the service started by systemctl
  step "start-service-$b" systemctl start filemond
  [ "$(systemctl is-active filemond)" = active ] || fail "filemond is not active after systemctl start"
  echo "filemond_ready_uptime_$b=$(uptime_s)" >> "$res/timings"
  capture "root-$b" root "$b"
  step "stop-service-$b" systemctl stop filemond

  # fmuser: D-Bus activation by its first call
  [ "$(systemctl is-active filemond)" != active ] || fail "filemond still active after systemctl stop"
  user_prefix fmuser
  step "activation-$b" "${asu[@]}" filemonctl status
  [ "$(systemctl is-active filemond)" = active ] || fail "filemonctl status as fmuser did not activate filemond"
  # fmuser's capture keeps only paths below the image's prefixes: the backend drops the
  # rest at the source, FilteredCount shows. Its user and the workload's process names
  # (the renamed child's too) hold for every call of the workload: the backend's uid and
  # comm filters must keep them all.
  capture "user-$b" fmuser "$b" "${prefixes[@]/#/--path-prefix=}" --uid=fmuser \
    --comm=fm-vm-workload --comm=fm-vm-child
  # the next backend's round starts the service itself
  step "stop-activated-$b" systemctl stop filemond
done

package_remove "${backends[0]}"
package_purge first
package_fresh_install
package_purge again
log "all steps done"
