/* test-bpf-filters.c: the bpf backend's filters work in the kernel (the backend delivers
 * nothing of a filtered-out process: there is no filtering after it here), the daemon
 * never captures itself, children are followed, and under a storm of a million failing
 * opens every syscall is either delivered or counted as dropped. Root, real kernel. */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "fm-syscalls.h"
#include "filemond-bpf.h"
#include "filemond-backend-bpf.h"
#include "filemond-bpf-engine.h"
#include "kernel-capture.h"

#define NOBODY 65534
#define N_OPENS 200

static const char *const only_openat[] = { "openat", NULL };

typedef struct {
  const char *comm;
  guint32 uid;        /* 0: stay root */
  int n_fail;
  int n_ok;
} OpenLoop;

static void
open_loop (gpointer data)
{
  const OpenLoop *l = data;
  char missing[] = "/nonexistent-filemon-test/x";
  char null_dev[] = "/dev/null";

  if (l->comm != NULL)
    prctl (PR_SET_NAME, l->comm, 0, 0, 0);
  if (l->uid != 0 && (setgid (l->uid) != 0 || setuid (l->uid) != 0))
    _exit (4);
  for (int i = 0; i < l->n_fail; i++)
    syscall (SYS_openat, AT_FDCWD, missing, O_RDONLY);
  for (int i = 0; i < l->n_ok; i++)
    {
      long fd = syscall (SYS_openat, AT_FDCWD, null_dev, O_RDONLY);

      if (fd >= 0)
        close (fd);   /* close is not in the capture's syscalls */
    }
}

static guint
count_events (KcCapture *capture,
              guint32    pid,
              gboolean   failed_only)
{
  g_autoptr(GPtrArray) events = kc_events_of (capture, pid);
  guint n = 0;

  for (guint i = 0; i < events->len; i++)
    {
      KcEvent *e = g_ptr_array_index (events, i);

      if (!failed_only || e->event.result < 0)
        n++;
    }
  return n;
}

/* What run_pair() adds to the pid filter once the children exist. */
typedef enum {
  PIDS_NONE = 0,
  PIDS_A = 1 << 0,
  /* a pid with no process that sets b's bit of the program's pid hints */
  PIDS_BIT_OF_B = 1 << 1,
} PairPids;

/* Runs two children under @options (with the pids @pids tells), returns their event
 * counts. */
static void
run_pair (FmdOptions *options,
          OpenLoop   *a,
          OpenLoop   *b,
          PairPids    pids,
          guint      *n_a,
          guint      *n_b)
{
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  KcChild ca, cb;

  kc_child_spawn (&ca, open_loop, a);
  kc_child_spawn (&cb, open_loop, b);
  if (pids & PIDS_A)
    {
      guint32 pid = ca.pid;

      g_array_append_val (options->pids, pid);
    }
  if (pids & PIDS_BIT_OF_B)
    {
      guint32 pid = cb.pid + FMD_BPF_HINT_BITS;

      g_array_append_val (options->pids, pid);
    }
  kc_capture_start (capture, options);
  kc_child_go (&ca);
  kc_child_go (&cb);
  kc_child_wait (&ca);
  kc_child_wait (&cb);
  kc_capture_stop (capture);
  *n_a = count_events (capture, ca.pid, FALSE);
  *n_b = count_events (capture, cb.pid, FALSE);
}

static void
test_pids (void)
{
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  OpenLoop a = { NULL, 0, N_OPENS, 0 }, b = { NULL, 0, N_OPENS, 0 };
  guint n_a, n_b;

  run_pair (options, &a, &b, PIDS_A, &n_a, &n_b);
  g_assert_cmpuint (n_a, ==, N_OPENS);
  g_assert_cmpuint (n_b, ==, 0);
}

/* The program checks a bit per pid (modulo FMD_BPF_HINT_BITS) before the pids map: a
 * process whose bit another filtered pid sets is still decided by the map. */
static void
test_pids_sharing_a_hint_bit (void)
{
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  OpenLoop a = { NULL, 0, N_OPENS, 0 }, b = { NULL, 0, N_OPENS, 0 };
  guint n_a, n_b;

  run_pair (options, &a, &b, PIDS_A | PIDS_BIT_OF_B, &n_a, &n_b);
  g_assert_cmpuint (n_a, ==, N_OPENS);
  g_assert_cmpuint (n_b, ==, 0);
}

static void
test_uids (void)
{
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  OpenLoop a = { NULL, NOBODY, N_OPENS, 0 }, b = { NULL, 0, N_OPENS, 0 };
  /* the second uid sets root's bit of the uid hints (see the pids test above): b, root,
   * is still decided by the uids map */
  guint32 uids[] = { NOBODY, FMD_BPF_HINT_BITS };
  guint n_a, n_b;

  g_array_append_vals (options->uids, uids, G_N_ELEMENTS (uids));
  run_pair (options, &a, &b, PIDS_NONE, &n_a, &n_b);
  g_assert_cmpuint (n_a, ==, N_OPENS);
  g_assert_cmpuint (n_b, ==, 0);
}

static void
test_comms (void)
{
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  const char *comms[] = { "fmtest-wanted", NULL };
  OpenLoop a = { "fmtest-wanted", 0, N_OPENS, 0 }, b = { "fmtest-other", 0, N_OPENS, 0 };
  guint n_a, n_b;

  g_strfreev (options->comms);
  options->comms = g_strdupv ((GStrv) comms);
  run_pair (options, &a, &b, PIDS_NONE, &n_a, &n_b);
  g_assert_cmpuint (n_a, ==, N_OPENS);
  g_assert_cmpuint (n_b, ==, 0);
}

/* The process named fmtest-process makes its calls from a thread it named fmtest-thread,
 * as a program's worker threads do ("gdbus", "pool-0"). */
static void *
named_thread (void *data)
{
  open_loop (data);
  return NULL;
}

static void
threaded_open_loop (gpointer data)
{
  pthread_t thread;

  prctl (PR_SET_NAME, "fmtest-process", 0, 0, 0);
  if (pthread_create (&thread, NULL, named_thread, data) != 0 || pthread_join (thread, NULL) != 0)
    _exit (5);
}

/* Events from a named thread under a comm filter of @comm; returns how many, and checks
 * that each names the process, not the thread. */
static guint
thread_events_under_comm_filter (const char *comm)
{
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  g_autoptr(GPtrArray) events = NULL;
  const char *comms[] = { comm, NULL };
  OpenLoop loop = { "fmtest-thread", 0, N_OPENS, 0 };
  KcChild child;

  g_strfreev (options->comms);
  options->comms = g_strdupv ((GStrv) comms);
  kc_child_spawn (&child, threaded_open_loop, &loop);
  kc_capture_start (capture, options);
  kc_child_go (&child);
  kc_child_wait (&child);
  kc_capture_stop (capture);
  events = kc_events_of (capture, child.pid);
  for (guint i = 0; i < events->len; i++)
    {
      KcEvent *e = g_ptr_array_index (events, i);

      g_assert_cmpuint (e->event.tid, !=, (guint32) child.pid);
      g_assert_cmpstr (e->comm, ==, "fmtest-process");
    }
  return events->len;
}

/* comm is the process's name (its thread group leader's), in the records and in the
 * kernel's comm filter alike */
static void
test_comm_is_the_process (void)
{
  g_assert_cmpuint (thread_events_under_comm_filter ("fmtest-process"), ==, N_OPENS);
  g_assert_cmpuint (thread_events_under_comm_filter ("fmtest-thread"), ==, 0);
}

static void
test_failed_only (void)
{
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  OpenLoop a = { NULL, 0, N_OPENS / 2, N_OPENS / 2 };
  guint32 pid;
  KcChild child;

  kc_child_spawn (&child, open_loop, &a);
  pid = child.pid;
  g_array_append_val (options->pids, pid);
  options->failed_only = TRUE;
  kc_capture_start (capture, options);
  kc_child_go (&child);
  kc_child_wait (&child);
  kc_capture_stop (capture);
  g_assert_cmpuint (count_events (capture, pid, FALSE), ==, N_OPENS / 2);
  g_assert_cmpuint (count_events (capture, pid, TRUE), ==, N_OPENS / 2);
}

static void
test_never_captures_itself (void)
{
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);

  /* no filter at all: everything on the machine but this process */
  kc_capture_start (capture, options);
  for (int i = 0; i < N_OPENS; i++)
    g_assert_cmpint (open ("/nonexistent-filemon-test/self", O_RDONLY), ==, -1);
  kc_capture_stop (capture);
  g_assert_cmpuint (count_events (capture, getpid (), FALSE), ==, 0);
}

/* The parent, once released, forks a child that makes N_OPENS failing opens. */
static void
forking_parent (gpointer data)
{
  OpenLoop loop = { NULL, 0, N_OPENS, 0 };
  pid_t pid = fork ();
  int status;

  if (pid < 0)
    _exit (5);
  if (pid == 0)
    {
      open_loop (&loop);
      _exit (0);
    }
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    _exit (6);
}

static guint
run_follow (gboolean follow)
{
  g_autoptr(KcCapture) capture = kc_capture_new (0);
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  KcChild parent;
  guint32 pid;
  guint n = 0;

  kc_child_spawn (&parent, forking_parent, NULL);
  pid = parent.pid;
  g_array_append_val (options->pids, pid);
  options->follow_children = follow;
  kc_capture_start (capture, options);
  kc_child_go (&parent);
  kc_child_wait (&parent);
  kc_capture_stop (capture);

  /* the grandchild's events: ppid is the parent */
  for (guint i = 0; i < capture->events->len; i++)
    {
      KcEvent *e = &g_array_index (capture->events, KcEvent, i);

      if (e->event.ppid == pid)
        n++;
      else
        g_assert_cmpuint (e->event.pid, ==, pid);
    }
  return n;
}

static void
test_follow_children (void)
{
  g_assert_cmpuint (run_follow (TRUE), ==, N_OPENS);
  g_assert_cmpuint (run_follow (FALSE), ==, 0);
}

/* --- the storm -------------------------------------------------------------------------- */

#define STORM 1000000

/* @data: how many failed opens */
static void
storm_child (gpointer data)
{
  char missing[] = "/nonexistent-filemon-storm/x";

  for (int i = 0; i < GPOINTER_TO_INT (data); i++)
    syscall (SYS_openat, AT_FDCWD, missing, O_RDONLY);
}

static void
stall_once (const FmEvent *event,
            gpointer       data)
{
  gboolean *stalled = data;

  /* the reader stops for a while: the 1 MiB ring buffer fills and the kernel drops */
  if (!*stalled)
    {
      *stalled = TRUE;
      g_usleep (300 * G_TIME_SPAN_MILLISECOND);
    }
}

/* A child that will make @n failed opens, the only process @capture's options let through;
 * @capture counts its events. */
static void
spawn_storm_child (KcCapture  *capture,
                   FmdOptions *options,
                   KcChild    *child,
                   int         n)
{
  guint32 pid;

  kc_child_spawn (child, storm_child, GINT_TO_POINTER (n));
  pid = child->pid;
  g_array_append_val (options->pids, pid);
  capture->count_only = TRUE;
  capture->count_pid = pid;
}

static void
run_storm (guint     ringbuf_mb,
           gboolean  stall)
{
  g_autoptr(KcCapture) capture = kc_capture_new (ringbuf_mb);
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  gboolean stalled = FALSE;
  gint64 start;
  KcChild child;

  spawn_storm_child (capture, options, &child, STORM);
  if (stall)
    {
      capture->on_event = stall_once;
      capture->on_event_data = &stalled;
    }
  kc_capture_start (capture, options);
  start = g_get_monotonic_time ();
  kc_child_go (&child);
  kc_child_wait (&child);
  kc_capture_stop (capture);

  g_test_message ("ring buffer %u MiB%s: %" G_GUINT64_FORMAT " delivered + %" G_GUINT64_FORMAT
                  " dropped in %.2f s", ringbuf_mb, stall ? ", reader stalled" : "",
                  capture->counted, capture->dropped,
                  (g_get_monotonic_time () - start) / 1e6);
  /* only this child passes the filter, so every event and every drop is one of its opens */
  g_assert_cmpuint (capture->total, ==, capture->counted);
  g_assert_cmpuint (capture->counted + capture->dropped, ==, STORM);
  if (stall)
    g_assert_cmpuint (capture->dropped, >, 0);
}

static void
test_storm (void)
{
  run_storm (64, FALSE);
}

static void
test_storm_with_drops (void)
{
  run_storm (1, TRUE);
}

/* A backlog made while the reader did not run drains at full speed once it runs, not at
 * the tick's pace (a dispatch reads at most 4096 records; the tick comes every 50 ms). */
#define BACKLOG 100000

static void
test_backlog_drains_at_once (void)
{
  g_autoptr(KcCapture) capture = kc_capture_new (64);
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  KcChild child;
  gint64 start;
  guint64 in_window;
  int status;

  spawn_storm_child (capture, options, &child, BACKLOG);
  kc_capture_start (capture, options);
  kc_child_go (&child);
  /* the main loop does not run: the whole load waits in the ring buffer (~20 MiB of 64) */
  g_assert_cmpint (waitpid (child.pid, &status, 0), ==, child.pid);
  child.exited = TRUE;
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);

  start = g_get_monotonic_time ();
  while (g_get_monotonic_time () - start < 300 * G_TIME_SPAN_MILLISECOND)
    g_main_context_iteration (NULL, TRUE);
  in_window = capture->counted;
  kc_capture_stop (capture);
  g_test_message ("%" G_GUINT64_FORMAT " of %d backlogged events read in the first 300 ms",
                  in_window, BACKLOG);
  g_assert_cmpuint (capture->counted + capture->dropped, ==, BACKLOG);
  g_assert_cmpuint (capture->dropped, ==, 0);
  /* seven ticks' budgets would be 28 672 */
  g_assert_cmpuint (in_window, >=, 60000);
}

/* The program wakes the reader once per read of the reader while the backlog stays at the
 * threshold (1/8 of the ring): not only with the record that crosses it, a wake-up two
 * CPUs crossing together both missed (the reader then read at its timer alone while the
 * ring filled and dropped), and not with every record. An edge-triggered epoll around the
 * engine's poll fd reports each wake-up once. */
#define WAKE_RING (1024 * 1024)
#define WAKE_COMM "fmtest-wake"

static gboolean
take_few (const void *data,
          gsize       len,
          gpointer    user_data)
{
  guint *left = user_data;

  return --*left > 0;
}

static int
wake_ups (int epfd,
          int timeout_ms)
{
  struct epoll_event ev;
  int n;

  do
    n = epoll_wait (epfd, &ev, 1, timeout_ms);
  while (n < 0 && errno == EINTR);
  g_assert_cmpint (n, >=, 0);
  return n;
}

static void
failed_opens (int n)
{
  OpenLoop loop = { WAKE_COMM, 0, n, 0 };
  KcChild child;
  int status;

  kc_child_spawn (&child, open_loop, &loop);
  kc_child_go (&child);
  g_assert_cmpint (waitpid (child.pid, &status, 0), ==, child.pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}

static void
test_wakes_once_per_read (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = kc_options (only_openat, NULL);
  const char *comms[] = { WAKE_COMM, NULL };
  struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
  FmdBpfEngine *engine;
  guint left;
  int epfd;

  engine = fmd_bpf_engine_load (WAKE_RING, &error);
  g_assert_no_error (error);
  g_assert_true (fmd_bpf_engine_attach (engine, &error));
  g_strfreev (options->comms);
  options->comms = g_strdupv ((GStrv) comms);
  g_assert_true (fmd_bpf_engine_configure (engine, options, 1, &error));
  fmd_bpf_engine_set_consumer (engine, take_few, &left);
  epfd = epoll_create1 (EPOLL_CLOEXEC);
  g_assert_cmpint (epfd, >=, 0);
  g_assert_cmpint (epoll_ctl (epfd, EPOLL_CTL_ADD, fmd_bpf_engine_get_poll_fd (engine), &ev), ==, 0);
  fmd_bpf_engine_set_enabled (engine, TRUE);

  /* ~300 KiB of records: past the 128 KiB threshold, well inside the ring */
  failed_opens (1500);
  g_assert_cmpint (wake_ups (epfd, 2000), ==, 1);

  /* a read that leaves the backlog above the threshold: the next record wakes again */
  left = 10;
  g_assert_cmpint (fmd_bpf_engine_consume (engine), ==, 10);
  (void) wake_ups (epfd, 0);
  failed_opens (1);
  g_assert_cmpint (wake_ups (epfd, 2000), ==, 1);

  /* without a read in between, more records do not */
  failed_opens (20);
  g_assert_cmpint (wake_ups (epfd, 300), ==, 0);
  g_assert_cmpuint (fmd_bpf_engine_read_drops (engine), ==, 0);

  fmd_bpf_engine_set_enabled (engine, FALSE);
  close (epfd);
  fmd_bpf_engine_free (engine);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);

  if (getuid () != 0)
    g_error ("the kernel tier runs as root (it loads BPF programs)");
  {
    g_autofree char *reason = fmd_backend_bpf_unavailable_reason (NULL);

    if (reason != NULL)
      g_error ("%s", reason);
  }

  g_test_add_func ("/bpf/filters/pids-in-kernel", test_pids);
  g_test_add_func ("/bpf/filters/pids-sharing-a-hint-bit", test_pids_sharing_a_hint_bit);
  g_test_add_func ("/bpf/filters/uids-in-kernel", test_uids);
  g_test_add_func ("/bpf/filters/comms-in-kernel", test_comms);
  g_test_add_func ("/bpf/filters/comm-is-the-process", test_comm_is_the_process);
  g_test_add_func ("/bpf/filters/failed-only", test_failed_only);
  g_test_add_func ("/bpf/filters/never-captures-itself", test_never_captures_itself);
  g_test_add_func ("/bpf/filters/follows-children-forked-after-start", test_follow_children);
  g_test_add_func ("/bpf/storm/million-failing-opens-delivered-or-dropped", test_storm);
  g_test_add_func ("/bpf/storm/stalled-reader-drops-are-counted", test_storm_with_drops);
  g_test_add_func ("/bpf/storm/backlog-drains-at-once", test_backlog_drains_at_once);
  g_test_add_func ("/bpf/storm/reader-woken-once-per-read", test_wakes_once_per_read);
  ret = g_test_run ();

  kc_bpf_shutdown ();
  return ret;
}
