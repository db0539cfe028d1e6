#!/bin/bash
# test-completion.sh COMPLETION_FILE: the bash completion of filemonctl completes what it
# should. bash-completion's _init_completion is stood in for (it need not be installed),
# so this checks our function's own logic.
set -uo pipefail
. "$1" || { echo "not ok 1 - the completion file loads"; echo "1..1"; exit 1; }

_init_completion() {
  words=("${COMP_WORDS[@]}")
  cword=$COMP_CWORD
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]:-}
  split=false
  return 0
}
compopt() { :; }
_filedir() { COMPREPLY=(FILES); }
_pids() { COMPREPLY=(PIDS); }

n=0
failed=0
complete_check() {
  local want=$1
  shift
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMPREPLY=()
  _filemonctl
  n=$((n + 1))
  if [ "${COMPREPLY[*]}" = "$want" ]; then
    echo "ok $n - /completion/$*"
  else
    echo "not ok $n - /completion/$*"
    echo "# got '${COMPREPLY[*]}', want '$want'"
    failed=$((failed + 1))
  fi
}

complete_check "start stop status" filemonctl st
complete_check "save" filemonctl --no-ask-password sa
complete_check "--help --version --no-ask-password" filemonctl --
complete_check "text jsonl csv" filemonctl dump --format ""
complete_check "auto always never" filemonctl watch --color ""
complete_check "auto stap bpf" filemonctl start --backend ""
complete_check "--help --since= --json --color= --count=" filemonctl watch --
complete_check "--follow-children --failed-only" filemonctl start --f
complete_check "syscall=" filemonctl start sys
complete_check "FILES" filemonctl save ""
complete_check "PIDS" filemonctl start --pid ""
# syscall names from --syscalls=help, without the note on a call the kernel lacks
filemonctl() { printf 'setxattrat (not in kernel 6.1.0)\nsetxattr\n'; }
complete_check "setxattrat setxattr" filemonctl start --syscalls ""
complete_check "open,setxattrat open,setxattr" filemonctl start --syscalls "open,"
unset -f filemonctl
# the filter's fields, with an operator that suits them
complete_check "seq> syscall=" filemonctl watch s
complete_check "time> tid=" filemonctl dump t
complete_check "duration> detail~" filemonctl watch d
echo "1..$n"
[ "$failed" = 0 ]
