#!/bin/bash
# test-cli.sh GROUP: filemonctl end to end, as the users an administrator would see it:
# fmtest (in the filemon group, allowed), nobody (refused), root. Run by
# tests/bus/with-bus.sh (a private bus, polkitd and filemond with the fake stap), except
# the groups 'usage' and 'no-bus', which need no bus at all. Output is TAP.
#
# Groups: usage, no-bus, no-daemon, control, refused, watch, gap, dump, save, terminal, hostile
# (hostile captures its own syscalls with the bpf backend: hostile names need real files).
set -uo pipefail

group=${1:?usage: test-cli.sh GROUP}
build_dir=${FILEMON_BUILD_DIR:?}
source_dir=${FILEMON_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ctl=$build_dir/client-cli/filemonctl
py=/usr/bin/python3
fixtures=$source_dir/tests/stap/fixtures
tmp=${FILEMON_TEST_TMP:-$(mktemp -d)}
n=0
failed=0

ok() {
  n=$((n + 1))
  echo "ok $n - $1"
}

not_ok() {
  n=$((n + 1))
  failed=$((failed + 1))
  echo "not ok $n - $1"
  shift
  local line
  for line in "$@"; do
    printf '%s\n' "$line" | sed 's/^/# /'
  done
}

# check NAME COMMAND...: passes when COMMAND succeeds
check() {
  local name=$1
  shift
  if "$@"; then ok "$name"; else not_ok "$name" "failed: $*"; fi
}

finish() {
  echo "1..$n"
  [ "$failed" = 0 ]
  exit $?
}

as_fmtest() { setpriv --reuid=64000 --regid=64000 --init-groups -- "$@"; }
as_nobody() { setpriv --reuid=65534 --regid=65534 --init-groups -- "$@"; }

# run_ctl USER OUT ERR ARGS...: runs filemonctl as USER, stdout to OUT, stderr to ERR;
# sets $rc to its exit status.
run_ctl() {
  local user=$1 out=$2 err=$3
  shift 3
  rc=0
  case $user in
    root) "$ctl" "$@" >"$out" 2>"$err" </dev/null || rc=$? ;;
    fmtest) as_fmtest "$ctl" "$@" >"$out" 2>"$err" </dev/null || rc=$? ;;
    nobody) as_nobody "$ctl" "$@" >"$out" 2>"$err" </dev/null || rc=$? ;;
  esac
}

# expect_exit NAME WANT USER ARGS...: filemonctl exits WANT with a one-line message
expect_exit() {
  local name=$1 want=$2 user=$3
  shift 3
  run_ctl "$user" "$tmp/out" "$tmp/err" "$@"
  if [ "$rc" = "$want" ]; then
    ok "$name"
  else
    not_ok "$name" "filemonctl $* as $user exited $rc, expected $want" "stderr: $(cat "$tmp/err")"
  fi
}

# The fixture the fake stap replays at the next Start (tests/stap/fixtures); the capture
# then keeps running without further events.
use_fixture() {
  echo "export FILEMON_FAKE_STAP_FIXTURE='$fixtures/$1'" > "$FILEMON_FAKE_STAP_ENV"
  echo "export FILEMON_FAKE_STAP_AFTER=hang" >> "$FILEMON_FAKE_STAP_ENV"
}

status_field() {
  "$ctl" status 2>/dev/null | sed -n "s/^$1: *\([^ ]*\).*/\1/p"
}

# Waits until the daemon captured every event of the fixture (the count stops growing).
wait_captured() {
  local last=-1 now i
  for i in $(seq 100); do
    now=$(status_field Events)
    if [ -n "$now" ] && [ "$now" != 0 ] && [ "$now" = "$last" ]; then
      return 0
    fi
    last=$now
    sleep 0.1
  done
  return 1
}

# streams_opened: how many event streams filemond has opened since it started (its log
# says so once a stream is registered, before OpenStream answers).
streams_opened() {
  grep -c 'stream opened for' "$FILEMOND_LOG"
}

# wait_streams N: waits until filemond has opened N streams, so that a watcher is known to
# be there before what it must see happens.
wait_streams() {
  local i
  for i in $(seq 600); do
    [ "$(streams_opened)" -ge "$1" ] && return 0
    sleep 0.1
  done
  return 1
}

# wait_lines FILE N: waits until FILE has N lines (a watcher has written N events).
wait_lines() {
  local i
  for i in $(seq 600); do
    [ "$(wc -l < "$1")" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}

# buffered_count [FILTER]: how many buffered events match FILTER (all without one).
buffered_count() {
  "$ctl" dump --format=jsonl "$@" </dev/null | wc -l
}

# Starts a capture of fixture $1 as fmtest and waits until it is all in the buffer.
capture() {
  use_fixture "$1"
  run_ctl fmtest "$tmp/out" "$tmp/err" start
  [ "$rc" = 0 ] || { not_ok "capture of $1 starts" "$(cat "$tmp/err")"; return 1; }
  wait_captured || { not_ok "the fake stap's events of $1 arrive" "$("$ctl" status 2>&1)"; return 1; }
  return 0
}

fmtest_dir() {
  mkdir -p -m 0755 "$tmp/fmtest"
  chown 64000:64000 "$tmp/fmtest"
  echo "$tmp/fmtest"
}

case $group in
usage)
  # Usage errors are found before the bus is asked: no daemon needed.
  export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/filemon-test
  expect_exit "/usage/unknown-option-exits-2" 2 root watch --no-such-option
  grep -q "filemonctl watch --help" "$tmp/err" && ok "/usage/unknown-option-points-at-help" \
    || not_ok "/usage/unknown-option-points-at-help" "$(cat "$tmp/err")"
  expect_exit "/usage/unknown-command-exits-2" 2 root frobnicate
  expect_exit "/usage/no-command-exits-2" 2 root
  expect_exit "/usage/bad-since-exits-2" 2 root watch --since=yesterday
  expect_exit "/usage/bad-format-exits-2" 2 root dump --format=xml
  expect_exit "/usage/bad-color-exits-2" 2 root watch --color=sometimes
  expect_exit "/usage/unknown-syscall-exits-2" 2 root start --syscalls=openat,frobnicate
  grep -q "frobnicate" "$tmp/err" && ok "/usage/unknown-syscall-is-named" \
    || not_ok "/usage/unknown-syscall-is-named" "$(cat "$tmp/err")"
  # the daemon's unknown-syscall message points here
  expect_exit "/usage/syscalls-help-exits-0" 0 root start --syscalls=help
  grep -qx openat "$tmp/out" && ok "/usage/syscalls-help-lists-names" \
    || not_ok "/usage/syscalls-help-lists-names" "$(head -3 "$tmp/out")"
  expect_exit "/usage/bad-pid-exits-2" 2 root start --pid=12x
  expect_exit "/usage/follow-children-needs-pid" 2 root start --follow-children
  expect_exit "/usage/long-comm-exits-2" 2 root start --comm=aaaaaaaaaaaaaaaaaaaa
  expect_exit "/usage/relative-path-prefix-exits-2" 2 root start --path-prefix=etc
  expect_exit "/usage/save-without-file-exits-2" 2 root save
  expect_exit "/usage/help-exits-0" 0 root --help
  for cmd in start stop status watch dump save; do
    expect_exit "/usage/$cmd/help-exits-0" 0 root "$cmd" --help
  done
  run_ctl root "$tmp/out" "$tmp/err" start --syscalls=help
  grep -qx openat "$tmp/out" && grep -qx unlink "$tmp/out" && ok "/usage/syscalls-help-lists-names" \
    || not_ok "/usage/syscalls-help-lists-names" "$(head "$tmp/out")"
  # every name of the table, the newer calls too; each one alone or marked as missing
  for name in setxattrat file_getattr close_range mount_setattr fadvise64; do
    grep -Eqx "$name( \(not in kernel .*\))?" "$tmp/out" \
      && ok "/usage/syscalls-help-lists-$name" || not_ok "/usage/syscalls-help-lists-$name" "$(tail "$tmp/out")"
  done
  if [ "$(uname -m)" = x86_64 ] && grep -q ' __x64_sys_setxattrat$' /proc/kallsyms; then
    grep -qx setxattrat "$tmp/out" && ok "/usage/syscalls-help-present-unmarked" \
      || not_ok "/usage/syscalls-help-present-unmarked" "$(grep setxattrat "$tmp/out")"
  else
    grep -q '^setxattrat (not in kernel ' "$tmp/out" && ok "/usage/syscalls-help-marks-missing" \
      || not_ok "/usage/syscalls-help-marks-missing" "$(grep setxattrat "$tmp/out")"
  fi

  # A filter that does not parse: exit 2, the message, a caret under the column.
  expect_exit "/usage/bad-filter-exits-2" 2 root dump 'comm=sshd and (pid=1'
  if "$py" - "$tmp/err" 'comm=sshd and (pid=1' <<'PY'
import re, sys
err = open(sys.argv[1]).read().splitlines()
text = sys.argv[2]
m = re.search(r"column (\d+)", err[0])
assert m, err
col = int(m.group(1))
shown = [i for i, l in enumerate(err) if l == "  " + text]
assert shown, err
caret = err[shown[0] + 1]
assert caret.rstrip().endswith("^") and caret.index("^") == 2 + col - 1, (caret, col)
PY
  then ok "/usage/bad-filter-caret-under-column"; else not_ok "/usage/bad-filter-caret-under-column" "$(cat "$tmp/err")"; fi
  expect_exit "/usage/bad-filter-in-watch-exits-2" 2 root watch 'path~(' 
  finish
  ;;

no-bus)
  export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/filemon-test
  for cmd in status start stop dump watch; do
    expect_exit "/no-bus/$cmd-exits-4" 4 root "$cmd"
  done
  grep -q "systemctl start filemond" "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ] \
    && ok "/no-bus/message-is-one-line-saying-what-to-do" \
    || not_ok "/no-bus/message-is-one-line-saying-what-to-do" "$(cat "$tmp/err")"
  finish
  ;;

no-daemon)
  # A bus and polkitd, but nobody owns org.filemond.Filemond1 (and nothing activates it).
  for cmd in status start stop dump watch; do
    expect_exit "/no-daemon/$cmd-exits-4" 4 fmtest "$cmd"
  done
  # a file fmtest may create, in this test's own directory: a fixed path in /tmp would be
  # shared with whatever else runs on the machine
  never=$(fmtest_dir)/never-written.jsonl
  expect_exit "/no-daemon/save-exits-4" 4 fmtest save "$never"
  grep -q "is filemond installed" "$tmp/err" && grep -q "systemctl start filemond" "$tmp/err" \
    && ok "/no-daemon/message-says-what-to-do" \
    || not_ok "/no-daemon/message-says-what-to-do" "$(cat "$tmp/err")"
  [ ! -e "$never" ] && ok "/no-daemon/save-creates-no-file" \
    || not_ok "/no-daemon/save-creates-no-file"
  finish
  ;;

control)
  use_fixture normal
  run_ctl fmtest "$tmp/out" "$tmp/err" status
  [ "$rc" = 0 ] && grep -q "^State: *idle" "$tmp/out" && ok "/control/status-idle-as-fmtest" \
    || not_ok "/control/status-idle-as-fmtest" "rc $rc" "$(cat "$tmp/out" "$tmp/err")"
  expect_exit "/control/stop-when-idle-exits-1" 1 fmtest stop
  grep -q "filemonctl start" "$tmp/err" && ok "/control/stop-when-idle-says-what-to-do" \
    || not_ok "/control/stop-when-idle-says-what-to-do" "$(cat "$tmp/err")"
  expect_exit "/control/start-as-fmtest" 0 fmtest start --backend=stap --syscalls=openat,unlink,rename
  if wait_captured; then ok "/control/events-arrive"; else not_ok "/control/events-arrive"; fi
  run_ctl fmtest "$tmp/out" "$tmp/err" status
  if [ "$rc" = 0 ] && grep -q "^State: *running" "$tmp/out" && grep -q "^Backend: *stap" "$tmp/out" &&
     grep -q "^Events: *[1-9]" "$tmp/out" && grep -q "^Dropped: *[0-9]" "$tmp/out" && grep -q "^Filtered: *[0-9]" "$tmp/out" &&
     grep -q "^Buffer: *[1-9][0-9]* of [1-9]" "$tmp/out" && grep -q "^Started at: " "$tmp/out" &&
     grep -q "syscalls=\['openat', 'unlink', 'rename'\]" "$tmp/out"; then
    ok "/control/status-running-shows-backend-counters-buffer-options"
  else
    not_ok "/control/status-running-shows-backend-counters-buffer-options" "$(cat "$tmp/out" "$tmp/err")"
  fi
  expect_exit "/control/second-start-exits-1" 1 fmtest start
  grep -q "filemonctl stop" "$tmp/err" && ok "/control/second-start-says-what-to-do" \
    || not_ok "/control/second-start-says-what-to-do" "$(cat "$tmp/err")"
  expect_exit "/control/stop-as-fmtest" 0 fmtest stop
  # stop returns once the capture has ended
  state=$(status_field State)
  [ "$state" = idle ] && ok "/control/idle-after-stop" || not_ok "/control/idle-after-stop" "state $state"
  run_ctl fmtest "$tmp/out" "$tmp/err" dump
  [ "$rc" = 0 ] && [ -s "$tmp/out" ] && ok "/control/buffer-readable-after-stop" \
    || not_ok "/control/buffer-readable-after-stop" "rc $rc" "$(cat "$tmp/err")"
  expect_exit "/control/start-with-all-options" 0 fmtest start --backend=stap --pid=1 --pid=2 \
    --follow-children --uid=root --uid=64000 --comm=cat --failed-only --path-prefix=/etc
  run_ctl fmtest "$tmp/out" "$tmp/err" status
  grep -q "pids=\[uint32 1, 2\]\|pids=\[1, 2\]" "$tmp/out" && grep -q "uids=\[uint32 0, 64000\]\|uids=\[0, 64000\]" "$tmp/out" \
    && ok "/control/options-reach-the-daemon" || not_ok "/control/options-reach-the-daemon" "$(cat "$tmp/out")"
  expect_exit "/control/stop-again" 0 fmtest stop
  # the filter: its words are one text, the options are conjuncts of the same filter
  expect_exit "/control/start-with-a-filter" 0 fmtest start --backend=stap --uid=64000 \
    'syscall=open*' and comm=cat or comm=sshd
  run_ctl fmtest "$tmp/out" "$tmp/err" status
  grep -q "filter='syscall=open\* and comm=cat or comm=sshd'" "$tmp/out" \
    && grep -q "comms=\['cat', 'sshd'\]" "$tmp/out" && grep -q "uids=\[uint32 64000\]\|uids=\[64000\]" "$tmp/out" \
    && ok "/control/filter-and-its-kernel-part-reach-the-daemon" \
    || not_ok "/control/filter-and-its-kernel-part-reach-the-daemon" "$(cat "$tmp/out")"
  expect_exit "/control/stop-the-filtered-one" 0 fmtest stop
  expect_exit "/control/bad-filter-exits-2" 2 fmtest start 'pid=1 and (comm=x'
  grep -q "bad filter: column 18: expected )" "$tmp/err" && grep -q "^ *\^$" "$tmp/err" \
    && ok "/control/bad-filter-points-at-its-column" \
    || not_ok "/control/bad-filter-points-at-its-column" "$(cat "$tmp/err")"
  # a capture whose backend dies before it runs: start says why, unless told not to wait
  use_fixture missing
  expect_exit "/control/start-that-fails-exits-1" 1 fmtest start --backend=stap
  grep -q "did not run: .*cannot read the fixture" "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ] \
    && ok "/control/start-that-fails-says-why" || not_ok "/control/start-that-fails-says-why" "$(cat "$tmp/err")"
  expect_exit "/control/start-no-wait-returns-at-launch" 0 fmtest start --backend=stap --no-wait
  for _ in $(seq 50); do
    [ "$(status_field State)" = failed ] && break
    sleep 0.1
  done
  use_fixture normal
  expect_exit "/control/start-after-a-failed-one" 0 fmtest start --backend=stap
  [ "$(status_field State)" = running ] && ok "/control/start-returns-when-running" \
    || not_ok "/control/start-returns-when-running" "$("$ctl" status 2>&1)"
  expect_exit "/control/stop-at-last" 0 fmtest stop
  # A backend that takes its time to end (stap unloading its module; the fake one waits 2
  # s after SIGTERM): stop waits for it, so that a start can follow at once, which filemond
  # refuses while the last capture is still stopping.
  use_fixture normal
  echo "export FILEMON_FAKE_STAP_STOP_DELAY=2" >> "$FILEMON_FAKE_STAP_ENV"
  expect_exit "/control/start-a-slow-stopper" 0 fmtest start --backend=stap
  expect_exit "/control/stop-waits-for-a-slow-stopper" 0 fmtest stop
  state=$(status_field State)
  [ "$state" = idle ] && ok "/control/idle-when-stop-returns" \
    || not_ok "/control/idle-when-stop-returns" "state $state"
  expect_exit "/control/start-right-after-stop" 0 fmtest start --backend=stap
  expect_exit "/control/stop-no-wait" 0 fmtest stop --no-wait
  expect_exit "/control/stop-no-wait-then-stop-is-not-running" 1 fmtest stop
  finish
  ;;

refused)
  use_fixture normal
  for cmd in start stop watch dump; do
    expect_exit "/refused/nobody-$cmd-exits-3" 3 nobody "$cmd"
    if grep -q "filemon” group\|filemon\" group\|filemon group" "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ]; then
      ok "/refused/nobody-$cmd-message-names-the-group"
    else
      not_ok "/refused/nobody-$cmd-message-names-the-group" "$(cat "$tmp/err")"
    fi
  done
  mkdir -p -m 0777 "$tmp/public"
  expect_exit "/refused/nobody-save-exits-3" 3 nobody save "$tmp/public/nobody.jsonl"
  [ ! -e "$tmp/public/nobody.jsonl" ] && ok "/refused/refused-save-leaves-no-file" \
    || not_ok "/refused/refused-save-leaves-no-file"
  # status shows anybody the public properties (whether a capture runs), and the options
  # and counters only to those allowed to subscribe
  expect_exit "/refused/nobody-may-read-status" 0 nobody status
  if grep -q '^State:' "$tmp/out" && grep -q 'not shown' "$tmp/out" &&
     ! grep -Eq '^(Events|Options|Started at):' "$tmp/out"; then
    ok "/refused/nobody-status-shows-no-counters"
  else
    not_ok "/refused/nobody-status-shows-no-counters" "$(cat "$tmp/out")"
  fi
  expect_exit "/refused/no-ask-password-still-refused" 3 nobody --no-ask-password start
  finish
  ;;

watch)
  use_fixture normal
  # live: a watcher that is there before the capture starts sees every event
  # setpriv directly, not through a function: a backgrounded function is a subshell
  # that would receive (and ignore) the SIGINT meant for filemonctl
  streams=$(streams_opened)
  setpriv --reuid=64000 --regid=64000 --init-groups -- \
    "$ctl" watch --json >"$tmp/live.jsonl" 2>"$tmp/live.err" </dev/null &
  watcher=$!
  setpriv --reuid=64000 --regid=64000 --init-groups -- \
    "$ctl" watch >"$tmp/live.txt" 2>"$tmp/live-txt.err" </dev/null &
  text_watcher=$!
  wait_streams $((streams + 2)) || not_ok "/watch/live-watchers-connect" "$(tail -5 "$FILEMOND_LOG")"
  capture normal || finish
  events=$(buffered_count)
  # the text watcher's first line says the capture started
  wait_lines "$tmp/live.jsonl" "$events"
  wait_lines "$tmp/live.txt" $((events + 1))
  # someone stops the shared capture: both watchers are told, and go on
  expect_exit "/watch/stop-while-watched" 0 fmtest stop
  wait_lines "$tmp/live.txt" $((events + 2))
  wait_lines "$tmp/live.err" 2
  kill -INT "$watcher" "$text_watcher"
  rc=0
  wait "$watcher" || rc=$?
  [ "$rc" = 0 ] && ok "/watch/sigint-exits-0" || not_ok "/watch/sigint-exits-0" "rc $rc" "$(cat "$tmp/live.err")"
  rc=0
  wait "$text_watcher" || rc=$?
  [ "$rc" = 0 ] && ok "/watch/text-sigint-exits-0" \
    || not_ok "/watch/text-sigint-exits-0" "rc $rc" "$(cat "$tmp/live-txt.err")"
  run_ctl fmtest "$tmp/all.jsonl" "$tmp/err" dump --format=jsonl
  cmp -s "$tmp/all.jsonl" "$tmp/live.jsonl" && ok "/watch/live-sees-every-event" \
    || not_ok "/watch/live-sees-every-event" "$(diff "$tmp/all.jsonl" "$tmp/live.jsonl" | head -20)"
  # the capture notes name the first sequence number of the capture and the one after its end
  first_seq=$("$py" -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["seq"])' "$tmp/all.jsonl")
  end_seq=$(($("$py" -c 'import json,sys; print(json.loads(open(sys.argv[1]).readlines()[-1])["seq"])' "$tmp/all.jsonl") + 1))
  started="a capture started at seq $first_seq: 'filemonctl status' shows its options"
  stopped="the capture stopped before seq $end_seq: this watch goes on and shows the next one"
  [ "$(head -n 1 "$tmp/live.txt")" = "-- $started --" ] && [ "$(tail -n 1 "$tmp/live.txt")" = "-- $stopped --" ] \
    && [ "$(grep -c '^-- ' "$tmp/live.txt")" = 2 ] && ok "/watch/text-notes-capture-started-and-stopped-inline" \
    || not_ok "/watch/text-notes-capture-started-and-stopped-inline" "$(head -n 2 "$tmp/live.txt")" "$(tail -n 2 "$tmp/live.txt")"
  printf 'filemonctl: %s\nfilemonctl: %s\n' "$started" "$stopped" | cmp -s - "$tmp/live.err" \
    && ok "/watch/json-notes-capture-on-stderr" \
    || not_ok "/watch/json-notes-capture-on-stderr" "$(cat "$tmp/live.err")"

  # --since=start and a filter: exactly the matching buffered events, in order. The
  # filters are chosen from the fixture's events so that each matches some, not all.
  "$py" "$source_dir/tests/cli/jsonl-filter.py" choose "$tmp/all.jsonl" > "$tmp/filters" \
    || not_ok "/watch/fixture-has-varied-events" "$(cat "$tmp/filters")"
  # all watchers at once, each ending by itself once it printed as many events as the
  # reference selects (--count; the timeout only ends a hang)
  mapfile -t filters < "$tmp/filters"
  pids=()
  for i in "${!filters[@]}"; do
    want=$("$py" "$source_dir/tests/cli/jsonl-filter.py" count "$tmp/all.jsonl" "${filters[i]}")
    timeout 120 setpriv --reuid=64000 --regid=64000 --init-groups -- \
      "$ctl" watch --since=start --json --count="$want" "${filters[i]}" >"$tmp/w$i.jsonl" 2>"$tmp/w$i.err" </dev/null &
    pids+=($!)
  done
  rc=0
  for i in "${!filters[@]}"; do
    wait "${pids[i]}" || rc=$?
    if out=$("$py" "$source_dir/tests/cli/jsonl-filter.py" check "$tmp/all.jsonl" "$tmp/w$i.jsonl" "${filters[i]}" 2>&1); then
      ok "/watch/since-start-filter/${filters[i]}"
    else
      not_ok "/watch/since-start-filter/${filters[i]}" "$out" "$(cat "$tmp/w$i.err")"
    fi
  done
  [ "$rc" = 0 ] && ok "/watch/count-exits-0" || not_ok "/watch/count-exits-0" "rc $rc"

  # --since=SEQ starts at that sequence number
  seq3=$("$py" -c 'import json,sys; print([json.loads(l)["seq"] for l in open(sys.argv[1])][2])' "$tmp/all.jsonl")
  timeout 120 "$ctl" watch --json --since="$seq3" --count=$(($(wc -l < "$tmp/all.jsonl") - 2)) \
    >"$tmp/w.jsonl" 2>/dev/null </dev/null
  tail -n +3 "$tmp/all.jsonl" | cmp -s - "$tmp/w.jsonl" && ok "/watch/since-seq-starts-there" \
    || not_ok "/watch/since-seq-starts-there"

  # the daemon going away ends the watch with exit 4
  streams=$(streams_opened)
  setpriv --reuid=64000 --regid=64000 --init-groups -- \
    "$ctl" watch >/dev/null 2>"$tmp/gone.err" </dev/null &
  watcher=$!
  wait_streams $((streams + 1)) || not_ok "/watch/last-watcher-connects" "$(tail -5 "$FILEMOND_LOG")"
  touch "$FILEMON_TEST_TMP/filemond-exit-expected"
  kill -TERM "$FILEMOND_PID"
  rc=0
  wait "$watcher" || rc=$?
  [ "$rc" = 4 ] && grep -q "filemond" "$tmp/gone.err" && ok "/watch/daemon-exit-exits-4" \
    || not_ok "/watch/daemon-exit-exits-4" "rc $rc" "$(cat "$tmp/gone.err")"
  finish
  ;;

dump)
  capture normal || finish
  run_ctl fmtest "$tmp/all.jsonl" "$tmp/err" dump --format=jsonl
  [ "$rc" = 0 ] && [ -s "$tmp/all.jsonl" ] && ok "/dump/jsonl" || not_ok "/dump/jsonl" "$(cat "$tmp/err")"
  run_ctl fmtest "$tmp/all.csv" "$tmp/err" dump --format=csv
  [ "$rc" = 0 ] && ok "/dump/csv" || not_ok "/dump/csv" "$(cat "$tmp/err")"
  run_ctl fmtest "$tmp/all.txt" "$tmp/err" dump
  [ "$rc" = 0 ] && ok "/dump/text-by-default" || not_ok "/dump/text-by-default" "$(cat "$tmp/err")"
  # a filter makes filemonctl render the lines itself: the same bytes as the daemon's
  run_ctl fmtest "$tmp/f.jsonl" "$tmp/err" dump --format=jsonl 'pid>=0'
  cmp -s "$tmp/all.jsonl" "$tmp/f.jsonl" && ok "/dump/filtered-jsonl-same-bytes-as-daemon" \
    || not_ok "/dump/filtered-jsonl-same-bytes-as-daemon" "$(diff "$tmp/all.jsonl" "$tmp/f.jsonl" | head)"
  run_ctl fmtest "$tmp/f.csv" "$tmp/err" dump --format=csv 'pid>=0'
  cmp -s "$tmp/all.csv" "$tmp/f.csv" && ok "/dump/filtered-csv-same-bytes-as-daemon" \
    || not_ok "/dump/filtered-csv-same-bytes-as-daemon" "$(diff "$tmp/all.csv" "$tmp/f.csv" | head)"
  # text is rendered by filemonctl (local times): the same lines as the daemon's text
  "$ctl" save --format=text "$tmp/daemon.txt" >/dev/null
  cmp -s "$tmp/all.txt" "$tmp/daemon.txt" && ok "/dump/text-same-bytes-as-daemon" \
    || not_ok "/dump/text-same-bytes-as-daemon" "$(diff "$tmp/all.txt" "$tmp/daemon.txt" | head)"
  run_ctl fmtest "$tmp/failed.csv" "$tmp/err" dump --format=csv 'result<0'
  run_ctl fmtest "$tmp/since.jsonl" "$tmp/err" dump --format=jsonl --since=3
  # re-read every format and compare it with the jsonl
  if "$py" - "$tmp" <<'PY'
import csv, io, json, sys
d = sys.argv[1]
ev = [json.loads(l) for l in open(d + "/all.jsonl")]
assert len(ev) >= 3, len(ev)
rows = list(csv.DictReader(io.open(d + "/all.csv", newline="")))
assert len(rows) == len(ev), (len(rows), len(ev))
for e, r in zip(ev, rows):
    for k in ("seq", "pid", "ppid", "tid", "uid", "result", "time_ns"):
        assert int(r[k]) == e[k], (k, r, e)
    for k in ("syscall", "comm", "path", "path2", "detail"):
        if e[k].isprintable() and "\\" not in e[k]:
            assert r[k] == e[k], (k, r, e)
text = open(d + "/all.txt", encoding="utf-8", errors="replace").read().splitlines()
assert len(text) == len(ev), (len(text), len(ev))
for e, line in zip(ev, text):
    assert e["syscall"] + "(" in line, (e, line)
    if e["path"].isprintable() and '"' not in e["path"] and "\\" not in e["path"]:
        assert e["path"] in line, (e, line)
failed = list(csv.DictReader(io.open(d + "/failed.csv", newline="")))
assert [int(r["seq"]) for r in failed] == [e["seq"] for e in ev if e["result"] < 0]
assert failed, "no failed call in the fixture"
since = [json.loads(l)["seq"] for l in open(d + "/since.jsonl")]
assert since == [e["seq"] for e in ev if e["seq"] >= 3], since
PY
  then ok "/dump/formats-reread-agree"; else not_ok "/dump/formats-reread-agree"; fi
  # dump | head: the reader going away is no error
  rc=0
  as_fmtest "$ctl" dump 2>"$tmp/err" </dev/null | head -n 1 >/dev/null || true
  [ ! -s "$tmp/err" ] && ok "/dump/closed-pipe-is-quiet" || not_ok "/dump/closed-pipe-is-quiet" "$(cat "$tmp/err")"
  finish
  ;;

save)
  capture normal || finish
  dir=$(fmtest_dir)
  run_ctl fmtest "$tmp/all.jsonl" "$tmp/err" dump --format=jsonl
  run_ctl fmtest "$tmp/out" "$tmp/err" save "$dir/capture.jsonl"
  [ "$rc" = 0 ] && grep -q "^Saved [1-9][0-9]* events to" "$tmp/out" && ok "/save/jsonl-as-fmtest" \
    || not_ok "/save/jsonl-as-fmtest" "rc $rc" "$(cat "$tmp/out" "$tmp/err")"
  cmp -s "$tmp/all.jsonl" "$dir/capture.jsonl" && ok "/save/file-holds-the-buffer" \
    || not_ok "/save/file-holds-the-buffer"
  [ "$(stat -c '%u %a' "$dir/capture.jsonl")" = "64000 644" ] && ok "/save/file-is-the-callers-own-0644" \
    || not_ok "/save/file-is-the-callers-own-0644" "$(stat -c '%u %a' "$dir/capture.jsonl")"
  as_fmtest sh -c "umask 077; exec '$ctl' save '$dir/private.csv'" >/dev/null 2>&1
  [ "$(stat -c '%a' "$dir/private.csv" 2>/dev/null)" = 600 ] && ok "/save/umask-applies" \
    || not_ok "/save/umask-applies"
  head -n 1 "$dir/private.csv" | grep -q "^seq," && ok "/save/format-from-csv-suffix" \
    || not_ok "/save/format-from-csv-suffix"
  run_ctl fmtest "$tmp/out" "$tmp/err" save --format=text "$dir/capture.jsonl"
  run_ctl fmtest "$tmp/all.txt" "$tmp/err" dump --format=text
  cmp -s "$tmp/all.txt" "$dir/capture.jsonl" && ok "/save/truncates-and-honours-format" \
    || not_ok "/save/truncates-and-honours-format"
  # the client opens the file with its own rights: fmtest cannot write into root's dir
  mkdir -m 0755 "$tmp/rootonly"
  expect_exit "/save/unwritable-path-exits-1" 1 fmtest save "$tmp/rootonly/x.jsonl"
  grep -q "cannot open" "$tmp/err" && [ ! -e "$tmp/rootonly/x.jsonl" ] \
    && ok "/save/unwritable-path-says-why" || not_ok "/save/unwritable-path-says-why" "$(cat "$tmp/err")"
  # filemonctl writes the file itself, from the pipe the daemon fills (the harness's tmp
  # is a tmpfs, where filemond refuses to write): a full file system is its error
  mkdir -m 0777 "$tmp/full"
  mount -t tmpfs -o size=4k,mode=0777 filemon-full "$tmp/full"
  head -c 4096 /dev/zero > "$tmp/full/filler" 2>/dev/null || true
  expect_exit "/save/full-file-system-exits-1" 1 fmtest save "$tmp/full/x.jsonl"
  grep -q "cannot write .*x.jsonl: No space left" "$tmp/err" && [ ! -e "$tmp/full/x.jsonl" ] \
    && ok "/save/full-file-system-says-why-and-leaves-no-file" \
    || not_ok "/save/full-file-system-says-why-and-leaves-no-file" "$(cat "$tmp/err")"
  umount "$tmp/full"
  finish
  ;;

terminal)
  capture normal || finish
  # script(1) gives filemonctl a terminal as stdout
  script_run() {
    as_fmtest script -qfec "$1" /dev/null </dev/null | tr -d '\r'
  }
  script_run "'$ctl' dump" > "$tmp/tty.txt"
  grep -q $'\e\[31m' "$tmp/tty.txt" && ok "/terminal/failures-red-on-a-terminal" \
    || not_ok "/terminal/failures-red-on-a-terminal" "$(head -5 "$tmp/tty.txt" | cat -v)"
  if "$py" - "$tmp/tty.txt" <<'PY'
import sys
for line in open(sys.argv[1], "rb").read().splitlines():
    if b"\x1b[31m" in line:
        assert line.startswith(b"\x1b[31m") and line.endswith(b"\x1b[0m"), line
        assert b"= -" in line, line
    else:
        assert b"\x1b" not in line, line
PY
  then ok "/terminal/only-failed-lines-red-and-reset"; else not_ok "/terminal/only-failed-lines-red-and-reset"; fi
  script_run "timeout 120 '$ctl' watch --since=start --count=$(buffered_count)" > "$tmp/tty-watch.txt"
  grep -q $'\e\[31m' "$tmp/tty-watch.txt" && ok "/terminal/watch-red-on-a-terminal" \
    || not_ok "/terminal/watch-red-on-a-terminal" "$(head -5 "$tmp/tty-watch.txt" | cat -v)"
  script_run "NO_COLOR=1 '$ctl' dump" > "$tmp/nocolor.txt"
  ! grep -q $'\e' "$tmp/nocolor.txt" && [ -s "$tmp/nocolor.txt" ] && ok "/terminal/no-color-honoured" \
    || not_ok "/terminal/no-color-honoured"
  script_run "'$ctl' dump --color=never" > "$tmp/never.txt"
  ! grep -q $'\e' "$tmp/never.txt" && ok "/terminal/color-never" || not_ok "/terminal/color-never"
  as_fmtest "$ctl" dump </dev/null | cat > "$tmp/pipe.txt"
  ! grep -q $'\e' "$tmp/pipe.txt" && [ -s "$tmp/pipe.txt" ] && ok "/terminal/pipe-gets-no-colour" \
    || not_ok "/terminal/pipe-gets-no-colour"
  timeout 120 "$ctl" watch --since=start --count="$(buffered_count)" </dev/null | cat > "$tmp/pipe-watch.txt"
  ! grep -q $'\e' "$tmp/pipe-watch.txt" && [ -s "$tmp/pipe-watch.txt" ] && ok "/terminal/watch-pipe-gets-no-colour" \
    || not_ok "/terminal/watch-pipe-gets-no-colour"
  as_fmtest "$ctl" dump --color=always </dev/null | cat > "$tmp/always.txt"
  grep -q $'\e\[31m' "$tmp/always.txt" && ok "/terminal/color-always-in-a-pipe" \
    || not_ok "/terminal/color-always-in-a-pipe"
  # stop on a terminal says what it waits for: a stap that takes 8 s to end, and `timeout`
  # ends the waiting filemonctl at 5 s, 4 s after it speaks
  expect_exit "/terminal/stop-the-capture" 0 fmtest stop
  use_fixture normal
  echo "export FILEMON_FAKE_STAP_STOP_DELAY=8" >> "$FILEMON_FAKE_STAP_ENV"
  expect_exit "/terminal/start-a-slow-stopper" 0 fmtest start --backend=stap
  script_run "timeout 5 '$ctl' stop" > "$tmp/tty-stop.txt"
  grep -qx "filemonctl: stop: waiting for the stap capture to end..." "$tmp/tty-stop.txt" \
    && ok "/terminal/stop-says-what-it-waits-for" \
    || not_ok "/terminal/stop-says-what-it-waits-for" "$(cat -v "$tmp/tty-stop.txt")"
  finish
  ;;

hostile)
  # Real file names holding ESC ]0; (set the terminal title), BEL and ESC [2J (clear the
  # screen), captured by the bpf backend from this test's own syscalls.
  dir=$(fmtest_dir)
  expect_exit "/hostile/start-bpf-capture" 0 fmtest start --backend=bpf --path-prefix="$dir"
  for _ in $(seq 600); do [ "$(status_field State)" = running ] && break; sleep 0.1; done
  esc=$'\e'
  touch "$dir/evil${esc}]0;pwned"$'\a'
  cat "$dir/evil${esc}[2Jmissing" 2>/dev/null
  for _ in $(seq 600); do
    "$ctl" dump evil 2>/dev/null | grep -q missing && break
    sleep 0.1
  done
  for mode in "dump" "dump --color=always" "dump --format=csv" "dump --format=jsonl" "dump evil"; do
    # shellcheck disable=SC2086  # $mode is words
    as_fmtest "$ctl" $mode </dev/null > "$tmp/h.out" 2>"$tmp/h.err"
    if "$py" - "$tmp/h.out" "$mode" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
mode = sys.argv[2]
assert b"evil" in data and b"missing" in data, data[:300]
rest = data.replace(b"\x1b[31m", b"").replace(b"\x1b[0m", b"")
assert b"\x1b" not in rest, "a raw ESC reached the output"
assert b"\x07" not in rest, "a raw BEL reached the output"
if "jsonl" in mode:
    assert b"\\u001b" in data, data
else:
    assert b"\\x1b" in data, data
PY
    then ok "/hostile/esc-in-file-name-escaped/$mode"; else not_ok "/hostile/esc-in-file-name-escaped/$mode" "$(cat -v "$tmp/h.out" | head -5)" "$(cat "$tmp/h.err")"; fi
  done
  timeout 120 setpriv --reuid=64000 --regid=64000 --init-groups -- \
    "$ctl" watch --since=start --color=always --count="$(buffered_count evil)" evil </dev/null > "$tmp/hw.out"
  if "$py" - "$tmp/hw.out" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
assert b"evil" in data and b"\\x1b" in data, data
assert b"\x1b[31m" in data, "the failed open is not red"
# a note (events the kernel dropped on a loaded machine) comes whole in its own colour
events = b"\n".join(l for l in data.splitlines()
                    if not (l.startswith(b"\x1b[33m-- ") and l.endswith(b" --\x1b[0m")))
assert b"\x1b" not in events.replace(b"\x1b[31m", b"").replace(b"\x1b[0m", b"")
PY
  then ok "/hostile/watch-escapes-esc"; else not_ok "/hostile/watch-escapes-esc" "$(cat -v "$tmp/hw.out")"; fi
  expect_exit "/hostile/stop" 0 fmtest stop
  finish
  ;;

gap)
  # Readers that stop reading: the daemon drops events for them and the stream says how
  # many; watch prints that where they would have been (small ring and stream buffer,
  # harness --config). One watcher's stdout is a fifo that nobody reads until the capture
  # is over, the other is frozen by SIGSTOP until then. The fake stap replays a bounded
  # number of events, far more than the ring and the buffers between daemon and reader
  # hold, then exits: what each watcher writes is bounded, and whether it fell behind
  # does not depend on how fast the machine is. Both start at the first sequence number
  # (--since=1), so a watcher that connects late still has the overwritten events to miss.
  mkfifo -m 0666 "$tmp/fifo"
  exec 5<>"$tmp/fifo"
  echo "export FILEMON_FAKE_STAP_FIXTURE='$fixtures/normal'" > "$FILEMON_FAKE_STAP_ENV"
  echo "export FILEMON_FAKE_STAP_AFTER=repeat:2000" >> "$FILEMON_FAKE_STAP_ENV"
  setpriv --reuid=64000 --regid=64000 --init-groups -- \
    "$ctl" watch --since=1 --color=never >"$tmp/fifo" 2>"$tmp/gap.err" </dev/null &
  watcher=$!
  setpriv --reuid=64000 --regid=64000 --init-groups -- \
    "$ctl" watch --since=1 --json >"$tmp/gap.jsonl" 2>"$tmp/gap-json.err" </dev/null &
  json_watcher=$!
  kill -STOP "$json_watcher"
  run_ctl fmtest "$tmp/out" "$tmp/err" start
  # the fake stap has replayed everything and exited once the capture is no longer running
  for i in $(seq 600); do
    state=$(status_field State)
    case $state in starting|running|"") sleep 0.1 ;; *) break ;; esac
  done
  case $state in
    starting|running|"") not_ok "/gap/replay-ends" "State $state after a minute" ;;
    *) ok "/gap/replay-ends" ;;
  esac
  last_seq=$("$ctl" dump --format=jsonl 2>/dev/null | tail -n 1 \
             | "$py" -c 'import json, sys; print(json.loads(sys.stdin.read())["seq"])')
  kill -CONT "$json_watcher"
  # the fifo's reader reads until the gap note (or gives up after a minute: a failure)
  timeout 60 sed '/^-- missed .* --$/q' <&5 > "$tmp/gap.txt"
  # keep the fifo drained while the watchers stop: one blocked writing to a full fifo
  # would not get to handle SIGINT
  cat <&5 > /dev/null &
  drain=$!
  # the thawed watcher has written everything up to the last event
  for i in $(seq 600); do
    [ "$(tail -n 1 "$tmp/gap.jsonl" 2>/dev/null | "$py" -c 'import json, sys; print(json.loads(sys.stdin.read())["seq"])' 2>/dev/null)" = "$last_seq" ] && break
    sleep 0.1
  done
  kill -INT "$watcher" "$json_watcher"
  wait "$watcher" "$json_watcher"
  kill "$drain" 2>/dev/null
  wait "$drain" 2>/dev/null
  exec 5<&-
  grep -q "^-- missed [1-9][0-9]* events (seq [0-9]* to [0-9]*): this reader fell behind --$" "$tmp/gap.txt" \
    && ok "/gap/text-shows-missed-events-inline" \
    || not_ok "/gap/text-shows-missed-events-inline" "$(grep -c . "$tmp/gap.txt") lines" "$(cat "$tmp/gap.err")"
  grep -q "missed [1-9][0-9]* events" "$tmp/gap-json.err" && ! grep -q "missed" "$tmp/gap.jsonl" \
    && ok "/gap/json-notes-go-to-stderr" \
    || not_ok "/gap/json-notes-go-to-stderr" "$(cat "$tmp/gap-json.err")"
  "$py" -c '
import json, sys
seqs = [json.loads(l)["seq"] for l in open(sys.argv[1])]
assert seqs and seqs == sorted(seqs) and len(set(seqs)) == len(seqs), "out of order or repeated"
assert seqs[-1] == int(sys.argv[2]), "ends at %d, not at the last event %s" % (seqs[-1], sys.argv[2])
' "$tmp/gap.jsonl" "$last_seq" && ok "/gap/json-stays-valid-and-ordered" || not_ok "/gap/json-stays-valid-and-ordered"
  finish
  ;;

*)
  echo "Bail out! unknown group $group"
  exit 1
  ;;
esac
