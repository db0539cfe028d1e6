/* fm-vm-workload.c: the known workload of the vm tier. It waits until a byte arrives on
 * the fifo it is given (so that the capture can start with its pid), then makes every file
 * syscall of common/fm-syscalls.c at least once in DIR, through the raw syscall so that
 * glibc does not substitute another one (its open() is openat), with relative, dirfd-relative
 * and absolute paths, fd calls, failures, a child that renames itself, a thread that names
 * itself, and a child that execs this program again. It prints one JSON line per call it made, with what the capture must
 * show for it, for check-dump.py:
 *   {"pid":..,"ppid":..,"uid":..,"comm":..,"syscall":..,"result":..,"path":..,"path2":..}
 * "path2" is left out where the call has none to check. A last line gives the storm (N
 * failed stat calls, timed) and the end marker: a failed openat of /fm-vm-end/PID, made once
 * every child has exited, so that its event arriving means all of the workload's did.
 *
 * Usage: fm-vm-workload FIFO DIR STORM-COUNT   (or, exec'd by itself: fm-vm-workload --exec-child DIR)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <linux/stat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

static char out[1 << 16];
static size_t out_len;
static const char *dir;
/* the process's name, as a capture's comm gives it: its leader thread's, whichever thread
 * made the call */
static char process_comm[17];

static void
die (const char *what)
{
  fprintf (stderr, "fm-vm-workload: %s: %s\n", what, strerror (errno));
  exit (2);
}

static void
emit (const char *fmt, ...)
{
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = vsnprintf (out + out_len, sizeof out - out_len, fmt, ap);
  va_end (ap);
  if (n < 0 || (size_t) n >= sizeof out - out_len)
    {
      fprintf (stderr, "fm-vm-workload: log buffer full\n");
      exit (2);
    }
  out_len += n;
}

/* One record per call made; the log goes out only at the end (flush_log), so that writing
 * it adds no event in the middle of the calls it describes. */
static void
record (const char *syscall_name, long ret, int err, const char *path, const char *path2)
{
  emit ("{\"pid\":%d,\"ppid\":%d,\"uid\":%u,\"comm\":\"%s\",\"syscall\":\"%s\",\"result\":%ld,"
        "\"path\":\"%s\"", getpid (), getppid (), getuid (), process_comm, syscall_name,
        ret < 0 ? -(long) err : ret, path);
  if (path2 != NULL)
    emit (",\"path2\":\"%s\"", path2);
  emit ("}\n");
}

static void
flush_log (void)
{
  size_t done = 0;

  while (done < out_len)
    {
      ssize_t n = write (STDOUT_FILENO, out + done, out_len - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        die ("writing the log");
      done += n;
    }
  out_len = 0;
}

/* An absolute path under DIR, for the record (the calls themselves use relative ones). */
static const char *
in_dir (const char *rel)
{
  static char bufs[8][4096];
  static int next;
  char *b = bufs[next++ % 8];

  snprintf (b, sizeof bufs[0], "%s/%s", dir, rel);
  return b;
}

#define CALL(name, path, path2, ...) \
  do { long r_ = syscall (SYS_##name, __VA_ARGS__); record (#name, r_, errno, path, path2); } while (0)
/* a call returning an fd the workload goes on using */
#define CALL_FD(var, name, path, ...) \
  do { var = syscall (SYS_##name, __VA_ARGS__); record (#name, var, errno, path, NULL); \
       if (var < 0) die (#name); } while (0)

static void
files (int dirfd, uid_t uid, gid_t gid)
{
  char buf[256];
  long fd;
  struct open_how how = { .flags = O_RDONLY };
  struct stat st;
  struct statx stx;

  /* relative to the cwd (DIR), to a dirfd (DIR), and fd-based calls */
  CALL (mkdirat, in_dir ("sub"), NULL, dirfd, "sub", 0755);
  CALL_FD (fd, openat, in_dir ("sub/a"), dirfd, "sub/a", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CALL (write, in_dir ("sub/a"), NULL, fd, "hello, world", 12);
  CALL (fstat, in_dir ("sub/a"), NULL, fd, &st);
  CALL (ftruncate, in_dir ("sub/a"), NULL, fd, 5);
  CALL (fchmod, in_dir ("sub/a"), NULL, fd, 0600);
  CALL (fchown, in_dir ("sub/a"), NULL, fd, uid, gid);
  CALL (fsetxattr, in_dir ("sub/a"), NULL, fd, "user.fm", "v", 1, 0);
  CALL (fgetxattr, in_dir ("sub/a"), NULL, fd, "user.fm", buf, sizeof buf);
  CALL (flistxattr, in_dir ("sub/a"), NULL, fd, buf, sizeof buf);
  CALL (fremovexattr, in_dir ("sub/a"), NULL, fd, "user.fm");
  CALL (close, in_dir ("sub/a"), NULL, fd);

  CALL_FD (fd, open, in_dir ("sub/b"), "sub/b", O_RDWR | O_CREAT, 0644);
  CALL (read, in_dir ("sub/b"), NULL, fd, buf, sizeof buf);
  CALL (close, in_dir ("sub/b"), NULL, fd);
  CALL_FD (fd, creat, in_dir ("sub/c"), "sub/c", 0640);
  CALL (close, in_dir ("sub/c"), NULL, fd);
  CALL_FD (fd, openat2, in_dir ("sub/a"), dirfd, "sub/a", &how, sizeof how);
  CALL (close, in_dir ("sub/a"), NULL, fd);

  CALL (stat, in_dir ("sub/a"), NULL, "sub/a", &st);
  CALL (lstat, in_dir ("sub/a"), NULL, "sub/a", &st);
  CALL (newfstatat, in_dir ("sub/a"), NULL, dirfd, "sub/a", &st, 0);
  CALL (statx, in_dir ("sub/a"), NULL, dirfd, "sub/a", 0, STATX_BASIC_STATS, &stx);
  CALL (access, in_dir ("sub/a"), NULL, "sub/a", R_OK);
  CALL (faccessat, in_dir ("sub/a"), NULL, dirfd, "sub/a", F_OK);
  CALL (faccessat2, in_dir ("sub/a"), NULL, dirfd, "sub/a", R_OK, AT_EACCESS);

  CALL (symlink, in_dir ("sub/l1"), "a", "a", "sub/l1");
  CALL (symlinkat, in_dir ("sub/l2"), "a", "a", dirfd, "sub/l2");
  CALL (readlink, in_dir ("sub/l1"), NULL, "sub/l1", buf, sizeof buf);
  CALL (readlinkat, in_dir ("sub/l2"), NULL, dirfd, "sub/l2", buf, sizeof buf);
  CALL (link, in_dir ("sub/a"), in_dir ("sub/h1"), "sub/a", "sub/h1");
  CALL (linkat, in_dir ("sub/a"), in_dir ("sub/h2"), dirfd, "sub/a", dirfd, "sub/h2", 0);
  CALL (rename, in_dir ("sub/h1"), in_dir ("sub/r1"), "sub/h1", "sub/r1");
  CALL (renameat, in_dir ("sub/h2"), in_dir ("sub/r2"), dirfd, "sub/h2", dirfd, "sub/r2");
  CALL (renameat2, in_dir ("sub/r2"), in_dir ("sub/r3"), dirfd, "sub/r2", dirfd, "sub/r3",
        RENAME_NOREPLACE);

  CALL (chmod, in_dir ("sub/a"), NULL, "sub/a", 0644);
  CALL (fchmodat, in_dir ("sub/a"), NULL, dirfd, "sub/a", 0640);
  CALL (fchmodat2, in_dir ("sub/a"), NULL, dirfd, "sub/a", 0644, 0);
  CALL (chown, in_dir ("sub/a"), NULL, "sub/a", uid, gid);
  CALL (fchownat, in_dir ("sub/a"), NULL, dirfd, "sub/a", uid, gid, 0);
  CALL (lchown, in_dir ("sub/l1"), NULL, "sub/l1", uid, gid);
  CALL (truncate, in_dir ("sub/a"), NULL, "sub/a", 3);
  CALL (utimensat, in_dir ("sub/a"), NULL, dirfd, "sub/a", NULL, 0);
  CALL (mknod, in_dir ("sub/p1"), NULL, "sub/p1", S_IFIFO | 0644, 0);
  CALL (mknodat, in_dir ("sub/p2"), NULL, dirfd, "sub/p2", S_IFIFO | 0644, 0);

  CALL (setxattr, in_dir ("sub/a"), NULL, "sub/a", "user.fm", "w", 1, 0);
  CALL (lsetxattr, in_dir ("sub/a"), NULL, "sub/a", "user.fm2", "w", 1, 0);
  CALL (getxattr, in_dir ("sub/a"), NULL, "sub/a", "user.fm", buf, sizeof buf);
  CALL (lgetxattr, in_dir ("sub/a"), NULL, "sub/a", "user.fm2", buf, sizeof buf);
  CALL (listxattr, in_dir ("sub/a"), NULL, "sub/a", buf, sizeof buf);
  CALL (llistxattr, in_dir ("sub/l1"), NULL, "sub/l1", buf, sizeof buf);
  CALL (removexattr, in_dir ("sub/a"), NULL, "sub/a", "user.fm");
  CALL (lremovexattr, in_dir ("sub/a"), NULL, "sub/a", "user.fm2");

  /* failures, each with its own errno */
  CALL (open, in_dir ("missing/x"), NULL, "missing/x", O_RDONLY);
  CALL (openat, in_dir ("nope"), NULL, dirfd, "nope", O_RDONLY);
  CALL (mkdir, in_dir ("sub"), NULL, "sub", 0755);
  CALL (unlink, in_dir ("sub"), NULL, "sub");
  CALL (rmdir, in_dir ("sub"), NULL, "sub");
  CALL (openat, "/proc/1/environ", NULL, AT_FDCWD, "/proc/1/environ", O_RDONLY);

  CALL (unlink, in_dir ("sub/r1"), NULL, "sub/r1");
  CALL (unlinkat, in_dir ("sub/r3"), NULL, dirfd, "sub/r3", 0);
  CALL (mkdir, in_dir ("empty"), NULL, "empty", 0755);
  CALL (rmdir, in_dir ("empty"), NULL, "empty");
}

/* The calls that move data, sync, lock, map, list and watch, on files of DIR; the pipe end
 * of splice is not checked (its pipe:[N] is not known here). */
static void
data_calls (int dirfd)
{
  char buf[1024];
  struct iovec iov = { buf, 8 };
  struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
  long fd, out, sub, ifd, wd, map;
  int p[2];

  CALL_FD (fd, openat, in_dir ("sub/d"), dirfd, "sub/d", O_RDWR | O_CREAT | O_TRUNC, 0644);
  CALL_FD (out, openat, in_dir ("sub/e"), dirfd, "sub/e", O_RDWR | O_CREAT | O_TRUNC, 0644);
  CALL (pwrite64, in_dir ("sub/d"), NULL, fd, "0123456789abcdef", 16, 0);
  CALL (pread64, in_dir ("sub/d"), NULL, fd, buf, 8, 4);
  CALL (writev, in_dir ("sub/d"), NULL, fd, &iov, 1);
  CALL (readv, in_dir ("sub/d"), NULL, fd, &iov, 1);
  CALL (pwritev, in_dir ("sub/d"), NULL, fd, &iov, 1, 0, 0);
  CALL (preadv, in_dir ("sub/d"), NULL, fd, &iov, 1, 0, 0);
  CALL (pwritev2, in_dir ("sub/d"), NULL, fd, &iov, 1, 0, 0, 0);
  CALL (preadv2, in_dir ("sub/d"), NULL, fd, &iov, 1, 0, 0, 0);
  CALL (lseek, in_dir ("sub/d"), NULL, fd, 0, SEEK_SET);
  CALL (fsync, in_dir ("sub/d"), NULL, fd);
  CALL (fdatasync, in_dir ("sub/d"), NULL, fd);
  CALL (sync_file_range, in_dir ("sub/d"), NULL, fd, 0, 0, 0);
  CALL (syncfs, in_dir ("sub/d"), NULL, fd);
  CALL (fallocate, in_dir ("sub/d"), NULL, fd, 0, 0, 4096);
  CALL (flock, in_dir ("sub/d"), NULL, fd, LOCK_EX);
  CALL (flock, in_dir ("sub/d"), NULL, fd, LOCK_UN);
  CALL (fcntl, in_dir ("sub/d"), NULL, fd, F_SETLK, &lock);
  CALL (copy_file_range, in_dir ("sub/d"), in_dir ("sub/e"), fd, NULL, out, NULL, 4, 0);
  CALL (sendfile, in_dir ("sub/d"), in_dir ("sub/e"), out, fd, NULL, 4);
  if (pipe (p) != 0)
    die ("pipe");
  CALL (splice, in_dir ("sub/d"), NULL, fd, NULL, p[1], NULL, 4, 0);
  CALL_FD (map, mmap, in_dir ("sub/d"), NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
  munmap ((void *) map, 4096);
  CALL (getdents64, dir, NULL, dirfd, buf, sizeof buf);
  CALL_FD (sub, openat, in_dir ("sub"), dirfd, "sub", O_RDONLY | O_DIRECTORY);
  CALL (fchdir, in_dir ("sub"), NULL, sub);
  CALL (fchdir, dir, NULL, dirfd);
  ifd = inotify_init1 (IN_CLOEXEC);
  if (ifd < 0)
    die ("inotify_init1");
  CALL_FD (wd, inotify_add_watch, in_dir ("sub/d"), ifd, "sub/d", IN_MODIFY);
  CALL (inotify_rm_watch, "anon_inode:inotify", NULL, ifd, wd);
  CALL (mkdir, in_dir ("sub/m"), NULL, "sub/m", 0755);
  CALL (mount, in_dir ("sub/m"), "tmpfs", "tmpfs", "sub/m", "tmpfs", 0, NULL);
  CALL (umount2, in_dir ("sub/m"), NULL, "sub/m", 0);
  close (p[0]);
  close (p[1]);
  close (ifd);
  CALL (close, in_dir ("sub"), NULL, sub);
  CALL (close, in_dir ("sub/e"), NULL, out);
  CALL (close, in_dir ("sub/d"), NULL, fd);
}

/* A child of the fork that renames itself: its events must carry its own pid, the
 * workload's pid as ppid, and the new comm. */
static void
renamed_child (int dirfd)
{
  long fd;

  if (prctl (PR_SET_NAME, "fm-vm-child") != 0 || prctl (PR_GET_NAME, process_comm) != 0)
    die ("PR_SET_NAME");
  CALL_FD (fd, openat, in_dir ("sub/child"), dirfd, "sub/child", O_WRONLY | O_CREAT, 0600);
  CALL (close, in_dir ("sub/child"), NULL, fd);
  CALL (unlinkat, in_dir ("sub/child"), NULL, dirfd, "sub/child", 0);
}

/* A thread that names itself, as worker threads do ("gdbus"): its events must carry the
 * process's name and pid. */
static void *
named_thread (void *data)
{
  int dirfd = *(int *) data;
  struct stat st;

  if (prctl (PR_SET_NAME, "fm-vm-thread") != 0)
    die ("PR_SET_NAME");
  CALL (newfstatat, in_dir ("sub/thread-missing"), NULL, dirfd, "sub/thread-missing", &st, 0);
  return NULL;
}

/* The child after execve: a call relative to the cwd it inherited. */
static int
exec_child (void)
{
  struct stat st;

  if (prctl (PR_GET_NAME, process_comm) != 0)
    die ("PR_GET_NAME");
  CALL (stat, in_dir ("sub/a"), NULL, "sub/a", &st);
  flush_log ();
  return 0;
}

static void
wait_child (pid_t pid)
{
  int status;

  if (waitpid (pid, &status, 0) != pid)
    die ("waitpid");
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      fprintf (stderr, "fm-vm-workload: child %d failed (status %d)\n", pid, status);
      exit (2);
    }
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  static char self[4096];
  ssize_t self_len;
  char go;
  int fifo, dirfd;
  long n_storm;
  pid_t pid;
  double t0, t1;
  struct stat st;
  char marker[64];

  if (argc == 3 && strcmp (argv[1], "--exec-child") == 0)
    {
      dir = argv[2];
      return exec_child ();
    }
  if (argc != 4)
    {
      fprintf (stderr, "usage: fm-vm-workload FIFO DIR STORM-COUNT\n");
      return 2;
    }
  dir = argv[2];
  n_storm = strtol (argv[3], NULL, 10);
  if (prctl (PR_GET_NAME, process_comm) != 0)
    die ("PR_GET_NAME");

  /* before the capture: the path the children exec */
  self_len = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (self_len <= 0)
    die ("readlink /proc/self/exe");
  self[self_len] = '\0';

  /* held until the capture runs */
  fifo = open (argv[1], O_RDONLY);
  if (fifo < 0 || read (fifo, &go, 1) != 1)
    die ("waiting on the fifo");
  close (fifo);

  CALL (mkdir, dir, NULL, dir, 0755);
  CALL (chdir, dir, NULL, dir);
  CALL_FD (dirfd, open, dir, dir, O_RDONLY | O_DIRECTORY);
  files (dirfd, getuid (), getgid ());
  data_calls (dirfd);

  pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      out_len = 0;
      renamed_child (dirfd);
      flush_log ();
      _exit (0);
    }
  wait_child (pid);

  {
    pthread_t thread;

    if (pthread_create (&thread, NULL, named_thread, &dirfd) != 0 || pthread_join (thread, NULL) != 0)
      die ("the named thread");
  }

  flush_log ();
  pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      char *args[] = { self, "--exec-child", (char *) dir, NULL };
      char *env[] = { NULL };
      /* recorded first: a successful execve does not come back */
      record ("execve", 0, 0, self, NULL);
      flush_log ();
      syscall (SYS_execve, self, args, env);
      die ("execve");
    }
  wait_child (pid);

  pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      char *args[] = { self, "--exec-child", (char *) dir, NULL };
      char *env[] = { NULL };
      CALL (execve, "/nonexistent/fm-vm", NULL, "/nonexistent/fm-vm", args, env);
      record ("execveat", 0, 0, self, NULL);
      flush_log ();
      syscall (SYS_execveat, AT_FDCWD, self, args, env, 0);
      die ("execveat");
    }
  wait_child (pid);

  /* the storm: N failed stats, timed, for the rate the capture keeps up with */
  t0 = now ();
  for (long i = 0; i < n_storm; i++)
    syscall (SYS_stat, "storm-missing", &st);
  t1 = now ();

  snprintf (marker, sizeof marker, "/fm-vm-end/%d", getpid ());
  CALL (openat, marker, NULL, AT_FDCWD, marker, O_RDONLY);
  emit ("{\"storm\":%ld,\"storm_path\":\"%s\",\"storm_seconds\":%.6f,\"end_marker\":\"%s\"}\n",
        n_storm, in_dir ("storm-missing"), t1 - t0, marker);
  flush_log ();
  return 0;
}
