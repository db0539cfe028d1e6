/* test-bpf-events.c: the bpf backend captures real syscalls made by children with known
 * pids, with exact fields (syscall, result, absolute paths, pid, ppid, uid, comm), and
 * its life cycle: an instant restart, the whole table attaching, and a teardown that
 * leaves no link, program or map behind. Root, real kernel. */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <glib/gstdio.h>

#include "fm-syscalls.h"
#include "filemond-backend-bpf.h"
#include "filemond-bpf-engine.h"
#include "kernel-capture.h"

#define NOBODY 65534

static char *test_dir;   /* canonical, mode 0755 */

typedef struct {
  int dirfd;
  int pipe_w;
} OpsData;

static void
ops_child (gpointer data)
{
  OpsData *d = data;
  /* on the stack, so that the pages are there when the program reads them at entry */
  char bin_true[] = "/bin/true";
  char arg1[] = "--fm-arg";
  char *argv[] = { bin_true, arg1, NULL };
  char *envp[] = { NULL };
  struct stat st;
  long fd;

  prctl (PR_SET_NAME, "fmtest-ops", 0, 0, 0);
  syscall (SYS_openat, AT_FDCWD, "missing", O_RDONLY);
  syscall (SYS_openat, d->dirfd, "missing2", O_RDONLY);
  fd = syscall (SYS_openat, AT_FDCWD, "created", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  syscall (SYS_write, fd, "hello", 5);
  syscall (SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH);
  syscall (SYS_close, fd);
  syscall (SYS_rename, "created", "renamed");
  syscall (SYS_chmod, "renamed", 0600);
  syscall (SYS_symlink, "renamed", "link");
  syscall (SYS_unlink, "link");
  syscall (SYS_unlink, "renamed");
  syscall (SYS_mkdir, "subdir", 0755);
  syscall (SYS_rmdir, "subdir");
  syscall (SYS_write, d->pipe_w, "x", 1);
  syscall (SYS_execve, bin_true, argv, envp);
  _exit (3);
}

typedef struct {
  const char *syscall;
  gint64 result;       /* G_MININT64: any fd (>= 0) */
  const char *path;    /* see expected_path() */
  const char *path2;
  const char *comm;
  const char *detail_has;
} Expect;

/* "@name" is test_dir/name; anything else is expected as written */
static char *
expected_path (const char *path)
{
  if (path == NULL)
    return g_strdup ("");
  if (path[0] == '@')
    return g_build_filename (test_dir, path + 1, NULL);
  return g_strdup (path);
}

static void
check_event (const KcEvent *e,
             const Expect  *x,
             guint32        pid,
             guint32        ppid,
             guint32        uid)
{
  char name_buf[16];
  g_autofree char *path = expected_path (x->path);
  g_autofree char *path2 = expected_path (x->path2);
  gint64 now_ns = g_get_real_time () * 1000;

  g_test_message ("event %s = %" G_GINT64_FORMAT " %s -> %s [%s] by %s[%u]",
                  fm_syscall_name (e->event.syscall_nr, name_buf), e->event.result, e->path,
                  e->path2, e->detail, e->comm, e->event.pid);
  g_assert_cmpstr (fm_syscall_name (e->event.syscall_nr, name_buf), ==, x->syscall);
  if (x->result == G_MININT64)
    g_assert_cmpint (e->event.result, >=, 0);
  else
    g_assert_cmpint (e->event.result, ==, x->result);
  g_assert_cmpstr (e->path, ==, path);
  g_assert_cmpstr (e->path2, ==, path2);
  g_assert_cmpuint (e->event.pid, ==, pid);
  g_assert_cmpuint (e->event.tid, ==, pid);
  g_assert_cmpuint (e->event.ppid, ==, ppid);
  g_assert_cmpuint (e->event.uid, ==, uid);
  g_assert_cmpstr (e->comm, ==, x->comm);
  if (x->detail_has != NULL)
    g_assert_nonnull (strstr (e->detail, x->detail_has));
  /* realtime, at syscall exit, a moment ago */
  g_assert_cmpint ((gint64) e->event.time_ns, <=, now_ns);
  g_assert_cmpint ((gint64) e->event.time_ns, >, now_ns - 60 * G_GINT64_CONSTANT (1000000000));
  g_assert_cmpuint (e->event.duration_ns, >, 0);
  g_assert_cmpuint (e->event.duration_ns, <, 10 * G_GUINT64_CONSTANT (1000000000));
}

/* Runs @func in a child started in test_dir (what its relative paths resolve against)
 * while @capture takes @syscalls of that child alone. */
static void
capture_child (KcCapture          *capture,
               const char *const  *syscalls,
               KcChildFunc         func,
               gpointer            data,
               KcChild            *child)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autoptr(FmdOptions) options = NULL;
  guint32 pids[2] = { 0, 0 };

  g_assert_no_errno (chdir (test_dir));
  kc_child_spawn (child, func, data);
  g_assert_no_errno (chdir (cwd));
  pids[0] = child->pid;
  options = kc_options (syscalls, pids);
  kc_capture_start (capture, options);
  kc_child_go (child);
  kc_child_wait (child);
  kc_capture_stop (capture);
}

static void
test_file_operations (void)
{
  static const char *const syscalls[] = {
    "openat", "open", "write", "newfstatat", "close", "rename", "chmod", "symlink",
    "unlink", "mkdir", "rmdir", "execve", NULL
  };
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *pipe_name = NULL;
  OpsData data;
  KcChild child;
  struct stat st;
  int fds[2];

  g_assert_no_errno (pipe (fds));
  g_assert_no_errno (fstat (fds[1], &st));
  pipe_name = g_strdup_printf ("pipe:[%lu]", (unsigned long) st.st_ino);
  data.pipe_w = fds[1];
  data.dirfd = open (test_dir, O_RDONLY | O_DIRECTORY);
  g_assert_cmpint (data.dirfd, >=, 0);

  capture_child (capture, syscalls, ops_child, &data, &child);

  {
    const Expect expect[] = {
      { "openat", -ENOENT, "@missing", NULL, "fmtest-ops", NULL },
      { "openat", -ENOENT, "@missing2", NULL, "fmtest-ops", NULL },
      { "openat", G_MININT64, "@created", NULL, "fmtest-ops", "O_CREAT" },
      { "write", 5, "@created", NULL, "fmtest-ops", NULL },
      { "newfstatat", 0, "@created", NULL, "fmtest-ops", NULL },
      { "close", 0, "@created", NULL, "fmtest-ops", NULL },
      { "rename", 0, "@created", "@renamed", "fmtest-ops", NULL },
      { "chmod", 0, "@renamed", NULL, "fmtest-ops", "0600" },
      /* a symlink's target is text, shown as given */
      { "symlink", 0, "@link", "renamed", "fmtest-ops", NULL },
      { "unlink", 0, "@link", NULL, "fmtest-ops", NULL },
      { "unlink", 0, "@renamed", NULL, "fmtest-ops", NULL },
      { "mkdir", 0, "@subdir", NULL, "fmtest-ops", "0755" },
      { "rmdir", 0, "@subdir", NULL, "fmtest-ops", NULL },
      { "write", 1, pipe_name, NULL, "fmtest-ops", NULL },
      { "execve", 0, "/bin/true", NULL, "true", "--fm-arg" },
    };

    events = kc_events_of (capture, child.pid);
    g_assert_cmpuint (events->len, >=, G_N_ELEMENTS (expect));
    for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
      check_event (g_ptr_array_index (events, i), &expect[i], child.pid, getpid (), 0);
  }
  g_assert_cmpuint (capture->dropped, ==, 0);
  close (fds[0]);
  close (fds[1]);
  close (data.dirfd);
}

static void
nobody_child (gpointer data)
{
  const char *secret = data;

  prctl (PR_SET_NAME, "fmtest-nobody", 0, 0, 0);
  if (setgid (NOBODY) != 0 || setuid (NOBODY) != 0)
    _exit (4);
  syscall (SYS_open, secret, O_RDONLY);
}

static void
test_eacces_as_nobody (void)
{
  static const char *const syscalls[] = { "open", "openat", NULL };
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *secret = g_build_filename (test_dir, "secret", NULL);
  KcChild child;
  int fd;

  fd = open (secret, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_no_errno (chmod (secret, 0600));

  capture_child (capture, syscalls, nobody_child, secret, &child);

  events = kc_events_of (capture, child.pid);
  g_assert_cmpuint (events->len, ==, 1);
  {
    const Expect x = { "open", -EACCES, "@secret", NULL, "fmtest-nobody", "O_RDONLY" };

    check_event (g_ptr_array_index (events, 0), &x, child.pid, getpid (), NOBODY);
  }
  g_assert_no_errno (unlink (secret));
}

/* --- paths across mounts, chroot, deleted files, sockets ------------------------------- */

typedef struct {
  int sock;
  const char *mnt;
} PathsData;

static void
paths_child (gpointer data)
{
  PathsData *d = data;
  long fd;

  prctl (PR_SET_NAME, "fmtest-paths", 0, 0, 0);
  /* a mount of our own, in a mount namespace of our own (nothing leaks to the host) */
  if (unshare (CLONE_NEWNS) != 0 || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
      || mount ("fmtest", d->mnt, "tmpfs", 0, "size=1m") != 0)
    _exit (3);
  /* the cwd is the root of that mount: the walk crosses into the parent mount */
  if (chdir ("mnt") != 0)
    _exit (4);
  fd = syscall (SYS_openat, AT_FDCWD, "inner", O_WRONLY | O_CREAT, 0600);
  syscall (SYS_write, fd, "x", 1);
  if (unlink ("inner") != 0)
    _exit (5);
  syscall (SYS_write, fd, "y", 1);
  syscall (SYS_write, d->sock, "z", 1);
  /* paths as the chrooted process sees them */
  if (chroot (test_dir) != 0 || chdir ("/mnt") != 0)
    _exit (6);
  syscall (SYS_openat, AT_FDCWD, "missing", O_RDONLY);
}

static void
test_paths_across_mounts (void)
{
  static const char *const syscalls[] = { "openat", "write", NULL };
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *mnt = g_build_filename (test_dir, "mnt", NULL);
  g_autofree char *socket_name = NULL;
  PathsData data;
  KcChild child;
  struct stat st;
  int sv[2];

  g_assert_no_errno (mkdir (mnt, 0755));
  g_assert_no_errno (socketpair (AF_UNIX, SOCK_STREAM, 0, sv));
  g_assert_no_errno (fstat (sv[0], &st));
  socket_name = g_strdup_printf ("socket:[%lu]", (unsigned long) st.st_ino);
  data.sock = sv[0];
  data.mnt = mnt;

  capture_child (capture, syscalls, paths_child, &data, &child);

  {
    const Expect expect[] = {
      { "openat", G_MININT64, "@mnt/inner", NULL, "fmtest-paths", "O_CREAT" },
      { "write", 1, "@mnt/inner", NULL, "fmtest-paths", NULL },
      /* as /proc/PID/fd shows an unlinked file */
      { "write", 1, "@mnt/inner (deleted)", NULL, "fmtest-paths", NULL },
      { "write", 1, socket_name, NULL, "fmtest-paths", NULL },
      /* said to be the chroot's */
      { "openat", -ENOENT, "/mnt/missing", NULL, "fmtest-paths", "paths inside the process's chroot" },
    };

    events = kc_events_of (capture, child.pid);
    g_assert_cmpuint (events->len, ==, G_N_ELEMENTS (expect));
    for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
      check_event (g_ptr_array_index (events, i), &expect[i], child.pid, getpid (), 0);
  }

  close (sv[0]);
  close (sv[1]);
  g_assert_no_errno (rmdir (mnt));
}

/* chroot leaves the cwd where it was: a relative name is then resolved against a cwd the
 * process's root does not contain. Its path reads from the namespace's root, so it is said
 * to be outside the root, not inside the chroot; an absolute name is the chroot's. */
static void
chroot_cwd_outside_child (gpointer data)
{
  const char *root = data;

  prctl (PR_SET_NAME, "fmtest-chroot", 0, 0, 0);
  if (chroot (root) != 0)
    _exit (3);
  syscall (SYS_openat, AT_FDCWD, "missing-outside", O_RDONLY);
  syscall (SYS_openat, AT_FDCWD, "/missing-inside", O_RDONLY);
}

static void
test_chroot_cwd_outside_the_root (void)
{
  static const char *const syscalls[] = { "openat", NULL };
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *root = g_build_filename (test_dir, "root", NULL);
  KcChild child;
  const Expect expect[] = {
    { "openat", -ENOENT, "@missing-outside", NULL, "fmtest-chroot", "path outside the process's root" },
    { "openat", -ENOENT, "/missing-inside", NULL, "fmtest-chroot", "paths inside the process's chroot" },
  };

  g_assert_no_errno (mkdir (root, 0755));
  /* the child keeps test_dir as its cwd through chroot */
  capture_child (capture, syscalls, chroot_cwd_outside_child, root, &child);

  events = kc_events_of (capture, child.pid);
  g_assert_cmpuint (events->len, ==, G_N_ELEMENTS (expect));
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    check_event (g_ptr_array_index (events, i), &expect[i], child.pid, getpid (), 0);
  /* the one note that is true, not both */
  g_assert_null (strstr (((const KcEvent *) g_ptr_array_index (events, 0))->detail, "chroot"));
  g_assert_null (strstr (((const KcEvent *) g_ptr_array_index (events, 1))->detail, "outside"));
  g_assert_no_errno (rmdir (root));
}

/* --- life cycle ------------------------------------------------------------------------- */

static void
idle_child (gpointer data)
{
}

static void
test_restart_is_instant (void)
{
  static const char *const syscalls[] = { "openat", NULL };
  g_autoptr(FmdOptions) options = NULL;
  guint32 pids[2] = { 0, 0 };
  KcChild child;

  kc_child_spawn (&child, idle_child, NULL);
  pids[0] = child.pid;
  options = kc_options (syscalls, pids);

  for (int round = 0; round < 3; round++)
    {
      /* a new backend each time, as the session makes them */
      g_autoptr(KcCapture) capture = kc_capture_new (0);
      g_autoptr(GError) error = NULL;
      gint64 start = g_get_monotonic_time ();

      g_assert_true (fmd_backend_start (capture->backend, options, &error));
      g_assert_no_error (error);
      if (round > 0)
        {
          /* the engine of the last round was kept: live before start returns */
          g_assert_true (capture->running);
          g_assert_cmpint (g_get_monotonic_time () - start, <, 50 * G_TIME_SPAN_MILLISECOND);
        }
      kc_iterate_until (&capture->running, 10000, "the capture to run");
      start = g_get_monotonic_time ();
      kc_capture_stop (capture);
      g_test_message ("round %d: stop took %" G_GINT64_FORMAT " us", round,
                      g_get_monotonic_time () - start);
      g_assert_cmpint (g_get_monotonic_time () - start, <, 200 * G_TIME_SPAN_MILLISECOND);
    }
  kc_child_go (&child);
  kc_child_wait (&child);
}

static gboolean
id_exists (int (*get_fd) (__u32),
           guint32 id)
{
  int fd = get_fd (id);

  if (fd >= 0)
    {
      close (fd);
      return TRUE;
    }
  g_assert_cmpint (errno, ==, ENOENT);
  return FALSE;
}

static void
assert_ids_go_away (int   (*get_fd) (__u32),
                    GArray *ids)
{
  for (int tries = 0;; tries++)
    {
      guint alive = 0;

      for (guint i = 0; i < ids->len; i++)
        alive += id_exists (get_fd, g_array_index (ids, guint32, i));
      if (alive == 0)
        return;
      g_assert_cmpint (tries, <, 200);
      g_usleep (10000);
    }
}

static guint
count_bpf_fds (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *link = g_strconcat ("/proc/self/fd/", name, NULL);
      g_autofree char *target = g_file_read_link (link, NULL);

      if (target != NULL && (g_str_has_prefix (target, "anon_inode:bpf")
                             || g_str_equal (target, "anon_inode:[perf_event]")))
        n++;
    }
  return n;
}

static void
test_whole_table_then_teardown (void)
{
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  g_autoptr(GArray) progs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) links = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) maps = g_array_new (FALSE, FALSE, sizeof (guint32));
  FmdBpfEngine *engine;
  guint n_table = 0;
  guint n_links;
  gint64 start, took;
  KcChild child;
  guint32 pid;

  /* every syscall of the table: each tracepoint name must exist here */
  kc_child_spawn (&child, idle_child, NULL);
  pid = child.pid;
  g_array_append_val (options->pids, pid);
  g_free (options->backend);
  options->backend = g_strdup ("bpf");
  start = g_get_monotonic_time ();
  kc_capture_start (capture, options);
  g_test_message ("load and attach of the whole table: %" G_GINT64_FORMAT " ms",
                  (g_get_monotonic_time () - start) / 1000);
  kc_capture_stop (capture);
  kc_child_go (&child);
  kc_child_wait (&child);
  g_clear_object (&capture->backend);

  engine = fmd_bpf_engine_cache_take (fmd_bpf_backend_type_get_engine_cache (kc_bpf_type ()),
                                      (gsize) FMD_CONFIG_BPF_RINGBUF_MB * 1024 * 1024);
  g_assert_nonnull (engine);
  /* however many syscalls were traced, a stopped capture's engine keeps only the three
   * process hooks (fork, exec, exit): the syscall programs and the kfree hook (a failed
   * exec's interpreter) are detached, the machine's syscalls and kfrees pay nothing */
  fm_syscalls_all (&n_table);
  g_assert_cmpuint (n_table, >, 50);
  n_links = fmd_bpf_engine_get_n_links (engine);
  g_assert_cmpuint (n_links, ==, 3);
  fmd_bpf_engine_get_ids (engine, progs, links, maps);
  g_assert_cmpuint (progs->len, ==, 6);
  g_assert_cmpuint (links->len, ==, n_links);
  g_assert_cmpuint (maps->len, >=, 8);
  g_assert_cmpuint (count_bpf_fds (), >, 0);

  start = g_get_monotonic_time ();
  fmd_bpf_engine_free (engine);
  kc_bpf_shutdown ();
  took = g_get_monotonic_time () - start;
  g_test_message ("teardown of %u links: %" G_GINT64_FORMAT " ms (%.1f ms a link)", n_links,
                  took / 1000, took / 1000.0 / n_links);
  /* the kernel needs a few ms a raw tracepoint link; a generous bound against a teardown
   * that went back to something per syscall (that took seconds) */
  g_assert_cmpint (took, <, 2 * G_TIME_SPAN_SECOND);

  g_assert_cmpuint (count_bpf_fds (), ==, 0);
  /* links, programs and maps are freed by kernel workers once their last user is gone
   * (after an RCU grace period): give them a moment */
  assert_ids_go_away (bpf_link_get_fd_by_id, links);
  assert_ids_go_away (bpf_prog_get_fd_by_id, progs);
  assert_ids_go_away (bpf_map_get_fd_by_id, maps);
}

int
main (int argc, char **argv)
{
  g_autofree char *dir = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  if (getuid () != 0)
    g_error ("the kernel tier runs as root (it loads BPF programs)");
  {
    g_autofree char *reason = fmd_backend_bpf_unavailable_reason (NULL);

    if (reason != NULL)
      g_error ("%s", reason);
  }

  dir = g_dir_make_tmp ("fmtest-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_assert_no_errno (chmod (dir, 0755));
  test_dir = realpath (dir, NULL);

  g_test_add_func ("/bpf/events/exact-fields-of-file-operations", test_file_operations);
  g_test_add_func ("/bpf/events/eacces-as-nobody", test_eacces_as_nobody);
  g_test_add_func ("/bpf/paths/across-mounts-chroot-deleted-and-sockets",
                   test_paths_across_mounts);
  g_test_add_func ("/bpf/paths/chroot-with-the-cwd-outside-the-root-is-outside",
                   test_chroot_cwd_outside_the_root);
  g_test_add_func ("/bpf/lifecycle/restart-is-instant", test_restart_is_instant);
  g_test_add_func ("/bpf/lifecycle/whole-table-then-teardown-leaves-nothing",
                   test_whole_table_then_teardown);
  ret = g_test_run ();

  kc_bpf_shutdown ();
  g_rmdir (test_dir);
  free (test_dir);
  return ret;
}
