#!/bin/bash
# test-fields.sh FIELDS_GEN FILEMONCTL MAN_PAGE COMPLETION: every filter field of the field
# table (common/fm-event-fields.h, listed by FIELDS_GEN --names) is described by
# `filemonctl watch --help`, the man page and the bash completion, and none of them names
# a field the table does not have.
set -uo pipefail
gen=$1 filemonctl=$2 man_page=$3 completion=$4

TAP_PREFIX=/fields/
. "$(dirname "$0")/../tap-check.sh"

names=$("$gen" --names) || { echo "not ok 1 - the generator lists the fields"; echo "1..1"; exit 1; }
help=$("$filemonctl" watch --help)
man=$(cat "$man_page")
# the words the completion offers after watch: the field names before their operator
words=$(sed -n "s/.*compgen -W '\([^']*\) failed not and or'.*/\1/p" "$completion")

check "table-not-empty" '[ "$(echo "$names" | wc -l)" -ge 15 ]'
for name in $names; do
  check "$name/watch-help" 'grep -qE "^  $name +[a-z]" <<<"$help"'
  check "$name/man-page" 'grep -qx ".B $name" <<<"$man"'
  check "$name/completion" 'grep -qwE "$name[=<>~]" <<<"$words"'
done
# and nothing more: as many entries as the table has fields
count=$(echo "$names" | wc -l)
check "watch-help-lists-only-the-table" \
  '[ "$(sed -n "/^Fields of FILTER:/,\$p" <<<"$help" | grep -cE "^  [a-z0-9]+ ")" = "$count" ]'
check "completion-lists-only-the-table" '[ "$(wc -w <<<"$words")" = "$count" ]'
tap_end
