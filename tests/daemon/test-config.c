/* test-config.c: filemond.conf: defaults, every key, and every way a file can be wrong. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "filemond-config.h"
#include "filemond-options.h"
#include "fm-error.h"
#include "test-daemon-util.h"

static FmdConfig *
load (const char  *text,
      GError     **error)
{
  return fmd_config_load_from_data (text, strlen (text), "test.conf", test_registry (), error);
}

static void
assert_refused (const char *text,
                const char *culprit)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdConfig) config = load (text, &error);

  g_assert_null (config);
  g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "test.conf"));
  if (strstr (error->message, culprit) == NULL)
    g_error ("message for “%s” does not name “%s”: %s", text, culprit, error->message);
}

static void
assert_defaults (const FmdConfig *config)
{
  g_assert_cmpuint (config->buffer_events, ==, 1000000);
  g_assert_cmpuint (config->buffer_bytes, ==, 256 * 1024 * 1024);
  g_assert_cmpuint (config->idle_timeout_sec, ==, 60);
  g_assert_cmpstr (config->default_backend, ==, "auto");
  g_assert_cmpuint (config->subscriber_queue_events, ==, 65536);
  g_assert_cmpuint (config->stream_buffer_bytes, ==, 1024 * 1024);
  g_assert_cmpuint (config->save_stall_sec, ==, 30);
  g_assert_cmpstr (config->stap_path, ==, FILEMON_STAP_PATH);
  g_assert_cmpuint (config->stap_buffer_mb, ==, 64);
  g_assert_true (config->stap_check_kernel);
  g_assert_cmpuint (config->bpf_ringbuf_mb, ==, 8);
}

static void
test_missing_file_gives_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdConfig) config = fmd_config_load ("/nonexistent/filemond.conf", test_registry (), &error);

  g_assert_no_error (error);
  assert_defaults (config);
}

static void
test_empty_and_comments_give_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdConfig) config = load ("# nothing\n\n[Buffer]\n# Events=5\n", &error);

  g_assert_no_error (error);
  assert_defaults (config);
}

/* The commented example installed under the data dir documents the real defaults: with
 * every "#Key=value" line uncommented it must parse, and to exactly the defaults. */
static void
test_shipped_example_documents_the_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GRegex) commented_key = NULL;
  g_autofree char *uncommented = NULL;
  g_autoptr(FmdConfig) config = NULL;
  guint keys = 0;
  const char *p;

  g_file_get_contents (g_test_get_filename (G_TEST_DIST, "..", "..", "data", "filemond.conf", NULL),
                       &text, NULL, &error);
  g_assert_no_error (error);
  commented_key = g_regex_new ("^#([A-Za-z]+=)", G_REGEX_MULTILINE, 0, &error);
  g_assert_no_error (error);
  uncommented = g_regex_replace (commented_key, text, -1, 0, "\\1", 0, &error);
  g_assert_no_error (error);
  for (p = uncommented; (p = strchr (p, '=')) != NULL; p++)
    keys++;
  g_assert_cmpuint (keys, ==, 11);   /* every key of filemond-config.h */

  config = load (uncommented, &error);
  g_assert_no_error (error);
  assert_defaults (config);
}

static void
test_every_key_parses (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdConfig) config = load (
    "[Buffer]\nEvents=5000\nBytes=2M\n"
    "[Daemon]\nIdleTimeoutSec=0\nDefaultBackend=stap\n"
    "[Subscribers]\nQueueEvents=100\nStreamBufferBytes=128k\n"
    "[Stap]\nPath=/opt/stap/bin/stap\nBufferMB=8\n"
    "[Bpf]\nRingBufferMB=16\n", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (config->buffer_events, ==, 5000);
  g_assert_cmpuint (config->buffer_bytes, ==, 2 * 1024 * 1024);
  g_assert_cmpuint (config->idle_timeout_sec, ==, 0);
  g_assert_cmpstr (config->default_backend, ==, "stap");
  g_assert_cmpuint (config->subscriber_queue_events, ==, 100);
  g_assert_cmpuint (config->stream_buffer_bytes, ==, 128 * 1024);
  g_assert_cmpstr (config->stap_path, ==, "/opt/stap/bin/stap");
  g_assert_cmpuint (config->stap_buffer_mb, ==, 8);
  g_assert_cmpuint (config->bpf_ringbuf_mb, ==, 16);
}

static void
test_file_on_disk_is_read (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(FmdConfig) config = NULL;
  int fd = g_file_open_tmp ("filemond-XXXXXX.conf", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, "[Buffer]\nEvents=1234\n", -1, &error));
  config = fmd_config_load (path, test_registry (), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (config->buffer_events, ==, 1234);
  g_unlink (path);
}

static void
test_unreadable_path_is_an_error (void)
{
  g_autoptr(GError) error = NULL;
  /* a directory exists but cannot be read as a file */
  g_autoptr(FmdConfig) config = fmd_config_load ("/", test_registry (), &error);

  g_assert_null (config);
  g_assert_error (error, FM_ERROR, FM_ERROR_IO);
}

static void
test_malformed_files_are_refused (void)
{
  assert_refused ("[Buffer]\nthis is not a key\n", "not a key");
  assert_refused ("Events=5\n", "test.conf");            /* a key before any group */
  assert_refused ("[Buffer\nEvents=5\n", "test.conf");   /* unterminated group */
}

static void
test_unknown_names_are_refused (void)
{
  assert_refused ("[Bufer]\nEvents=5\n", "Bufer");
  assert_refused ("[Buffer]\nEvent=5000\n", "Event");
  assert_refused ("[Buffer]\nevents=5000\n", "events");
  assert_refused ("[Buffer]\nEvents[de]=5000\n", "Events[de]");
}

static void
test_bad_values_are_refused (void)
{
  assert_refused ("[Buffer]\nEvents=lots\n", "Events");
  assert_refused ("[Buffer]\nEvents=-5\n", "Events");
  assert_refused ("[Buffer]\nEvents=10\n", "Events");              /* below the range */
  assert_refused ("[Buffer]\nEvents=5k\n", "Events");              /* no suffix for counts */
  assert_refused ("[Buffer]\nEvents=99999999999999999999999\n", "Events");
  assert_refused ("[Buffer]\nBytes=12Q\n", "Bytes");
  assert_refused ("[Buffer]\nBytes=100\n", "Bytes");
  assert_refused ("[Buffer]\nBytes=99999999999G\n", "Bytes");
  assert_refused ("[Buffer]\nBytes=\n", "Bytes");
  assert_refused ("[Daemon]\nIdleTimeoutSec=1 day\n", "IdleTimeoutSec");
  assert_refused ("[Daemon]\nDefaultBackend=dtrace\n", "DefaultBackend");
  assert_refused ("[Subscribers]\nQueueEvents=0\n", "QueueEvents");
  assert_refused ("[Subscribers]\nStreamBufferBytes=2G\n", "StreamBufferBytes");
  assert_refused ("[Stap]\nPath=stap\n", "Path");
  assert_refused ("[Stap]\nBufferMB=0\n", "BufferMB");
  assert_refused ("[Bpf]\nRingBufferMB=4096\n", "RingBufferMB");
}

static void
test_default_path_is_under_sysconfdir (void)
{
  g_assert_cmpstr (fmd_config_default_path (), ==, FILEMON_SYSCONFDIR "/filemond/filemond.conf");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config/missing-file-gives-defaults", test_missing_file_gives_defaults);
  g_test_add_func ("/config/comments-give-defaults", test_empty_and_comments_give_defaults);
  g_test_add_func ("/config/every-key-parses", test_every_key_parses);
  g_test_add_func ("/config/shipped-example-documents-the-defaults",
                   test_shipped_example_documents_the_defaults);
  g_test_add_func ("/config/file-on-disk-is-read", test_file_on_disk_is_read);
  g_test_add_func ("/config/unreadable-path-is-an-error", test_unreadable_path_is_an_error);
  g_test_add_func ("/config/malformed-file-is-refused", test_malformed_files_are_refused);
  g_test_add_func ("/config/unknown-group-or-key-is-refused", test_unknown_names_are_refused);
  g_test_add_func ("/config/bad-value-is-refused-by-key", test_bad_values_are_refused);
  g_test_add_func ("/config/default-path-is-under-sysconfdir", test_default_path_is_under_sysconfdir);

  return g_test_run ();
}
