/* fm-syscall-nr.h: the one limit on syscall numbers and the one on their names, shared by
 * the syscall table, the event's field table, the daemon and the BPF program (which
 * includes it, so nothing but defines here).
 */
#pragma once

/* Every x86_64 syscall number filemon knows is below this (the table tops out near 470);
 * the table's index and the BPF program's per-syscall arrays have this many entries. */
#define FM_SYSCALL_NR_LIMIT 512

/* The longest syscall name ("inotify_add_watch") and its NUL fit in this many bytes. */
#define FM_SYSCALL_NAME_MAX 24
