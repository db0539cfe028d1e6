/* test-stap-backend.c: the stap backend against tests/stap/fake-stap: the events it
 * replays come out field by field, hostile lines become counted drops, a stap that dies is
 * reported with its words, and Stop leaves no process behind. */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "filemond-backend.h"
#include "filemond-config.h"
#include "filemond-options.h"
#include "fm-error.h"
#include "fm-syscalls.h"

typedef struct {
  GMainLoop *loop;
  GPtrArray *paths;
  guint events;
  guint64 dropped;
  gboolean running;
  gboolean stopped;
  char *failed;
} Sink;

static void
on_event (const FmEvent *event, gpointer user_data)
{
  Sink *sink = user_data;

  sink->events++;
  g_ptr_array_add (sink->paths, g_strndup (event->path, event->path_len));
}

static void
on_running (gpointer user_data)
{
  ((Sink *) user_data)->running = TRUE;
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

static const FmdBackendSink sink_vtable = { on_event, on_running, on_dropped, on_failed, on_stopped };

static FmdBackend *
fake_backend (const char *fixture, const char *after, Sink *sink)
{
  g_autoptr(FmdConfig) config = fmd_config_new_default ();
  FmdBackend *backend;

  g_free (config->stap_path);
  config->stap_path = g_test_build_filename (G_TEST_DIST, "fake-stap", NULL);
  config->stap_check_kernel = FALSE;
  g_assert_null (fmd_backend_stap_unavailable_reason (config));
  g_setenv ("FILEMON_FAKE_STAP_FIXTURE",
            g_test_get_filename (G_TEST_DIST, "fixtures", fixture, NULL), TRUE);
  g_setenv ("FILEMON_FAKE_STAP_AFTER", after, TRUE);
  memset (sink, 0, sizeof *sink);
  sink->loop = g_main_loop_new (NULL, FALSE);
  sink->paths = g_ptr_array_new_with_free_func (g_free);
  backend = fmd_backend_stap_new (config);
  fmd_backend_set_sink (backend, &sink_vtable, sink);
  return backend;
}

static void
sink_clear (Sink *sink)
{
  g_main_loop_unref (sink->loop);
  g_ptr_array_unref (sink->paths);
  g_free (sink->failed);
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
  g_assert_cmpuint (sink.events, ==, 12);
  g_assert_cmpuint (sink.dropped, ==, 0);
  g_assert_cmpstr (g_ptr_array_index (sink.paths, 0), ==, "/etc/shadow");
  g_assert_cmpstr (g_ptr_array_index (sink.paths, 2), ==, "/home/user/dir/sub/new file");
  /* stap ending on its own is a failure of the capture, said as such */
  g_assert_nonnull (sink.failed);
  g_assert_nonnull (strstr (sink.failed, "stap exited"));
  sink_clear (&sink);
}

static void
test_hostile_lines_are_dropped (void)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  Sink sink;
  g_autoptr(FmdBackend) backend = fake_backend ("hostile", "exit", &sink);

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

static void
test_missing_stap_is_unavailable (void)
{
  g_autoptr(FmdConfig) config = fmd_config_new_default ();
  g_autofree char *reason = NULL;

  g_free (config->stap_path);
  config->stap_path = g_strdup ("/nonexistent/stap");
  reason = fmd_backend_stap_unavailable_reason (config);
  g_assert_nonnull (reason);
  g_assert_nonnull (strstr (reason, "/nonexistent/stap"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stap/backend/replays-events-field-by-field", test_replay_normal);
  g_test_add_func ("/stap/backend/hostile-lines-are-counted-drops", test_hostile_lines_are_dropped);
  g_test_add_func ("/stap/backend/stap-error-is-reported", test_stap_error_is_reported);
  g_test_add_func ("/stap/backend/stop-ends-the-process-group", test_stop_ends_the_process_group);
  g_test_add_func ("/stap/backend/missing-stap-is-unavailable", test_missing_stap_is_unavailable);
  return g_test_run ();
}
