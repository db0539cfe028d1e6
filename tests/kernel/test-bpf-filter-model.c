/* test-bpf-filter-model.c: a Start filter through the session and the real bpf backend:
 * its kernel part reaches the program's maps (the calls it excludes are never delivered),
 * and the session's FilteredCount counts only what the rest of the filter drops in user
 * space. Runs as root, for real. */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "filemond-backends.h"
#include "filemond-config.h"
#include "filemond-options.h"
#include "filemond-ring.h"
#include "filemond-session.h"
#include "kernel-capture.h"

#define N_KEEP 40
#define N_DROP 30
#define N_OK 50

typedef struct {
  const char *comm;
} Opener;

/* Failed opens of a path the filter's remainder keeps and of one it drops, and
 * successful ones the kernel part excludes (failed). */
static void
opener (gpointer data)
{
  const Opener *o = data;
  char keep[] = "/nonexistent-filemon-test/keep", drop[] = "/nonexistent-filemon-test/drop";
  char null_dev[] = "/dev/null";

  prctl (PR_SET_NAME, o->comm, 0, 0, 0);
  for (int i = 0; i < N_KEEP; i++)
    syscall (SYS_openat, AT_FDCWD, keep, O_RDONLY);
  for (int i = 0; i < N_DROP; i++)
    syscall (SYS_openat, AT_FDCWD, drop, O_RDONLY);
  for (int i = 0; i < N_OK; i++)
    {
      long fd = syscall (SYS_openat, AT_FDCWD, null_dev, O_RDONLY);

      if (fd >= 0)
        close (fd);
    }
}

static void
iterate_until_state (FmdSession *session, FmdState state, const char *what)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  while (fmd_session_get_state (session) != state)
    {
      if (fmd_session_get_state (session) == FMD_STATE_FAILED)
        g_error ("the capture failed: %s", fmd_session_get_last_error (session));
      if (g_get_monotonic_time () > deadline)
        g_error ("timed out waiting for %s", what);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static void
test_kernel_part_in_maps_remainder_in_session (void)
{
  g_autoptr(FmdConfig) config = fmd_config_new_default ();
  FmdRing *ring = fmd_ring_new (100000, 64 * 1024 * 1024);
  g_autoptr(FmdBackendRegistry) registry = fmd_backends_new_registry ();
  g_autoptr(FmdSession) session = fmd_session_new (config, registry, ring);
  g_autoptr(GVariant) asv = g_variant_ref_sink (g_variant_new_parsed (
    "{'backend': <'bpf'>, 'filter': <%s>}",
    "syscall=openat and comm=fmtest-kpart and failed and path~'/keep$'"));
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = fmd_options_new_from_variant (asv, registry, &error);
  Opener wanted = { "fmtest-kpart" }, other = { "fmtest-kother" };
  KcChild a, b;

  g_assert_no_error (error);
  /* the kernel part the backend gets: openat, the exact name, failed calls */
  g_assert_cmpuint (options->syscalls->len, ==, 1);
  g_assert_cmpstr (options->comms[0], ==, "fmtest-kpart");
  g_assert_null (options->comms[1]);
  g_assert_true (options->failed_only);

  kc_child_spawn (&a, opener, &wanted);
  kc_child_spawn (&b, opener, &other);
  g_assert_true (fmd_session_start (session, options, &error));
  g_assert_no_error (error);
  iterate_until_state (session, FMD_STATE_RUNNING, "the capture to run");
  kc_child_go (&a);
  kc_child_go (&b);
  kc_child_wait (&a);
  kc_child_wait (&b);
  g_assert_true (fmd_session_stop (session, &error));
  iterate_until_state (session, FMD_STATE_IDLE, "the capture to stop");

  g_assert_cmpuint (fmd_session_get_dropped_count (session), ==, 0);
  /* kept: the failed opens of .../keep by fmtest-kpart */
  g_assert_cmpuint (fmd_session_get_event_count (session), ==, N_KEEP);
  /* dropped in user space: only its failed opens of .../drop; the other process's calls
   * and the successful opens never left the kernel */
  g_assert_cmpuint (fmd_session_get_filtered_count (session), ==, N_DROP);
  g_clear_object (&session);
  fmd_ring_free (ring);
}

/* --- path prefixes at the source ------------------------------------------------------ */

#define N_EACH 25

typedef struct {
  int dirfd;              /* the test's directory, which holds "in" */
  char in[256], untidy[256], sibling[256], out[256], from[256], into[256];
} PrefixCalls;

/* Opens below the prefix (as given, with "//" and "/./" in it, and relative to a dirfd),
 * beside it and outside it, and a rename from outside into it. */
static void
prefix_caller (gpointer data)
{
  const PrefixCalls *c = data;

  for (int i = 0; i < N_EACH; i++)
    {
      syscall (SYS_openat, AT_FDCWD, c->in, O_RDONLY);
      syscall (SYS_openat, AT_FDCWD, c->untidy, O_RDONLY);
      syscall (SYS_openat, c->dirfd, "in/missing-relative", O_RDONLY);
      syscall (SYS_openat, AT_FDCWD, c->sibling, O_RDONLY);
      syscall (SYS_openat, AT_FDCWD, c->out, O_RDONLY);
      syscall (SYS_openat, c->dirfd, "./out/missing", O_RDONLY);
    }
  syscall (SYS_renameat2, AT_FDCWD, c->from, AT_FDCWD, c->into, 0);
}

static void
test_path_prefixes_at_source (void)
{
  g_autoptr(FmdConfig) config = fmd_config_new_default ();
  FmdRing *ring = fmd_ring_new (100000, 64 * 1024 * 1024);
  g_autoptr(FmdBackendRegistry) registry = fmd_backends_new_registry ();
  g_autoptr(FmdSession) session = fmd_session_new (config, registry, ring);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("fmtest-prefix-XXXXXX", &error);
  g_autofree char *in_dir = NULL, *prefix = NULL;
  g_autoptr(GVariant) asv = NULL;
  g_autoptr(FmdOptions) options = NULL;
  PrefixCalls calls = { 0 };
  KcChild child;

  g_assert_no_error (error);
  in_dir = g_build_filename (dir, "in", NULL);
  g_assert_cmpint (g_mkdir (in_dir, 0700), ==, 0);
  calls.dirfd = open (dir, O_RDONLY | O_DIRECTORY);
  g_assert_cmpint (calls.dirfd, >=, 0);
  g_snprintf (calls.in, sizeof calls.in, "%s/in/missing", dir);
  g_snprintf (calls.untidy, sizeof calls.untidy, "/%s/./in//missing", dir);
  g_snprintf (calls.sibling, sizeof calls.sibling, "%s/inx/missing", dir);
  g_snprintf (calls.out, sizeof calls.out, "%s/out/missing", dir);
  g_snprintf (calls.from, sizeof calls.from, "%s/out/from", dir);
  g_snprintf (calls.into, sizeof calls.into, "%s/in/into", dir);
  prefix = g_strdup (in_dir);

  kc_child_spawn (&child, prefix_caller, &calls);
  asv = g_variant_ref_sink (g_variant_new_parsed (
    "{'backend': <'bpf'>, 'pids': <[%u]>, 'syscalls': <['openat', 'renameat2']>, "
    "'path-prefixes': <[%s]>}", (guint32) child.pid, prefix));
  options = fmd_options_new_from_variant (asv, registry, &error);
  g_assert_no_error (error);
  /* the session evaluates the prefixes alone: pids and syscalls are the kernel's */
  g_assert_nonnull (options->remainder);

  g_assert_true (fmd_session_start (session, options, &error));
  g_assert_no_error (error);
  iterate_until_state (session, FMD_STATE_RUNNING, "the capture to run");
  kc_child_go (&child);
  kc_child_wait (&child);
  g_assert_true (fmd_session_stop (session, &error));
  iterate_until_state (session, FMD_STATE_IDLE, "the capture to stop");

  g_assert_cmpuint (fmd_session_get_dropped_count (session), ==, 0);
  /* kept: the three opens below the prefix, N_EACH times, and the rename into it */
  g_assert_cmpuint (fmd_session_get_event_count (session), ==, 3 * N_EACH + 1);
  /* the opens beside and outside it never left the kernel */
  g_assert_cmpuint (fmd_session_get_filtered_count (session), ==, 0);

  close (calls.dirfd);
  g_assert_cmpint (g_rmdir (in_dir), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  g_clear_object (&session);
  fmd_ring_free (ring);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/bpf/filter-model/kernel-part-in-maps-remainder-in-session",
                   test_kernel_part_in_maps_remainder_in_session);
  g_test_add_func ("/bpf/filter-model/path-prefixes-at-the-source",
                   test_path_prefixes_at_source);
  return g_test_run ();
}
