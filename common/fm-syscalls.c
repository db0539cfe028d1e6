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
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#endif
#ifndef __NR_getxattrat
#define __NR_getxattrat 464
#endif
#ifndef __NR_listxattrat
#define __NR_listxattrat 465
#endif
#ifndef __NR_removexattrat
#define __NR_removexattrat 466
#endif
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif
#ifndef __NR_file_getattr
#define __NR_file_getattr 468
#endif
#ifndef __NR_file_setattr
#define __NR_file_setattr 469
#endif

/* --- the table --------------------------------------------------------------------------- */

#define A(...) { __VA_ARGS__ }
#define SC(name, kname, traits, ...) \
  { #name, __NR_##name, kname, traits, \
    sizeof ((FmArgKind[]) { __VA_ARGS__ }) / sizeof (FmArgKind), A (__VA_ARGS__) }
#define P FM_ARG_PATH
#define P2 FM_ARG_PATH2
#define FD FM_ARG_FD
#define FD2 FM_ARG_FD2
#define DFD FM_ARG_DIRFD
#define IGN FM_ARG_IGNORED
#define COUNT FM_ARG_COUNT
#define OFF FM_ARG_OFFSET
#define LEN FM_ARG_LENGTH
#define T0 FM_TRAIT_NONE
#define ENTRY FM_TRAIT_READ_AT_ENTRY
#define READS (FM_TRAIT_READS | FM_TRAIT_RESULT_BYTES)
#define WRITES (FM_TRAIT_WRITES | FM_TRAIT_RESULT_BYTES)
#define COPIES (FM_TRAIT_READS | FM_TRAIT_WRITES_PATH2 | FM_TRAIT_RESULT_BYTES)

/* The kernel's name (kname) is what its entry point and tracepoints are called after:
 * stat/lstat/fstat are the "new" variants on x86_64, sendfile is sendfile64, umount2 is
 * umount. */
static const FmSyscall syscalls[] = {
  SC (open, "open", T0, P, FM_ARG_OPEN_FLAGS, FM_ARG_MODE),
  SC (openat, "openat", T0, DFD, P, FM_ARG_OPEN_FLAGS, FM_ARG_MODE),
  SC (openat2, "openat2", T0, DFD, P, FM_ARG_OPEN_HOW, IGN),
  SC (creat, "creat", T0, P, FM_ARG_MODE),
  SC (close, "close", ENTRY, FD),
  SC (read, "read", READS, FD, IGN, COUNT),
  SC (write, "write", WRITES, FD, IGN, COUNT),
  SC (pread64, "pread64", READS, FD, IGN, COUNT, OFF),
  SC (pwrite64, "pwrite64", WRITES, FD, IGN, COUNT, OFF),
  SC (readv, "readv", READS, FD, IGN, FM_ARG_IOVCNT),
  SC (writev, "writev", WRITES, FD, IGN, FM_ARG_IOVCNT),
  SC (preadv, "preadv", READS, FD, IGN, FM_ARG_IOVCNT, OFF, FM_ARG_OFFSET_HIGH),
  SC (pwritev, "pwritev", WRITES, FD, IGN, FM_ARG_IOVCNT, OFF, FM_ARG_OFFSET_HIGH),
  SC (preadv2, "preadv2", READS, FD, IGN, FM_ARG_IOVCNT, OFF, FM_ARG_OFFSET_HIGH, FM_ARG_RWF_FLAGS),
  SC (pwritev2, "pwritev2", WRITES, FD, IGN, FM_ARG_IOVCNT, OFF, FM_ARG_OFFSET_HIGH, FM_ARG_RWF_FLAGS),
  SC (lseek, "lseek", T0, FD, OFF, FM_ARG_WHENCE),
  SC (getdents64, "getdents64", T0, FD, IGN, COUNT),
  /* data from the event's path (the source) to its path2 */
  SC (copy_file_range, "copy_file_range", COPIES, FD, IGN, FD2, IGN, COUNT, IGN),
  SC (sendfile, "sendfile64", COPIES, FD2, FD, IGN, COUNT),
  SC (splice, "splice", COPIES, FD, IGN, FD2, IGN, COUNT, FM_ARG_SPLICE_FLAGS),
  SC (tee, "tee", COPIES, FD, FD2, COUNT, FM_ARG_SPLICE_FLAGS),
  SC (mmap, "mmap", FM_TRAIT_RESULT_ADDRESS, IGN, LEN, FM_ARG_MMAP_PROT, FM_ARG_MMAP_FLAGS, FD, OFF),
  SC (fsync, "fsync", T0, FD),
  SC (fdatasync, "fdatasync", T0, FD),
  SC (sync_file_range, "sync_file_range", T0, FD, OFF, LEN, FM_ARG_SYNC_RANGE_FLAGS),
  SC (syncfs, "syncfs", T0, FD),
  SC (fallocate, "fallocate", T0, FD, FM_ARG_FALLOC_MODE, OFF, LEN),
  SC (flock, "flock", T0, FD, FM_ARG_FLOCK_OP),
  SC (fcntl, "fcntl", T0, FD, FM_ARG_FCNTL_CMD, FM_ARG_FCNTL_ARG),
  SC (fadvise64, "fadvise64", T0, FD, OFF, LEN, FM_ARG_FADVICE),
  SC (readahead, "readahead", T0, FD, OFF, COUNT),
  SC (close_range, "close_range", T0, FM_ARG_FD_FIRST, FM_ARG_FD_LAST, FM_ARG_CLOSE_RANGE_FLAGS),
  /* the handle is opaque; open_by_handle_at's path is the mount fd's */
  SC (name_to_handle_at, "name_to_handle_at", T0, DFD, P, IGN, IGN, FM_ARG_AT_FLAGS),
  SC (open_by_handle_at, "open_by_handle_at", T0, FD, IGN, FM_ARG_OPEN_FLAGS),
  SC (stat, "newstat", T0, P, IGN),
  SC (lstat, "newlstat", T0, P, IGN),
  SC (fstat, "newfstat", T0, FD, IGN),
  SC (newfstatat, "newfstatat", T0, DFD, P, IGN, FM_ARG_AT_FLAGS),
  SC (statx, "statx", T0, DFD, P, FM_ARG_AT_FLAGS, FM_ARG_STATX_MASK, IGN),
  SC (access, "access", T0, P, FM_ARG_ACCESS_MODE),
  SC (faccessat, "faccessat", T0, DFD, P, FM_ARG_ACCESS_MODE),
  SC (faccessat2, "faccessat2", T0, DFD, P, FM_ARG_ACCESS_MODE, FM_ARG_ACCESS_AT_FLAGS),
  SC (readlink, "readlink", T0, P, IGN, FM_ARG_SIZE),
  SC (readlinkat, "readlinkat", T0, DFD, P, IGN, FM_ARG_SIZE),
  SC (unlink, "unlink", T0, P),
  SC (unlinkat, "unlinkat", T0, DFD, P, FM_ARG_AT_FLAGS),
  SC (rename, "rename", T0, P, P2),
  SC (renameat, "renameat", T0, DFD, P, DFD, P2),
  SC (renameat2, "renameat2", T0, DFD, P, DFD, P2, FM_ARG_RENAME_FLAGS),
  SC (mkdir, "mkdir", T0, P, FM_ARG_MODE),
  SC (mkdirat, "mkdirat", T0, DFD, P, FM_ARG_MODE),
  SC (rmdir, "rmdir", T0, P),
  SC (chmod, "chmod", T0, P, FM_ARG_MODE),
  SC (fchmod, "fchmod", T0, FD, FM_ARG_MODE),
  SC (fchmodat, "fchmodat", T0, DFD, P, FM_ARG_MODE),
  SC (fchmodat2, "fchmodat2", T0, DFD, P, FM_ARG_MODE, FM_ARG_AT_FLAGS),
  SC (chown, "chown", T0, P, FM_ARG_UID, FM_ARG_GID),
  SC (fchown, "fchown", T0, FD, FM_ARG_UID, FM_ARG_GID),
  SC (fchownat, "fchownat", T0, DFD, P, FM_ARG_UID, FM_ARG_GID, FM_ARG_AT_FLAGS),
  SC (lchown, "lchown", T0, P, FM_ARG_UID, FM_ARG_GID),
  SC (link, "link", T0, P, P2),
  SC (linkat, "linkat", T0, DFD, P, DFD, P2, FM_ARG_AT_FLAGS),
  /* symlink(target, linkpath): the link created is the event's path; the target is text */
  SC (symlink, "symlink", T0, FM_ARG_SYMLINK_TARGET, P),
  SC (symlinkat, "symlinkat", T0, FM_ARG_SYMLINK_TARGET, DFD, P),
  SC (truncate, "truncate", T0, P, LEN),
  SC (ftruncate, "ftruncate", T0, FD, LEN),
  SC (utimensat, "utimensat", FM_TRAIT_NULL_PATH_IS_DIRFD, DFD, P, IGN, FM_ARG_AT_FLAGS),
  SC (mknod, "mknod", T0, P, FM_ARG_MODE, FM_ARG_DEV),
  SC (mknodat, "mknodat", T0, DFD, P, FM_ARG_MODE, FM_ARG_DEV),
  SC (chdir, "chdir", ENTRY | FM_TRAIT_MOVES_CWD, P),
  SC (fchdir, "fchdir", FM_TRAIT_MOVES_CWD, FD),
  SC (execve, "execve", ENTRY | FM_TRAIT_EXEC, P, FM_ARG_ARGV, IGN),
  SC (execveat, "execveat", ENTRY | FM_TRAIT_EXEC, DFD, P, FM_ARG_ARGV, IGN, FM_ARG_AT_FLAGS),
  SC (getxattr, "getxattr", T0, P, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE),
  SC (lgetxattr, "lgetxattr", T0, P, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE),
  SC (fgetxattr, "fgetxattr", T0, FD, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE),
  SC (setxattr, "setxattr", T0, P, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE, FM_ARG_XATTR_FLAGS),
  SC (lsetxattr, "lsetxattr", T0, P, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE, FM_ARG_XATTR_FLAGS),
  SC (fsetxattr, "fsetxattr", T0, FD, FM_ARG_XATTR_NAME, IGN, FM_ARG_SIZE, FM_ARG_XATTR_FLAGS),
  SC (listxattr, "listxattr", T0, P, IGN, FM_ARG_SIZE),
  SC (llistxattr, "llistxattr", T0, P, IGN, FM_ARG_SIZE),
  SC (flistxattr, "flistxattr", T0, FD, IGN, FM_ARG_SIZE),
  SC (removexattr, "removexattr", T0, P, FM_ARG_XATTR_NAME),
  SC (lremovexattr, "lremovexattr", T0, P, FM_ARG_XATTR_NAME),
  SC (fremovexattr, "fremovexattr", T0, FD, FM_ARG_XATTR_NAME),
  /* the *at forms (6.13): value, size and flags in a struct xattr_args, whose size
   * follows it (not shown) */
  SC (setxattrat, "setxattrat", T0, DFD, P, FM_ARG_AT_FLAGS, FM_ARG_XATTR_NAME, FM_ARG_XATTR_ARGS, IGN),
  SC (getxattrat, "getxattrat", T0, DFD, P, FM_ARG_AT_FLAGS, FM_ARG_XATTR_NAME, FM_ARG_XATTR_ARGS, IGN),
  SC (listxattrat, "listxattrat", T0, DFD, P, FM_ARG_AT_FLAGS, IGN, FM_ARG_SIZE),
  SC (removexattrat, "removexattrat", T0, DFD, P, FM_ARG_AT_FLAGS, FM_ARG_XATTR_NAME),
  /* the inode flags of FS_IOC_FSGETXATTR by path (6.17); struct file_attr and its size */
  SC (file_getattr, "file_getattr", T0, DFD, P, IGN, IGN, FM_ARG_AT_FLAGS),
  SC (file_setattr, "file_setattr", T0, DFD, P, IGN, IGN, FM_ARG_AT_FLAGS),
  SC (inotify_add_watch, "inotify_add_watch", T0, FM_ARG_OTHER_FD, P, FM_ARG_INOTIFY_MASK),
  SC (inotify_rm_watch, "inotify_rm_watch", T0, FD, FM_ARG_WATCH),
  /* a NULL path marks the dirfd's own file */
  SC (fanotify_mark, "fanotify_mark", FM_TRAIT_NULL_PATH_IS_DIRFD, FM_ARG_OTHER_FD,
      FM_ARG_FANOTIFY_MARK_FLAGS, FM_ARG_FANOTIFY_MASK, DFD, P),
  /* mount(source, target, ...): the mount point is the event's path, the source path2 */
  SC (mount, "mount", T0, FM_ARG_MOUNT_SOURCE, P, FM_ARG_FSTYPE, FM_ARG_MOUNT_FLAGS, IGN),
  SC (umount2, "umount", T0, P, FM_ARG_UMOUNT_FLAGS),
  /* the mount API (5.2; mount_setattr 5.12, open_tree_attr 6.15): a file system context
   * or a detached mount is an fd, its path what the kernel shows for it */
  SC (open_tree, "open_tree", T0, DFD, P, FM_ARG_OPEN_TREE_FLAGS),
  SC (open_tree_attr, "open_tree_attr", T0, DFD, P, FM_ARG_OPEN_TREE_FLAGS, FM_ARG_MOUNT_ATTR, IGN),
  SC (move_mount, "move_mount", T0, DFD, P, DFD, P2, FM_ARG_MOVE_MOUNT_FLAGS),
  SC (fsopen, "fsopen", T0, FM_ARG_FSTYPE, FM_ARG_FSOPEN_FLAGS),
  /* the value's kind depends on the command: not shown */
  SC (fsconfig, "fsconfig", T0, FD, FM_ARG_FSCONFIG_CMD, FM_ARG_FSCONFIG_KEY, IGN, FM_ARG_FSCONFIG_AUX),
  SC (fsmount, "fsmount", T0, FD, FM_ARG_FSMOUNT_FLAGS, FM_ARG_MOUNT_ATTR_FLAGS),
  SC (fspick, "fspick", T0, DFD, P, FM_ARG_FSPICK_FLAGS),
  SC (mount_setattr, "mount_setattr", T0, DFD, P, FM_ARG_AT_FLAGS, FM_ARG_MOUNT_ATTR, IGN),
};

#undef A
#undef SC
#undef P
#undef P2
#undef FD
#undef FD2
#undef DFD
#undef IGN
#undef COUNT
#undef OFF
#undef LEN
#undef T0
#undef ENTRY
#undef READS
#undef WRITES
#undef COPIES

#define NR_NONE 0xff

G_STATIC_ASSERT (G_N_ELEMENTS (syscalls) < NR_NONE);

typedef struct {
  guint8 by_nr[FM_SYSCALL_NR_LIMIT];  /* table index, NR_NONE when not traced */
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

  if (nr >= FM_SYSCALL_NR_LIMIT)
    return NULL;
  i = get_index ()->by_nr[nr];
  return i == NR_NONE ? NULL : &syscalls[i];
}

guint
fm_syscall_exit_nr (const FmSyscall *sc)
{
  g_return_val_if_fail (sc != NULL, 0);
  return (sc->traits & FM_TRAIT_EXEC) != 0 ? __NR_execve : sc->nr;
}

const char *
fm_syscall_exec_note (const FmSyscall *sc,
                      gint64           result,
                      gsize            path2_len)
{
  if (sc == NULL || (sc->traits & FM_TRAIT_EXEC) == 0 || result >= 0 || path2_len == 0)
    return NULL;
  /* execve says ENOENT for a missing interpreter as for a missing file, on the file's
   * own name: the first thing a reader checks is that file, which is there */
  return "the error is the interpreter's (path2): the file itself was found";
}

FmArgText
fm_arg_kind_text (FmArgKind kind)
{
  switch (kind)
    {
    case FM_ARG_XATTR_NAME:
    case FM_ARG_FSTYPE:
    case FM_ARG_FSCONFIG_KEY:
      return FM_ARG_TEXT_STRING;
    case FM_ARG_ARGV:
      return FM_ARG_TEXT_ARGV;
    case FM_ARG_OPEN_HOW:
    case FM_ARG_FCNTL_ARG:
    case FM_ARG_MOUNT_ATTR:
    /* 16 bytes, so the third word read is not its own: the decoder ignores it */
    case FM_ARG_XATTR_ARGS:
      return FM_ARG_TEXT_STRUCT;
    default:
      return FM_ARG_TEXT_NONE;
    }
}

gboolean
fm_syscall_struct_and_string (const FmSyscall *sc,
                              guint           *struct_arg,
                              guint           *string_arg)
{
  gboolean has_struct = FALSE, has_string = FALSE;

  g_return_val_if_fail (sc != NULL, FALSE);
  for (guint i = 0; i < sc->n_args && i < FM_SYSCALL_MAX_ARGS; i++)
    switch (fm_arg_kind_text (sc->args[i]))
      {
      case FM_ARG_TEXT_STRUCT:
        has_struct = TRUE;
        if (struct_arg != NULL)
          *struct_arg = i;
        break;
      case FM_ARG_TEXT_STRING:
        has_string = TRUE;
        if (string_arg != NULL)
          *string_arg = i;
        break;
      case FM_ARG_TEXT_ARGV:
      case FM_ARG_TEXT_NONE:
      default:
        break;
      }
  return has_struct && has_string;
}

#define K_MAP_ANONYMOUS 0x20

guint64
fm_arg_kind_skip_bits (FmArgKind kind)
{
  return kind == FM_ARG_MMAP_FLAGS ? K_MAP_ANONYMOUS : 0;
}

gboolean
fm_syscall_path2_first (const FmSyscall *sc)
{
  g_return_val_if_fail (sc != NULL, FALSE);
  for (guint i = 0; i < sc->n_args && i < FM_SYSCALL_MAX_ARGS; i++)
    switch (sc->args[i])
      {
      case FM_ARG_PATH:
      case FM_ARG_FD:
        return FALSE;
      case FM_ARG_PATH2:
      case FM_ARG_FD2:
      case FM_ARG_SYMLINK_TARGET:
      case FM_ARG_MOUNT_SOURCE:
        return TRUE;
      default:
        break;
      }
  return FALSE;
}

guint64
fm_syscall_result_bytes (const FmSyscall *sc,
                         gint64           result)
{
  g_return_val_if_fail (sc != NULL, 0);
  return (sc->traits & FM_TRAIT_RESULT_BYTES) != 0 && result > 0 ? (guint64) result : 0;
}

int
fm_syscall_arg_index (const FmSyscall *sc,
                      FmArgKind        kind)
{
  g_return_val_if_fail (sc != NULL, -1);
  for (guint i = 0; i < sc->n_args && i < FM_SYSCALL_MAX_ARGS; i++)
    if (sc->args[i] == kind)
      return (int) i;
  return -1;
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
fm_result_format (guint  syscall_nr,
                  gint64 result,
                  char   buf[32])
{
  const FmSyscall *sc = fm_syscall_by_nr (syscall_nr);
  const char *name = NULL;

  if (result >= 0 && sc != NULL && (sc->traits & FM_TRAIT_RESULT_ADDRESS) != 0)
    {
      g_snprintf (buf, 32, "0x%" G_GINT64_MODIFIER "x", (guint64) result);
      return buf;
    }
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
      g_assert (syscalls[i].nr < FM_SYSCALL_NR_LIMIT);
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
