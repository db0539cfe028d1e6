# fake-module.sh: sourced by fake-stap and its staprun: the module parameters they accept
# (valid_parameter), and what a filemond module loaded with
# its parameters prints of the recorded output $FILEMON_FAKE_STAP_FIXTURE.
# fake_module_filters SCRIPT PARAMETER...: the kernel-side filters of the script (its
# probes' syscalls) and of its module parameters (fmd_stap_script_parameters: pids, uids,
# failed-only), as the module applies them; filemond's remainder counts on them. Then
# filter_fixture prints the fixture less the records they exclude; lines that are not
# well-formed records go through: they test the parser. With FILEMON_FAKE_STAP_VERBATIM=1
# it prints all of it, as a broken module could.

# valid_parameter NAME=VALUE: what stap -G accepts (its safety pattern), and so what the
# kernel's parameter parser takes whole (no space, no quote)
valid_parameter() {
  [[ "$1" =~ ^[a-z_][a-z0-9_]*=[a-z0-9_.-]+$ ]]
}

# hex_ids LIST: the parameter's hexadecimal numbers ("7.1f") in decimal, comma-separated
hex_ids() {
  local out= x
  local IFS=.
  for x in $1; do out+=${out:+,}$((16#$x)); done
  printf '%s' "$out"
}

fake_module_filters() {
  local script=$1 p follow=0
  shift
  nrs=$(grep -o 'fm_enter([0-9][0-9]*,' <<<"$script" | sed 's/[^0-9]//g' | paste -sd, -)
  pids= uids= failed=0
  for p in "$@"; do
    case $p in
      fm_pids[12]=*) pids+=${pids:+,}$(hex_ids "${p#*=}") ;;
      fm_uids[12]=*) uids+=${uids:+,}$(hex_ids "${p#*=}") ;;
      fm_follow=1) follow=1 ;;
      fm_failed_only=1) failed=1 ;;
    esac
  done
  # followed children join the set inside the module: no pid set to apply here
  [ "$follow" = 0 ] || pids=
}

filter_fixture() {
  if [ "${FILEMON_FAKE_STAP_VERBATIM:-0}" = 1 ]; then
    cat "$FILEMON_FAKE_STAP_FIXTURE"
    return
  fi
  awk -F '\t' -v nrs="$nrs" -v pids="$pids" -v uids="$uids" -v failed="$failed" '
  function set(list, out,   n, a, i) { n = split(list, a, ","); for (i = 1; i <= n; i++) out[a[i]] = 1; return n }
  BEGIN { has_nrs = set(nrs, nr); has_pids = set(pids, pid); has_uids = set(uids, uid) }
  $1 == "E" && NF >= 9 && $2 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/ && $8 ~ /^[0-9]+$/ && $9 ~ /^-?[0-9]+$/ {
    if ((has_nrs && !($2 in nr)) || (has_pids && !($5 in pid)) || (has_uids && !($8 in uid)) \
        || (failed && $9 + 0 >= 0))
      next
  }
  { print }' "$FILEMON_FAKE_STAP_FIXTURE"
}
