# option-sets.sh: the Start options every generated script is checked with (sourced by
# test-stap-p1.sh and test-stap-p4.sh): each syscall set with each filter set, every
# option and their combinations, and filters whose kernel parts restrict each trait.
# for_each_options FUNC calls FUNC "OPTIONS" with each as GVariant text (a{sv}), as
# fm-stap-print-script reads it.
syscall_sets=("" "'syscalls': <['openat']>" "'syscalls': <['execve', 'symlink', 'renameat2', 'fsetxattr', 'openat2', 'close']>"
              "'syscalls': <['setxattrat', 'getxattrat', 'fsconfig', 'mount_setattr', 'close_range', 'file_getattr']>")
filter_sets=("" "'pids': <[@u 1, 2]>" "'pids': <[@u 1]>, 'follow-children': <true>" "'uids': <[@u 0, 1000]>"
             "'comms': <['sshd', 'a\"b\\\\\\\\c']>" "'failed-only': <true>"
             "'pids': <[@u 7]>, 'follow-children': <true>, 'uids': <[@u 0]>, 'comms': <['x']>, 'failed-only': <true>, 'path-prefixes': <['/etc']>"
             "'filter': <\"(pid=3 or pid=4) and user=root and (comm=sshd or comm='a\\\\\\\\\\\"b') and failed and path=/etc/*\">"
             "'filter': <'comm=ssh* or path~x'>, 'pids': <[@u 9]>, 'follow-children': <true>")
for_each_options() {
  local s f
  for s in "${syscall_sets[@]}"; do
    for f in "${filter_sets[@]}"; do
      "$1" "{${s}${s:+${f:+, }}${f}}"
    done
  done
}
