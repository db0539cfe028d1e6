#!/bin/bash
# test-man-pages.sh CONF_GEN EXAMPLE_CONF MAN_PAGE...: every man page renders without a
# warning, by man (as a reader sees it) and by groff with every warning on; and every key
# of the config table (CONF_GEN --keys) is in filemond.conf(5) and in the commented example
# configuration, so that neither drifts from what filemond accepts.
set -uo pipefail
gen=$1 example=$2
shift 2

TAP_PREFIX=/man/
. "$(dirname "$0")/../tap-check.sh"

conf_man=
for page in "$@"; do
  name=${page##*/}
  [ "$name" = filemond.conf.5 ] && conf_man=$page
  out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
  check "$name/man-warnings" '[ -z "$out" ] || { sed "s|^|# |" <<<"$out"; false; }'
  out=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1)
  check "$name/groff-ww" '[ -z "$out" ] || { sed "s|^|# |" <<<"$out"; false; }'
  check "$name/has-name-section" 'grep -q "^\.SH NAME" "$page"'
done

keys=$("$gen" --keys) || { echo "not ok $((n + 1)) - the generator lists the keys"; exit 1; }
check "config-table-not-empty" '[ "$(echo "$keys" | wc -l)" -ge 10 ]'
check "filemond.conf.5-given" '[ -n "$conf_man" ]'
while read -r group key; do
  check "filemond.conf.5/$key" 'grep -qF ".BI $key= " "$conf_man"'
  # the example lists each key commented out, under its group
  check "example/$key" 'awk -v g="$group" -v k="#$key=" '\''/^\[/ { in_g = ($0 == g) } in_g && index($0, k) == 1 { f = 1 } END { exit !f }'\'' "$example"'
done <<<"$keys"

tap_end
