/* fm-syscalls.h: the one table of the file syscalls filemon traces.
 *
 * Everything that needs to know which syscalls exist and what their arguments mean reads
 * this table: the stap script generator, the BPF backend's attach list and argument
 * capture, the detail decoder, the filter language's syscall names and the clients. Nothing
 * else lists syscalls by hand.
 */
#pragma once

#include <glib.h>

#include "fm-syscall-nr.h"

G_BEGIN_DECLS

/* What one syscall argument is, in the syscall's own argument order. */
typedef enum {
  FM_ARG_NONE = 0,
  FM_ARG_PATH,          /* const char *: the event's path (first path argument) */
  FM_ARG_PATH2,         /* const char *: the event's path2 (rename/link target, symlink linkpath) */
  FM_ARG_SYMLINK_TARGET,/* const char *: symlink's target text: goes to path2 verbatim, never resolved */
  FM_ARG_FD,            /* int fd: its path becomes the event's path */
  FM_ARG_FD2,           /* int fd: its path becomes the event's path2 (where data goes to) */
  FM_ARG_OTHER_FD,      /* int fd shown as a number only (an inotify instance) */
  FM_ARG_DIRFD,         /* int dirfd: the base of the next PATH or PATH2 argument (AT_FDCWD = cwd) */
  FM_ARG_OPEN_FLAGS,    /* O_* */
  FM_ARG_MODE,          /* permission bits and S_IF* type, shown in octal */
  FM_ARG_AT_FLAGS,      /* AT_* (AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH, AT_REMOVEDIR, ...) */
  FM_ARG_ACCESS_AT_FLAGS, /* AT_* of faccessat2, where 0x200 is AT_EACCESS, not AT_REMOVEDIR */
  FM_ARG_ACCESS_MODE,   /* F_OK or R_OK|W_OK|X_OK */
  FM_ARG_RENAME_FLAGS,  /* RENAME_NOREPLACE|RENAME_EXCHANGE|RENAME_WHITEOUT */
  FM_ARG_OPEN_HOW,      /* struct open_how *: flags, mode, resolve (openat2) */
  FM_ARG_STATX_MASK,    /* STATX_* */
  FM_ARG_XATTR_NAME,    /* const char *: attribute name */
  FM_ARG_XATTR_FLAGS,   /* XATTR_CREATE|XATTR_REPLACE */
  FM_ARG_UID,           /* uid_t, -1 = unchanged */
  FM_ARG_GID,           /* gid_t, -1 = unchanged */
  FM_ARG_SIZE,          /* size_t: the size of a buffer the kernel fills (readlink, xattrs) */
  FM_ARG_COUNT,         /* size_t: the bytes to read, write or copy */
  FM_ARG_LENGTH,        /* off_t: a length in the file (truncate, fallocate, mmap) */
  FM_ARG_OFFSET,        /* off_t/loff_t: a position in the file (pread64, lseek, mmap) */
  FM_ARG_OFFSET_HIGH,   /* the high half of preadv's position: 0 on 64-bit, not shown */
  FM_ARG_IOVCNT,        /* int: how many struct iovec (readv, writev) */
  FM_ARG_RWF_FLAGS,     /* RWF_* (preadv2, pwritev2) */
  FM_ARG_WHENCE,        /* SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE */
  FM_ARG_FALLOC_MODE,   /* FALLOC_FL_* */
  FM_ARG_SYNC_RANGE_FLAGS, /* SYNC_FILE_RANGE_* */
  FM_ARG_FLOCK_OP,      /* LOCK_SH|LOCK_EX|LOCK_UN|LOCK_NB */
  FM_ARG_SPLICE_FLAGS,  /* SPLICE_F_* */
  FM_ARG_MMAP_PROT,     /* PROT_* */
  FM_ARG_MMAP_FLAGS,    /* MAP_*: a MAP_ANONYMOUS mapping touches no file and is not captured */
  FM_ARG_FCNTL_CMD,     /* F_* */
  FM_ARG_FCNTL_ARG,     /* fcntl's third argument, read as its command says (a struct flock *
                           for the lock commands, copied at exit) */
  FM_ARG_INOTIFY_MASK,  /* IN_* */
  FM_ARG_WATCH,         /* int: an inotify watch descriptor */
  FM_ARG_MOUNT_SOURCE,  /* const char *: mount's source, a path or a name: path2 as given */
  FM_ARG_FSTYPE,        /* const char *: a file system type name ("tmpfs") */
  FM_ARG_MOUNT_FLAGS,   /* MS_* */
  FM_ARG_UMOUNT_FLAGS,  /* MNT_FORCE|MNT_DETACH|MNT_EXPIRE|UMOUNT_NOFOLLOW */
  FM_ARG_DEV,           /* dev_t (mknod) */
  FM_ARG_XATTR_ARGS,    /* struct xattr_args *: value, size, XATTR_* flags (setxattrat) */
  FM_ARG_FD_FIRST,      /* unsigned int: the first fd of a range (close_range) */
  FM_ARG_FD_LAST,       /* unsigned int: its last fd */
  FM_ARG_CLOSE_RANGE_FLAGS, /* CLOSE_RANGE_* */
  FM_ARG_FANOTIFY_MARK_FLAGS, /* FAN_MARK_* */
  FM_ARG_FANOTIFY_MASK, /* FAN_* events (64 bits) */
  FM_ARG_FADVICE,       /* POSIX_FADV_* */
  FM_ARG_OPEN_TREE_FLAGS, /* OPEN_TREE_* and the AT_* bits open_tree takes */
  FM_ARG_MOVE_MOUNT_FLAGS, /* MOVE_MOUNT_* */
  FM_ARG_FSOPEN_FLAGS,  /* FSOPEN_CLOEXEC */
  FM_ARG_FSCONFIG_CMD,  /* FSCONFIG_* command */
  FM_ARG_FSCONFIG_KEY,  /* const char *: the parameter's name ("size"), NULL for a command */
  FM_ARG_FSCONFIG_AUX,  /* int: the fd or dirfd some fsconfig commands take */
  FM_ARG_FSMOUNT_FLAGS, /* FSMOUNT_CLOEXEC */
  FM_ARG_MOUNT_ATTR_FLAGS, /* MOUNT_ATTR_* */
  FM_ARG_FSPICK_FLAGS,  /* FSPICK_* */
  FM_ARG_MOUNT_ATTR,    /* struct mount_attr *: attr_set, attr_clr, propagation */
  FM_ARG_ARGV,          /* char *const argv[] (execve): first arguments shown in detail */
  FM_ARG_IGNORED,       /* an argument not worth showing (a user buffer pointer, envp) */
} FmArgKind;

/* What a syscall does beyond its arguments, where a backend must treat it apart. */
typedef enum {
  FM_TRAIT_NONE = 0,
  /* its strings and fds are gone or changed at its return (close releases the fd, chdir
   * moves the cwd, exec replaces the address space): read them at entry */
  FM_TRAIT_READ_AT_ENTRY = 1 << 0,
  /* a success moves the cwd: a relative path read again at exit is the cwd itself */
  FM_TRAIT_MOVES_CWD = 1 << 1,
  /* a success replaces the program: it returns under execve's number, and its path read
   * again at exit is the new program's file */
  FM_TRAIT_EXEC = 1 << 2,
  /* a NULL path names the dirfd's own file (utimensat (fd, NULL, ...) is futimens) */
  FM_TRAIT_NULL_PATH_IS_DIRFD = 1 << 3,
  /* Where the call moves file data, for whatever counts reads, writes and bytes (the
   * viewer's file summary): it reads from its FD argument (the event's path), writes to
   * its FD argument, or writes to its FD2 argument (the event's path2: sendfile, splice
   * and copy_file_range read path and write path2). A directory listing (getdents64)
   * moves no file data. */
  FM_TRAIT_READS = 1 << 4,
  FM_TRAIT_WRITES = 1 << 5,
  FM_TRAIT_WRITES_PATH2 = 1 << 6,
  /* a success returns how many bytes it moved */
  FM_TRAIT_RESULT_BYTES = 1 << 7,
  /* a success returns an address, shown in hex as strace shows it (mmap) */
  FM_TRAIT_RESULT_ADDRESS = 1 << 8,
} FmSyscallTraits;

#define FM_SYSCALL_MAX_ARGS 6

typedef struct {
  const char *name;            /* syscalls(2) name, as in events: "openat", "newfstatat" */
  guint16 nr;                  /* x86_64 syscall number, below FM_SYSCALL_NR_LIMIT */
  const char *kernel_name;     /* the kernel's name: its __x64_sys_X entry point and
                                  syscalls:sys_enter_X tracepoint ("newstat" for stat) */
  guint16 traits;              /* FmSyscallTraits */
  guint8 n_args;
  FmArgKind args[FM_SYSCALL_MAX_ARGS];
} FmSyscall;

/* The whole table, in a fixed order; n_out gets its length. */
const FmSyscall *fm_syscalls_all (guint *n_out);

/* Lookup by name or by x86_64 number; NULL when filemon does not trace it. */
const FmSyscall *fm_syscall_by_name (const char *name);
const FmSyscall *fm_syscall_by_nr (guint nr);

/* The number a successful call of @sc returns under: its own, or execve's for an exec. */
guint fm_syscall_exit_nr (const FmSyscall *sc);

/* An exec's path2 is the interpreter the kernel took for its file (a #! script's, or
 * binfmt_misc's). The note for the detail of a call of @sc that returned @result with a
 * path2 of @path2_len bytes: for an exec that failed once it had an interpreter, that the
 * error is the interpreter's; NULL otherwise. */
const char *fm_syscall_exec_note (const FmSyscall *sc,
                                  gint64           result,
                                  gsize            path2_len);

/* How a backend carries an argument's value beyond its register to the detail decoder
 * (fm_syscall_format_detail's @strings). */
typedef enum {
  FM_ARG_TEXT_NONE = 0,
  FM_ARG_TEXT_STRING,   /* a short user string (xattr name, file system type) */
  FM_ARG_TEXT_ARGV,     /* the first strings of a NULL-ended array */
  FM_ARG_TEXT_STRUCT,   /* the first three 64-bit words of a struct, copied at exit:
                           "W0 W1 W2" (open_how; fcntl's struct flock; xattr_args,
                           mount_attr) */
} FmArgText;

FmArgText fm_arg_kind_text (FmArgKind kind);

/* Whether @sc carries both a struct and a short string beyond its registers (setxattrat:
 * struct xattr_args and the name), and at which argument indexes. A backend with one
 * text field per record (stap) writes the struct's three words, a space, then the string. */
gboolean fm_syscall_struct_and_string (const FmSyscall *sc,
                                       guint           *struct_arg,
                                       guint           *string_arg);

/* The bits of an argument of @kind that make the call touch no file, so that a backend
 * does not capture it (MAP_ANONYMOUS for mmap's flags); 0 for most kinds. */
guint64 fm_arg_kind_skip_bits (FmArgKind kind);

/* Whether @sc's arguments name path2 before path (symlink's target, mount's source,
 * sendfile's destination): its call is written in that order. */
gboolean fm_syscall_path2_first (const FmSyscall *sc);

/* The bytes of file data a call of @sc that returned @result moved: @result for a
 * successful call with FM_TRAIT_RESULT_BYTES, else 0. */
guint64 fm_syscall_result_bytes (const FmSyscall *sc,
                                 gint64           result);

/* The index of @sc's first argument of @kind, or -1. */
int fm_syscall_arg_index (const FmSyscall *sc,
                          FmArgKind        kind);

/* The name for an event's syscall_nr: the table's name, or "syscall_N" (into buf, which
 * must hold 16 bytes) for a number the table does not know. */
const char *fm_syscall_name (guint nr, char buf[16]);

/* Decoders of one argument value into text, appended to @out: "O_RDONLY|O_CLOEXEC",
 * "0644", "AT_FDCWD". Unknown bits are kept as hex ("O_RDONLY|0x40000000"). */
void fm_decode_open_flags (GString *out, guint64 flags);
void fm_decode_mode (GString *out, guint64 mode);
void fm_decode_at_flags (GString *out, guint64 flags);
void fm_decode_access_mode (GString *out, guint64 mode);
void fm_decode_rename_flags (GString *out, guint64 flags);
void fm_decode_statx_mask (GString *out, guint64 mask);
void fm_decode_xattr_flags (GString *out, guint64 flags);
void fm_decode_resolve_flags (GString *out, guint64 flags);

/* The event's detail text from the raw argument values (in the syscall's order). The
 * values that go to detail beyond the registers (fm_arg_kind_text: xattr names, argv,
 * open_how, struct flock) are passed in @strings at the same index (NULL elsewhere);
 * paths and fds are not repeated in detail except as "fd=N" ("fd2=N" for path2's).
 * A struct is its first three 64-bit words as numbers: "W0 W1 W2" (decimal or 0x).
 * The argv string is the arguments each ended by a NUL, then an empty one (so it ends
 * with two NULs); it is shown as ["prog", "arg two"].
 * A dirfd shows as "dirfd=N" ("dirfd2=N" before path2) only when it is not AT_FDCWD.
 * Non-UTF-8 bytes are written as \xNN. Appends to @out, which stays below FM_DETAIL_MAX. */
void fm_syscall_format_detail (const FmSyscall *sc,
                               const guint64    args[FM_SYSCALL_MAX_ARGS],
                               const char      *strings[FM_SYSCALL_MAX_ARGS],
                               GString         *out);

/* errno names both ways: "EACCES" <-> 13. fm_errno_name returns NULL for an unknown
 * number; fm_errno_from_name returns -1 for an unknown name (case-sensitive, "EACCES"). */
const char *fm_errno_name (int errnum);
int fm_errno_from_name (const char *name);

/* The result of a call of @syscall_nr as shown to users: "3", "0", "-ENOENT" (or "-1234"
 * for an unknown errno), "0x7f3a2c000000" for a call that returns an address; into buf,
 * which must hold 32 bytes. */
const char *fm_result_format (guint syscall_nr, gint64 result, char buf[32]);

G_END_DECLS
