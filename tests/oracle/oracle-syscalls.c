/* oracle-syscalls.c: a workload for the oracle tier that makes every syscall of filemon's
 * table (common/fm-syscalls.c) in the forms a capture gets wrong first: relative to the
 * cwd and to a dirfd, AT_EMPTY_PATH on files, pipes, sockets, anonymous inodes and memfd,
 * fd-only, failing, in a thread, in a forked child and after an exec, with hostile names
 * (controls, C1, bidi, invalid UTF-8, quotes, commas) and paths at PATH_MAX.
 *
 *   oracle-syscalls DIR     runs everything inside DIR (created; the cwd becomes DIR)
 *
 * Raw syscall() everywhere: glibc picks its own syscalls (fstat is newfstatat), and the
 * point is to make each one of the table on purpose. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/time.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <linux/openat2.h>
#include <linux/stat.h>

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* Names that must come out escaped and unchanged. */
static const char *const hostile[] = {
  "plain",
  "new\nline",
  "esc\033[2Jclear",
  "c1-\xc2\x9b" "31m",
  "bidi-\xe2\x80\xae" "txt.exe",
  "bad-\xff\xfe-utf8",
  "quote\"back\\slash",
  "comma, space",
  " lead-space",
};

static void
on_path (const char *name)
{
  int dirfd = (int) syscall (SYS_open, ".", O_RDONLY | O_DIRECTORY);
  char target[64];
  int fd;

  fd = (int) syscall (SYS_openat, AT_FDCWD, name, O_WRONLY | O_CREAT | O_TRUNC, 0640);
  syscall (SYS_write, fd, "data", 4);
  syscall (SYS_close, fd);
  syscall (SYS_stat, name, &(struct stat) {});
  syscall (SYS_newfstatat, dirfd, name, &(struct stat) {}, AT_SYMLINK_NOFOLLOW);
  snprintf (target, sizeof target, "%s.lnk", name);
  syscall (SYS_symlink, name, target);
  syscall (SYS_readlink, target, (char[64]) {}, 64);
  syscall (SYS_unlink, target);
  syscall (SYS_unlinkat, dirfd, name, 0);
  syscall (SYS_close, dirfd);
}

static void
every_syscall (void)
{
  struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS };
  struct open_how how_creat = { .flags = O_WRONLY | O_CREAT, .mode = 0600 };
  struct statx stx;
  struct stat st;
  char buf[64];
  int fd, dirfd, fd2;

  syscall (SYS_mkdir, "d", 0755);
  dirfd = (int) syscall (SYS_open, "d", O_RDONLY | O_DIRECTORY);

  /* open family: relative, dirfd-relative, absolute, failing */
  fd = (int) syscall (SYS_open, "f", O_RDWR | O_CREAT | O_EXCL, 0644);
  syscall (SYS_write, fd, "hello", 5);
  syscall (SYS_read, fd, buf, sizeof buf);
  syscall (SYS_close, fd);
  syscall (SYS_open, "missing", O_RDONLY);
  syscall (SYS_open, "/etc/hostname/", O_RDONLY);
  syscall (SYS_open, "", O_RDONLY);
  fd = (int) syscall (SYS_openat, dirfd, "g", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  syscall (SYS_close, fd);
  fd = (int) syscall (SYS_openat2, dirfd, "g", &how, sizeof how);
  syscall (SYS_close, fd);
  fd = (int) syscall (SYS_openat2, AT_FDCWD, "h", &how_creat, sizeof how_creat);
  syscall (SYS_close, fd);
  fd = (int) syscall (SYS_creat, "c", 0600);
  syscall (SYS_close, fd);
  syscall (SYS_close, 999);
  syscall (SYS_read, 998, buf, 1);

  /* stat family: path, fd, AT_EMPTY_PATH, statx */
  syscall (SYS_stat, "f", &st);
  syscall (SYS_lstat, "nope", &st);
  fd = (int) syscall (SYS_open, "f", O_RDONLY);
  syscall (SYS_fstat, fd, &st);
  syscall (SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH);
  syscall (SYS_newfstatat, dirfd, "g", &st, 0);
  syscall (SYS_statx, AT_FDCWD, "f", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx);
  syscall (SYS_statx, fd, "", AT_EMPTY_PATH, STATX_MODE | STATX_SIZE, &stx);
  syscall (SYS_access, "f", R_OK | W_OK);
  syscall (SYS_faccessat, dirfd, "g", F_OK);
  syscall (SYS_faccessat2, AT_FDCWD, "f", X_OK, AT_EACCESS);

  /* fd-only calls */
  syscall (SYS_fchmod, fd, 0640);
  syscall (SYS_fchown, fd, -1, 0);
  syscall (SYS_ftruncate, fd, 0);
  syscall (SYS_utimensat, fd, NULL, NULL, 0);
  syscall (SYS_fsetxattr, fd, "user.fm", "v", 1, XATTR_CREATE);
  syscall (SYS_fgetxattr, fd, "user.fm", buf, sizeof buf);
  syscall (SYS_flistxattr, fd, buf, sizeof buf);
  syscall (SYS_fremovexattr, fd, "user.fm");
  syscall (SYS_close, fd);

  /* path calls */
  syscall (SYS_chmod, "f", 0600);
  syscall (SYS_fchmodat, dirfd, "g", 0644);
  syscall (SYS_fchmodat2, AT_FDCWD, "f", 0644, AT_SYMLINK_NOFOLLOW);
  syscall (SYS_chown, "f", 0, -1);
  syscall (SYS_lchown, "f", 0, 0);
  syscall (SYS_fchownat, dirfd, "g", -1, -1, AT_SYMLINK_NOFOLLOW);
  syscall (SYS_truncate, "f", 3);
  syscall (SYS_utimensat, dirfd, "g", NULL, 0);
  syscall (SYS_setxattr, "f", "user.a", "1", 1, 0);
  syscall (SYS_lsetxattr, "f", "user.b", "2", 1, XATTR_REPLACE);
  syscall (SYS_getxattr, "f", "user.a", buf, sizeof buf);
  syscall (SYS_lgetxattr, "f", "user.nope", buf, sizeof buf);
  syscall (SYS_listxattr, "f", buf, sizeof buf);
  syscall (SYS_llistxattr, "f", buf, 0);
  syscall (SYS_removexattr, "f", "user.a");
  syscall (SYS_lremovexattr, "f", "user.a");
  syscall (SYS_link, "f", "f.hard");
  syscall (SYS_linkat, AT_FDCWD, "f.hard", dirfd, "hard2", 0);
  syscall (SYS_symlink, "f", "f.sym");
  syscall (SYS_symlinkat, "../f", dirfd, "sym2");
  syscall (SYS_readlink, "f.sym", buf, sizeof buf);
  syscall (SYS_readlinkat, dirfd, "sym2", buf, sizeof buf);
  syscall (SYS_rename, "f.hard", "f.moved");
  syscall (SYS_renameat, dirfd, "hard2", AT_FDCWD, "hard3");
  syscall (SYS_renameat2, AT_FDCWD, "f.moved", dirfd, "g", RENAME_NOREPLACE);
  syscall (SYS_mknod, "fifo", S_IFIFO | 0600, 0);
  syscall (SYS_mknod, "null", S_IFCHR | 0600, makedev (1, 3));
  syscall (SYS_mknodat, dirfd, "reg", S_IFREG | 0644, 0);
  syscall (SYS_mkdirat, dirfd, "sub", 0700);
  syscall (SYS_chdir, "d/sub");
  syscall (SYS_open, "in-sub", O_WRONLY | O_CREAT, 0600);
  syscall (SYS_chdir, "..");
  syscall (SYS_chdir, "..");
  syscall (SYS_unlink, "f.sym");
  syscall (SYS_unlink, "");
  syscall (SYS_unlinkat, dirfd, "sub", AT_REMOVEDIR);
  syscall (SYS_rmdir, "d");

  /* pseudo files through AT_EMPTY_PATH and fds */
  {
    int p[2], sv[2], efd, mfd;

    if (pipe (p) == 0)
      {
        syscall (SYS_newfstatat, p[0], "", &st, AT_EMPTY_PATH);
        syscall (SYS_fstat, p[1], &st);
        syscall (SYS_write, p[1], "x", 1);
        syscall (SYS_close, p[0]);
        syscall (SYS_close, p[1]);
      }
    if (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0)
      {
        syscall (SYS_newfstatat, sv[0], "", &st, AT_EMPTY_PATH);
        syscall (SYS_close, sv[0]);
        syscall (SYS_close, sv[1]);
      }
    efd = eventfd (0, 0);
    syscall (SYS_newfstatat, efd, "", &st, AT_EMPTY_PATH);
    syscall (SYS_close, efd);
    mfd = memfd_create ("oracle", 0);
    syscall (SYS_newfstatat, mfd, "", &st, AT_EMPTY_PATH);
    syscall (SYS_write, mfd, "m", 1);
    syscall (SYS_close, mfd);
  }

  /* a deleted directory as the cwd and as a dirfd */
  syscall (SYS_mkdir, "gone", 0755);
  fd2 = (int) syscall (SYS_open, "gone", O_RDONLY | O_DIRECTORY);
  syscall (SYS_chdir, "gone");
  syscall (SYS_rmdir, "../gone");
  /* strace shows the cwd's path (and that it is deleted) for AT_FDCWD only */
  syscall (SYS_openat, AT_FDCWD, "x", O_RDONLY);
  syscall (SYS_newfstatat, fd2, "y", &st, 0);
  syscall (SYS_newfstatat, fd2, "", &st, AT_EMPTY_PATH);
  syscall (SYS_chdir, "/");
  syscall (SYS_close, fd2);
  syscall (SYS_close, dirfd);
}

static void
on_alarm (int sig)
{
  (void) sig;
}

/* A read a signal interrupts: the kernel's exit sees -ERESTARTSYS, the process EINTR
 * (a handler without SA_RESTART). The timer repeats, so a signal that comes before the
 * read blocks is followed by one that interrupts it. */
static void
interrupted_read (void)
{
  struct sigaction sa = { .sa_handler = on_alarm };
  struct itimerval every = { { 0, 50000 }, { 0, 50000 } }, off = { { 0, 0 }, { 0, 0 } };
  char c;
  int p[2];

  if (pipe (p) != 0 || sigaction (SIGALRM, &sa, NULL) != 0)
    exit (1);
  setitimer (ITIMER_REAL, &every, NULL);
  syscall (SYS_read, p[0], &c, 1);
  setitimer (ITIMER_REAL, &off, NULL);
  syscall (SYS_close, p[0]);
  syscall (SYS_close, p[1]);
}

static void *
thread_main (void *data)
{
  (void) data;
  syscall (SYS_open, "from-thread", O_WRONLY | O_CREAT, 0600);
  syscall (SYS_stat, "from-thread", &(struct stat) {});
  syscall (SYS_unlink, "from-thread");
  return NULL;
}

/* execve from a thread that is not the group leader: it takes the leader's pid */
static void *
thread_exec (void *data)
{
  char *args[] = { data, "exec", "from a thread", NULL };

  syscall (SYS_execve, "/proc/self/exe", args, (char *[]) { NULL });
  return NULL;
}

/* @len bytes of @content in a page of a file mapping that nothing has touched: the
 * kernel faults it in when the syscall reads it, a BPF program at syscall entry cannot. */
static char *
cold_page (const char *content, size_t len)
{
  char name[] = "cold-XXXXXX";
  int fd = mkstemp (name);
  char *p;

  if (fd < 0 || write (fd, content, len) != (ssize_t) len)
    exit (1);
  p = mmap (NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED)
    exit (1);
  close (fd);
  unlink (name);
  return p;
}

/* argv[0] re-executed with "exec": the exec'd form */
static int
exec_mode (void)
{
  syscall (SYS_access, "after-exec", F_OK);
  return 0;
}

int
main (int argc, char **argv)
{
  pthread_t thread;
  pid_t child;
  char long_name[4200];
  size_t n;

  if (argc == 2 && strcmp (argv[1], "exec") == 0)
    return exec_mode ();
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s DIR\n", argv[0]);
      return 2;
    }
  if (mkdir (argv[1], 0755) != 0 && errno != EEXIST)
    return 1;
  if (chdir (argv[1]) != 0)
    return 1;

  every_syscall ();
  if (chdir (argv[1]) != 0)
    return 1;

  for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++)
    on_path (hostile[i]);

  /* paths at and beyond PATH_MAX: 4095 bytes (valid), 4096 and more (ENAMETOOLONG) */
  for (size_t len = 4094; len <= 4097; len++)
    {
      memset (long_name, 'a', sizeof long_name);
      long_name[0] = '/';
      for (n = 200; n < len; n += 200)
        long_name[n] = '/';
      long_name[len] = '\0';
      syscall (SYS_stat, long_name, &(struct stat) {});
    }

  interrupted_read ();

  /* a thread, a fork, an exec, an execveat and an fexecve */
  if (pthread_create (&thread, NULL, thread_main, NULL) == 0)
    pthread_join (thread, NULL);
  child = fork ();
  if (child == 0)
    {
      syscall (SYS_open, "from-child", O_RDONLY);
      char *args[] = { argv[0], "exec", NULL };
      syscall (SYS_execve, "/proc/self/exe", args, (char *[]) { NULL });
      _exit (1);
    }
  if (child > 0)
    waitpid (child, NULL, 0);
  child = fork ();
  if (child == 0)
    {
      char *args[] = { "oracle exec", "exec", "arg two", NULL };
      int fd = (int) syscall (SYS_open, "/proc/self/exe", O_RDONLY | O_CLOEXEC);

      syscall (SYS_execveat, AT_FDCWD, "no-such-program", args, (char *[]) { NULL }, 0);
      syscall (SYS_execveat, fd, "", args, (char *[]) { NULL }, AT_EMPTY_PATH);
      _exit (1);
    }
  if (child > 0)
    waitpid (child, NULL, 0);
  /* strings the program cannot read at entry: a chdir and an execve */
  child = fork ();
  if (child == 0)
    {
      static const char strings[] = "cold-dir\0/proc/self/exe\0prog\0exec\0from a cold page";
      char *page;

      syscall (SYS_mkdir, "cold-dir", 0755);
      page = cold_page (strings, sizeof strings);
      syscall (SYS_chdir, page);
      syscall (SYS_open, "in-cold-dir", O_RDONLY);
      page = cold_page (strings, sizeof strings);
      char *args[] = { page + 24, page + 29, page + 34, NULL };
      syscall (SYS_execve, page + 9, args, (char *[]) { NULL });
      _exit (1);
    }
  if (child > 0)
    waitpid (child, NULL, 0);
  child = fork ();
  if (child == 0)
    {
      if (pthread_create (&thread, NULL, thread_exec, argv[0]) == 0)
        pthread_join (thread, NULL);
      _exit (1);
    }
  if (child > 0)
    waitpid (child, NULL, 0);
  return 0;
}
