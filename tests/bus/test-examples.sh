#!/bin/bash
# test-examples.sh: the scripting examples of doc/ run as documented, as a member of the
# filemon group, against a daemon replaying a known capture (run by with-bus.sh).
set -euo pipefail

examples=$FILEMON_SOURCE_DIR/doc/examples
work=$FILEMON_TEST_TMP
fixture=$FILEMON_SOURCE_DIR/tests/stap/fixtures/normal
as_fmtest() {
  setpriv --reuid=64000 --regid=64000 --init-groups -- "$@"
}
n=0 failed=0
check() {
  n=$((n + 1))
  # a command's own output goes to stderr: stdout is the TAP stream
  if "${@:2}" >&2; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=$((failed + 1)); fi
}

# The fake stap replays the fixture forever, so the capture stays running.
printf "export FILEMON_FAKE_STAP_FIXTURE='%s'\nexport FILEMON_FAKE_STAP_AFTER=forever\n" \
  "$fixture" > "$FILEMON_FAKE_STAP_ENV"
# the examples write where fmtest may
mkdir -m 0755 "$work/fmtest"
chown 64000:64000 "$work/fmtest"
work=$work/fmtest

shell_ok=true
as_fmtest sh "$examples/busctl-and-gdbus.sh" > "$work/shell.txt" 2>&1 || shell_ok=false
check "busctl-and-gdbus.sh runs" $shell_ok || sed 's/^/# /' "$work/shell.txt"
check "busctl-and-gdbus.sh shows the backends" grep -q '^a{ss}' "$work/shell.txt"

# A capture runs while the Python example watches for failures: the example subscribes
# first (filemond logs it), then a bounded replay starts; once the example has printed,
# Ctrl+C ends it as a user would (--seconds only bounds a hang).
# wait_for TIMEOUT CMD...: until CMD succeeds, FALSE after TIMEOUT seconds
wait_for() {
  local end=$((SECONDS + $1))
  shift
  until "$@"; do
    [ $SECONDS -lt $end ] || return 1
    sleep 0.1
  done
}
subscribers_added() { grep -c 'debug filemond-bus: subscriber .* added' "$FILEMOND_LOG" || true; }
state() {
  gdbus call --system --dest org.filemond.Filemond1 --object-path /org/filemond/Filemond1 \
    --method org.freedesktop.DBus.Properties.Get org.filemond.Filemond1 State
}
idle() { [ "$(state)" = "(<'idle'>,)" ]; }
# The shell example's Stop returns while its capture is still stopping (D-Bus API, Stop);
# a Start is refused until State is idle. filemond kills a stap that takes 30 s.
wait_for 60 idle || echo "# the shell example's capture did not stop: $(state)"
printf "export FILEMON_FAKE_STAP_FIXTURE='%s'\nexport FILEMON_FAKE_STAP_AFTER=repeat:50\n" \
  "$fixture" > "$FILEMON_FAKE_STAP_ENV"
before=$(subscribers_added)
# SIGINT as in a terminal: this script's jobs inherit it ignored (it runs in the
# background of with-bus.sh); job control gives the example a group to signal
set -m
as_fmtest env --default-signal=INT /usr/bin/python3 "$examples/filemon-failures.py" --seconds 600 \
  > "$work/failures.txt" 2> "$work/failures.err" &
failures_pid=$!
set +m
failures_ok=true
subscribed() { [ "$(subscribers_added)" -gt "$before" ]; }
wait_for 120 subscribed || failures_ok=false
gdbus call --system --dest org.filemond.Filemond1 --object-path /org/filemond/Filemond1 \
  --method org.filemond.Filemond1.Start '{}' > /dev/null
wait_for 120 test -s "$work/failures.txt" || failures_ok=false
kill -INT -- "-$failures_pid" 2>/dev/null || true   # the job's group: as_fmtest is a subshell
wait "$failures_pid" || failures_ok=false
check "filemon-failures.py runs" $failures_ok || sed 's/^/# /' "$work/failures.err"
check "filemon-failures.py prints failed calls" grep -q ' = -E' "$work/failures.txt"
check "filemon-failures.py prints only failed calls" bash -c "! grep -v ' = -E' '$work/failures.txt'"

# Save into a file the example opens itself.
check "filemon-save.py writes jsonl" as_fmtest /usr/bin/python3 "$examples/filemon-save.py" "$work/saved.jsonl"
check "the saved file holds events" bash -c "[ \$(wc -l < '$work/saved.jsonl') -gt 0 ] && head -n 1 '$work/saved.jsonl' | /usr/bin/python3 -c 'import json,sys; json.load(sys.stdin)'"
check "filemon-save.py --format csv" as_fmtest /usr/bin/python3 "$examples/filemon-save.py" "$work/saved.csv" --format csv

echo "1..$n"
[ "$failed" = 0 ]
