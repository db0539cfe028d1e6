#!/bin/bash
# with-systemd.sh: boots systemd as PID 1 of a private PID namespace over a throwaway overlay
# of /, installs the project into it, runs COMMAND on the host side with SYSTEMD_PID set (use
# `nsenter -t $SYSTEMD_PID -m -p -r -w CMD` to act inside), then powers the container off.
#
#   with-systemd.sh BUILDDIR -- COMMAND [ARGS...]
#
# Nothing is left on the host: mounts live in the private mount namespace, writes go to a
# tmpfs upper layer, /proc/sys is read-only inside (systemd would otherwise set host sysctls),
# sysfs is a fresh read-only instance (a bind of the host's breaks Type=notify), and the
# per-test cgroups are removed at the end.
set -euo pipefail

if [ "${1:-}" = "--inner" ]; then
  # Runs as PID 1 of the new PID namespace, in the new mount namespace: builds the root and
  # replaces itself with systemd.
  builddir=$2
  scratch=$(mktemp -d /run/filemon-systemd.XXXXXX)
  mount -t tmpfs -o mode=0755 tmpfs "$scratch"
  mkdir "$scratch/upper" "$scratch/work" "$scratch/root"
  mount -t overlay overlay -o "lowerdir=/,upperdir=$scratch/upper,workdir=$scratch/work" "$scratch/root"
  root=$scratch/root

  mount -t proc proc "$root/proc"
  mount --bind "$root/proc/sys" "$root/proc/sys"
  mount -o remount,bind,ro "$root/proc/sys"
  mount -t sysfs -o ro sysfs "$root/sys"
  # as on a booted host, where systemd mounts it (sys-kernel-tracing.mount) before services run
  mount -t tracefs nodev "$root/sys/kernel/tracing"

  mount -t tmpfs -o mode=0755,nosuid tmpfs "$root/dev"
  for node in "null c 1 3" "zero c 1 5" "full c 1 7" "random c 1 8" "urandom c 1 9" "tty c 5 0"; do
    set -- $node
    mknod -m 0666 "$root/dev/$1" "$2" "$3" "$4"
  done
  mkdir "$root/dev/pts" "$root/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$root/dev/pts"
  ln -s pts/ptmx "$root/dev/ptmx"
  mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
  mount -t tmpfs -o mode=0755 tmpfs "$root/run"
  mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"

  # The project, installed as a distribution package would be: into the overlay only.
  meson install --no-rebuild --quiet -C "$builddir" --destdir "$root" >/dev/null

  # Nothing of the host's own filemon setup shows through the overlay: an administrator's
  # polkit rules, a filemon group or fmtest user of its own (without our member: polkit then
  # refused fmtest's Start), its /etc/filemond. Deleting in the overlay hides them; the host
  # keeps them.
  find "$root/etc/polkit-1/rules.d" -mindepth 1 -delete 2>/dev/null || true
  rm -rf "$root/etc/filemond"
  sed -i -e '/^filemon:/d' -e '/^fmtest:/d' "$root/etc/group"
  sed -i -e '/^fmtest:/d' "$root/etc/passwd"
  # A user in the filemon group, for the unprivileged client checks.
  echo "filemon:x:64000:fmtest" >> "$root/etc/group"
  echo "fmtest:x:64000:64000:filemon test user:/nonexistent:/usr/sbin/nologin" >> "$root/etc/passwd"
  # The example rule, enabled the way the README tells administrators to.
  if [ -n "${FILEMON_RULES_FILE:-}" ]; then
    install -D -m 0644 "$FILEMON_RULES_FILE" "$root/etc/polkit-1/rules.d/50-filemon.rules"
  fi
  # Units that need hardware or a real host only slow the boot down here.
  for unit in systemd-udevd.service systemd-udev-trigger.service systemd-networkd.service \
              systemd-timesyncd.service systemd-resolved.service getty.target console-getty.service \
              systemd-logind.service cron.service; do
    ln -sf /dev/null "$root/etc/systemd/system/$unit"
  done

  export container=other
  exec chroot "$root" /lib/systemd/systemd --system --unit=multi-user.target --log-target=console \
    --show-status=false
fi

builddir=$(realpath "$1")
shift
[ "${1:-}" = "--" ] && shift

cgname=filemon-test-$$
cgdirs=()
cleanup_cgroups() {
  local d
  for d in "${cgdirs[@]}"; do
    [ -d "$d" ] || continue
    # children first: systemd creates a tree under our directory
    find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
}

# Each hierarchy's test directory sits below the cgroup we are in now, so limits that apply to
# us (a memory cgroup, say) keep applying.
while IFS=: read -r _ controllers path; do
  case "$controllers" in
    "") hierarchy=/sys/fs/cgroup/unified ;;
    name=systemd) hierarchy=/sys/fs/cgroup/systemd ;;
    *) hierarchy=/sys/fs/cgroup/${controllers%%,*} ;;
  esac
  mountpoint -q "$hierarchy" || continue
  dir=$hierarchy${path%/}/$cgname
  mkdir -p "$dir"
  # a new cpuset starts with no CPUs and no memory nodes: nothing could join it
  if [ -f "$dir/cpuset.cpus" ]; then
    cat "$(dirname "$dir")/cpuset.cpus" > "$dir/cpuset.cpus"
    cat "$(dirname "$dir")/cpuset.mems" > "$dir/cpuset.mems"
  fi
  cgdirs+=("$dir")
done < /proc/self/cgroup

log=$(mktemp /tmp/filemon-systemd-log.XXXXXX)
systemd_pid=""
shutdown() {
  if [ -n "$systemd_pid" ] && kill -0 "$systemd_pid" 2>/dev/null; then
    kill -s SIGRTMIN+4 "$systemd_pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$systemd_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$systemd_pid" 2>/dev/null || true
  fi
  [ -n "${unshare_pid:-}" ] && wait "$unshare_pid" 2>/dev/null || true
  cleanup_cgroups
  rm -f "$log"
  local d
  for d in "${cgdirs[@]}"; do
    if [ -d "$d" ]; then
      echo "with-systemd: cgroup $d was left behind" >&2
      exit 1
    fi
  done
}
trap shutdown EXIT

# Enter our own cgroups in a subshell, so the namespace's cgroup root is the test's directory.
(
  for d in "${cgdirs[@]}"; do echo $BASHPID > "$d/cgroup.procs"; done
  exec unshare --pid --fork --mount --uts --ipc --cgroup --propagation private \
    "$0" --inner "$builddir"
) >"$log" 2>&1 &
unshare_pid=$!

# systemd is the only child of unshare. The bounds here are ones only a hang reaches.
for _ in $(seq 600); do
  systemd_pid=$(pgrep -P "$unshare_pid" 2>/dev/null | head -n 1 || true)
  [ -n "$systemd_pid" ] && [ "$(cat /proc/"$systemd_pid"/comm 2>/dev/null)" = systemd ] && break
  systemd_pid=""
  sleep 0.1
done
if [ -z "$systemd_pid" ]; then
  echo "with-systemd: systemd did not start; its output:" >&2
  cat "$log" >&2
  exit 1
fi

state=""
for _ in $(seq 600); do
  state=$(nsenter -t "$systemd_pid" -m -p -r -w systemctl is-system-running 2>/dev/null || true)
  case "$state" in running|degraded) break ;; esac
  sleep 0.1
done
case "$state" in
  running|degraded) ;;
  *) echo "with-systemd: system did not come up (state '$state'); output:" >&2; cat "$log" >&2; exit 1 ;;
esac

export SYSTEMD_PID=$systemd_pid
status=0
"$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "with-systemd: command failed ($status); systemd's console:" >&2
  tail -n 60 "$log" >&2
fi
exit "$status"
