# tap-check.sh: TAP output for the shell tests that state their checks as shell text.
# Sourced after setting TAP_PREFIX (the checks' name prefix, e.g. /man/):
#   check NAME CONDITION   evaluates CONDITION and prints "ok N - PREFIXNAME" or "not ok"
#   tap_end                prints the plan; its status is the verdict
n=0
failed=0

check() {
  n=$((n + 1))
  if eval "$2"; then
    echo "ok $n - $TAP_PREFIX$1"
  else
    echo "not ok $n - $TAP_PREFIX$1"
    failed=$((failed + 1))
  fi
}

tap_end() {
  echo "1..$n"
  [ "$failed" -eq 0 ]
}
