/* fm-syscalls.c: the table of traced file syscalls, its lookups by name and number, and
 * the errno names. The argument decoders and the detail text are in fm-syscalls-detail.c.
 */
#include "fm-syscalls.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>

/* Numbers the build host's headers may not know yet (stable x86_64 ABI). */
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_faccessat2
#define __NR_faccessat2 439
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif

/* --- the table --------------------------------------------------------------------------- */

#define A(...) { __VA_ARGS__ }
#define SC(name, tp, stap, ...) \
  { #name, __NR_##name, tp, stap, \
    sizeof ((FmArgKind[]) { __VA_ARGS__ }) / sizeof (FmArgKind), A (__VA_ARGS__) }
#define P FM_ARG_PATH
#define P2 FM_ARG_PATH2
#define FD FM_ARG_FD
#define DFD FM_ARG_DIRFD
#define IGN FM_ARG_IGNORED

/* Tracepoints are syscalls:sys_enter_<tracepoint>; stat/lstat/fstat are the kernel's
 * "new" variants on x86_64. stap_probe names the tapset alias in sysc_*.stp (newfstatat
 * is tapset "fstatat"; SystemTap 4.8 has no openat2 or fchmodat2 probe). */
static const FmSyscall syscalls[] = {
  SC (open, "open", "syscall.open", P, FM_ARG_OPEN_FLAGS, FM_ARG_MODE),
  SC (openat, "openat", "syscall.openat", DFD, P, FM_ARG_OPEN_FLAGS, FM_ARG_MODE),
  SC (openat2, "openat2", NULL, DFD, P, FM_ARG_OPEN_HOW, IGN),
  SC (creat, "creat", "syscall.creat", P, FM_ARG_MODE),
  SC (close, "close", "syscall.close", FD),
  SC (read, "read", "syscall.read", FD, IGN, FM_ARG_SIZE),
  SC (write, "write", "syscall.write", FD, IGN, FM_ARG_SIZE),
  SC (stat, "newstat", "syscall.stat", P, IGN),
  SC (lstat, "newlstat", "syscall.lstat", P, IGN),
  SC (fstat, "newfstat", "syscall.fstat", FD, IGN),
  SC (newfstatat, "newfstatat", "syscall.fstatat", DFD, P, IGN, FM_ARG_AT_FLAGS),
  SC (statx, "statx", "syscall.statx", DFD, P, FM_ARG_AT_FLAGS, FM_ARG_STATX_MASK, IGN),
  SC (access, "access", "syscall.access", P, FM_ARG_ACCESS_MODE),
  SC (faccessat, "faccessat", "syscall.faccessat", DFD, P, FM_ARG_ACCESS_MODE),
  SC (faccessat2, "faccessat2", "syscall.faccessat2", DFD, P, FM_ARG_ACCESS_MODE, FM_ARG_AT_FLAGS),
  SC (readlink, "readlink", "syscall.readlink", P, IGN, FM_ARG_SIZE),
  SC (readlinkat, "readlinkat", "syscall.readlinkat", DFD, P, IGN, FM_ARG_SIZE),
  SC (unlink, "unlink", "syscall.unlink", P),
  SC (unlinkat, "unlinkat", "syscall.unlinkat", DFD, P, FM_ARG_AT_FLAGS),
  SC (rename, "rename", "syscall.rename", P, P2),
  SC (renameat, "renameat", "syscall.renameat", DFD, P, DFD, P2),
  SC (renameat2, "renameat2", "syscall.renameat2", DFD, P, DFD, P2, FM_ARG_RENAME_FLAGS),
  SC (mkdir, "mkdir", "syscall.mkdir", P, FM_ARG_MODE),
  SC (mkdirat, "mkdirat", "syscall.mkdirat", DFD, P, FM_ARG_MODE),
  SC (rmdir, "rmdir", "syscall.rmdir", P),
  SC (chmod, "chmod", "syscall.chmod", P, FM_ARG_MODE),
  SC (fchmod, "fchmod", "syscall.fchmod", FD, FM_ARG_MODE),
  SC (fchmodat, "fchmodat", "syscall.fchmodat", DFD, P, FM_ARG_MODE),
  SC (fchmodat2, "fchmodat2", NULL, DFD, P, FM_ARG_MODE, FM_ARG_AT_FLAGS),
  SC (chown, "chown", "syscall.chown", P, FM_ARG_UID, FM_ARG_GID),
  SC (fchown, "fchown", "syscall.fchown", FD, FM_ARG_UID, FM_ARG_GID),
  SC (fchownat, "fchownat", "syscall.fchownat", DFD, P, FM_ARG_UID, FM_ARG_GID, FM_ARG_AT_FLAGS),
  SC (lchown, "lchown", "syscall.lchown", P, FM_ARG_UID, FM_ARG_GID),
  SC (link, "link", "syscall.link", P, P2),
  SC (linkat, "linkat", "syscall.linkat", DFD, P, DFD, P2, FM_ARG_AT_FLAGS),
  /* symlink(target, linkpath): the link created is the event's path; the target is text */
  SC (symlink, "symlink", "syscall.symlink", FM_ARG_SYMLINK_TARGET, P),
  SC (symlinkat, "symlinkat", "syscall.symlinkat", FM_ARG_SYMLINK_TARGET, DFD, P),
  SC (truncate, "truncate", "syscall.truncate", P, FM_ARG_OFFSET),
  SC (ftruncate, "ftruncate", "syscall.ftruncate", FD, FM_ARG_OFFSET),
  SC (utimensat, "utimensat", "syscall.utimensat", DFD, P, IGN, FM_ARG_AT_FLAGS),
  SC (mknod, "mknod", "syscall.mknod", P, FM_ARG_MODE, FM_ARG_DEV),
  SC (mknodat, "mknodat", "syscall.mknodat", DFD, P, FM_ARG_MODE, FM_ARG_DEV),
  SC (chdir, "chdir", "syscall.chdir", P),
  SC (execve, "execve", "syscall.execve", P, FM_ARG_ARGV, IGN),
  SC (execveat, "execveat", "syscall.execveat", DFD, P, FM_ARG_ARGV, IGN, FM_ARG_AT_FLAGS),
  SC (getxattr, "getxattr", "syscall.getxattr", P, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE),
  SC (lgetxattr, "lgetxattr", "syscall.lgetxattr", P, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE),
  SC (fgetxattr, "fgetxattr", "syscall.fgetxattr", FD, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE),
  SC (setxattr, "setxattr", "syscall.setxattr", P, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE, FM_ARG_XATTR_FLAGS),
  SC (lsetxattr, "lsetxattr", "syscall.lsetxattr", P, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE, FM_ARG_XATTR_FLAGS),
  SC (fsetxattr, "fsetxattr", "syscall.fsetxattr", FD, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE, FM_ARG_XATTR_FLAGS),
  SC (listxattr, "listxattr", "syscall.listxattr", P, IGN, FM_ARG_SIZE),
  SC (llistxattr, "llistxattr", "syscall.llistxattr", P, IGN, FM_ARG_SIZE),
  SC (flistxattr, "flistxattr", "syscall.flistxattr", FD, IGN, FM_ARG_SIZE),
  SC (removexattr, "removexattr", "syscall.removexattr", P, FM_ARG_XATTR_NAME),
  SC (lremovexattr, "lremovexattr", "syscall.lremovexattr", P, FM_ARG_XATTR_NAME),
  SC (fremovexattr, "fremovexattr", "syscall.fremovexattr", FD, FM_ARG_XATTR_NAME),
};

#undef A
#undef SC
#undef P
#undef P2
#undef FD
#undef DFD
#undef IGN

/* Every x86_64 syscall number is below this; the nr index is a flat array of it. */
#define NR_INDEX_SIZE 512
#define NR_NONE 0xff

G_STATIC_ASSERT (G_N_ELEMENTS (syscalls) < NR_NONE);

typedef struct {
  guint8 by_nr[NR_INDEX_SIZE];  /* table index, NR_NONE when not traced */
  GHashTable *by_name;          /* name -> FmSyscall*, never freed */
  GHashTable *errno_by_name;    /* name -> errno as pointer, never freed */
} Index;

static gpointer build_index (gpointer data);

static const Index *
get_index (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, build_index, NULL);
}

const FmSyscall *
fm_syscalls_all (guint *n_out)
{
  if (n_out != NULL)
    *n_out = G_N_ELEMENTS (syscalls);
  return syscalls;
}

const FmSyscall *
fm_syscall_by_name (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  return g_hash_table_lookup (get_index ()->by_name, name);
}

const FmSyscall *
fm_syscall_by_nr (guint nr)
{
  guint8 i;

  if (nr >= NR_INDEX_SIZE)
    return NULL;
  i = get_index ()->by_nr[nr];
  return i == NR_NONE ? NULL : &syscalls[i];
}

const char *
fm_syscall_name (guint nr, char buf[16])
{
  const FmSyscall *sc = fm_syscall_by_nr (nr);

  if (sc != NULL)
    return sc->name;
  g_snprintf (buf, 16, "syscall_%u", nr);
  return buf;
}

/* --- errno names ------------------------------------------------------------------------- */

#define E(name) [name] = #name
static const char *const errno_names[] = {
  E (EPERM), E (ENOENT), E (ESRCH), E (EINTR), E (EIO), E (ENXIO), E (E2BIG), E (ENOEXEC),
  E (EBADF), E (ECHILD), E (EAGAIN), E (ENOMEM), E (EACCES), E (EFAULT), E (ENOTBLK),
  E (EBUSY), E (EEXIST), E (EXDEV), E (ENODEV), E (ENOTDIR), E (EISDIR), E (EINVAL),
  E (ENFILE), E (EMFILE), E (ENOTTY), E (ETXTBSY), E (EFBIG), E (ENOSPC), E (ESPIPE),
  E (EROFS), E (EMLINK), E (EPIPE), E (EDOM), E (ERANGE), E (EDEADLK), E (ENAMETOOLONG),
  E (ENOLCK), E (ENOSYS), E (ENOTEMPTY), E (ELOOP), E (ENOMSG), E (EIDRM), E (ECHRNG),
  E (EL2NSYNC), E (EL3HLT), E (EL3RST), E (ELNRNG), E (EUNATCH), E (ENOCSI), E (EL2HLT),
  E (EBADE), E (EBADR), E (EXFULL), E (ENOANO), E (EBADRQC), E (EBADSLT), E (EBFONT),
  E (ENOSTR), E (ENODATA), E (ETIME), E (ENOSR), E (ENONET), E (ENOPKG), E (EREMOTE),
  E (ENOLINK), E (EADV), E (ESRMNT), E (ECOMM), E (EPROTO), E (EMULTIHOP), E (EDOTDOT),
  E (EBADMSG), E (EOVERFLOW), E (ENOTUNIQ), E (EBADFD), E (EREMCHG), E (ELIBACC),
  E (ELIBBAD), E (ELIBSCN), E (ELIBMAX), E (ELIBEXEC), E (EILSEQ), E (ERESTART),
  E (ESTRPIPE), E (EUSERS), E (ENOTSOCK), E (EDESTADDRREQ), E (EMSGSIZE), E (EPROTOTYPE),
  E (ENOPROTOOPT), E (EPROTONOSUPPORT), E (ESOCKTNOSUPPORT), E (EOPNOTSUPP),
  E (EPFNOSUPPORT), E (EAFNOSUPPORT), E (EADDRINUSE), E (EADDRNOTAVAIL), E (ENETDOWN),
  E (ENETUNREACH), E (ENETRESET), E (ECONNABORTED), E (ECONNRESET), E (ENOBUFS),
  E (EISCONN), E (ENOTCONN), E (ESHUTDOWN), E (ETOOMANYREFS), E (ETIMEDOUT),
  E (ECONNREFUSED), E (EHOSTDOWN), E (EHOSTUNREACH), E (EALREADY), E (EINPROGRESS),
  E (ESTALE), E (EUCLEAN), E (ENOTNAM), E (ENAVAIL), E (EISNAM), E (EREMOTEIO), E (EDQUOT),
  E (ENOMEDIUM), E (EMEDIUMTYPE), E (ECANCELED), E (ENOKEY), E (EKEYEXPIRED),
  E (EKEYREVOKED), E (EKEYREJECTED), E (EOWNERDEAD), E (ENOTRECOVERABLE), E (ERFKILL),
  E (EHWPOISON),
};
#undef E

/* Kernel-internal codes (include/linux/errno.h): never returned to user space, but a
 * syscall exit tracepoint sees them, e.g. -ERESTARTSYS for a read a signal interrupts. */
#define KERNEL_ERRNO_BASE 512
static const char *const kernel_errno_names[] = {
  "ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD", "ERESTART_RESTARTBLOCK",
  "EPROBE_DEFER", "EOPENSTALE", "ENOPARAM", NULL, "EBADHANDLE", "ENOTSYNC", "EBADCOOKIE",
  "ENOTSUPP", "ETOOSMALL", "ESERVERFAULT", "EBADTYPE", "EJUKEBOX", "EIOCBQUEUED",
  "ERECALLCONFLICT", "ENOGRACE",
};

/* Other names glibc gives the same numbers; accepted in filters, never printed. */
static const struct { const char *name; int errnum; } errno_aliases[] = {
  { "EWOULDBLOCK", EAGAIN }, { "EDEADLOCK", EDEADLK }, { "ENOTSUP", EOPNOTSUPP },
};

const char *
fm_errno_name (int errnum)
{
  if (errnum > 0 && (gsize) errnum < G_N_ELEMENTS (errno_names))
    return errno_names[errnum];
  if (errnum >= KERNEL_ERRNO_BASE
      && (gsize) (errnum - KERNEL_ERRNO_BASE) < G_N_ELEMENTS (kernel_errno_names))
    return kernel_errno_names[errnum - KERNEL_ERRNO_BASE];
  return NULL;
}

int
fm_errno_from_name (const char *name)
{
  gpointer value;

  g_return_val_if_fail (name != NULL, -1);
  if (!g_hash_table_lookup_extended (get_index ()->errno_by_name, name, NULL, &value))
    return -1;
  return GPOINTER_TO_INT (value);
}

const char *
fm_result_format (gint64 result,
                  char   buf[32])
{
  const char *name = NULL;

  if (result < 0 && result >= -G_MAXINT)
    name = fm_errno_name ((int) -result);
  if (name != NULL)
    g_snprintf (buf, 32, "-%s", name);
  else
    g_snprintf (buf, 32, "%" G_GINT64_FORMAT, result);
  return buf;
}

/* --- the lookup index, built once -------------------------------------------------------- */

static gpointer
build_index (gpointer data)
{
  Index *index = g_new0 (Index, 1);

  memset (index->by_nr, NR_NONE, sizeof index->by_nr);
  index->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < G_N_ELEMENTS (syscalls); i++)
    {
      g_assert (syscalls[i].nr < NR_INDEX_SIZE);
      g_assert (index->by_nr[syscalls[i].nr] == NR_NONE);
      index->by_nr[syscalls[i].nr] = (guint8) i;
      g_hash_table_insert (index->by_name, (gpointer) syscalls[i].name, (gpointer) &syscalls[i]);
    }

  index->errno_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  for (int e = 1; e < KERNEL_ERRNO_BASE + (int) G_N_ELEMENTS (kernel_errno_names); e++)
    {
      const char *name = fm_errno_name (e);

      if (name != NULL)
        g_hash_table_insert (index->errno_by_name, (gpointer) name, GINT_TO_POINTER (e));
    }
  for (guint i = 0; i < G_N_ELEMENTS (errno_aliases); i++)
    g_hash_table_insert (index->errno_by_name, (gpointer) errno_aliases[i].name,
                         GINT_TO_POINTER (errno_aliases[i].errnum));
  return index;
}
