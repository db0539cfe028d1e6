/* oracle-syscalls.c: a workload for the oracle tier that makes every syscall of filemon's
 * table (common/fm-syscalls.c) in the forms a capture gets wrong first: relative to the
 * cwd and to a dirfd, AT_EMPTY_PATH on files, pipes, sockets, anonymous inodes and memfd,
 * fd-only, failing, in a thread, in a forked child and after an exec, with hostile names
 * (controls, C1, bidi, invalid UTF-8, quotes, commas), paths at PATH_MAX and names in
 * cwds so deep that the whole path is longer.
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
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/time.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <linux/openat2.h>
#include <linux/stat.h>

#include "oracle-syscalls.h"

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef RWF_DSYNC
#define RWF_DSYNC 0x2
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


/* The calls that move data, sync, lock, map and watch: on a file, on pipes (both ends of
 * splice and sendfile), on bad fds and with bad arguments. */
static void
data_calls (void)
{
  char buf[1024];
  struct iovec iov[2] = { { buf, 8 }, { buf + 8, 8 } };
  struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 2, .l_len = 10 };
  struct flock unlock = { .l_type = F_UNLCK, .l_whence = SEEK_CUR, .l_start = 0, .l_len = 0 };
  struct flock probe = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
  loff_t off_in = 0, off_out = 4;
  off_t off = 2;
  int fd, out, dup, here, sub, p[2], ifd, wd;
  void *map;

  fd = (int) syscall (SYS_open, "data", O_RDWR | O_CREAT | O_TRUNC, 0644);
  out = (int) syscall (SYS_openat, AT_FDCWD, "copy", O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || out < 0 || pipe (p) != 0)
    exit (1);

  syscall (SYS_pwrite64, fd, "0123456789abcdef", 16, 0);
  syscall (SYS_pread64, fd, buf, 8, 4);
  syscall (SYS_pread64, 998, buf, 8, 0);
  syscall (SYS_pread64, fd, buf, 8, (off_t) -1);
  syscall (SYS_writev, fd, iov, 2);
  syscall (SYS_readv, fd, iov, 2);
  syscall (SYS_readv, p[1], iov, 1);
  syscall (SYS_preadv, fd, iov, 2, 0, 0);
  syscall (SYS_pwritev, fd, iov, 1, 16, 0);
  syscall (SYS_preadv2, fd, iov, 2, (off_t) -1, 0, 0);
  syscall (SYS_pwritev2, fd, iov, 1, 0, 0, RWF_DSYNC);
  syscall (SYS_lseek, fd, 0, SEEK_SET);
  syscall (SYS_lseek, fd, (off_t) -5, SEEK_END);
  syscall (SYS_lseek, fd, 0, 7);
  syscall (SYS_lseek, p[0], 0, SEEK_CUR);

  syscall (SYS_fsync, fd);
  syscall (SYS_fdatasync, fd);
  syscall (SYS_fsync, 997);
  syscall (SYS_sync_file_range, fd, 0, 4096, SYNC_FILE_RANGE_WRITE);
  syscall (SYS_sync_file_range, fd, 0, 0, 0);
  syscall (SYS_syncfs, fd);
  syscall (SYS_fallocate, fd, 0, 0, 8192);
  syscall (SYS_fallocate, fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, 0, 4096);
  syscall (SYS_fallocate, p[1], 0, 0, 10);

  syscall (SYS_flock, fd, LOCK_EX | LOCK_NB);
  syscall (SYS_flock, fd, LOCK_UN);
  syscall (SYS_flock, 996, LOCK_SH);
  syscall (SYS_fcntl, fd, F_GETFL);
  syscall (SYS_fcntl, fd, F_SETFL, O_APPEND | O_NONBLOCK);
  syscall (SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);
  syscall (SYS_fcntl, fd, F_GETFD);
  dup = (int) syscall (SYS_fcntl, fd, F_DUPFD, 10);
  syscall (SYS_fcntl, fd, F_DUPFD_CLOEXEC, 20);
  syscall (SYS_fcntl, fd, F_SETLK, &lock);
  syscall (SYS_fcntl, fd, F_SETLKW, &unlock);
  syscall (SYS_fcntl, fd, F_OFD_SETLK, &probe);
  syscall (SYS_fcntl, fd, F_SETLEASE, F_UNLCK);
  syscall (SYS_fcntl, 995, F_GETFD);
  syscall (SYS_close, dup);

  syscall (SYS_copy_file_range, fd, NULL, out, NULL, 16, 0);
  syscall (SYS_copy_file_range, fd, &off_in, out, &off_out, 4, 0);
  syscall (SYS_copy_file_range, fd, NULL, p[1], NULL, 4, 0);
  syscall (SYS_sendfile, out, fd, &off, 8);
  syscall (SYS_sendfile, p[1], fd, NULL, 4);
  syscall (SYS_splice, fd, &off_in, p[1], NULL, 4, 0);
  syscall (SYS_splice, p[0], NULL, out, NULL, 4, SPLICE_F_MOVE);
  syscall (SYS_splice, 994, NULL, out, NULL, 4, 0);

  map = (void *) syscall (SYS_mmap, NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
  if (map != MAP_FAILED)
    munmap (map, 4096);
  map = (void *) syscall (SYS_mmap, NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (map != MAP_FAILED)
    munmap (map, 4096);
  /* anonymous: no file, not captured */
  map = (void *) syscall (SYS_mmap, NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map != MAP_FAILED)
    munmap (map, 4096);
  syscall (SYS_mmap, NULL, 4096, PROT_READ, MAP_SHARED, 993, 0);
  syscall (SYS_mmap, NULL, 4096, PROT_WRITE, MAP_SHARED, p[0], 0);

  syscall (SYS_mkdir, "walk", 0755);
  sub = (int) syscall (SYS_open, "walk", O_RDONLY | O_DIRECTORY);
  here = (int) syscall (SYS_open, ".", O_RDONLY | O_DIRECTORY);
  syscall (SYS_getdents64, here, buf, sizeof buf);
  syscall (SYS_getdents64, fd, buf, sizeof buf);
  syscall (SYS_fchdir, sub);
  syscall (SYS_open, "in-walk", O_WRONLY | O_CREAT, 0600);
  syscall (SYS_fchdir, here);
  syscall (SYS_fchdir, fd);
  syscall (SYS_fchdir, 992);

  ifd = inotify_init1 (IN_CLOEXEC);
  wd = (int) syscall (SYS_inotify_add_watch, ifd, "data", IN_MODIFY | IN_CLOSE_WRITE);
  syscall (SYS_inotify_add_watch, ifd, "missing", IN_ALL_EVENTS);
  syscall (SYS_inotify_add_watch, ifd, "walk", IN_CREATE | IN_DELETE | IN_ONLYDIR);
  syscall (SYS_inotify_rm_watch, ifd, wd);
  syscall (SYS_inotify_rm_watch, ifd, 12345);

  syscall (SYS_close, ifd);
  syscall (SYS_close, sub);
  syscall (SYS_close, here);
  syscall (SYS_close, p[0]);
  syscall (SYS_close, p[1]);
  syscall (SYS_close, out);
  syscall (SYS_close, fd);
}

/* mount and umount2, in a child with a mount namespace of its own: nothing reaches the
 * machine's mounts. */
static void
mount_calls (void)
{
  pid_t child = fork ();

  if (child == 0)
    {
      if (unshare (CLONE_NEWNS) != 0)
        _exit (1);
      syscall (SYS_mount, "none", "/", NULL, MS_REC | MS_PRIVATE, NULL);
      syscall (SYS_mkdir, "mnt", 0755);
      syscall (SYS_mkdir, "mnt2", 0755);
      syscall (SYS_mount, "tmpfs", "mnt", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m");
      syscall (SYS_mount, "mnt", "mnt2", NULL, MS_BIND, NULL);
      syscall (SYS_mount, NULL, "mnt", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL);
      syscall (SYS_mount, "tmpfs", "no-such-dir", "tmpfs", 0, NULL);
      syscall (SYS_umount2, "mnt2", MNT_DETACH);
      syscall (SYS_umount2, "mnt", 0);
      syscall (SYS_umount2, "walk", 0);
      syscall (SYS_rmdir, "mnt");
      syscall (SYS_rmdir, "mnt2");
      _exit (0);
    }
  if (child > 0)
    waitpid (child, NULL, 0);
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

/* A cwd @depth bytes long, made of relative mkdir and chdir (a path that long has no
 * absolute spelling the kernel accepts), then names in it that make the path longer than
 * PATH_MAX: the capture must keep the root and the name. Climbs back and removes all. */
static void
deep_cwd (size_t depth)
{
  char name[256];
  size_t parts[64];
  size_t n_parts = 0;
  size_t len;
  char *start = getcwd (NULL, 0);

  if (start == NULL)
    return;
  len = strlen (start);
  free (start);
  while (len < depth && n_parts < sizeof parts / sizeof parts[0])
    {
      /* "/" and a component, 200 bytes at most, never leaving less than 2 to go */
      size_t n = depth - len - 1;

      if (n > 200)
        n = n > 400 ? 200 : n / 2;
      memset (name, 'd', n);
      name[n] = '\0';
      if (syscall (SYS_mkdir, name, 0755) != 0 || syscall (SYS_chdir, name) != 0)
        break;
      parts[n_parts++] = n;
      len += 1 + n;
    }
  memset (name, 'n', 250);
  name[250] = '\0';
  syscall (SYS_mkdir, name, 0755);
  syscall (SYS_rmdir, name);
  syscall (SYS_close, (long) syscall (SYS_open, "short", O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
  syscall (SYS_unlink, "short");
  while (n_parts > 0)
    {
      if (syscall (SYS_chdir, "..") != 0)
        return;
      memset (name, 'd', parts[--n_parts]);
      name[parts[n_parts]] = '\0';
      syscall (SYS_rmdir, name);
    }
}

/* openat2's RESOLVE flags: IN_ROOT resolves "/" and ".." below the dirfd (a created
 * file, an escape that stays inside, a failure), BENEATH refuses a symlink leaving it. */
static void
resolve_calls (void)
{
  struct open_how in_root = { .flags = O_WRONLY | O_CREAT, .mode = 0600, .resolve = RESOLVE_IN_ROOT };
  struct open_how in_root_ro = { .flags = O_RDONLY, .resolve = RESOLVE_IN_ROOT };
  struct open_how beneath = { .flags = O_RDONLY, .resolve = RESOLVE_BENEATH };
  int root, fd;

  syscall (SYS_mkdir, "root", 0755);
  syscall (SYS_mkdir, "root/etc", 0755);
  syscall (SYS_symlink, "/etc/passwd", "root/escape");
  root = (int) syscall (SYS_open, "root", O_RDONLY | O_DIRECTORY);
  fd = (int) syscall (SYS_openat2, root, "/etc/shadow", &in_root, sizeof in_root);
  syscall (SYS_close, fd);
  fd = (int) syscall (SYS_openat2, root, "../../etc/shadow", &in_root_ro, sizeof in_root_ro);
  syscall (SYS_close, fd);
  syscall (SYS_openat2, root, "/etc/missing", &in_root_ro, sizeof in_root_ro);
  syscall (SYS_openat2, root, "escape", &beneath, sizeof beneath);
  syscall (SYS_openat2, root, "/etc/passwd", &beneath, sizeof beneath);
  syscall (SYS_close, root);
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
  resolve_calls ();
  data_calls ();
  mount_calls ();
  newer_calls ();

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
  /* names in a cwd whose path is near PATH_MAX, and beyond it */
  deep_cwd (4045);
  deep_cwd (4296);

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
