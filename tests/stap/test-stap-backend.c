/* test-stap-backend.c: the stap backend against tests/stap/fake-stap: the events it
 * replays come out field by field, hostile lines become counted drops, a stap that dies is
 * reported with its words, Stop leaves no process behind, and a module filemond --precompile
 * built is loaded with staprun (tests/stap/staprun) without stap's passes, for a capture
 * of any filter on the same syscalls (its filters are module parameters). Its type's probe
 * defers while the trial build runs and resolves to its verdict, kept for later daemons. */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/utsname.h>
#include <glib/gstdio.h>

#include "filemond-backend-stap.h"
#include "filemond-backends.h"
#include "filemond-config.h"
#include "filemond-options.h"
#include "filemond-stap-build.h"
#include "filemond-stap-script.h"
#include "fm-error.h"
#include "fm-syscalls.h"

typedef struct {
  GMainLoop *loop;
  GPtrArray *paths;
  GArray *events_seen;  /* FmEvent copies, strings owned by the array's clear func */
  guint events;
  guint64 dropped;
  GPtrArray *progress;  /* each compiling report; "" for "built" */
  gboolean running;
  gboolean stopped;
  char *failed;
} Sink;

static void
on_event (const FmEvent *event, gpointer user_data)
{
  Sink *sink = user_data;

  FmEvent copy = *event;

  sink->events++;
  g_ptr_array_add (sink->paths, g_strndup (event->path, event->path_len));
  /* the event is a view valid during the call: keep copies to compare afterwards */
  copy.comm = g_strndup (event->comm, event->comm_len);
  copy.path = g_strndup (event->path, event->path_len);
  copy.path2 = g_strndup (event->path2, event->path2_len);
  copy.detail = g_strndup (event->detail, event->detail_len);
  g_array_append_val (sink->events_seen, copy);
}

static void
event_copy_clear (gpointer data)
{
  FmEvent *ev = data;

  g_free ((char *) ev->comm);
  g_free ((char *) ev->path);
  g_free ((char *) ev->path2);
  g_free ((char *) ev->detail);
}

static void
on_running (gpointer user_data)
{
  ((Sink *) user_data)->running = TRUE;
}

static void
on_compiling (const char *progress, gpointer user_data)
{
  g_ptr_array_add (((Sink *) user_data)->progress, g_strdup (progress != NULL ? progress : ""));
}

static void
on_dropped (guint64 count, gpointer user_data)
{
  ((Sink *) user_data)->dropped += count;
}

static void
on_failed (const GError *error, gpointer user_data)
{
  Sink *sink = user_data;

  sink->failed = g_strdup (error->message);
  g_main_loop_quit (sink->loop);
}

static void
on_stopped (gpointer user_data)
{
  Sink *sink = user_data;

  sink->stopped = TRUE;
  g_main_loop_quit (sink->loop);
}

static const FmdBackendSink sink_vtable = {
  .event = on_event, .running = on_running, .compiling = on_compiling, .dropped = on_dropped,
  .failed = on_failed, .stopped = on_stopped,
};

static FmdProbeResult
probe_stap (const FmdConfig  *config,
            char            **reason)
{
  g_autoptr(FmdBackendType) type = fmd_stap_backend_type_new ();

  return fmd_backend_type_probe (type, config, reason);
}

static FmdBackend *
fake_backend (const char *fixture, const char *after, Sink *sink)
{
  g_autoptr(FmdConfig) config = fmd_config_new_default ();
  FmdBackend *backend;

  g_free (config->stap_path);
  config->stap_path = g_test_build_filename (G_TEST_DIST, "fake-stap", NULL);
  config->stap_check_kernel = FALSE;
  {
    g_autofree char *reason = NULL;

    g_assert_cmpint (probe_stap (config, &reason), ==, FMD_PROBE_SUCCESS);
    g_assert_null (reason);
  }
  g_setenv ("FILEMON_FAKE_STAP_FIXTURE",
            g_test_get_filename (G_TEST_DIST, "fixtures", fixture, NULL), TRUE);
  g_setenv ("FILEMON_FAKE_STAP_AFTER", after, TRUE);
  g_unsetenv ("FILEMON_FAKE_STAP_VERBATIM");
  memset (sink, 0, sizeof *sink);
  sink->loop = g_main_loop_new (NULL, FALSE);
  sink->paths = g_ptr_array_new_with_free_func (g_free);
  sink->progress = g_ptr_array_new_with_free_func (g_free);
  sink->events_seen = g_array_new (FALSE, FALSE, sizeof (FmEvent));
  g_array_set_clear_func (sink->events_seen, event_copy_clear);
  backend = fmd_backend_stap_new (config);
  fmd_backend_set_sink (backend, &sink_vtable, sink);
  return backend;
}

static void
sink_clear (Sink *sink)
{
  g_main_loop_unref (sink->loop);
  g_ptr_array_unref (sink->paths);
  g_ptr_array_unref (sink->progress);
  g_array_unref (sink->events_seen);
  g_free (sink->failed);
}

typedef struct {
  const char *syscall;
  gint64 result;
  const char *comm;
  const char *path;
  const char *path2;
  const char *detail;   /* NULL: not compared (argv or xattr text, checked by the parser test) */
  guint32 pid, ppid, tid, uid;
  guint64 duration;
} Expected;

/* tests/stap/fixtures/normal, as the events a capture shows */
static const Expected normal_events[] = {
  { "openat", -13, "sshd", "/etc/shadow", "", "O_RDONLY", 812, 1, 812, 0, 1500 },
  { "openat", 3, "cat", "/home/user/notes.txt", "", "O_RDONLY|O_CLOEXEC", 4242, 4000, 4242, 1000, 900 },
  { "openat", -2, "cat", "/home/user/dir/sub/new file", "", "dirfd=3, O_WRONLY|O_CREAT, 0644", 4242, 4000, 4243, 1000, 800 },
  { "close", 0, "cat", "/home/user/notes.txt", "", "fd=3", 4242, 4000, 4242, 1000, 300 },
  { "read", 4096, "cat", "/home/user/notes.txt", "", "fd=3, count=4096", 4242, 4000, 4242, 1000, 700 },
  { "renameat2", 0, "mv", "/tmp/a", "/tmp/b", "RENAME_NOREPLACE", 5000, 1, 5000, 0, 2000 },
  { "unlinkat", -21, "rm", "/home/user/dir", "", "AT_REMOVEDIR", 5001, 1, 5001, 1000, 1000 },
  { "execve", 0, "bash", "/usr/bin/ls", "", NULL, 5002, 5000, 5002, 1000, 50000 },
  { "symlink", 0, "ln", "/home/user/link-name", "../target with\ttab", "", 5003, 1, 5003, 1000, 1200 },
  { "newfstatat", -2, "stat", "/tmp/caf\xc3\xa9/\xff\x01x\n\"q\"", "", "AT_SYMLINK_NOFOLLOW", 5004, 1, 5004, 1000, 600 },
  { "fsetxattr", 0, "setfattr", "/srv/data", "", NULL, 5005, 1, 5005, 0, 700 },
  { "openat2", 3, "app", "/etc/hosts", "", NULL, 5006, 1, 5006, 0, 900 },
};

static void
assert_normal_event (const FmEvent *ev, guint i)
{
  const Expected *want = &normal_events[i % G_N_ELEMENTS (normal_events)];
  char name[16];

  g_assert_cmpstr (fm_syscall_name (ev->syscall_nr, name), ==, want->syscall);
  g_assert_cmpint (ev->result, ==, want->result);
  g_assert_cmpstr (ev->comm, ==, want->comm);
  g_assert_cmpuint (ev->comm_len, ==, strlen (want->comm));
  g_assert_cmpstr (ev->path, ==, want->path);
  g_assert_cmpuint (ev->path_len, ==, strlen (want->path));
  g_assert_cmpstr (ev->path2, ==, want->path2);
  if (want->detail != NULL)
    g_assert_cmpstr (ev->detail, ==, want->detail);
  g_assert_cmpuint (ev->pid, ==, want->pid);
  g_assert_cmpuint (ev->ppid, ==, want->ppid);
  g_assert_cmpuint (ev->tid, ==, want->tid);
  g_assert_cmpuint (ev->uid, ==, want->uid);
  g_assert_cmpuint (ev->time_ns, ==,
                    G_GUINT64_CONSTANT (1764806400000000000) + i % G_N_ELEMENTS (normal_events) + 1);
  g_assert_cmpuint (ev->duration_ns, ==, want->duration);
  g_assert_cmpuint (ev->seq, ==, 0);   /* the session numbers events, not the backend */
}

static void
test_replay_normal (void)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  g_autoptr(GError) error = NULL;
  Sink sink;
  g_autoptr(FmdBackend) backend = fake_backend ("normal", "exit", &sink);

  g_assert_true (fmd_backend_start (backend, options, &error));
  g_assert_no_error (error);
  g_main_loop_run (sink.loop);
  g_assert_true (sink.running);
  g_assert_cmpuint (sink.events, ==, G_N_ELEMENTS (normal_events));
  g_assert_cmpuint (sink.dropped, ==, 0);
  for (guint i = 0; i < sink.events_seen->len; i++)
    assert_normal_event (&g_array_index (sink.events_seen, FmEvent, i), i);
  /* stap ending on its own is a failure of the capture, said as such */
  g_assert_nonnull (sink.failed);
  g_assert_nonnull (strstr (sink.failed, "stap exited"));
  sink_clear (&sink);
}

/* Output larger than one read (lines cut between two reads) comes out whole, in order. */
static void
test_replay_across_reads (void)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  Sink sink;
  g_autoptr(FmdBackend) backend = fake_backend ("normal", "repeat:100", &sink);

  g_assert_true (fmd_backend_start (backend, options, NULL));
  g_main_loop_run (sink.loop);
  g_assert_cmpuint (sink.events, ==, 101 * G_N_ELEMENTS (normal_events));
  g_assert_cmpuint (sink.dropped, ==, 0);
  for (guint i = 0; i < sink.events_seen->len; i++)
    assert_normal_event (&g_array_index (sink.events_seen, FmEvent, i), i);
  sink_clear (&sink);
}

static void
test_hostile_lines_are_dropped (void)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  Sink sink;
  g_autoptr(FmdBackend) backend = fake_backend ("hostile", "exit", &sink);

  /* records of syscalls the script does not probe (9999) too */
  g_setenv ("FILEMON_FAKE_STAP_VERBATIM", "1", TRUE);
  g_assert_true (fmd_backend_start (backend, options, NULL));
  g_main_loop_run (sink.loop);
  g_assert_cmpuint (sink.events, ==, 15);
  for (guint i = 0; i < sink.paths->len; i++)
    g_assert_cmpstr (g_ptr_array_index (sink.paths, i), ==, "/ok");
  /* 15 malformed lines, and the last record cut by the end of the output */
  g_assert_cmpuint (sink.dropped, ==, 16);
  sink_clear (&sink);
}

static void
test_stap_error_is_reported (void)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  Sink sink;
  g_autoptr(FmdBackend) backend = fake_backend ("normal", "fail", &sink);

  g_assert_true (fmd_backend_start (backend, options, NULL));
  g_main_loop_run (sink.loop);
  g_assert_nonnull (sink.failed);
  g_assert_nonnull (strstr (sink.failed, "status 1"));
  g_assert_nonnull (strstr (sink.failed, "module load failed"));
  sink_clear (&sink);
}

static void
test_stop_ends_the_process_group (void)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  Sink sink;
  g_autoptr(FmdBackend) backend = fake_backend ("normal", "hang", &sink);

  g_assert_true (fmd_backend_start (backend, options, NULL));
  /* the fixture, then the fake stap waits to be killed */
  while (sink.events < 12)
    g_main_context_iteration (NULL, TRUE);
  fmd_backend_stop (backend);
  g_main_loop_run (sink.loop);
  /* stopped comes only once stap has exited and its output is read to the end */
  g_assert_true (sink.stopped);
  g_assert_null (sink.failed);
  sink_clear (&sink);
}

/* stap -v says when each pass ends: the build's progress follows it, pass by pass. */
static void
test_build_progress_follows_the_passes (void)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  Sink sink;
  g_autoptr(FmdBackend) backend = fake_backend ("normal", "compiling", &sink);

  g_assert_true (fmd_backend_start (backend, options, NULL));
  /* reported at once, then after passes 1, 2 and 3; the fake stays in pass 4 */
  while (sink.progress->len < 4)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (strstr (g_ptr_array_index (sink.progress, 0), "pass 1-2 of 4"));
  g_assert_nonnull (strstr (g_ptr_array_index (sink.progress, 2), "pass 3 of 4"));
  g_assert_nonnull (strstr (g_ptr_array_index (sink.progress, 3), "pass 4 of 4"));
  g_assert_false (sink.running);
  fmd_backend_stop (backend);
  g_main_loop_run (sink.loop);
  g_assert_true (sink.stopped);
  g_assert_cmpuint (sink.progress->len, ==, 4);
  sink_clear (&sink);
}

static void
test_missing_stap_is_unavailable (void)
{
  g_autoptr(FmdConfig) config = fmd_config_new_default ();
  g_autofree char *reason = NULL;

  g_free (config->stap_path);
  config->stap_path = g_strdup ("/nonexistent/stap");
  g_assert_cmpint (probe_stap (config, &reason), ==, FMD_PROBE_FAIL);
  g_assert_nonnull (reason);
  g_assert_nonnull (strstr (reason, "/nonexistent/stap"));
}

static void
test_precompiled_module_is_loaded_with_staprun (void)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  g_autoptr(FmdConfig) config = fmd_config_new_default ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-stap-precompiled-XXXXXX", &error);
  g_autofree char *log = g_build_filename (dir, "staprun-loaded", NULL);
  g_autofree char *script = fmd_stap_script_generate (options);
  g_autofree char *module = NULL;
  g_autofree char *loaded = NULL;
  g_autoptr(FmdBackend) backend = NULL;
  struct utsname uts;
  Sink sink;

  g_assert_no_error (error);
  g_assert_cmpint (uname (&uts), ==, 0);
  g_setenv ("SYSTEMTAP_DIR", dir, TRUE);
  g_setenv ("FILEMON_FAKE_STAPRUN_LOG", log, TRUE);
  backend = fake_backend ("normal", "exit", &sink);
  g_free (config->stap_path);
  config->stap_path = g_test_build_filename (G_TEST_DIST, "fake-stap", NULL);

  g_assert_true (fmd_stap_precompile (config, NULL, NULL, &error));
  g_assert_no_error (error);
  module = fmd_stap_precompiled_module (config->stap_path, config->stap_buffer_mb, script,
                                        uts.release);
  g_assert_nonnull (module);
  /* SystemTap's name of the module, which staprun looks for inside it */
  g_assert_true (g_str_has_suffix (module, "/stap_fake.ko"));
  /* a second precompile (the unit at the next boot) finds it and runs no stap, whose -p4
   * would have copied a new module over it */
  g_assert_true (g_file_set_contents (module, "kept", -1, &error));
  g_assert_true (fmd_stap_precompile (config, NULL, NULL, &error));
  g_assert_no_error (error);
  {
    g_autofree char *kept = NULL;

    g_assert_true (g_file_get_contents (module, &kept, NULL, &error));
    g_assert_cmpstr (kept, ==, "kept");
  }

  g_assert_true (fmd_backend_start (backend, options, &error));
  g_assert_no_error (error);
  g_main_loop_run (sink.loop);
  g_assert_true (g_file_get_contents (log, &loaded, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (g_strstrip (loaded), ==, module);
  g_assert_cmpuint (sink.events, ==, G_N_ELEMENTS (normal_events));
  for (guint i = 0; i < sink.events_seen->len; i++)
    assert_normal_event (&g_array_index (sink.events_seen, FmEvent, i), i);
  /* no pass of stap: straight to loading */
  g_assert_cmpuint (sink.progress->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (sink.progress, 0), ==, "");
  sink_clear (&sink);
  g_clear_object (&backend);

  /* a filter of the kernel part: the same module, given it as parameters; the fake
   * module prints what a real one would (cat's failed calls only) */
  {
    g_autoptr(GVariant) asv = g_variant_ref_sink (g_variant_new_parsed (
        "{'pids': <[@u 4242]>, 'uids': <[@u 1000, 0]>, 'failed-only': <true>}"));
    g_autoptr(FmdBackendRegistry) registry = fmd_backends_new_registry ();
    g_autoptr(FmdOptions) filtered = fmd_options_new_from_variant (asv, registry, &error);
    g_autofree char *params_log = g_strconcat (log, ".params", NULL);
    g_autofree char *params = NULL;
    g_autofree char *loaded_again = NULL;
    g_autofree char *expected = g_strdup_printf ("fm_daemon=%d\nfm_pids1=1092\nfm_uids1=0.3e8\n"
                                                 "fm_failed_only=1\n", (int) getpid ());

    g_assert_no_error (error);
    backend = fake_backend ("normal", "exit", &sink);
    g_assert_true (fmd_backend_start (backend, filtered, &error));
    g_assert_no_error (error);
    g_main_loop_run (sink.loop);
    g_assert_true (g_file_get_contents (log, &loaded_again, NULL, &error));
    g_assert_cmpstr (g_strstrip (loaded_again), ==, module);
    g_assert_true (g_file_get_contents (params_log, &params, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (params, ==, expected);
    g_assert_cmpuint (sink.progress->len, ==, 1);
    g_assert_cmpuint (sink.events, >, 0);
    for (guint i = 0; i < sink.events_seen->len; i++)
      {
        const FmEvent *ev = &g_array_index (sink.events_seen, FmEvent, i);

        g_assert_cmpuint (ev->pid, ==, 4242);
        g_assert_cmpint (ev->result, <, 0);
      }
    g_assert_cmpint (g_unlink (params_log), ==, 0);
  }

  g_unsetenv ("SYSTEMTAP_DIR");
  g_unsetenv ("FILEMON_FAKE_STAPRUN_LOG");
  g_assert_cmpint (g_unlink (log), ==, 0);
  g_assert_cmpint (g_unlink (module), ==, 0);
  sink_clear (&sink);
  {
    g_autofree char *kept = g_path_get_dirname (module);
    g_autofree char *precompiled = g_path_get_dirname (kept);
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    g_assert_cmpint (g_rmdir (kept), ==, 0);
    g_assert_cmpint (g_rmdir (precompiled), ==, 0);
    /* the trial verdict --precompile recorded */
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_assert_cmpint (g_unlink (path), ==, 0);
      }
  }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* --- the trial build: a deferred probe ------------------------------------------------ */

#define TRIAL_RELEASE "6.99.0-fmtest"

typedef struct {
  char *dir;          /* SYSTEMTAP_DIR, where verdicts are kept */
  char *trial_log;    /* a line per trial build the fake stap ran */
  FmdConfig *config;
} Trial;

static void
trial_setup (Trial *t, const char *outcome)
{
  g_autoptr(GError) error = NULL;

  t->dir = g_dir_make_tmp ("test-stap-trial-XXXXXX", &error);
  g_assert_no_error (error);
  t->trial_log = g_build_filename (t->dir, "trials", NULL);
  g_setenv ("SYSTEMTAP_DIR", t->dir, TRUE);
  g_setenv ("FILEMON_FAKE_STAP_TRIAL", outcome, TRUE);
  g_setenv ("FILEMON_FAKE_STAP_TRIAL_LOG", t->trial_log, TRUE);
  t->config = fmd_config_new_default ();
  g_free (t->config->stap_path);
  t->config->stap_path = g_test_build_filename (G_TEST_DIST, "fake-stap", NULL);
}

static guint
trial_runs (Trial *t)
{
  g_autofree char *text = NULL;
  guint n = 0;

  if (!g_file_get_contents (t->trial_log, &text, NULL, NULL))
    return 0;
  for (const char *p = text; *p != '\0'; p++)
    n += *p == '\n';
  return n;
}

static void
trial_teardown (Trial *t)
{
  g_autoptr(GDir) d = g_dir_open (t->dir, 0, NULL);
  const char *name;

  /* the trial log and the verdict */
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (t->dir, name, NULL);

      g_assert_cmpint (g_unlink (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (t->dir), ==, 0);
  g_unsetenv ("SYSTEMTAP_DIR");
  g_unsetenv ("FILEMON_FAKE_STAP_TRIAL");
  g_unsetenv ("FILEMON_FAKE_STAP_TRIAL_LOG");
  g_free (t->dir);
  g_free (t->trial_log);
  fmd_config_free (t->config);
}

static void
on_probe_request (FmdBackendType *type,
                  guint          *requests)
{
  (*requests)++;
}

/* Probes a new type until its trial build is in: deferred (twice, with one trial), then
 * the verdict; returns the verdict's result and reason. */
static FmdProbeResult
probe_through_trial (Trial *t, char **reason)
{
  g_autoptr(FmdBackendType) type = fmd_stap_backend_type_new ();
  FmdStapBackendType *stap = FMD_STAP_BACKEND_TYPE (type);
  guint requests = 0;
  FmdProbeResult result;

  g_signal_connect (type, "probe-request", G_CALLBACK (on_probe_request), &requests);
  g_assert_cmpint (fmd_stap_backend_type_probe_release (stap, t->config, TRIAL_RELEASE, reason),
                   ==, FMD_PROBE_DEFER);
  g_assert_null (*reason);
  g_assert_cmpint (fmd_stap_backend_type_probe_release (stap, t->config, TRIAL_RELEASE, reason),
                   ==, FMD_PROBE_DEFER);
  while (requests == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (requests, ==, 1);
  g_assert_cmpuint (trial_runs (t), ==, 1);

  result = fmd_stap_backend_type_probe_release (stap, t->config, TRIAL_RELEASE, reason);
  /* the verdict is in: no other trial, no other request */
  g_assert_cmpuint (trial_runs (t), ==, 1);
  g_assert_cmpuint (requests, ==, 1);
  return result;
}

/* A later daemon's type reads the kept verdict at once: no trial build, no deferral. */
static FmdProbeResult
probe_kept_verdict (Trial *t, char **reason)
{
  g_autoptr(FmdBackendType) type = fmd_stap_backend_type_new ();
  FmdProbeResult result;

  result = fmd_stap_backend_type_probe_release (FMD_STAP_BACKEND_TYPE (type), t->config,
                                                TRIAL_RELEASE, reason);
  g_assert_cmpuint (trial_runs (t), ==, 1);
  return result;
}

static void
test_trial_defers_then_resolves_usable (void)
{
  g_autofree char *reason = NULL;
  g_autofree char *kept = NULL;
  Trial t;

  trial_setup (&t, "ok");
  g_assert_cmpint (probe_through_trial (&t, &reason), ==, FMD_PROBE_SUCCESS);
  g_assert_null (reason);
  g_assert_cmpint (probe_kept_verdict (&t, &kept), ==, FMD_PROBE_SUCCESS);
  g_assert_null (kept);
  trial_teardown (&t);
}

static void
test_trial_defers_then_resolves_unusable (void)
{
  g_autofree char *reason = NULL;
  g_autofree char *kept = NULL;
  Trial t;

  trial_setup (&t, "fail");
  g_assert_cmpint (probe_through_trial (&t, &reason), ==, FMD_PROBE_FAIL);
  g_assert_nonnull (reason);
  /* the sentence AvailableBackends shows: the stap, the kernel and stap's first error */
  g_assert_nonnull (strstr (reason, "cannot build a kernel module for kernel " TRIAL_RELEASE));
  g_assert_nonnull (strstr (reason, t.config->stap_path));
  g_assert_nonnull (strstr (reason, "semantic error: while resolving probe point"));
  g_assert_cmpint (probe_kept_verdict (&t, &kept), ==, FMD_PROBE_FAIL);
  g_assert_cmpstr (kept, ==, reason);
  trial_teardown (&t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stap/backend/replays-events-field-by-field", test_replay_normal);
  g_test_add_func ("/stap/backend/output-cut-between-reads-comes-out-whole", test_replay_across_reads);
  g_test_add_func ("/stap/backend/hostile-lines-are-counted-drops", test_hostile_lines_are_dropped);
  g_test_add_func ("/stap/backend/stap-error-is-reported", test_stap_error_is_reported);
  g_test_add_func ("/stap/backend/stop-ends-the-process-group", test_stop_ends_the_process_group);
  g_test_add_func ("/stap/backend/build-progress-follows-the-passes",
                   test_build_progress_follows_the_passes);
  g_test_add_func ("/stap/backend/missing-stap-is-unavailable", test_missing_stap_is_unavailable);
  g_test_add_func ("/stap/probe/trial-build-defers-then-resolves-usable",
                   test_trial_defers_then_resolves_usable);
  g_test_add_func ("/stap/probe/trial-build-defers-then-resolves-unusable",
                   test_trial_defers_then_resolves_unusable);
  g_test_add_func ("/stap/backend/precompiled-module-is-loaded-with-staprun",
                   test_precompiled_module_is_loaded_with_staprun);
  return g_test_run ();
}
