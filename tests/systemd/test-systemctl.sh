#!/bin/bash
# The installed service, for real: run by with-systemd.sh on the host side, acting inside the
# container through nsenter. systemctl start, a capture through filemonctl as a member of the
# filemon group, D-Bus activation from a stopped state, and a stop that leaves nothing behind.
set -euo pipefail

inside() { nsenter -t "$SYSTEMD_PID" -m -p -r -w "$@"; }
as_fmtest() { inside setpriv --reuid=fmtest --regid=filemon --init-groups "$@"; }
fail() { echo "FAIL: $*" >&2; inside systemctl status filemond --no-pager >&2 || true; inside journalctl -u filemond --no-pager -n 50 >&2 || true; exit 1; }

# What polkit and NSS see inside is the test's alone, whatever the host has (an admin's
# rule and a filemon group of its own made fmtest's Start refused here)
[ "$(inside ls -A /etc/polkit-1/rules.d)" = 50-filemon.rules ] ||
  fail "the container's polkit rules are not the test's: $(inside ls -A /etc/polkit-1/rules.d)"
[ "$(inside getent group filemon)" = "filemon:x:64000:fmtest" ] ||
  fail "the container's filemon group is not the test's: $(inside getent group filemon)"
inside test ! -e /etc/filemond || fail "the host's /etc/filemond shows in the container"

inside systemctl start filemond || fail "systemctl start filemond"
[ "$(inside systemctl is-active filemond)" = active ] || fail "filemond is not active after systemctl start"
inside systemctl status filemond --no-pager >/dev/null || fail "systemctl status filemond"

# A capture driven by an unprivileged member of the filemon group.
as_fmtest filemonctl start --backend=bpf || fail "filemonctl start as fmtest"
probe=/tmp/filemon-systemd-probe-$$
found=""
for _ in $(seq 600); do
  # again each time: filemond takes the records in from the kernel at its next read
  as_fmtest sh -c "cat $probe 2>/dev/null; true"
  found=$(as_fmtest filemonctl dump --format=jsonl "path=$probe" || true)
  [ -n "$found" ] && break
  sleep 0.1
done
echo "$found" | grep -q '"errno":"ENOENT"\|ENOENT' || fail "the failed open of $probe was not captured: '$found'"
echo "$found" | grep -q '"uid":64000' || fail "the event does not carry fmtest's uid: '$found'"
as_fmtest filemonctl stop || fail "filemonctl stop as fmtest"

# Stopping the service leaves no process behind.
inside systemctl stop filemond
[ "$(inside systemctl is-active filemond || true)" = inactive ] || fail "filemond still active after stop"
if inside pgrep -x filemond >/dev/null || inside pgrep -x stap >/dev/null; then
  fail "a filemond or stap process survived systemctl stop"
fi

# D-Bus activation: a client call starts the service again.
as_fmtest filemonctl status >/dev/null || fail "filemonctl status did not activate filemond"
[ "$(inside systemctl is-active filemond)" = active ] || fail "filemond was not activated by a client call"
inside systemctl stop filemond

# The watchdog: the unit enables it, and filemond pings at half the interval (systemd
# stamps each WATCHDOG=1 it gets). A short interval in a drop-in shows it in seconds.
# systemd shows the interval of a running service only.
inside systemctl start filemond
[ "$(inside systemctl show -p WatchdogUSec --value filemond)" = 3min ] \
  || fail "the unit's WatchdogSec is not 3min: $(inside systemctl show -p WatchdogUSec --value filemond)"
inside systemctl stop filemond
inside mkdir -p /etc/systemd/system/filemond.service.d
printf '[Service]\nWatchdogSec=4s\n' | inside tee /etc/systemd/system/filemond.service.d/watchdog.conf >/dev/null
inside systemctl daemon-reload
inside systemctl start filemond
ping_stamp() { inside systemctl show -p WatchdogTimestampMonotonic --value filemond; }
# the monotonic stamps of three pings in a row, each waited for (the timeout only ends a hang)
stamps=()
last=$(ping_stamp)
for _ in $(seq 300); do
  now=$(ping_stamp)
  if [ "$now" != "$last" ]; then
    stamps+=("$now")
    last=$now
    [ "${#stamps[@]}" = 3 ] && break
  fi
  sleep 0.1
done
[ "${#stamps[@]}" = 3 ] || fail "filemond sent ${#stamps[@]} watchdog pings in 30 s with WatchdogSec=4s"
for i in 1 2; do
  gap=$(( (stamps[i] - stamps[i - 1]) / 1000 ))
  # a timer does not fire early, so not much under 2000 ms (systemd may read a ping late);
  # above 4000 ms systemd would have killed filemond
  { [ "$gap" -ge 1000 ] && [ "$gap" -lt 4000 ]; } \
    || fail "watchdog pings ${gap} ms apart with WatchdogSec=4s: expected about 2000"
  echo "watchdog ping gap: ${gap} ms"
done
[ "$(inside systemctl show -p NRestarts --value filemond)" = 0 ] || fail "filemond was restarted"
inside systemctl stop filemond
echo "systemd tier: ok"
