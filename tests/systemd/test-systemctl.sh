#!/bin/bash
# The installed service, for real: run by with-systemd.sh on the host side, acting inside the
# container through nsenter. systemctl start, a capture through filemonctl as a member of the
# filemon group, D-Bus activation from a stopped state, and a stop that leaves nothing behind.
set -euo pipefail

inside() { nsenter -t "$SYSTEMD_PID" -m -p -r -w "$@"; }
as_fmtest() { inside setpriv --reuid=fmtest --regid=filemon --init-groups "$@"; }
fail() { echo "FAIL: $*" >&2; inside systemctl status filemond --no-pager >&2 || true; inside journalctl -u filemond --no-pager -n 50 >&2 || true; exit 1; }

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
echo "systemd tier: ok"
