/* test-session.c: the capture state machine, backend choice and the per-event filter,
 * with a fake backend driven by the test. */
#include <gio/gio.h>
#include <string.h>

#include "filemond-session.h"
#include "fm-error.h"
#include "test-daemon-util.h"

/* --- a backend the test drives -------------------------------------------------------- */

#define FAKE_TYPE_BACKEND (fake_backend_get_type ())
G_DECLARE_FINAL_TYPE (FakeBackend, fake_backend, FAKE, BACKEND, FmdBackend)

struct _FakeBackend {
  FmdBackend parent_instance;
  const char *type_name;
  gboolean fail_start;
  gboolean stop_later;
  guint drain_on_stop;   /* events emitted while stopping, as a backend drains */
  guint n_stops;
};

G_DEFINE_FINAL_TYPE (FakeBackend, fake_backend, FMD_TYPE_BACKEND)

static gboolean
fake_start (FmdBackend       *backend,
            const FmdOptions *options,
            GError          **error)
{
  FakeBackend *self = FAKE_BACKEND (backend);

  g_assert_cmpstr (options->backend, ==, self->type_name);
  if (self->fail_start)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no probes today");
      return FALSE;
    }
  return TRUE;
}

static void
fake_stop (FmdBackend *backend)
{
  FakeBackend *self = FAKE_BACKEND (backend);

  self->n_stops++;
  for (guint i = 0; i < self->drain_on_stop; i++)
    {
      FmEvent event = { 0 };

      event.syscall_nr = fm_syscall_by_name ("openat")->nr;
      event.pid = event.tid = 42;
      event.result = -2;
      fm_event_set_strings (&event, "drainer", i % 2 ? "/drained/keep" : "/drained/drop", "",
                            "");
      fmd_backend_emit_event (backend, &event);
    }
  if (!self->stop_later)
    fmd_backend_emit_stopped (backend);
}

static void
fake_backend_class_init (FakeBackendClass *klass)
{
  FMD_BACKEND_CLASS (klass)->start = fake_start;
  FMD_BACKEND_CLASS (klass)->stop = fake_stop;
}

static void
fake_backend_init (FakeBackend *self)
{
}

typedef struct _Fixture Fixture;

/* --- backend types the test drives ---------------------------------------------------- */

#define FAKE_TYPE_TYPE (fake_type_get_type ())
G_DECLARE_FINAL_TYPE (FakeType, fake_type, FAKE, TYPE, FmdBackendType)

struct _FakeType {
  FmdBackendType parent_instance;
  Fixture *f;
  gboolean missing;
  gboolean deferred;   /* the probe defers, as stap's does while its trial build runs */
};

G_DEFINE_FINAL_TYPE (FakeType, fake_type, FMD_TYPE_BACKEND_TYPE)

struct _Fixture {
  FmdConfig *config;
  FmdRing *ring;
  FmdBackendRegistry *registry;
  FmdSession *session;
  gboolean fail_start;
  gboolean stop_later;
  FakeBackend *last;   /* not a reference */
  FakeType *stap;      /* the registry's */
  FakeType *bpf;
};

static FmdBackend *
fake_create (FmdBackendType  *type,
             const FmdConfig *config)
{
  Fixture *f = FAKE_TYPE (type)->f;
  FakeBackend *backend = g_object_new (FAKE_TYPE_BACKEND, NULL);

  backend->type_name = fmd_backend_type_get_name (type);
  backend->fail_start = f->fail_start;
  backend->stop_later = f->stop_later;
  f->last = backend;
  return FMD_BACKEND (backend);
}

static FmdProbeResult
fake_probe (FmdBackendType   *type,
            const FmdConfig  *config,
            char            **reason)
{
  FakeType *self = FAKE_TYPE (type);

  if (self->deferred)
    return FMD_PROBE_DEFER;
  if (self->missing)
    {
      *reason = g_strdup_printf ("%s: %s", fmd_backend_type_get_name (type),
                                 g_str_equal (fmd_backend_type_get_name (type), "stap")
                                 ? "not installed" : "no BTF");
      return FMD_PROBE_FAIL;
    }
  return FMD_PROBE_SUCCESS;
}

static void
fake_type_class_init (FakeTypeClass *klass)
{
  FMD_BACKEND_TYPE_CLASS (klass)->probe = fake_probe;
  FMD_BACKEND_TYPE_CLASS (klass)->create = fake_create;
}

static void
fake_type_init (FakeType *self)
{
}

static FakeType *
fake_type_add (Fixture    *f,
               const char *name)
{
  g_autoptr(FakeType) type = g_object_new (FAKE_TYPE_TYPE, "name", name, NULL);

  type->f = f;
  fmd_backend_registry_add (f->registry, FMD_BACKEND_TYPE (type));
  return type;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->config = fmd_config_new_default ();
  f->ring = fmd_ring_new (10000, 4 * 1024 * 1024);
  f->registry = fmd_backend_registry_new ();
  f->stap = fake_type_add (f, "stap");
  f->bpf = fake_type_add (f, "bpf");
  f->session = fmd_session_new (f->config, f->registry, f->ring);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->session);
  test_iterate ();   /* let released backends go */
  g_clear_object (&f->registry);
  fmd_ring_free (f->ring);
  fmd_config_free (f->config);
}

static FmdOptions *
options_from (Fixture    *f,
              const char *text)
{
  g_autoptr(GVariant) v = g_variant_parse (G_VARIANT_TYPE_VARDICT, text, NULL, NULL, NULL);
  g_autoptr(GError) error = NULL;
  FmdOptions *options = fmd_options_new_from_variant (v, f->registry, &error);

  g_assert_no_error (error);
  return options;
}

static void
start_ok (Fixture    *f,
          const char *options_text)
{
  g_autoptr(FmdOptions) options = options_from (f, options_text);
  g_autoptr(GError) error = NULL;

  g_assert_true (fmd_session_start (f->session, options, &error));
  g_assert_no_error (error);
}

/* --- tests ------------------------------------------------------------------------------- */

static void
test_start_run_stop (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_IDLE);
  g_assert_cmpstr (fmd_session_get_backend_name (f->session), ==, "");
  g_assert_null (fmd_session_get_options (f->session));

  start_ok (f, "{'backend': <'stap'>}");
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_STARTING);
  g_assert_cmpstr (fmd_session_get_backend_name (f->session), ==, "stap");
  g_assert_cmpint (fmd_session_get_started_at (f->session), >, 0);
  g_assert_nonnull (fmd_session_get_options (f->session));

  fmd_backend_emit_running (FMD_BACKEND (f->last));
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_RUNNING);

  g_assert_true (fmd_session_stop (f->session, &error));
  g_assert_no_error (error);
  g_assert_cmpint (f->last->n_stops, ==, 1);
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_IDLE);
}

/* A backend that builds first: compiling (with its progress) is part of starting. */
static void
test_compiling_is_part_of_starting (Fixture *f, gconstpointer data)
{
  g_autoptr(FmdOptions) options = options_from (f, "@a{sv} {}");
  g_autoptr(GError) error = NULL;

  start_ok (f, "{'backend': <'stap'>}");
  fmd_backend_emit_compiling (FMD_BACKEND (f->last), "pass 4 of 4");
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_COMPILING);
  g_assert_cmpstr (fmd_state_to_string (FMD_STATE_COMPILING), ==, "compiling");
  g_assert_cmpstr (fmd_session_get_progress (f->session), ==, "pass 4 of 4");
  g_assert_false (fmd_session_start (f->session, options, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_ALREADY_RUNNING);
  g_clear_error (&error);

  /* built, now loading: starting again, the progress gone */
  fmd_backend_emit_compiling (FMD_BACKEND (f->last), NULL);
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_STARTING);
  g_assert_cmpstr (fmd_session_get_progress (f->session), ==, "");
  fmd_backend_emit_running (FMD_BACKEND (f->last));
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_RUNNING);
  /* a late report does not take a running capture back */
  fmd_backend_emit_compiling (FMD_BACKEND (f->last), "pass 4 of 4");
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_RUNNING);
  g_assert_true (fmd_session_stop (f->session, NULL));

  /* and a build can be stopped */
  start_ok (f, "{'backend': <'stap'>}");
  fmd_backend_emit_compiling (FMD_BACKEND (f->last), "pass 1-2 of 4");
  g_assert_true (fmd_session_stop (f->session, &error));
  g_assert_no_error (error);
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_IDLE);
  g_assert_cmpstr (fmd_session_get_progress (f->session), ==, "");
}

static void
test_start_while_running_is_refused (Fixture *f, gconstpointer data)
{
  g_autoptr(FmdOptions) options = options_from (f, "@a{sv} {}");
  g_autoptr(GError) error = NULL;

  start_ok (f, "@a{sv} {}");
  g_assert_false (fmd_session_start (f->session, options, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_ALREADY_RUNNING);
  g_clear_error (&error);

  /* still refused while the backend takes its time to stop */
  f->last->stop_later = TRUE;
  g_assert_true (fmd_session_stop (f->session, &error));
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_STOPPING);
  g_assert_false (fmd_session_start (f->session, options, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_ALREADY_RUNNING);
  g_clear_error (&error);
  g_assert_false (fmd_session_stop (f->session, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_NOT_RUNNING);
  g_clear_error (&error);

  fmd_backend_emit_stopped (FMD_BACKEND (f->last));
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_IDLE);
  start_ok (f, "@a{sv} {}");
}

static void
test_stop_while_idle_is_refused (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (fmd_session_stop (f->session, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_NOT_RUNNING);
}

static void
test_first_event_means_running (Fixture *f, gconstpointer data)
{
  char path[128];
  FmEvent event = test_event (0, path);

  start_ok (f, "@a{sv} {}");
  fmd_backend_emit_event (FMD_BACKEND (f->last), &event);
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_RUNNING);
  g_assert_cmpuint (fmd_session_get_event_count (f->session), ==, 1);
  g_assert_cmpuint (fmd_ring_get_n_events (f->ring), ==, 1);
}

static gboolean
kept (Fixture    *f,
      guint       syscall_nr,
      guint32     pid,
      guint32     uid,
      const char *comm,
      gint64      result,
      const char *p1,
      const char *p2)
{
  FmEvent event = { 0 };
  guint64 before = fmd_session_get_event_count (f->session);
  guint64 filtered = fmd_session_get_filtered_count (f->session);

  event.syscall_nr = syscall_nr;
  event.pid = event.tid = pid;
  event.uid = uid;
  event.result = result;
  fm_event_set_strings (&event, comm, p1, p2, "");
  fmd_backend_emit_event (FMD_BACKEND (f->last), &event);
  /* the filter runs in the session's worker thread: its verdict comes back on the loop */
  while (fmd_session_get_event_count (f->session) == before &&
         fmd_session_get_filtered_count (f->session) == filtered)
    g_main_context_iteration (NULL, TRUE);
  return fmd_session_get_event_count (f->session) == before + 1;
}

/* A backend drains what the kernel still holds as it stops (the bpf backend does): those
 * events went to the ring unfiltered when Stop ended the filter worker first. */
static void
test_events_drained_at_stop_are_filtered (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  start_ok (f, "{'filter': <\"path~'keep$'\">}");
  f->last->drain_on_stop = 100;
  fmd_backend_emit_running (FMD_BACKEND (f->last));
  g_assert_true (fmd_session_stop (f->session, &error));
  g_assert_no_error (error);
  while (fmd_session_get_state (f->session) != FMD_STATE_IDLE)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fmd_session_get_event_count (f->session), ==, 50);
  g_assert_cmpuint (fmd_session_get_filtered_count (f->session), ==, 50);
  g_assert_cmpuint (fmd_session_get_dropped_count (f->session), ==, 0);
}

static void
test_options_filter_events (Fixture *f, gconstpointer data)
{
  guint openat = fm_syscall_by_name ("openat")->nr;
  guint rename_nr = fm_syscall_by_name ("rename")->nr;
  guint unlink_nr = fm_syscall_by_name ("unlink")->nr;

  start_ok (f, "{'syscalls': <['openat', 'rename']>, 'pids': <[@u 10, 11]>, "
               "'uids': <[@u 1000]>, 'comms': <['bash']>, 'failed-only': <true>, "
               "'path-prefixes': <['/etc']>}");

  g_assert_true (kept (f, openat, 10, 1000, "bash", -13, "/etc/shadow", ""));
  g_assert_true (kept (f, rename_nr, 11, 1000, "bash", -1, "/tmp/a", "/etc/b"));
  /* what the backends cannot decide exactly, the process name and the paths, the session
   * decides */
  g_assert_false (kept (f, openat, 10, 1000, "bash", -13, "/etcetera", ""));
  g_assert_false (kept (f, openat, 10, 1000, "bash", -13, "/tmp/x", ""));
  g_assert_false (kept (f, openat, 10, 1000, "bashful", -13, "/etc/shadow", ""));
  g_assert_false (kept (f, openat, 10, 1000, "bas", -13, "/etc/shadow", ""));
  g_assert_cmpuint (fmd_session_get_filtered_count (f->session), ==, 4);
  /* the syscalls, pids, uids and failed-only are the backend's: it delivers no other
   * event (the kernel tier checks that), so the session spends nothing on them */
  g_assert_true (kept (f, openat, 10, 1000, "bash", 3, "/etc/shadow", ""));
  g_assert_true (kept (f, unlink_nr, 12, 0, "bash", -13, "/etc/shadow", ""));
  g_assert_cmpuint (fmd_session_get_filtered_count (f->session), ==, 4);
  g_assert_cmpuint (fmd_ring_get_n_events (f->ring), ==, 4);
}

static void
test_follow_children_leaves_pids_to_backend (Fixture *f, gconstpointer data)
{
  guint openat = fm_syscall_by_name ("openat")->nr;

  start_ok (f, "{'pids': <[@u 10]>, 'follow-children': <true>}");
  /* a child the backend followed has another pid */
  g_assert_true (kept (f, openat, 4242, 0, "child", 0, "/x", ""));
}

static void
test_backend_failure_is_failed_state (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = g_error_new_literal (FM_ERROR, FM_ERROR_BACKEND_FAILED,
                                                 "stap exited with status 1");

  start_ok (f, "@a{sv} {}");
  fmd_backend_emit_running (FMD_BACKEND (f->last));
  fmd_backend_emit_failed (FMD_BACKEND (f->last), error);
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_FAILED);
  g_assert_cmpstr (fmd_session_get_last_error (f->session), ==, "stap exited with status 1");
  g_clear_error (&error);

  /* a failed capture is not running: Stop is refused, Start works again */
  g_assert_false (fmd_session_stop (f->session, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_NOT_RUNNING);
  start_ok (f, "@a{sv} {}");
  g_assert_cmpstr (fmd_session_get_last_error (f->session), ==, "");
}

static void
test_launch_failure_is_reported (Fixture *f, gconstpointer data)
{
  g_autoptr(FmdOptions) options = options_from (f, "@a{sv} {}");
  g_autoptr(GError) error = NULL;

  f->fail_start = TRUE;
  g_assert_false (fmd_session_start (f->session, options, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED);
  g_assert_nonnull (strstr (error->message, "no probes today"));
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_FAILED);
  g_assert_nonnull (strstr (fmd_session_get_last_error (f->session), "no probes today"));
}

static void
test_auto_picks_a_backend (Fixture *f, gconstpointer data)
{
  g_autoptr(FmdOptions) options = options_from (f, "{'backend': <'auto'>}");
  g_autoptr(GError) error = NULL;

  start_ok (f, "{'backend': <'auto'>}");
  g_assert_cmpstr (fmd_session_get_backend_name (f->session), ==, "stap");
  g_assert_true (fmd_session_stop (f->session, NULL));

  f->stap->missing = TRUE;
  start_ok (f, "{'backend': <'auto'>}");
  g_assert_cmpstr (fmd_session_get_backend_name (f->session), ==, "bpf");
  g_assert_true (fmd_session_stop (f->session, NULL));

  f->bpf->missing = TRUE;
  g_assert_false (fmd_session_start (f->session, options, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_BACKEND_UNAVAILABLE);
  g_assert_nonnull (strstr (error->message, "stap: not installed"));
  g_assert_nonnull (strstr (error->message, "bpf: no BTF"));
  g_assert_cmpint (fmd_session_get_state (f->session), ==, FMD_STATE_IDLE);
}

static void
test_default_backend_from_config (Fixture *f, gconstpointer data)
{
  g_free (f->config->default_backend);
  f->config->default_backend = g_strdup ("bpf");
  start_ok (f, "@a{sv} {}");
  g_assert_cmpstr (fmd_session_get_backend_name (f->session), ==, "bpf");
}

static void
test_unavailable_backend_is_refused (Fixture *f, gconstpointer data)
{
  g_autoptr(FmdOptions) options = options_from (f, "{'backend': <'bpf'>}");
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) available = NULL;
  const char *reason = NULL;

  f->bpf->missing = TRUE;
  g_assert_false (fmd_session_start (f->session, options, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_BACKEND_UNAVAILABLE);
  g_assert_nonnull (strstr (error->message, "bpf: no BTF"));

  available = fmd_session_dup_available_backends (f->session);
  g_assert_true (g_variant_lookup (available, "bpf", "&s", &reason));
  g_assert_cmpstr (reason, ==, "bpf: no BTF");
  g_assert_true (g_variant_lookup (available, "stap", "&s", &reason));
  g_assert_cmpstr (reason, ==, "");
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static char *
available_reason (Fixture    *f,
                  const char *name)
{
  g_autoptr(GVariant) available = fmd_session_dup_available_backends (f->session);
  const char *reason = NULL;

  g_assert_true (g_variant_lookup (available, name, "&s", &reason));
  return g_strdup (reason);
}

/* Makes stap's probe defer, as stap's does while its trial build runs: it counts as
 * usable meanwhile. @notified counts notify::available-backends from now on. */
static void
defer_stap (Fixture *f,
            guint   *notified)
{
  g_autofree char *reason = NULL;

  g_signal_connect (f->session, "notify::available-backends", G_CALLBACK (count_notify),
                    notified);
  f->stap->deferred = TRUE;
  reason = available_reason (f, "stap");
  g_assert_cmpstr (reason, ==, "");
}

/* The deferred probe has its answer, and AvailableBackends says it. */
static void
resolve_stap (Fixture    *f,
              guint      *notified,
              const char *reason)
{
  g_autofree char *available = NULL;

  f->stap->deferred = FALSE;
  f->stap->missing = *reason != '\0';
  g_assert_cmpuint (*notified, ==, 0);
  fmd_backend_type_request_probe (FMD_BACKEND_TYPE (f->stap));
  g_assert_cmpuint (*notified, ==, 1);
  available = available_reason (f, "stap");
  g_assert_cmpstr (available, ==, reason);
}

static void
test_deferred_probe_resolves_unusable (Fixture *f, gconstpointer data)
{
  g_autoptr(FmdOptions) options = options_from (f, "{'backend': <'stap'>}");
  g_autoptr(GError) error = NULL;
  guint notified = 0;

  defer_stap (f, &notified);
  start_ok (f, "{'backend': <'stap'>}");
  g_assert_cmpstr (fmd_session_get_backend_name (f->session), ==, "stap");
  g_assert_true (fmd_session_stop (f->session, NULL));

  resolve_stap (f, &notified, "stap: not installed");
  g_assert_false (fmd_session_start (f->session, options, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_BACKEND_UNAVAILABLE);
  g_assert_nonnull (strstr (error->message, "stap: not installed"));
}

static void
test_deferred_probe_resolves_usable (Fixture *f, gconstpointer data)
{
  guint notified = 0;

  defer_stap (f, &notified);
  /* "auto" takes a deferred stap first, as it takes a usable one */
  start_ok (f, "{'backend': <'auto'>}");
  g_assert_cmpstr (fmd_session_get_backend_name (f->session), ==, "stap");
  g_assert_true (fmd_session_stop (f->session, NULL));

  resolve_stap (f, &notified, "");
  start_ok (f, "{'backend': <'stap'>}");
}

static void
test_drops_are_counted (Fixture *f, gconstpointer data)
{
  start_ok (f, "@a{sv} {}");
  fmd_backend_emit_dropped (FMD_BACKEND (f->last), 5);
  fmd_backend_emit_dropped (FMD_BACKEND (f->last), 2);
  g_assert_cmpuint (fmd_session_get_dropped_count (f->session), ==, 7);
}

static void
test_seqs_continue_across_captures (Fixture *f, gconstpointer data)
{
  char path[128];
  FmEvent event = test_event (0, path);

  start_ok (f, "@a{sv} {}");
  fmd_backend_emit_event (FMD_BACKEND (f->last), &event);
  fmd_backend_emit_event (FMD_BACKEND (f->last), &event);
  g_assert_true (fmd_session_stop (f->session, NULL));
  start_ok (f, "@a{sv} {}");
  fmd_backend_emit_event (FMD_BACKEND (f->last), &event);
  g_assert_cmpuint (fmd_ring_get_first_seq (f->ring), ==, 1);
  g_assert_cmpuint (fmd_ring_get_next_seq (f->ring), ==, 4);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* the session logs backend failures as warnings, and these tests provoke them */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/session/start-run-stop", test_start_run_stop);
  ADD ("/session/compiling-is-part-of-starting", test_compiling_is_part_of_starting);
  ADD ("/session/start-while-running-is-already-running", test_start_while_running_is_refused);
  ADD ("/session/stop-while-idle-is-not-running", test_stop_while_idle_is_refused);
  ADD ("/session/first-event-means-running", test_first_event_means_running);
  ADD ("/session/options-filter-every-event", test_options_filter_events);
  ADD ("/session/events-drained-at-stop-are-filtered", test_events_drained_at_stop_are_filtered);
  ADD ("/session/follow-children-leaves-pids-to-backend", test_follow_children_leaves_pids_to_backend);
  ADD ("/session/backend-failure-is-failed-state", test_backend_failure_is_failed_state);
  ADD ("/session/launch-failure-is-reported", test_launch_failure_is_reported);
  ADD ("/session/auto-picks-stap-then-bpf-else-names-both", test_auto_picks_a_backend);
  ADD ("/session/default-backend-from-config", test_default_backend_from_config);
  ADD ("/session/unavailable-backend-is-refused-with-reason", test_unavailable_backend_is_refused);
  ADD ("/session/deferred-probe-is-usable-until-it-resolves-unusable",
       test_deferred_probe_resolves_unusable);
  ADD ("/session/deferred-probe-resolving-usable-notifies", test_deferred_probe_resolves_usable);
  ADD ("/session/drops-are-counted", test_drops_are_counted);
  ADD ("/session/seqs-continue-across-captures", test_seqs_continue_across_captures);

  return g_test_run ();
}
