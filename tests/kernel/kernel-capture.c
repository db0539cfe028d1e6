/* kernel-capture.c: see kernel-capture.h. */
#define _GNU_SOURCE
#include "config.h"

#include "kernel-capture.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "fm-syscalls.h"
#include "filemond-backend-bpf.h"
#include "filemond-config.h"

static void
kc_event_clear (gpointer data)
{
  KcEvent *e = data;

  g_free (e->comm);
  g_free (e->path);
  g_free (e->path2);
  g_free (e->detail);
}

static void
sink_event (const FmEvent *event,
            gpointer       user_data)
{
  KcCapture *c = user_data;
  KcEvent e;

  c->total++;
  if (c->on_event != NULL)
    c->on_event (event, c->on_event_data);
  if (c->count_only)
    {
      if (event->pid == c->count_pid)
        c->counted++;
      return;
    }

  e.event = *event;
  e.comm = g_strndup (event->comm, event->comm_len);
  e.path = g_strndup (event->path, event->path_len);
  e.path2 = g_strndup (event->path2, event->path2_len);
  e.detail = g_strndup (event->detail, event->detail_len);
  e.event.comm = e.comm;
  e.event.path = e.path;
  e.event.path2 = e.path2;
  e.event.detail = e.detail;
  g_array_append_val (c->events, e);
}

static void
sink_running (gpointer user_data)
{
  KcCapture *c = user_data;

  c->running = TRUE;
}

static void
sink_dropped (guint64  count,
              gpointer user_data)
{
  KcCapture *c = user_data;

  c->dropped += count;
}

static void
sink_failed (const GError *error,
             gpointer      user_data)
{
  KcCapture *c = user_data;

  g_clear_error (&c->failed);
  c->failed = g_error_copy (error);
}

static void
sink_stopped (gpointer user_data)
{
  KcCapture *c = user_data;

  c->stopped = TRUE;
}

static const FmdBackendSink kc_sink = {
  .event = sink_event, .running = sink_running, .dropped = sink_dropped,
  .failed = sink_failed, .stopped = sink_stopped,
};

FmdBpfBackendType *
kc_bpf_type (void)
{
  static FmdBackendType *type;

  if (type == NULL)
    type = fmd_bpf_backend_type_new ();
  return FMD_BPF_BACKEND_TYPE (type);
}

void
kc_bpf_shutdown (void)
{
  fmd_bpf_engine_cache_shutdown (fmd_bpf_backend_type_get_engine_cache (kc_bpf_type ()));
}

KcCapture *
kc_capture_new (guint ringbuf_mb)
{
  g_autoptr(FmdConfig) config = fmd_config_new_default ();
  KcCapture *c = g_new0 (KcCapture, 1);

  if (ringbuf_mb > 0)
    config->bpf_ringbuf_mb = ringbuf_mb;
  c->backend = fmd_backend_type_create (FMD_BACKEND_TYPE (kc_bpf_type ()), config);
  fmd_backend_set_sink (c->backend, &kc_sink, c);
  c->events = g_array_new (FALSE, FALSE, sizeof (KcEvent));
  g_array_set_clear_func (c->events, kc_event_clear);
  return c;
}

void
kc_capture_free (KcCapture *c)
{
  g_clear_object (&c->backend);
  g_array_unref (c->events);
  g_clear_error (&c->failed);
  g_free (c);
}

void
kc_iterate_until (gboolean   *done,
                  guint       timeout_ms,
                  const char *what)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;

  while (!*done)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out after %u ms waiting for %s", timeout_ms, what);
      g_main_context_iteration (NULL, FALSE);
      if (!*done)
        g_usleep (1000);
    }
}

void
kc_capture_start (KcCapture        *c,
                  const FmdOptions *options)
{
  g_autoptr(GError) error = NULL;

  c->running = FALSE;
  c->stopped = FALSE;
  g_assert_true (fmd_backend_start (c->backend, options, &error));
  g_assert_no_error (error);
  while (!c->running && c->failed == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (c->failed);
}

void
kc_capture_stop (KcCapture *c)
{
  fmd_backend_stop (c->backend);
  kc_iterate_until (&c->stopped, 30000, "the capture to stop");
  g_assert_no_error (c->failed);
}

FmdOptions *
kc_options (const char *const *syscalls,
            const guint32     *pids)
{
  FmdOptions *options = fmd_options_new_default ();

  g_free (options->backend);
  options->backend = g_strdup ("bpf");
  if (syscalls != NULL)
    {
      g_ptr_array_set_size (options->syscalls, 0);
      for (gsize i = 0; syscalls[i] != NULL; i++)
        {
          const FmSyscall *sc = fm_syscall_by_name (syscalls[i]);

          g_assert_nonnull (sc);
          g_ptr_array_add (options->syscalls, (gpointer) sc);
        }
    }
  for (gsize i = 0; pids != NULL && pids[i] != 0; i++)
    g_array_append_val (options->pids, pids[i]);
  return options;
}

GPtrArray *
kc_events_of (KcCapture *c,
              guint32    pid)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < c->events->len; i++)
    {
      KcEvent *e = &g_array_index (c->events, KcEvent, i);

      if (e->event.pid == pid)
        g_ptr_array_add (out, e);
    }
  return out;
}

void
kc_child_spawn (KcChild     *child,
                KcChildFunc  func,
                gpointer     data)
{
  int fds[2];

  memset (child, 0, sizeof *child);
  g_assert_no_errno (pipe2 (fds, O_CLOEXEC));
  child->pid = fork ();
  g_assert_cmpint (child->pid, >=, 0);
  if (child->pid == 0)
    {
      char c;

      close (fds[1]);
      /* blocks until the capture runs; read() is not in the tests' syscall sets */
      if (read (fds[0], &c, 1) != 1)
        _exit (2);
      func (data);
      _exit (0);
    }
  close (fds[0]);
  child->go_fd = fds[1];
}

void
kc_child_go (KcChild *child)
{
  g_assert_cmpint (write (child->go_fd, "g", 1), ==, 1);
  close (child->go_fd);
  child->go_fd = -1;
}

static void
child_exited (GPid     pid,
              int      status,
              gpointer user_data)
{
  KcChild *child = user_data;

  child->status = status;
  child->exited = TRUE;
  g_spawn_close_pid (pid);
}

void
kc_child_wait (KcChild *child)
{
  g_child_watch_add (child->pid, child_exited, child);
  kc_iterate_until (&child->exited, 60000, "a child to exit");
  g_assert_true (WIFEXITED (child->status));
  g_assert_cmpint (WEXITSTATUS (child->status), ==, 0);
}
