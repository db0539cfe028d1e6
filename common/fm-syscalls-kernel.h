/* fm-syscalls-kernel.h: which syscalls of the table the running kernel has. */
#pragma once

#include <glib.h>

#include "fm-syscalls.h"

G_BEGIN_DECLS

/* The kernel names (FmSyscall.kernel_name) of the syscalls whose entry points
 * (__x64_sys_X) the kernel symbol table at @kallsyms_path names ("/proc/kallsyms" for the
 * running kernel), as a set; NULL with @error when the file cannot be read or names no
 * syscall at all. */
GHashTable *fm_syscalls_in_kernel (const char  *kallsyms_path,
                                   GError     **error);

G_END_DECLS
