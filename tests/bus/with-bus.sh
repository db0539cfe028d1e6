#!/bin/bash
# with-bus.sh: runs a test against a private D-Bus system bus, the real polkitd and the
# built filemond, inside a private mount namespace, and leaves nothing behind.
#
#   with-bus.sh [--no-daemon] [--config FILE] [--memory-max BYTES] -- COMMAND [ARGS...]
#
# Inside the namespace, temp directories are bind-mounted over polkit's fixed action and
# rule directories (holding polkit/org.filemond.policy and polkit/50-filemon.rules) and
# copies of /etc/passwd and /etc/group add the user fmtest (uid 64000) in the group filemon
# (gid 64000). So: root is always allowed, fmtest is allowed through the filemon group rule,
# nobody is refused. dbus-daemon runs with the stock system policy plus the project's
# dbus/org.filemond.Filemond1.conf; filemond (unless --no-daemon) runs with a config whose
# [Stap] Path= is the fake stap (tests/stap/fake-stap), and the harness waits until it owns
# org.filemond.Filemond1.
#
# --config FILE: filemond.conf keys that override the harness's (GKeyFile syntax; keys that
#   FILE does not set keep the harness's values, so [Stap] Path= stays the fake stap).
# --memory-max BYTES: filemond runs in a memory cgroup of its own with this limit, as the
#   unit's MemoryMax= puts it (cgroup v1 memory.limit_in_bytes or v2 memory.max, below the
#   harness's own cgroup); exported as FILEMOND_MEMORY_CGROUP (its directory) and
#   FILEMOND_MEMORY_CGROUP_VERSION (1 or 2). Memory the kernel charges to filemond there
#   (page cache of what it writes included) is what the unit's limit would count.
# --debug-domains DOMAINS: filemond runs with G_MESSAGES_DEBUG=DOMAINS instead of
#   --verbose, so only those log domains' debug and info messages reach its log;
#   exported as FILEMOND_DEBUG_DOMAINS.
#
# COMMAND runs as root (it drops privileges itself with setpriv) with these exported:
#   DBUS_SYSTEM_BUS_ADDRESS  the private bus
#   FILEMON_SOURCE_DIR, FILEMON_BUILD_DIR
#   FILEMON_TEST_TMP         an empty 0755 directory, removed afterwards (a tmpfs)
#   FILEMON_TEST_DISK        an empty 0755 directory on disk (in the build tree), removed
#                            afterwards: Save refuses files kept in memory
#   FILEMOND_PID             filemond's pid (unset with --no-daemon)
#   FILEMOND_EXIT_FILE       appears when filemond exits, holding its exit status; a test
#                            that kills filemond on purpose creates
#                            $FILEMON_TEST_TMP/filemond-exit-expected first
#   FILEMOND_LOG             filemond's stdout and stderr
#   FILEMOND_CONFIG          the config filemond runs with (also with --no-daemon, for tests
#                            that start filemond themselves)
#   FILEMON_FAKE_STAP_ENV    a file COMMAND may write ("export FILEMON_FAKE_STAP_AFTER=fail"):
#                            the fake stap sources it at each start, so a test can change the
#                            fixture or the behaviour between two Starts of one daemon
#   FILEMON_FAKE_STAP_PIDS   each fake stap appends its pid here when it starts
#   DBUS_DAEMON_PID
#   POLKITD_PID_FILE         holds the pid of the running polkitd; a test that stops polkitd
#                            on purpose first creates $FILEMON_TEST_TMP/polkitd-exit-expected
# $FILEMON_FAKE_STAP_FIXTURE, _AFTER and _LOG pass through to filemond and the fake stap.
# $FILEMOND_WRAPPER, when set, is a command that runs filemond (e.g. valgrind and options);
# its exit status counts as filemond's.
#
# The harness exits with COMMAND's status, or 1 when COMMAND passed but filemond exited on
# its own with a non-zero status, did not exit 0 on SIGTERM, or left a fake stap running.
# On failure it prints the end of filemond's and polkitd's logs.
#
# Teardown runs on exit and on SIGTERM/SIGINT/SIGHUP. Against SIGKILL: every process the
# harness starts sits in its process group (meson kills the group on timeout) and gets
# SIGTERM when the harness dies (parent-death signal); polkitd and filemond exit when the
# bus goes away; mounts vanish with the namespace; files live on a tmpfs mounted in it.
set -euo pipefail

usage() {
  echo "usage: $0 [--no-daemon] [--config FILE] [--memory-max BYTES] [--debug-domains DOMAINS] -- COMMAND [ARGS...]" >&2
  exit 2
}

die() {
  echo "with-bus: $*" >&2
  exit 1
}

source_dir=$(cd "$(dirname "$(realpath "$0")")/../.." && pwd)

# ---------------------------------------------------------------------------------------
# Outside the namespace: create the scratch mount point, run the inner part in a private
# mount namespace, remove the mount point afterwards.
if [ "${1:-}" != "--inner" ]; then
  # Check the command line here, so a mistake is reported before anything starts.
  args=("$@")
  while [ $# -gt 0 ]; do
    case "$1" in
      --no-daemon) shift ;;
      --config) [ $# -ge 2 ] || usage; [ -r "$2" ] || die "cannot read config $2"; shift 2 ;;
      --memory-max) [[ "${2:-}" =~ ^[0-9]+$ ]] || usage; shift 2 ;;
      --debug-domains) [ -n "${2:-}" ] || usage; shift 2 ;;
      --) shift; break ;;
      *) usage ;;
    esac
  done
  [ $# -gt 0 ] || usage
  [ "$(id -u)" = 0 ] || die "must run as root (private mount namespace, polkitd)"

  scratch=$(mktemp -d /tmp/filemon-bus.XXXXXX)
  inner_pid=""
  forward() {
    [ -n "$inner_pid" ] && kill -TERM "$inner_pid" 2>/dev/null
    return 0
  }
  trap forward TERM INT HUP
  trap 'rmdir "$scratch" 2>/dev/null || true' EXIT
  unshare --mount --propagation private -- "$0" --inner "$scratch" "${args[@]}" &
  inner_pid=$!
  status=0
  # A trapped signal interrupts wait; wait again until the inner part has really ended.
  while :; do
    wait "$inner_pid" && status=0 || status=$?
    kill -0 "$inner_pid" 2>/dev/null || break
  done
  exit "$status"
fi

# ---------------------------------------------------------------------------------------
# Inside the namespace.
shift
scratch=$1
shift
run_daemon=1
user_config=""
memory_max=""
debug_domains=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-daemon) run_daemon=0; shift ;;
    --config) user_config=$(realpath "$2"); shift 2 ;;
    --memory-max) memory_max=$2; shift 2 ;;
    --debug-domains) debug_domains=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done

if [ -n "${FILEMON_BUILD_DIR:-}" ]; then
  build_dir=$(realpath "$FILEMON_BUILD_DIR")
elif [ -d meson-private ]; then
  # meson test runs tests in the build directory
  build_dir=$PWD
else
  die "set FILEMON_BUILD_DIR to the meson build directory"
fi

# Everything the harness writes lives on this tmpfs: it exists in this namespace only.
mount -t tmpfs -o mode=0755,size=256m filemon-bus "$scratch"
mkdir -m 0755 "$scratch/bus" "$scratch/actions" "$scratch/rules-etc" "$scratch/rules-share" \
  "$scratch/etc" "$scratch/test"
# ... but for files a Save writes, which must be on disk
disk_dir=$(mktemp -d "$build_dir/bus-test-disk.XXXXXX")
chmod 0755 "$disk_dir"
memory_cgroup=""

# A memory cgroup below the one this harness runs in (so limits that apply to it keep
# applying), v1 where the memory controller has a hierarchy of its own, else v2.
make_memory_cgroup() {
  local rel base
  rel=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
  if [ -n "$rel" ] && [ -d /sys/fs/cgroup/memory ]; then
    memory_cgroup=/sys/fs/cgroup/memory${rel%/}/filemon-bus.$$
    mkdir "$memory_cgroup" || die "cannot create the memory cgroup $memory_cgroup"
    echo "$1" > "$memory_cgroup/memory.limit_in_bytes" || die "cannot limit $memory_cgroup"
    export FILEMOND_MEMORY_CGROUP_VERSION=1
  else
    rel=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
    base=/sys/fs/cgroup
    [ -e "$base/cgroup.controllers" ] || base=/sys/fs/cgroup/unified
    base=$base${rel%/}
    grep -qw memory "$base/cgroup.controllers" 2>/dev/null \
      || die "no memory cgroup controller here (neither v1 nor v2 at $base)"
    grep -qw memory "$base/cgroup.subtree_control" \
      || echo +memory > "$base/cgroup.subtree_control" \
      || die "cannot enable the memory controller below $base"
    memory_cgroup=$base/filemon-bus.$$
    mkdir "$memory_cgroup" || die "cannot create the memory cgroup $memory_cgroup"
    echo "$1" > "$memory_cgroup/memory.max" || die "cannot limit $memory_cgroup"
    export FILEMOND_MEMORY_CGROUP_VERSION=2
  fi
  export FILEMOND_MEMORY_CGROUP=$memory_cgroup
}
[ -z "$memory_max" ] || make_memory_cgroup "$memory_max"

command_pid=""
dbus_pid=""
polkitd_pid=""
filemond_pid=""
status=0

log_tail() {
  local f
  for f in "$scratch/filemond.log" "$scratch/polkitd.log" "$scratch/dbus.log"; do
    [ -s "$f" ] || continue
    echo "---- with-bus: end of $(basename "$f") ----" >&2
    tail -n 40 "$f" >&2
  done
}

alive() {
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null
}

# Waits up to $2 tenths of a second for process $1 to end.
wait_gone() {
  local i
  for ((i = 0; i < $2; i++)); do
    alive "$1" || return 0
    sleep 0.1
  done
  ! alive "$1"
}

teardown() {
  local rc=$status pid leftover=""
  trap - EXIT TERM INT HUP
  set +e
  if alive "$command_pid"; then
    kill -TERM "$command_pid" 2>/dev/null
    wait_gone "$command_pid" 20 || kill -KILL "$command_pid" 2>/dev/null
  fi
  if alive "$filemond_pid"; then
    kill -TERM "$filemond_pid"
    if ! wait_gone "$filemond_pid" "$((${startup_sec:-10} * 5))"; then
      echo "with-bus: filemond did not exit within $((${startup_sec:-10} / 2)) s of SIGTERM" >&2
      kill -KILL "$filemond_pid" 2>/dev/null
      [ "$rc" = 0 ] && rc=1
    fi
    for _ in $(seq 600); do [ -s "$scratch/filemond.exit" ] && break; sleep 0.05; done
    if [ "$(cat "$scratch/filemond.exit" 2>/dev/null)" != 0 ]; then
      echo "with-bus: filemond exited with status '$(cat "$scratch/filemond.exit" 2>/dev/null)' on SIGTERM" >&2
      [ "$rc" = 0 ] && rc=1
    fi
  elif [ "$run_daemon" = 1 ] && [ -s "$scratch/filemond.exit" ] && \
       [ ! -e "$scratch/test/filemond-exit-expected" ] && \
       [ "$(cat "$scratch/filemond.exit")" != 0 ] && [ "$rc" = 0 ]; then
    echo "with-bus: filemond exited with status $(cat "$scratch/filemond.exit") during the test" >&2
    rc=1
  fi
  # filemond must not leave a stap behind (a real one would block the next start).
  if [ -s "$scratch/fake-stap.pids" ]; then
    while read -r pid; do
      wait_gone "$pid" 20 || leftover="$leftover $pid"
    done < "$scratch/fake-stap.pids"
    if [ -n "$leftover" ]; then
      echo "with-bus: fake stap still running after filemond ended:$leftover" >&2
      for pid in $leftover; do kill -KILL "$pid" 2>/dev/null; done
      [ "$rc" = 0 ] && rc=1
    fi
  fi
  touch "$scratch/teardown"
  for pid in "$(cat "$scratch/polkitd.pid" 2>/dev/null)" "$dbus_pid"; do
    alive "$pid" || continue
    kill -TERM "$pid"
    wait_gone "$pid" 30 || kill -KILL "$pid" 2>/dev/null
  done
  [ "$rc" = 0 ] || log_tail
  cd /
  umount "$scratch" 2>/dev/null || umount -l "$scratch"
  rm -rf "$disk_dir"
  if [ -n "$memory_cgroup" ]; then
    for _ in $(seq 100); do rmdir "$memory_cgroup" 2>/dev/null && break; sleep 0.05; done
  fi
  exit "$rc"
}
trap teardown EXIT
trap 'status=143; exit 143' TERM
trap 'status=130; exit 130' INT
trap 'status=129; exit 129' HUP

# --- users and groups ------------------------------------------------------------------
# polkit's isInGroup() asks NSS, not the caller's process: the group must be in /etc/group.
grep -v -e '^fmtest:' /etc/passwd > "$scratch/etc/passwd"
echo "fmtest:x:64000:64000:filemon test user:/nonexistent:/usr/sbin/nologin" >> "$scratch/etc/passwd"
grep -v -e '^filemon:' -e '^fmtest:' /etc/group > "$scratch/etc/group"
echo "fmtest:x:64001:" >> "$scratch/etc/group"
echo "filemon:x:64000:fmtest" >> "$scratch/etc/group"
chmod 0644 "$scratch/etc/passwd" "$scratch/etc/group"
mount --bind "$scratch/etc/passwd" /etc/passwd
mount --bind "$scratch/etc/group" /etc/group

# --- polkit: only the project's actions and rule ---------------------------------------
install -m 0644 "$source_dir/polkit/org.filemond.policy" "$scratch/actions/"
# polkitd silently ignores rules it cannot read as user polkitd
install -m 0644 "$source_dir/polkit/50-filemon.rules" "$scratch/rules-etc/"
mount --bind "$scratch/actions" /usr/share/polkit-1/actions
mount --bind "$scratch/rules-etc" /etc/polkit-1/rules.d
mount --bind "$scratch/rules-share" /usr/share/polkit-1/rules.d

# --- the bus ---------------------------------------------------------------------------
# The stock system policy (default deny of method calls, root alone may monitor), without
# forking, a user switch, activation helpers or the host's service policies.
cat > "$scratch/bus/system.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$scratch/bus/socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
    <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"
          send_member="UpdateActivationEnvironment"/>
    <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Debug.Stats"/>
    <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.systemd1.Activator"/>
  </policy>
  <policy user="root">
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Monitoring"/>
  </policy>
  <include>$source_dir/dbus/org.filemond.Filemond1.conf</include>
  <include>/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf</include>
</busconfig>
EOF

# No --fork: a forked dbus-daemon leaves our process group and would outlive a killed test.
setpriv --pdeathsig TERM -- dbus-daemon --nofork --nopidfile --config-file="$scratch/bus/system.conf" \
  --print-address=3 3>"$scratch/bus/address" >"$scratch/dbus.log" 2>&1 &
dbus_pid=$!
for _ in $(seq 3000); do
  [ -s "$scratch/bus/address" ] && break
  alive "$dbus_pid" || die "dbus-daemon failed: $(cat "$scratch/dbus.log")"
  sleep 0.01
done
[ -s "$scratch/bus/address" ] || die "dbus-daemon did not start"
DBUS_SYSTEM_BUS_ADDRESS=$(head -n 1 "$scratch/bus/address")
export DBUS_SYSTEM_BUS_ADDRESS
unset DBUS_SESSION_BUS_ADDRESS

# Waits until $1 owns a name on the bus, while process $2 lives; $3 = seconds.
wait_name() {
  local i
  for ((i = 0; i < $3 * 10; i++)); do
    alive "$2" || return 1
    if gdbus call --system --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
         --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

# --- polkitd ---------------------------------------------------------------------------
# It loads the rules before it asks for its name, so owning the name means ready.
# On a real system D-Bus activation starts polkitd again at the next check after it
# exited. polkitd 122 was seen to vanish mid-test here, under load, while short-lived
# clients came and went (polkit's own crashes when a caller leaves during its check:
# polkit-org/polkit#657, #670); the harness starts it again as activation would, says so
# in polkitd.log, and does not when a test stopped it on purpose.
supervise_polkitd() {
  local rc
  while :; do
    setpriv --pdeathsig TERM -- /usr/lib/polkit-1/polkitd >>"$scratch/polkitd.log" 2>&1 &
    echo $! > "$scratch/polkitd.pid"
    rc=0
    wait $! || rc=$?
    [ -e "$scratch/teardown" ] || [ -e "$scratch/test/polkitd-exit-expected" ] && return
    # nor once the harness or the bus is gone
    alive "$$" && alive "$dbus_pid" || return
    echo "with-bus: polkitd exited with status $rc during the test; started again, as D-Bus activation would" \
      >> "$scratch/polkitd.log"
  done
}
supervise_polkitd &
for _ in $(seq 3000); do [ -s "$scratch/polkitd.pid" ] && break; sleep 0.01; done
polkitd_pid=$(cat "$scratch/polkitd.pid")
wait_name org.freedesktop.PolicyKit1 "$polkitd_pid" 60 || die "polkitd did not start: $(cat "$scratch/polkitd.log")"

# --- filemond --------------------------------------------------------------------------
# The fake stap goes through a wrapper that records its pid and applies the test's
# per-start overrides; the real fake-stap then sees exactly the arguments filemond passed.
cat > "$scratch/fake-stap" <<EOF
#!/bin/sh
echo \$\$ >> "$scratch/fake-stap.pids"
if [ -r "$scratch/test/fake-stap.env" ]; then . "$scratch/test/fake-stap.env"; fi
exec "$source_dir/tests/stap/fake-stap" "\$@"
EOF
chmod 0755 "$scratch/fake-stap"

{
  echo "# written by with-bus.sh"
  echo "[Daemon]"
  echo "IdleTimeoutSec=0"
  echo "DefaultBackend=stap"
  echo "[Stap]"
  echo "Path=$scratch/fake-stap"
  echo "CheckKernel=false"
} > "$scratch/filemond.conf"
if [ -n "$user_config" ]; then
  # Merge key by key, keeping the case of the keys (GKeyFile is case-sensitive).
  /usr/bin/python3 - "$scratch/filemond.conf" "$user_config" <<'PY' || die "cannot merge --config"
import configparser, sys
merged = configparser.ConfigParser(interpolation=None, delimiters=("=",), comment_prefixes=("#",))
merged.optionxform = str
merged.read(sys.argv[1:3])
with open(sys.argv[1], "w") as out:
    out.write("# written by with-bus.sh (with the keys of %s)\n" % sys.argv[2])
    merged.write(out, space_around_delimiters=False)
PY
fi
chmod 0644 "$scratch/filemond.conf"

export FILEMON_SOURCE_DIR=$source_dir
export FILEMON_BUILD_DIR=$build_dir
export FILEMON_TEST_TMP=$scratch/test
export FILEMON_TEST_DISK=$disk_dir
export FILEMOND_CONFIG=$scratch/filemond.conf
export FILEMOND_LOG=$scratch/filemond.log
export FILEMOND_EXIT_FILE=$scratch/filemond.exit
export FILEMON_FAKE_STAP_ENV=$scratch/test/fake-stap.env
export FILEMON_FAKE_STAP_PIDS=$scratch/fake-stap.pids
export DBUS_DAEMON_PID=$dbus_pid
export POLKITD_PID_FILE=$scratch/polkitd.pid
unset FILEMOND_PID
: > "$FILEMOND_LOG"
unset FILEMOND_DEBUG_DOMAINS
[ -z "$debug_domains" ] || export FILEMOND_DEBUG_DOMAINS=$debug_domains

if [ "$run_daemon" = 1 ]; then
  filemond=$build_dir/daemon/filemond
  # under a wrapper such as valgrind, filemond starts and exits many times slower
  # bounds that only a hang reaches: a loaded machine and an ASan build are slow to start
  startup_sec=60
  [ -z "${FILEMOND_WRAPPER:-}" ] || startup_sec=120
  [ -x "$filemond" ] || die "$filemond is not built"
  # The subshell records filemond's exit status for the harness and for tests that stop
  # filemond themselves.
  (
    # filemond inherits the cgroup of this subshell
    [ -z "$memory_cgroup" ] || echo "$BASHPID" > "$memory_cgroup/cgroup.procs"
    # every domain's debug messages, or with --debug-domains only those domains'
    if [ -z "$debug_domains" ]; then
      verbosity=--verbose
    else
      verbosity=
      export G_MESSAGES_DEBUG=$debug_domains
    fi
    # shellcheck disable=SC2086  # FILEMOND_WRAPPER is a command line (valgrind ...), verbosity may be empty
    setpriv --pdeathsig TERM -- ${FILEMOND_WRAPPER:-} "$filemond" --config="$scratch/filemond.conf" $verbosity \
      </dev/null >>"$FILEMOND_LOG" 2>&1 &
    echo $! > "$scratch/filemond.pid"
    rc=0
    wait $! || rc=$?
    echo "$rc" > "$scratch/filemond.exit.tmp"
    mv "$scratch/filemond.exit.tmp" "$FILEMOND_EXIT_FILE"
  ) &
  for _ in $(seq 3000); do [ -s "$scratch/filemond.pid" ] && break; sleep 0.01; done
  filemond_pid=$(cat "$scratch/filemond.pid")
  if ! wait_name org.filemond.Filemond1 "$filemond_pid" "$startup_sec"; then
    echo "with-bus: filemond did not take org.filemond.Filemond1; its log:" >&2
    cat "$FILEMOND_LOG" >&2
    status=1
    exit 1
  fi
  export FILEMOND_PID=$filemond_pid
fi

# Background, so that a signal to the harness is handled at once; stdin stays the caller's.
exec 3<&0
"$@" <&3 3<&- &
command_pid=$!
exec 3<&-
wait "$command_pid" && status=0 || status=$?
command_pid=""
exit "$status"
