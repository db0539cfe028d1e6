/* test-syscalls.c: the syscall table against the kernel (headers, tracefs), the argument
 * decoders, the detail text and the errno names.
 *
 * The tracefs check runs wherever tracefs is mounted; with FILEMON_REQUIRE_TRACEFS=1 (the
 * 'kernel' suite) an unmounted tracefs is a failure instead, so the check cannot silently
 * stop running there.
 */
#define _GNU_SOURCE
#include "fm-syscalls.h"
#include "fm-event.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/stat.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#define __NR_getxattrat 464
#define __NR_listxattrat 465
#define __NR_removexattrat 466
#endif
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif
#ifndef __NR_file_getattr
#define __NR_file_getattr 468
#define __NR_file_setattr 469
#endif

#define TRACEFS_SYSCALLS "/sys/kernel/tracing/events/syscalls"

/* The file syscalls filemon covers, with the numbers from the kernel's own headers. */
static const struct { const char *name; guint nr; } expected[] = {
#define X(n) { #n, __NR_##n }
  X (open), X (openat), X (openat2), X (creat), X (close), X (read), X (write), X (stat),
  X (lstat), X (fstat), X (newfstatat), X (statx), X (access), X (faccessat), X (faccessat2),
  X (readlink), X (readlinkat), X (unlink), X (unlinkat), X (rename), X (renameat),
  X (renameat2), X (mkdir), X (mkdirat), X (rmdir), X (chmod), X (fchmod), X (fchmodat),
  X (fchmodat2), X (chown), X (fchown), X (fchownat), X (lchown), X (link), X (linkat),
  X (symlink), X (symlinkat), X (truncate), X (ftruncate), X (utimensat), X (mknod),
  X (mknodat), X (chdir), X (execve), X (execveat), X (getxattr), X (lgetxattr),
  X (fgetxattr), X (setxattr), X (lsetxattr), X (fsetxattr), X (listxattr), X (llistxattr),
  X (flistxattr), X (removexattr), X (lremovexattr), X (fremovexattr), X (pread64),
  X (pwrite64), X (readv), X (writev), X (preadv), X (pwritev), X (preadv2), X (pwritev2),
  X (lseek), X (getdents64), X (copy_file_range), X (sendfile), X (splice), X (mmap), X (fsync),
  X (fdatasync), X (sync_file_range), X (syncfs), X (fallocate), X (flock), X (fcntl),
  X (fchdir), X (inotify_add_watch), X (inotify_rm_watch), X (mount), X (umount2),
  X (setxattrat), X (getxattrat), X (listxattrat), X (removexattrat), X (file_getattr),
  X (file_setattr), X (name_to_handle_at), X (open_by_handle_at), X (close_range),
  X (fanotify_mark), X (open_tree), X (open_tree_attr), X (move_mount), X (fsopen),
  X (fsconfig), X (fsmount), X (fspick), X (mount_setattr), X (tee), X (fadvise64),
  X (readahead),
#undef X
};

static gpointer
lookup_from_thread (gpointer data)
{
  return (gpointer) fm_syscall_by_name (data);
}

/* First use from many threads at once: the index is built exactly once. */
static void
test_lookup_concurrent_first_use (void)
{
  GThread *threads[8];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("lookup", lookup_from_thread, (gpointer) "renameat2");
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      const FmSyscall *sc = g_thread_join (threads[i]);

      g_assert_nonnull (sc);
      g_assert_cmpuint (sc->nr, ==, __NR_renameat2);
    }
}

static void
test_table_matches_kernel_headers (void)
{
  guint n = 0;
  const FmSyscall *all = fm_syscalls_all (&n);

  g_assert_cmpuint (n, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const FmSyscall *sc = fm_syscall_by_name (expected[i].name);

      g_assert_nonnull (sc);
      g_assert_cmpstr (sc->name, ==, expected[i].name);
      g_assert_cmpuint (sc->nr, ==, expected[i].nr);
      g_assert_true (sc >= all && sc < all + n);
    }
}

static void
test_table_unique_and_indexed (void)
{
  guint n = 0;
  const FmSyscall *all = fm_syscalls_all (&n);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) nrs = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) kernel_names = g_hash_table_new (g_str_hash, g_str_equal);
  char buf[16];

  for (guint i = 0; i < n; i++)
    {
      g_assert_true (g_hash_table_add (names, (gpointer) all[i].name));
      g_assert_cmpuint (strlen (all[i].name), <, FM_SYSCALL_NAME_MAX);
      g_assert_true (g_hash_table_add (nrs, GUINT_TO_POINTER (all[i].nr + 1)));
      g_assert_true (g_hash_table_add (kernel_names, (gpointer) all[i].kernel_name));
      g_assert_true (fm_syscall_by_nr (all[i].nr) == &all[i]);
      g_assert_true (fm_syscall_by_name (all[i].name) == &all[i]);
      g_assert_cmpstr (fm_syscall_name (all[i].nr, buf), ==, all[i].name);
    }
  g_assert_null (fm_syscall_by_name ("getpid"));
  g_assert_null (fm_syscall_by_name ("OPENAT"));
  g_assert_null (fm_syscall_by_name (""));
  g_assert_null (fm_syscall_by_nr (__NR_getpid));
  g_assert_null (fm_syscall_by_nr (FM_SYSCALL_NR_LIMIT - 1));
  g_assert_null (fm_syscall_by_nr (FM_SYSCALL_NR_LIMIT));
  g_assert_null (fm_syscall_by_nr (G_MAXUINT));
  g_assert_cmpstr (fm_syscall_name (__NR_getpid, buf), ==, "syscall_39");
  /* events carry a 16-bit number, so "syscall_65535" is the longest that buf must hold */
  g_assert_cmpstr (fm_syscall_name (G_MAXUINT16, buf), ==, "syscall_65535");
  g_assert_cmpstr (fm_syscall_by_name ("stat")->kernel_name, ==, "newstat");
  g_assert_cmpstr (fm_syscall_by_name ("lstat")->kernel_name, ==, "newlstat");
  g_assert_cmpstr (fm_syscall_by_name ("fstat")->kernel_name, ==, "newfstat");
  g_assert_cmpstr (fm_syscall_by_name ("sendfile")->kernel_name, ==, "sendfile64");
  g_assert_cmpstr (fm_syscall_by_name ("umount2")->kernel_name, ==, "umount");
}

static void
assert_kinds (const char *name, guint n, ...)
{
  const FmSyscall *sc = fm_syscall_by_name (name);
  va_list ap;

  g_assert_nonnull (sc);
  g_assert_cmpuint (sc->n_args, ==, n);
  va_start (ap, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (sc->args[i], ==, va_arg (ap, int));
  va_end (ap);
}

/* Where each data call moves file data, from the syscalls' man pages; the table's traits
 * must say the same, and a call with a byte count or an iovec and an fd that is missing
 * here must be named as moving no data (so that a new entry cannot leave its traits out). */
static const struct { const char *name; guint traits; } data_calls[] = {
  { "read", FM_TRAIT_READS }, { "pread64", FM_TRAIT_READS }, { "readv", FM_TRAIT_READS },
  { "preadv", FM_TRAIT_READS }, { "preadv2", FM_TRAIT_READS },
  { "write", FM_TRAIT_WRITES }, { "pwrite64", FM_TRAIT_WRITES }, { "writev", FM_TRAIT_WRITES },
  { "pwritev", FM_TRAIT_WRITES }, { "pwritev2", FM_TRAIT_WRITES },
  { "sendfile", FM_TRAIT_READS | FM_TRAIT_WRITES_PATH2 },
  { "splice", FM_TRAIT_READS | FM_TRAIT_WRITES_PATH2 },
  { "copy_file_range", FM_TRAIT_READS | FM_TRAIT_WRITES_PATH2 },
  { "tee", FM_TRAIT_READS | FM_TRAIT_WRITES_PATH2 },
};
/* a directory listing, not file data; readahead fills the page cache, not the caller's
 * memory, and returns 0 */
static const char *const sized_but_no_data[] = { "getdents64", "readahead" };

static void
test_table_data_traits (void)
{
  const guint data_traits = FM_TRAIT_READS | FM_TRAIT_WRITES | FM_TRAIT_WRITES_PATH2;
  guint n = 0;
  const FmSyscall *all = fm_syscalls_all (&n);

  for (guint i = 0; i < G_N_ELEMENTS (data_calls); i++)
    {
      const FmSyscall *sc = fm_syscall_by_name (data_calls[i].name);

      g_test_message ("%s", data_calls[i].name);
      g_assert_nonnull (sc);
      g_assert_cmphex (sc->traits & data_traits, ==, data_calls[i].traits);
      g_assert_true (sc->traits & FM_TRAIT_RESULT_BYTES);
      g_assert_cmpuint (fm_syscall_result_bytes (sc, 4096), ==, 4096);
      g_assert_cmpuint (fm_syscall_result_bytes (sc, 0), ==, 0);
      g_assert_cmpuint (fm_syscall_result_bytes (sc, -11), ==, 0);
    }

  for (guint i = 0; i < n; i++)
    {
      const FmSyscall *sc = &all[i];
      gboolean listed = FALSE, exempt = FALSE;
      gboolean sized = fm_syscall_arg_index (sc, FM_ARG_COUNT) >= 0 || fm_syscall_arg_index (sc, FM_ARG_IOVCNT) >= 0;
      gboolean has_fd = fm_syscall_arg_index (sc, FM_ARG_FD) >= 0;

      g_test_message ("%s", sc->name);
      for (guint j = 0; j < G_N_ELEMENTS (data_calls); j++)
        listed |= g_str_equal (sc->name, data_calls[j].name);
      for (guint j = 0; j < G_N_ELEMENTS (sized_but_no_data); j++)
        exempt |= g_str_equal (sc->name, sized_but_no_data[j]);
      if (sized && has_fd)
        g_assert_true (listed != exempt);
      if (!listed)
        {
          g_assert_cmphex (sc->traits & (data_traits | FM_TRAIT_RESULT_BYTES), ==, 0);
          g_assert_cmpuint (fm_syscall_result_bytes (sc, 4096), ==, 0);
          continue;
        }
      /* the side a trait names is an argument of the call */
      if (sc->traits & (FM_TRAIT_READS | FM_TRAIT_WRITES))
        g_assert_true (has_fd);
      if (sc->traits & FM_TRAIT_WRITES_PATH2)
        g_assert_cmpint (fm_syscall_arg_index (sc, FM_ARG_FD2), >=, 0);
    }
}

static void
test_table_argument_kinds (void)
{
  guint n = 0;
  const FmSyscall *all = fm_syscalls_all (&n);

  assert_kinds ("openat", 4, FM_ARG_DIRFD, FM_ARG_PATH, FM_ARG_OPEN_FLAGS, FM_ARG_MODE);
  assert_kinds ("openat2", 4, FM_ARG_DIRFD, FM_ARG_PATH, FM_ARG_OPEN_HOW, FM_ARG_IGNORED);
  assert_kinds ("renameat2", 5, FM_ARG_DIRFD, FM_ARG_PATH, FM_ARG_DIRFD, FM_ARG_PATH2,
                FM_ARG_RENAME_FLAGS);
  assert_kinds ("symlink", 2, FM_ARG_SYMLINK_TARGET, FM_ARG_PATH);
  assert_kinds ("symlinkat", 3, FM_ARG_SYMLINK_TARGET, FM_ARG_DIRFD, FM_ARG_PATH);
  assert_kinds ("linkat", 5, FM_ARG_DIRFD, FM_ARG_PATH, FM_ARG_DIRFD, FM_ARG_PATH2,
                FM_ARG_AT_FLAGS);
  assert_kinds ("read", 3, FM_ARG_FD, FM_ARG_IGNORED, FM_ARG_COUNT);
  assert_kinds ("write", 3, FM_ARG_FD, FM_ARG_IGNORED, FM_ARG_COUNT);
  assert_kinds ("pread64", 4, FM_ARG_FD, FM_ARG_IGNORED, FM_ARG_COUNT, FM_ARG_OFFSET);
  assert_kinds ("preadv2", 6, FM_ARG_FD, FM_ARG_IGNORED, FM_ARG_IOVCNT, FM_ARG_OFFSET,
                FM_ARG_OFFSET_HIGH, FM_ARG_RWF_FLAGS);
  assert_kinds ("sendfile", 4, FM_ARG_FD2, FM_ARG_FD, FM_ARG_IGNORED, FM_ARG_COUNT);
  assert_kinds ("splice", 6, FM_ARG_FD, FM_ARG_IGNORED, FM_ARG_FD2, FM_ARG_IGNORED, FM_ARG_COUNT,
                FM_ARG_SPLICE_FLAGS);
  assert_kinds ("mmap", 6, FM_ARG_IGNORED, FM_ARG_LENGTH, FM_ARG_MMAP_PROT, FM_ARG_MMAP_FLAGS,
                FM_ARG_FD, FM_ARG_OFFSET);
  assert_kinds ("fcntl", 3, FM_ARG_FD, FM_ARG_FCNTL_CMD, FM_ARG_FCNTL_ARG);
  assert_kinds ("mount", 5, FM_ARG_MOUNT_SOURCE, FM_ARG_PATH, FM_ARG_FSTYPE, FM_ARG_MOUNT_FLAGS,
                FM_ARG_IGNORED);
  assert_kinds ("faccessat2", 4, FM_ARG_DIRFD, FM_ARG_PATH, FM_ARG_ACCESS_MODE,
                FM_ARG_ACCESS_AT_FLAGS);
  assert_kinds ("execve", 3, FM_ARG_PATH, FM_ARG_ARGV, FM_ARG_IGNORED);
  assert_kinds ("statx", 5, FM_ARG_DIRFD, FM_ARG_PATH, FM_ARG_AT_FLAGS, FM_ARG_STATX_MASK,
                FM_ARG_IGNORED);
  assert_kinds ("fsetxattr", 5, FM_ARG_FD, FM_ARG_XATTR_NAME, FM_ARG_IGNORED, FM_ARG_SIZE,
                FM_ARG_XATTR_FLAGS);
  assert_kinds ("mknodat", 4, FM_ARG_DIRFD, FM_ARG_PATH, FM_ARG_MODE, FM_ARG_DEV);

  /* every entry: a path source (but the two calls that name no file: a range of fds, a
   * file system type), no hole, a dirfd always followed by its path */
  for (guint i = 0; i < n; i++)
    {
      guint paths = 0, fds = 0;

      g_assert_cmpuint (all[i].n_args, >=, 1);
      g_assert_cmpuint (all[i].n_args, <=, FM_SYSCALL_MAX_ARGS);
      for (guint j = 0; j < FM_SYSCALL_MAX_ARGS; j++)
        {
          FmArgKind k = all[i].args[j];

          if (j >= all[i].n_args)
            {
              g_assert_cmpint (k, ==, FM_ARG_NONE);
              continue;
            }
          g_assert_cmpint (k, !=, FM_ARG_NONE);
          paths += k == FM_ARG_PATH;
          fds += k == FM_ARG_FD;
          if (k == FM_ARG_DIRFD)
            g_assert_true (j + 1 < all[i].n_args
                           && (all[i].args[j + 1] == FM_ARG_PATH || all[i].args[j + 1] == FM_ARG_PATH2));
        }
      if (g_str_equal (all[i].name, "close_range") || g_str_equal (all[i].name, "fsopen"))
        g_assert_cmpuint (paths + fds, ==, 0);
      else
        g_assert_cmpuint (paths + fds, ==, 1);
    }
}

/* Every tracepoint exists, with as many arguments as the table lists. */
static void
test_table_tracepoints_exist (void)
{
  guint n = 0;
  const FmSyscall *all = fm_syscalls_all (&n);

  if (!g_file_test (TRACEFS_SYSCALLS, G_FILE_TEST_IS_DIR))
    {
      if (g_strcmp0 (g_getenv ("FILEMON_REQUIRE_TRACEFS"), "1") == 0)
        g_test_fail_printf ("%s is missing: mount tracefs (mount -t tracefs nodev "
                            "/sys/kernel/tracing) on a kernel with syscall tracepoints",
                            TRACEFS_SYSCALLS);
      else
        g_test_message ("%s not mounted; the 'kernel' suite checks the tracepoints",
                        TRACEFS_SYSCALLS);
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *exit_dir = g_strdup_printf ("%s/sys_exit_%s", TRACEFS_SYSCALLS, all[i].kernel_name);
      g_autofree char *format_path = g_strdup_printf ("%s/sys_enter_%s/format", TRACEFS_SYSCALLS,
                                                      all[i].kernel_name);
      g_autofree char *format = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) lines = NULL;
      guint n_fields = 0;

      g_test_message ("%s: %s", all[i].name, format_path);
      g_assert_true (g_file_get_contents (format_path, &format, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_test (exit_dir, G_FILE_TEST_IS_DIR));
      lines = g_strsplit (format, "\n", -1);
      for (guint j = 0; lines[j] != NULL; j++)
        if (strstr (lines[j], "field:") != NULL && strstr (lines[j], "common_") == NULL
            && strstr (lines[j], "__syscall_nr") == NULL)
          n_fields++;
      g_assert_cmpuint (n_fields, ==, all[i].n_args);
    }
}

typedef void (*Decoder) (GString *out, guint64 value);

static void
assert_decoded (Decoder decode, guint64 value, const char *want)
{
  g_autoptr(GString) out = g_string_new ("");

  decode (out, value);
  g_assert_cmpstr (out->str, ==, want);
}

static void
test_decode_open_flags (void)
{
  assert_decoded (fm_decode_open_flags, O_RDONLY, "O_RDONLY");
  assert_decoded (fm_decode_open_flags, O_WRONLY | O_CREAT | O_CLOEXEC, "O_WRONLY|O_CREAT|O_CLOEXEC");
  assert_decoded (fm_decode_open_flags, O_RDWR | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK,
                  "O_RDWR|O_EXCL|O_NOCTTY|O_TRUNC|O_APPEND|O_NONBLOCK");
  assert_decoded (fm_decode_open_flags, O_ACCMODE, "O_ACCMODE");
  assert_decoded (fm_decode_open_flags, O_DSYNC, "O_RDONLY|O_DSYNC");
  assert_decoded (fm_decode_open_flags, O_SYNC, "O_RDONLY|O_SYNC");
  assert_decoded (fm_decode_open_flags, O_ASYNC | O_DIRECT, "O_RDONLY|O_ASYNC|O_DIRECT");
  /* glibc defines O_LARGEFILE as 0 on x86_64; the kernel's bit is 0100000 */
  assert_decoded (fm_decode_open_flags, 0100000, "O_RDONLY|O_LARGEFILE");
  assert_decoded (fm_decode_open_flags, O_DIRECTORY | O_NOFOLLOW | O_NOATIME,
                  "O_RDONLY|O_DIRECTORY|O_NOFOLLOW|O_NOATIME");
  assert_decoded (fm_decode_open_flags, O_PATH | O_CLOEXEC, "O_RDONLY|O_CLOEXEC|O_PATH");
  assert_decoded (fm_decode_open_flags, O_TMPFILE | O_RDWR, "O_RDWR|O_TMPFILE");
  /* half a composite flag is not the flag */
  assert_decoded (fm_decode_open_flags, O_TMPFILE & ~O_DIRECTORY, "O_RDONLY|0x400000");
  assert_decoded (fm_decode_open_flags, O_SYNC & ~O_DSYNC, "O_RDONLY|0x100000");
  assert_decoded (fm_decode_open_flags, O_WRONLY | 0x40000000, "O_WRONLY|0x40000000");
  assert_decoded (fm_decode_open_flags, G_GUINT64_CONSTANT (0x100000000) | O_CREAT,
                  "O_RDONLY|O_CREAT|0x100000000");
}

static void
test_decode_mode (void)
{
  assert_decoded (fm_decode_mode, 0644, "0644");
  assert_decoded (fm_decode_mode, 0, "0000");
  assert_decoded (fm_decode_mode, 04755, "4755");
  assert_decoded (fm_decode_mode, S_IFREG | 0644, "S_IFREG|0644");
  assert_decoded (fm_decode_mode, S_IFDIR | 0755, "S_IFDIR|0755");
  assert_decoded (fm_decode_mode, S_IFCHR | 0600, "S_IFCHR|0600");
  assert_decoded (fm_decode_mode, S_IFBLK | 0660, "S_IFBLK|0660");
  assert_decoded (fm_decode_mode, S_IFIFO | 0600, "S_IFIFO|0600");
  assert_decoded (fm_decode_mode, S_IFSOCK | 0777, "S_IFSOCK|0777");
  assert_decoded (fm_decode_mode, S_IFLNK | 0777, "S_IFLNK|0777");
  assert_decoded (fm_decode_mode, 0030644, "030644");   /* no such file type */
  assert_decoded (fm_decode_mode, 0200644, "0644|0x10000");
}

static void
test_decode_at_and_other_flags (void)
{
  assert_decoded (fm_decode_at_flags, 0, "0");
  assert_decoded (fm_decode_at_flags, AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH,
                  "AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH");
  assert_decoded (fm_decode_at_flags, AT_REMOVEDIR, "AT_REMOVEDIR");
  assert_decoded (fm_decode_at_flags, AT_SYMLINK_FOLLOW | AT_NO_AUTOMOUNT,
                  "AT_SYMLINK_FOLLOW|AT_NO_AUTOMOUNT");
  assert_decoded (fm_decode_at_flags, AT_STATX_FORCE_SYNC, "AT_STATX_FORCE_SYNC");
  assert_decoded (fm_decode_at_flags, AT_STATX_DONT_SYNC | AT_SYMLINK_NOFOLLOW,
                  "AT_SYMLINK_NOFOLLOW|AT_STATX_DONT_SYNC");
  assert_decoded (fm_decode_at_flags, AT_STATX_SYNC_TYPE, "0x6000");
  assert_decoded (fm_decode_at_flags, AT_EMPTY_PATH | 0x80000000, "AT_EMPTY_PATH|0x80000000");

  assert_decoded (fm_decode_access_mode, F_OK, "F_OK");
  assert_decoded (fm_decode_access_mode, R_OK | W_OK | X_OK, "R_OK|W_OK|X_OK");
  assert_decoded (fm_decode_access_mode, R_OK | X_OK, "R_OK|X_OK");
  assert_decoded (fm_decode_access_mode, 8, "0x8");
  assert_decoded (fm_decode_access_mode, W_OK | 16, "W_OK|0x10");

  assert_decoded (fm_decode_rename_flags, 0, "0");
  assert_decoded (fm_decode_rename_flags, RENAME_NOREPLACE, "RENAME_NOREPLACE");
  assert_decoded (fm_decode_rename_flags, RENAME_EXCHANGE | RENAME_WHITEOUT,
                  "RENAME_EXCHANGE|RENAME_WHITEOUT");
  assert_decoded (fm_decode_rename_flags, RENAME_NOREPLACE | 8, "RENAME_NOREPLACE|0x8");

  assert_decoded (fm_decode_xattr_flags, 0, "0");
  assert_decoded (fm_decode_xattr_flags, XATTR_CREATE, "XATTR_CREATE");
  assert_decoded (fm_decode_xattr_flags, XATTR_CREATE | XATTR_REPLACE, "XATTR_CREATE|XATTR_REPLACE");
  assert_decoded (fm_decode_xattr_flags, 4, "0x4");

  assert_decoded (fm_decode_resolve_flags, 0, "0");
  assert_decoded (fm_decode_resolve_flags, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
                  "RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH");
  assert_decoded (fm_decode_resolve_flags, RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_IN_ROOT
                  | RESOLVE_CACHED, "RESOLVE_NO_XDEV|RESOLVE_NO_MAGICLINKS|RESOLVE_IN_ROOT|RESOLVE_CACHED");
  assert_decoded (fm_decode_resolve_flags, 0x40, "0x40");
}

static void
test_decode_statx_mask (void)
{
  assert_decoded (fm_decode_statx_mask, 0, "0");
  assert_decoded (fm_decode_statx_mask, STATX_BASIC_STATS, "STATX_BASIC_STATS");
  assert_decoded (fm_decode_statx_mask, STATX_BASIC_STATS | STATX_BTIME,
                  "STATX_BASIC_STATS|STATX_BTIME");
  assert_decoded (fm_decode_statx_mask, STATX_TYPE | STATX_MODE | STATX_SIZE,
                  "STATX_TYPE|STATX_MODE|STATX_SIZE");
  assert_decoded (fm_decode_statx_mask, STATX_MNT_ID | STATX_DIOALIGN, "STATX_MNT_ID|STATX_DIOALIGN");
  assert_decoded (fm_decode_statx_mask, 0x80000000u | STATX_INO, "STATX_INO|0x80000000");
}

static void
test_errno_round_trip (void)
{
  /* glibc's own table is the reference; 41 and 58 are holes in Linux's numbering */
  for (int e = 1; e <= 133; e++)
    {
      const char *name = fm_errno_name (e);

      g_assert_cmpstr (name, ==, strerrorname_np (e));
      if (e == 41 || e == 58)
        continue;
      g_assert_nonnull (name);
      g_assert_cmpint (fm_errno_from_name (name), ==, e);
    }
  g_assert_cmpstr (fm_errno_name (EHWPOISON), ==, "EHWPOISON");
  g_assert_null (fm_errno_name (0));
  g_assert_null (fm_errno_name (-1));
  g_assert_null (fm_errno_name (134));
  g_assert_null (fm_errno_name (G_MAXINT));
  g_assert_cmpstr (fm_errno_name (512), ==, "ERESTARTSYS");
  g_assert_cmpint (fm_errno_from_name ("ERESTARTSYS"), ==, 512);
  g_assert_cmpint (fm_errno_from_name ("EWOULDBLOCK"), ==, EAGAIN);
  g_assert_cmpint (fm_errno_from_name ("EDEADLOCK"), ==, EDEADLK);
  g_assert_cmpint (fm_errno_from_name ("ENOTSUP"), ==, EOPNOTSUPP);
  g_assert_cmpint (fm_errno_from_name ("eacces"), ==, -1);
  g_assert_cmpint (fm_errno_from_name ("EFOO"), ==, -1);
  g_assert_cmpint (fm_errno_from_name (""), ==, -1);
}

static void
test_result_format (void)
{
  guint nr_open = fm_syscall_by_name ("openat")->nr;
  guint nr_mmap = fm_syscall_by_name ("mmap")->nr;
  char buf[32];

  g_assert_cmpstr (fm_result_format (nr_open, 3, buf), ==, "3");
  g_assert_cmpstr (fm_result_format (nr_open, 0, buf), ==, "0");
  g_assert_cmpstr (fm_result_format (nr_open, -ENOENT, buf), ==, "-ENOENT");
  g_assert_cmpstr (fm_result_format (nr_open, -EACCES, buf), ==, "-EACCES");
  g_assert_cmpstr (fm_result_format (nr_open, -1234, buf), ==, "-1234");
  g_assert_cmpstr (fm_result_format (nr_open, -41, buf), ==, "-41");
  g_assert_cmpstr (fm_result_format (nr_open, G_MININT64, buf), ==, "-9223372036854775808");
  g_assert_cmpstr (fm_result_format (nr_open, G_MAXINT64, buf), ==, "9223372036854775807");
  /* an address in hex, as strace shows it; a failed mmap is still its errno */
  g_assert_cmpstr (fm_result_format (nr_mmap, 0x7f3a2c001000, buf), ==, "0x7f3a2c001000");
  g_assert_cmpstr (fm_result_format (nr_mmap, 0, buf), ==, "0x0");
  g_assert_cmpstr (fm_result_format (nr_mmap, -ENOMEM, buf), ==, "-ENOMEM");
  g_assert_cmpstr (fm_result_format (nr_mmap, G_MAXINT64, buf), ==, "0x7fffffffffffffff");
}

/* The detail of @name for these raw arguments and strings. */
static char *
detail (const char *name, const guint64 *args, const char **strings)
{
  const FmSyscall *sc = fm_syscall_by_name (name);
  guint64 a[FM_SYSCALL_MAX_ARGS] = { 0 };
  const char *s[FM_SYSCALL_MAX_ARGS] = { NULL };
  GString *out = g_string_new ("");

  g_assert_nonnull (sc);
  for (guint i = 0; i < sc->n_args; i++)
    {
      a[i] = args[i];
      s[i] = strings != NULL ? strings[i] : NULL;
    }
  fm_syscall_format_detail (sc, a, s, out);
  g_assert_true (g_utf8_validate (out->str, out->len, NULL));
  g_assert_cmpuint (out->len, <, FM_DETAIL_MAX);
  return g_string_free (out, FALSE);
}

#define ARGS(...) ((const guint64[]) { __VA_ARGS__ })
#define STRS(...) ((const char *[]) { __VA_ARGS__ })
#define ASSERT_DETAIL(name, args, strings, want) \
  G_STMT_START { g_autofree char *got_ = detail (name, args, strings); \
                 g_assert_cmpstr (got_, ==, want); } G_STMT_END

static void
test_detail_decoded_arguments (void)
{
  const guint64 cwd64 = (guint64) (gint64) AT_FDCWD, cwd32 = (guint32) AT_FDCWD;

  ASSERT_DETAIL ("openat", ARGS (cwd64, 0, O_WRONLY | O_CREAT | O_CLOEXEC, 0644), NULL,
                 "O_WRONLY|O_CREAT|O_CLOEXEC, 0644");
  /* the mode argument is junk without O_CREAT/O_TMPFILE; upper register bits are not the int's */
  ASSERT_DETAIL ("openat", ARGS (cwd32, 0, G_GUINT64_CONSTANT (0xdead000000000000) | O_RDONLY, 0777),
                 NULL, "O_RDONLY");
  ASSERT_DETAIL ("openat", ARGS (5, 0, O_RDWR | O_TMPFILE, 0600), NULL, "dirfd=5, O_RDWR|O_TMPFILE, 0600");
  ASSERT_DETAIL ("open", ARGS (0, O_RDONLY, 0), NULL, "O_RDONLY");
  ASSERT_DETAIL ("creat", ARGS (0, 0640), NULL, "0640");
  ASSERT_DETAIL ("read", ARGS (3, 0x7ffd0000, 4096), NULL, "fd=3, count=4096");
  ASSERT_DETAIL ("write", ARGS (1, 0x7ffd0000, 12), NULL, "fd=1, count=12");
  ASSERT_DETAIL ("close", ARGS (G_MAXUINT32), NULL, "fd=-1");
  ASSERT_DETAIL ("stat", ARGS (0, 0x7ffd0000), NULL, "");
  ASSERT_DETAIL ("newfstatat", ARGS (3, 0, 0x7ffd0000, AT_EMPTY_PATH), NULL, "dirfd=3, AT_EMPTY_PATH");
  ASSERT_DETAIL ("statx", ARGS (cwd64, 0, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, 0),
                 NULL, "AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS|STATX_BTIME");
  ASSERT_DETAIL ("access", ARGS (0, R_OK | W_OK), NULL, "R_OK|W_OK");
  ASSERT_DETAIL ("faccessat2", ARGS (cwd64, 0, X_OK, AT_EACCESS), NULL, "X_OK, AT_EACCESS");
  ASSERT_DETAIL ("unlinkat", ARGS (cwd64, 0, AT_REMOVEDIR), NULL, "AT_REMOVEDIR");
  ASSERT_DETAIL ("unlinkat", ARGS (cwd64, 0, 0), NULL, "");
  ASSERT_DETAIL ("renameat2", ARGS (3, 0, 4, 0, RENAME_NOREPLACE), NULL,
                 "dirfd=3, dirfd2=4, RENAME_NOREPLACE");
  ASSERT_DETAIL ("renameat2", ARGS (cwd64, 0, cwd64, 0, 0), NULL, "");
  ASSERT_DETAIL ("linkat", ARGS (cwd64, 0, 7, 0, AT_SYMLINK_FOLLOW), NULL, "dirfd2=7, AT_SYMLINK_FOLLOW");
  ASSERT_DETAIL ("symlinkat", ARGS (0, 9, 0), NULL, "dirfd=9");
  ASSERT_DETAIL ("mkdir", ARGS (0, 0755), NULL, "0755");
  ASSERT_DETAIL ("fchmod", ARGS (4, 04755), NULL, "fd=4, 4755");
  ASSERT_DETAIL ("fchmodat2", ARGS (cwd64, 0, 0600, AT_SYMLINK_NOFOLLOW), NULL, "0600, AT_SYMLINK_NOFOLLOW");
  ASSERT_DETAIL ("fchownat", ARGS (cwd64, 0, G_MAXUINT32, 100, AT_SYMLINK_NOFOLLOW), NULL,
                 "uid=-1, gid=100, AT_SYMLINK_NOFOLLOW");
  ASSERT_DETAIL ("chown", ARGS (0, 1000, G_MAXUINT32), NULL, "uid=1000, gid=-1");
  ASSERT_DETAIL ("truncate", ARGS (0, 100), NULL, "length=100");
  ASSERT_DETAIL ("ftruncate", ARGS (3, 0), NULL, "fd=3, length=0");
  ASSERT_DETAIL ("mknod", ARGS (0, S_IFCHR | 0600, makedev (259, 65536)), NULL, "S_IFCHR|0600, dev=259:65536");
  ASSERT_DETAIL ("mknodat", ARGS (cwd64, 0, S_IFIFO | 0644, 0), NULL, "S_IFIFO|0644");
  ASSERT_DETAIL ("utimensat", ARGS (cwd64, 0, 0, AT_SYMLINK_NOFOLLOW), NULL, "AT_SYMLINK_NOFOLLOW");
  ASSERT_DETAIL ("readlink", ARGS (0, 0x7ffd0000, 4096), NULL, "size=4096");
  ASSERT_DETAIL ("symlink", ARGS (0, 0), NULL, "");
}

/* The read, write, sync, lock, map, watch and mount calls. */
static void
test_detail_data_calls (void)
{
  ASSERT_DETAIL ("pread64", ARGS (3, 0x7ffd0000, 8, 4), NULL, "fd=3, count=8, offset=4");
  ASSERT_DETAIL ("pwrite64", ARGS (3, 0x7ffd0000, 8, G_MAXUINT64), NULL, "fd=3, count=8, offset=-1");
  ASSERT_DETAIL ("readv", ARGS (3, 0x7ffd0000, 2), NULL, "fd=3, iovcnt=2");
  /* preadv's high half of the position is 0 on 64-bit and not shown */
  ASSERT_DETAIL ("preadv", ARGS (3, 0x7ffd0000, 2, 4096, 0), NULL, "fd=3, iovcnt=2, offset=4096");
  ASSERT_DETAIL ("pwritev2", ARGS (3, 0x7ffd0000, 1, 0, 0, 0x2), NULL, "fd=3, iovcnt=1, offset=0, RWF_DSYNC");
  ASSERT_DETAIL ("preadv2", ARGS (3, 0x7ffd0000, 1, 0, 0, 0), NULL, "fd=3, iovcnt=1, offset=0");
  ASSERT_DETAIL ("lseek", ARGS (3, (guint64) -5, SEEK_END), NULL, "fd=3, offset=-5, SEEK_END");
  ASSERT_DETAIL ("lseek", ARGS (3, 0, 7), NULL, "fd=3, offset=0, 0x7");
  ASSERT_DETAIL ("getdents64", ARGS (4, 0x7ffd0000, 32768), NULL, "fd=4, count=32768");
  ASSERT_DETAIL ("fsync", ARGS (3), NULL, "fd=3");
  ASSERT_DETAIL ("sync_file_range", ARGS (3, 0, 4096, 2), NULL,
                 "fd=3, offset=0, length=4096, SYNC_FILE_RANGE_WRITE");
  ASSERT_DETAIL ("fallocate", ARGS (3, 0x3, 0, 4096), NULL,
                 "fd=3, FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE, offset=0, length=4096");
  ASSERT_DETAIL ("fallocate", ARGS (3, 0, 0, 4096), NULL, "fd=3, offset=0, length=4096");
  ASSERT_DETAIL ("flock", ARGS (3, LOCK_EX | LOCK_NB), NULL, "fd=3, LOCK_EX|LOCK_NB");
  /* the two ends of a copy: fd is the event's path (read), fd2 its path2 (written) */
  ASSERT_DETAIL ("copy_file_range", ARGS (3, 0, 5, 0, 16, 0), NULL, "fd=3, fd2=5, count=16");
  ASSERT_DETAIL ("sendfile", ARGS (5, 3, 0, 8), NULL, "fd2=5, fd=3, count=8");
  ASSERT_DETAIL ("splice", ARGS (6, 0, 5, 0, 4, 1), NULL, "fd=6, fd2=5, count=4, SPLICE_F_MOVE");
  ASSERT_DETAIL ("mmap", ARGS (0, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_DENYWRITE, 3, 8192), NULL,
                 "length=4096, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_DENYWRITE, fd=3, offset=8192");
  ASSERT_DETAIL ("mmap", ARGS (0, 4096, PROT_NONE, MAP_SHARED_VALIDATE | MAP_SYNC, 3, 0), NULL,
                 "length=4096, PROT_NONE, MAP_SHARED_VALIDATE|MAP_SYNC, fd=3, offset=0");
  ASSERT_DETAIL ("fchdir", ARGS (4), NULL, "fd=4");
  ASSERT_DETAIL ("inotify_add_watch", ARGS (7, 0, IN_MODIFY | IN_ONLYDIR), NULL, "fd=7, IN_MODIFY|IN_ONLYDIR");
  ASSERT_DETAIL ("inotify_rm_watch", ARGS (7, 1), NULL, "fd=7, wd=1");
  ASSERT_DETAIL ("umount2", ARGS (0, MNT_DETACH), NULL, "MNT_DETACH");
  ASSERT_DETAIL ("umount2", ARGS (0, 0), NULL, "");
}

/* The calls of newer kernels and the mount API: structs, enums and the flags of each. */
static void
test_detail_newer_calls (void)
{
  const guint64 cwd64 = (guint64) (gint64) AT_FDCWD;

  /* struct xattr_args: value pointer, then size and flags in one word */
  ASSERT_DETAIL ("setxattrat", ARGS (cwd64, 0, AT_SYMLINK_NOFOLLOW, 0, 0x7ffd0000, 16),
                 STRS (NULL, NULL, NULL, "user.at", "140720308486144 8589934595 7", NULL),
                 "AT_SYMLINK_NOFOLLOW, \"user.at\", size=3, XATTR_REPLACE");
  ASSERT_DETAIL ("getxattrat", ARGS (4, 0, 0, 0, 0x7ffd0000, 16),
                 STRS (NULL, NULL, NULL, "user.at", "0x7ffd0000 256 0", NULL),
                 "dirfd=4, \"user.at\", size=256");
  ASSERT_DETAIL ("getxattrat", ARGS (4, 0, 0, 0, 0x7ffd0000, 16),
                 STRS (NULL, NULL, NULL, "user.at", "garbage", NULL), "dirfd=4, \"user.at\", args=?");
  ASSERT_DETAIL ("listxattrat", ARGS (3, 0, AT_EMPTY_PATH, 0, 256), NULL, "dirfd=3, AT_EMPTY_PATH, size=256");
  ASSERT_DETAIL ("removexattrat", ARGS (cwd64, 0, 0, 0), STRS (NULL, NULL, NULL, "user.at"), "\"user.at\"");
  ASSERT_DETAIL ("file_setattr", ARGS (cwd64, 0, 0x7ffd0000, 24, AT_SYMLINK_NOFOLLOW), NULL,
                 "AT_SYMLINK_NOFOLLOW");
  ASSERT_DETAIL ("name_to_handle_at", ARGS (3, 0, 0x7ffd0000, 0x7ffd1000, AT_EMPTY_PATH), NULL,
                 "dirfd=3, AT_EMPTY_PATH");
  ASSERT_DETAIL ("open_by_handle_at", ARGS (5, 0x7ffd0000, O_RDONLY | O_CLOEXEC), NULL,
                 "fd=5, O_RDONLY|O_CLOEXEC");
  ASSERT_DETAIL ("close_range", ARGS (3, G_MAXUINT32, 4), NULL, "first=3, last=4294967295, CLOSE_RANGE_CLOEXEC");
  ASSERT_DETAIL ("close_range", ARGS (6, 7, 0), NULL, "first=6, last=7");
  ASSERT_DETAIL ("fanotify_mark", ARGS (6, 0x9, 0x0800000a, cwd64, 0), NULL,
                 "fd=6, FAN_MARK_ADD|FAN_MARK_ONLYDIR, FAN_MODIFY|FAN_CLOSE_WRITE|FAN_EVENT_ON_CHILD");
  ASSERT_DETAIL ("fanotify_mark", ARGS (6, 0x80, 0, 5, 0), NULL, "fd=6, FAN_MARK_FLUSH, 0, dirfd=5");
  ASSERT_DETAIL ("tee", ARGS (6, 9, 4, 2), NULL, "fd=6, fd2=9, count=4, SPLICE_F_NONBLOCK");
  ASSERT_DETAIL ("fadvise64", ARGS (3, 0, 4096, 3), NULL, "fd=3, offset=0, length=4096, POSIX_FADV_WILLNEED");
  ASSERT_DETAIL ("fadvise64", ARGS (3, 0, 0, 99), NULL, "fd=3, offset=0, length=0, 0x63");
  ASSERT_DETAIL ("readahead", ARGS (3, 8192, 4096), NULL, "fd=3, offset=8192, count=4096");
  ASSERT_DETAIL ("open_tree", ARGS (cwd64, 0, 1 | O_CLOEXEC | AT_RECURSIVE), NULL,
                 "OPEN_TREE_CLONE|AT_RECURSIVE|OPEN_TREE_CLOEXEC");
  ASSERT_DETAIL ("open_tree", ARGS (cwd64, 0, 0), NULL, "");
  ASSERT_DETAIL ("move_mount", ARGS (7, 0, cwd64, 0, 0x4), NULL, "dirfd=7, MOVE_MOUNT_F_EMPTY_PATH");
  ASSERT_DETAIL ("fsopen", ARGS (0, 1), STRS ("tmpfs", NULL), "\"tmpfs\", FSOPEN_CLOEXEC");
  ASSERT_DETAIL ("fsconfig", ARGS (6, 1, 0, 0, 0), STRS (NULL, NULL, "size", NULL, NULL),
                 "fd=6, FSCONFIG_SET_STRING, \"size\", aux=0");
  /* a command has no key: NULL reads as nothing, or as "" from the bpf program */
  ASSERT_DETAIL ("fsconfig", ARGS (6, 6, 0, 0, 0), STRS (NULL, NULL, "", NULL, NULL),
                 "fd=6, FSCONFIG_CMD_CREATE, aux=0");
  ASSERT_DETAIL ("fsconfig", ARGS (6, 42, 0, 0, 0), NULL, "fd=6, 0x2a, aux=0");
  ASSERT_DETAIL ("fsmount", ARGS (6, 1, 0x6), NULL, "fd=6, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID|MOUNT_ATTR_NODEV");
  /* MOUNT_ATTR_RELATIME is the atime field's 0; a field of 0x30 is no value and stays hex */
  ASSERT_DETAIL ("fsmount", ARGS (6, 0, 0x30), NULL, "fd=6, 0x30");
  ASSERT_DETAIL ("fspick", ARGS (cwd64, 0, 0x3), NULL, "FSPICK_CLOEXEC|FSPICK_SYMLINK_NOFOLLOW");
  ASSERT_DETAIL ("mount_setattr", ARGS (cwd64, 0, AT_RECURSIVE, 0x7ffd0000, 32),
                 STRS (NULL, NULL, NULL, "0 1 262144", NULL),
                 "AT_RECURSIVE, attr_clr=MOUNT_ATTR_RDONLY, propagation=MS_PRIVATE");
  ASSERT_DETAIL ("open_tree_attr", ARGS (cwd64, 0, 1, 0x7ffd0000, 32),
                 STRS (NULL, NULL, NULL, "9 0 0", NULL),
                 "OPEN_TREE_CLONE, attr_set=MOUNT_ATTR_RDONLY|MOUNT_ATTR_NOEXEC");
}

/* fcntl's third argument is what its command makes of it. */
static void
test_detail_fcntl (void)
{
  ASSERT_DETAIL ("fcntl", ARGS (3, F_GETFL, 0x7ffd), NULL, "fd=3, F_GETFL");
  ASSERT_DETAIL ("fcntl", ARGS (3, F_SETFL, O_APPEND | O_NONBLOCK), NULL,
                 "fd=3, F_SETFL, O_RDONLY|O_APPEND|O_NONBLOCK");
  ASSERT_DETAIL ("fcntl", ARGS (3, F_SETFD, FD_CLOEXEC), NULL, "fd=3, F_SETFD, FD_CLOEXEC");
  ASSERT_DETAIL ("fcntl", ARGS (3, F_DUPFD_CLOEXEC, 10), NULL, "fd=3, F_DUPFD_CLOEXEC, 10");
  ASSERT_DETAIL ("fcntl", ARGS (3, F_SETLEASE, F_WRLCK), NULL, "fd=3, F_SETLEASE, F_WRLCK");
  /* struct flock: l_type and l_whence are two shorts in its first word */
  ASSERT_DETAIL ("fcntl", ARGS (3, F_SETLKW, 0x7ffd0000), STRS (NULL, NULL, "65537 2 10"),
                 "fd=3, F_SETLKW, {l_type=F_WRLCK, l_whence=SEEK_CUR, l_start=2, l_len=10}");
  ASSERT_DETAIL ("fcntl", ARGS (3, F_OFD_SETLK, 0x7ffd0000), STRS (NULL, NULL, "2 0 0"),
                 "fd=3, F_OFD_SETLK, {l_type=F_UNLCK, l_whence=SEEK_SET, l_start=0, l_len=0}");
  /* a struct the backend could not read is not invented */
  ASSERT_DETAIL ("fcntl", ARGS (3, F_SETLK, 0), NULL, "fd=3, F_SETLK, lock=?");
  ASSERT_DETAIL ("fcntl", ARGS (3, 9999, 5), NULL, "fd=3, 0x270f, 5");
}

static void
test_detail_strings (void)
{
  ASSERT_DETAIL ("setxattr", ARGS (0, 0, 0, 3, XATTR_CREATE), STRS (NULL, "user.mime", NULL, NULL, NULL),
                 "\"user.mime\", size=3, XATTR_CREATE");
  ASSERT_DETAIL ("fgetxattr", ARGS (5, 0, 0, 0), STRS (NULL, "user.\"q\"", NULL, NULL),
                 "fd=5, \"user.\\\"q\\\"\", size=0");
  /* a string the backend could not read is left out, not invented */
  ASSERT_DETAIL ("removexattr", ARGS (0, 0), NULL, "");
  /* argv: each argument ended by a NUL, an empty one after the last; each quoted, so
   * that "arg two" is one argument */
  ASSERT_DETAIL ("execve", ARGS (0, 0, 0), STRS (NULL, "echo\0arg1\0arg two\0", NULL),
                 "[\"echo\", \"arg1\", \"arg two\"]");
  ASSERT_DETAIL ("execve", ARGS (0, 0, 0), STRS (NULL, "ls -l /tmp\0", NULL), "[\"ls -l /tmp\"]");
  ASSERT_DETAIL ("execve", ARGS (0, 0, 0), STRS (NULL, "caf\xc3\xa9 \xff\xfe a\\b\nc\td\x01\"q\0", NULL),
                 "[\"caf\xc3\xa9 \\xff\\xfe a\\\\b\\nc\\td\\x01\\\"q\"]");
  /* a truncated UTF-8 sequence at the end is bytes, not a character */
  ASSERT_DETAIL ("execve", ARGS (0, 0, 0), STRS (NULL, "x\xc3\0", NULL), "[\"x\\xc3\"]");
  /* C1 (U+009B, a CSI) and bidi controls (U+202E) are escaped, not written */
  ASSERT_DETAIL ("execve", ARGS (0, 0, 0), STRS (NULL, "a\xc2\x9b" "31m\0b\xe2\x80\xae" "c\0", NULL),
                 "[\"a\\xc2\\x9b31m\", \"b\\xe2\\x80\\xaec\"]");
  ASSERT_DETAIL ("execve", ARGS (0, 0, 0), STRS (NULL, "\0", NULL), "[]");
  ASSERT_DETAIL ("execveat", ARGS (7, 0, 0, 0, AT_EMPTY_PATH), STRS (NULL, NULL, "prog\0--flag\0", NULL, NULL),
                 "dirfd=7, [\"prog\", \"--flag\"], AT_EMPTY_PATH");
  ASSERT_DETAIL ("openat2", ARGS ((guint64) (gint64) AT_FDCWD, 0, 0x7ffd0000, 24),
                 STRS (NULL, NULL, "0x241 420 8", NULL), "O_WRONLY|O_CREAT|O_TRUNC, 0644, RESOLVE_BENEATH");
  ASSERT_DETAIL ("openat2", ARGS (3, 0, 0x7ffd0000, 24), STRS (NULL, NULL, "524288 0 0", NULL),
                 "dirfd=3, O_RDONLY|O_CLOEXEC");
  ASSERT_DETAIL ("openat2", ARGS (3, 0, 0, 24), STRS (NULL, NULL, "1 2", NULL), "dirfd=3, how=?");
  ASSERT_DETAIL ("openat2", ARGS (3, 0, 0, 24), STRS (NULL, NULL, "1 2 3x", NULL), "dirfd=3, how=?");
  /* mount: the source is path2 and the mount point path; the type is quoted, none for a
   * bind mount or a remount */
  ASSERT_DETAIL ("mount", ARGS (0, 0, 0, MS_NOSUID | MS_NODEV, 0), STRS (NULL, NULL, "tmpfs", NULL, NULL),
                 "\"tmpfs\", MS_NOSUID|MS_NODEV");
  ASSERT_DETAIL ("mount", ARGS (0, 0, 0, MS_BIND | MS_REC, 0), STRS (NULL, NULL, "", NULL, NULL),
                 "MS_BIND|MS_REC");
  ASSERT_DETAIL ("mount", ARGS (0, 0, 0, MS_MGC_VAL | MS_RDONLY, 0), NULL, "MS_MGC_VAL|MS_RDONLY");
}

/* Whatever goes in, the detail is valid UTF-8 below FM_DETAIL_MAX and says it was cut. */
static void
test_detail_bounded (void)
{
  g_autoptr(GString) argv = g_string_new (NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  const FmSyscall *execve = fm_syscall_by_name ("execve");
  const FmSyscall *fsetxattr = fm_syscall_by_name ("fsetxattr");
  guint64 args[FM_SYSCALL_MAX_ARGS] = { 3, 0, 0, 10, XATTR_REPLACE, 0 };
  const char *strings[FM_SYSCALL_MAX_ARGS] = { NULL };

  for (guint i = 0; i < 3000; i++)
    g_string_append (argv, i % 3 == 0 ? "\xc3\xa9" : i % 3 == 1 ? "\xff" : "a");

  for (gsize prefix = 0; prefix < FM_DETAIL_MAX + 8; prefix += 1)
    {
      g_string_truncate (out, 0);
      for (gsize j = 0; j < prefix; j++)
        g_string_append_c (out, 'p');
      strings[1] = argv->str;
      fm_syscall_format_detail (execve, args, strings, out);
      g_assert_true (g_utf8_validate (out->str, out->len, NULL));
      g_assert_cmpuint (out->len, <, MAX (FM_DETAIL_MAX, prefix + 1));
      if (prefix + 3 < FM_DETAIL_MAX)
        g_assert_true (g_str_has_suffix (out->str, "...\"]") || g_str_has_suffix (out->str, "..."));

      /* a quoted name cut short keeps its closing quote; later fields give way to "..." */
      g_string_truncate (out, 0);
      for (gsize j = 0; j < prefix; j++)
        g_string_append_c (out, 'p');
      fm_syscall_format_detail (fsetxattr, args, strings, out);
      g_assert_true (g_utf8_validate (out->str, out->len, NULL));
      g_assert_cmpuint (out->len, <, MAX (FM_DETAIL_MAX, prefix + 1));
      if (prefix + 8 < FM_DETAIL_MAX)
        g_assert_true (g_str_has_suffix (out->str, "...\"") || g_str_has_suffix (out->str, "..."));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/syscalls/lookup/concurrent-first-use-builds-one-index", test_lookup_concurrent_first_use);
  g_test_add_func ("/syscalls/table/matches-design-and-kernel-headers", test_table_matches_kernel_headers);
  g_test_add_func ("/syscalls/table/unique-names-numbers-kernel-names", test_table_unique_and_indexed);
  g_test_add_func ("/syscalls/table/argument-kinds", test_table_argument_kinds);
  g_test_add_func ("/syscalls/table/every-data-call-says-where-its-bytes-go", test_table_data_traits);
  g_test_add_func ("/syscalls/table/tracepoints-exist-with-these-arguments", test_table_tracepoints_exist);
  g_test_add_func ("/syscalls/decode/open-flags", test_decode_open_flags);
  g_test_add_func ("/syscalls/decode/mode-octal-with-type", test_decode_mode);
  g_test_add_func ("/syscalls/decode/at-access-rename-xattr-resolve", test_decode_at_and_other_flags);
  g_test_add_func ("/syscalls/decode/statx-mask", test_decode_statx_mask);
  g_test_add_func ("/syscalls/errno/round-trip-matches-glibc", test_errno_round_trip);
  g_test_add_func ("/syscalls/errno/result-format-mmap-in-hex", test_result_format);
  g_test_add_func ("/syscalls/detail/decoded-arguments", test_detail_decoded_arguments);
  g_test_add_func ("/syscalls/detail/strings-escaped", test_detail_strings);
  g_test_add_func ("/syscalls/detail/read-write-sync-lock-map-watch", test_detail_data_calls);
  g_test_add_func ("/syscalls/detail/fcntl-argument-by-command", test_detail_fcntl);
  g_test_add_func ("/syscalls/detail/newer-calls-and-mount-api", test_detail_newer_calls);
  g_test_add_func ("/syscalls/detail/bounded-valid-utf8", test_detail_bounded);

  return g_test_run ();
}
