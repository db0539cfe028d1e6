/* fm-syscalls.h: the one table of the file syscalls filemon traces.
 *
 * Everything that needs to know which syscalls exist and what their arguments mean reads
 * this table: the stap script generator, the BPF backend's attach list and argument
 * capture, the detail decoder, the filter language's syscall names and the clients. Nothing
 * else lists syscalls by hand.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What one syscall argument is, in the syscall's own argument order. */
typedef enum {
  FM_ARG_NONE = 0,
  FM_ARG_PATH,          /* const char *: the event's path (first path argument) */
  FM_ARG_PATH2,         /* const char *: the event's path2 (rename/link target, symlink linkpath) */
  FM_ARG_SYMLINK_TARGET,/* const char *: symlink's target text: goes to path2 verbatim, never resolved */
  FM_ARG_FD,            /* int fd: its path becomes the event's path */
  FM_ARG_DIRFD,         /* int dirfd: the base of the next PATH or PATH2 argument (AT_FDCWD = cwd) */
  FM_ARG_OPEN_FLAGS,    /* O_* */
  FM_ARG_MODE,          /* permission bits and S_IF* type, shown in octal */
  FM_ARG_AT_FLAGS,      /* AT_* (AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH, AT_REMOVEDIR, ...) */
  FM_ARG_ACCESS_MODE,   /* F_OK or R_OK|W_OK|X_OK */
  FM_ARG_RENAME_FLAGS,  /* RENAME_NOREPLACE|RENAME_EXCHANGE|RENAME_WHITEOUT */
  FM_ARG_OPEN_HOW,      /* struct open_how *: flags, mode, resolve (openat2) */
  FM_ARG_STATX_MASK,    /* STATX_* */
  FM_ARG_XATTR_NAME,    /* const char *: attribute name */
  FM_ARG_XATTR_FLAGS,   /* XATTR_CREATE|XATTR_REPLACE */
  FM_ARG_UID,           /* uid_t, -1 = unchanged */
  FM_ARG_GID,           /* gid_t, -1 = unchanged */
  FM_ARG_SIZE,          /* size_t count / buffer size */
  FM_ARG_OFFSET,        /* off_t length (truncate) */
  FM_ARG_DEV,           /* dev_t (mknod) */
  FM_ARG_ARGV,          /* char *const argv[] (execve): first arguments shown in detail */
  FM_ARG_IGNORED,       /* an argument not worth showing (a user buffer pointer, envp) */
} FmArgKind;

#define FM_SYSCALL_MAX_ARGS 6

typedef struct {
  const char *name;            /* syscalls(2) name, as in events: "openat", "newfstatat" */
  guint16 nr;                  /* x86_64 syscall number */
  const char *tracepoint;      /* the kernel's name: syscalls:sys_enter_X tracepoint and
                                  __x64_sys_X entry point ("newstat" for stat) */
  const char *stap_probe;      /* SystemTap tapset probe ("syscall.stat"), NULL if none */
  guint8 n_args;
  FmArgKind args[FM_SYSCALL_MAX_ARGS];
} FmSyscall;

/* The whole table, in a fixed order; n_out gets its length. */
const FmSyscall *fm_syscalls_all (guint *n_out);

/* Lookup by name or by x86_64 number; NULL when filemon does not trace it. */
const FmSyscall *fm_syscall_by_name (const char *name);
const FmSyscall *fm_syscall_by_nr (guint nr);

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

/* The event's detail text from the raw argument values (in the syscall's order). String
 * arguments that go to detail (xattr names, argv, open_how) are passed in @strings at the
 * same index (NULL elsewhere); paths and fds are not repeated in detail except as "fd=N".
 * The open_how string is its three fields as numbers: "FLAGS MODE RESOLVE" (decimal or 0x).
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

/* The result as shown to users: "3", "0", "-ENOENT" (or "-1234" for an unknown errno);
 * into buf, which must hold 32 bytes. */
const char *fm_result_format (gint64 result, char buf[32]);

G_END_DECLS
