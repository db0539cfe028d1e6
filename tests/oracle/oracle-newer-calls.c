/* oracle-newer-calls.c: the oracle workload's part for the calls of newer kernels and the
 * less common ones: the *xattrat calls (6.13), file_getattr/file_setattr (6.17), file
 * handles, close_range, fanotify_mark, tee, fadvise64, readahead and the mount API (in a
 * child with a mount namespace of its own: nothing reaches the machine's mounts). Each
 * succeeds once and fails once; on a kernel without one of them it returns ENOSYS. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <linux/close_range.h>

#include "oracle-syscalls.h"

/* Numbers the build host's headers may not know yet (stable x86_64 ABI). */
#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#define SYS_getxattrat 464
#define SYS_listxattrat 465
#define SYS_removexattrat 466
#endif
#ifndef SYS_open_tree_attr
#define SYS_open_tree_attr 467
#endif
#ifndef SYS_file_getattr
#define SYS_file_getattr 468
#define SYS_file_setattr 469
#endif

/* <linux/xattr.h>'s struct xattr_args and <linux/fs.h>'s struct file_attr, which older
 * headers lack (their layout is the ABI) */
struct oracle_xattr_args {
  uint64_t value;
  uint32_t size;
  uint32_t flags;
};

struct oracle_file_attr {
  uint64_t fa_xflags;
  uint32_t fa_extsize;
  uint32_t fa_nextents;
  uint32_t fa_projid;
  uint32_t fa_cowextsize;
};

static void
xattrat_calls (int fd, int dirfd)
{
  char buf[256];
  struct oracle_xattr_args create = { (uintptr_t) "v1", 2, XATTR_CREATE };
  struct oracle_xattr_args replace = { (uintptr_t) "v22", 3, XATTR_REPLACE };
  struct oracle_xattr_args get = { (uintptr_t) buf, sizeof buf, 0 };
  struct oracle_file_attr fa = { 0 };

  syscall (SYS_setxattrat, AT_FDCWD, "xa", 0, "user.at", &create, sizeof create);
  syscall (SYS_setxattrat, dirfd, "xa", AT_SYMLINK_NOFOLLOW, "user.at", &replace, sizeof replace);
  syscall (SYS_setxattrat, AT_FDCWD, "xa", 0, "user.at", &create, sizeof create);
  syscall (SYS_getxattrat, dirfd, "xa", 0, "user.at", &get, sizeof get);
  syscall (SYS_getxattrat, AT_FDCWD, "missing", 0, "user.at", &get, sizeof get);
  syscall (SYS_listxattrat, fd, "", AT_EMPTY_PATH, buf, sizeof buf);
  syscall (SYS_listxattrat, AT_FDCWD, "xa", 0, NULL, 0);
  syscall (SYS_removexattrat, AT_FDCWD, "xa", 0, "user.at");
  syscall (SYS_removexattrat, dirfd, "xa", AT_SYMLINK_NOFOLLOW, "user.at");

  syscall (SYS_file_getattr, AT_FDCWD, "xa", &fa, sizeof fa, 0);
  syscall (SYS_file_setattr, dirfd, "xa", &fa, sizeof fa, AT_SYMLINK_NOFOLLOW);
  syscall (SYS_file_getattr, fd, "", &fa, sizeof fa, AT_EMPTY_PATH);
  syscall (SYS_file_getattr, AT_FDCWD, "missing", &fa, sizeof fa, 0);
}

static void
handle_calls (int fd, int dirfd)
{
  struct file_handle *fh = calloc (1, sizeof *fh + MAX_HANDLE_SZ);
  int mount_id, opened;

  if (fh == NULL)
    exit (1);
  fh->handle_bytes = MAX_HANDLE_SZ;
  syscall (SYS_name_to_handle_at, AT_FDCWD, "missing", fh, &mount_id, 0);
  syscall (SYS_name_to_handle_at, fd, "", fh, &mount_id, AT_EMPTY_PATH);
  syscall (SYS_name_to_handle_at, dirfd, "xa", fh, &mount_id, AT_SYMLINK_FOLLOW);
  opened = (int) syscall (SYS_open_by_handle_at, dirfd, fh, O_RDONLY | O_CLOEXEC);
  syscall (SYS_close, opened);
  syscall (SYS_open_by_handle_at, 991, fh, O_RDONLY);
  free (fh);
}

static void
fd_calls (int fd)
{
  char buf[16];
  int p[2], q[2], fan, a, b;

  a = dup (fd);
  b = dup (fd);
  syscall (SYS_close_range, a, b, 0);
  a = dup (fd);
  syscall (SYS_close_range, a, a, CLOSE_RANGE_CLOEXEC);
  syscall (SYS_close_range, 5, 3, 0);
  syscall (SYS_close, a);

  fan = fanotify_init (FAN_CLASS_NOTIF | FAN_CLOEXEC, O_RDONLY);
  syscall (SYS_fanotify_mark, fan, FAN_MARK_ADD, FAN_MODIFY | FAN_CLOSE_WRITE, AT_FDCWD, "xa");
  syscall (SYS_fanotify_mark, fan, FAN_MARK_ADD | FAN_MARK_ONLYDIR, FAN_OPEN | FAN_EVENT_ON_CHILD,
           AT_FDCWD, ".");
  syscall (SYS_fanotify_mark, fan, FAN_MARK_REMOVE, FAN_MODIFY, AT_FDCWD, "missing");
  syscall (SYS_fanotify_mark, fan, FAN_MARK_FLUSH, 0, AT_FDCWD, NULL);
  syscall (SYS_close, fan);

  if (pipe (p) != 0 || pipe (q) != 0)
    exit (1);
  syscall (SYS_write, p[1], "tee!", 4);
  syscall (SYS_tee, p[0], q[1], 4, 0);
  syscall (SYS_tee, p[0], q[1], 4, SPLICE_F_NONBLOCK);
  syscall (SYS_tee, fd, q[1], 4, 0);
  syscall (SYS_read, q[0], buf, sizeof buf);

  syscall (SYS_fadvise64, fd, 0, 4096, POSIX_FADV_WILLNEED);
  syscall (SYS_fadvise64, fd, 4096, 0, POSIX_FADV_DONTNEED);
  syscall (SYS_fadvise64, fd, 0, 0, 99);
  syscall (SYS_fadvise64, p[0], 0, 0, POSIX_FADV_SEQUENTIAL);
  syscall (SYS_readahead, fd, 0, 4096);
  syscall (SYS_readahead, p[0], 0, 16);

  syscall (SYS_close, p[0]);
  syscall (SYS_close, p[1]);
  syscall (SYS_close, q[0]);
  syscall (SYS_close, q[1]);
}

static void
mount_api_calls (void)
{
  struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC };
  struct mount_attr rw = { .attr_clr = MOUNT_ATTR_RDONLY, .propagation = MS_PRIVATE };
  pid_t child = fork ();

  if (child == 0)
    {
      int fs, mnt, pick, tree;

      if (unshare (CLONE_NEWNS) != 0)
        _exit (1);
      syscall (SYS_mount, "none", "/", NULL, MS_REC | MS_PRIVATE, NULL);
      syscall (SYS_mkdir, "mnt-new", 0755);
      syscall (SYS_mkdir, "mnt-clone", 0755);
      fs = (int) syscall (SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
      syscall (SYS_fsopen, "no-such-fs", 0);
      syscall (SYS_fsconfig, fs, FSCONFIG_SET_STRING, "size", "1m", 0);
      syscall (SYS_fsconfig, fs, FSCONFIG_SET_STRING, "no-such-key", "1", 0);
      syscall (SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0);
      mnt = (int) syscall (SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV | MOUNT_ATTR_NOSUID);
      syscall (SYS_fsmount, 990, 0, 0);
      syscall (SYS_move_mount, mnt, "", AT_FDCWD, "mnt-new", MOVE_MOUNT_F_EMPTY_PATH);
      syscall (SYS_move_mount, AT_FDCWD, "missing", AT_FDCWD, "mnt-clone", 0);
      pick = (int) syscall (SYS_fspick, AT_FDCWD, "mnt-new", FSPICK_CLOEXEC);
      syscall (SYS_fsconfig, pick, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0);
      syscall (SYS_fspick, AT_FDCWD, "missing", FSPICK_SYMLINK_NOFOLLOW);
      syscall (SYS_mount_setattr, AT_FDCWD, "mnt-new", 0, &ro, sizeof ro);
      syscall (SYS_mount_setattr, AT_FDCWD, "mnt-new", AT_RECURSIVE, &rw, sizeof rw);
      syscall (SYS_mount_setattr, AT_FDCWD, "missing", 0, &ro, sizeof ro);
      tree = (int) syscall (SYS_open_tree, AT_FDCWD, "mnt-new", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
      syscall (SYS_move_mount, tree, "", AT_FDCWD, "mnt-clone", MOVE_MOUNT_F_EMPTY_PATH);
      syscall (SYS_open_tree, AT_FDCWD, "missing", 0);
      syscall (SYS_close, tree);
      tree = (int) syscall (SYS_open_tree_attr, AT_FDCWD, "mnt-new", OPEN_TREE_CLONE, &ro, sizeof ro);
      syscall (SYS_close, tree);
      syscall (SYS_umount2, "mnt-clone", 0);
      syscall (SYS_umount2, "mnt-new", MNT_DETACH);
      syscall (SYS_close, pick);
      syscall (SYS_close, mnt);
      syscall (SYS_close, fs);
      syscall (SYS_rmdir, "mnt-new");
      syscall (SYS_rmdir, "mnt-clone");
      _exit (0);
    }
  if (child > 0)
    waitpid (child, NULL, 0);
}

void
newer_calls (void)
{
  int fd = (int) syscall (SYS_openat, AT_FDCWD, "xa", O_RDWR | O_CREAT | O_TRUNC, 0644);
  int dirfd = (int) syscall (SYS_open, ".", O_RDONLY | O_DIRECTORY);

  if (fd < 0 || dirfd < 0)
    exit (1);
  xattrat_calls (fd, dirfd);
  handle_calls (fd, dirfd);
  fd_calls (fd);
  mount_api_calls ();
  syscall (SYS_close, dirfd);
  syscall (SYS_close, fd);
  syscall (SYS_unlink, "xa");
}
