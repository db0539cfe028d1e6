/* test-save.c: Save's writer: a slow pipe reader gets everything while the main loop
 * keeps running, bad descriptors are refused with a clear error, a reader that goes away
 * is an Io error, and shutdown cancels a save stuck on a frozen reader. */
#define _GNU_SOURCE   /* pipe2, O_PATH */

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "filemond-save.h"
#include "fm-error.h"
#include "test-daemon-util.h"

typedef struct {
  int fd;
  guint delay_us;
  GString *data;
} SlowReader;

static gpointer
slow_reader_thread (gpointer user_data)
{
  SlowReader *r = user_data;
  char buf[4096];
  gssize n;

  while ((n = read (r->fd, buf, sizeof buf)) > 0)
    {
      g_string_append_len (r->data, buf, n);
      g_usleep (r->delay_us);
    }
  return NULL;
}

typedef struct {
  gboolean done;
  gboolean ok;
  guint64 written;
  GError *error;
} Result;

static void
save_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Result *res = user_data;

  res->ok = fmd_save_finish (result, &res->written, &res->error);
  res->done = TRUE;
}

static gboolean
tick_cb (gpointer user_data)
{
  (*(guint *) user_data)++;
  return G_SOURCE_CONTINUE;
}

static FmdRing *
ring_with (guint n)
{
  FmdRing *ring = fmd_ring_new (100000, 16 * 1024 * 1024);
  char path[128];

  for (guint i = 0; i < n; i++)
    {
      FmEvent event = test_event (i, path);
      fmd_ring_append (ring, &event);
    }
  return ring;
}

/* A new file on the disk the tests run on (their working directory, in the build tree),
 * not in $TMPDIR: /tmp may be a tmpfs, where Save refuses to write. */
static int
open_disk_tmp (const char  *name,
               char       **path)
{
  g_autofree char *dir = g_get_current_dir ();
  int fd;

  *path = g_build_filename (dir, name, NULL);
  fd = g_mkstemp (*path);
  g_assert_cmpint (fd, >=, 0);
  return fd;
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    if (*p == '\n')
      n++;
  return n;
}

static void
test_slow_pipe_reader_gets_everything (void)
{
  g_autoptr(FmdRing) ring = ring_with (3000);
  SlowReader reader = { -1, 300, g_string_new (NULL) };
  Result res = { 0 };
  GThread *thread;
  guint ticks = 0;
  guint tick_id;
  int p[2];

  g_assert_cmpint (pipe2 (p, O_CLOEXEC), ==, 0);
  reader.fd = p[0];
  thread = g_thread_new ("slow-reader", slow_reader_thread, &reader);

  tick_id = g_timeout_add (5, tick_cb, &ticks);
  fmd_save_async (ring, 0, p[1], FM_FORMAT_JSONL, 60, NULL, save_cb, &res);
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick_id);
  g_thread_join (thread);

  g_assert_no_error (res.error);
  g_assert_true (res.ok);
  g_assert_cmpuint (res.written, ==, 3000);
  g_assert_cmpuint (count_lines (reader.data->str), ==, 3000);
  /* the main loop kept running while the reader dawdled (~100 reads of 300 µs+) */
  g_assert_cmpuint (ticks, >=, 2);

  close (p[0]);
  g_string_free (reader.data, TRUE);
}

static void
test_since_seq_and_csv_header (void)
{
  g_autoptr(FmdRing) ring = ring_with (100);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  Result res = { 0 };
  int fd = open_disk_tmp ("filemond-save-XXXXXX.csv", &path);

  fmd_save_async (ring, 91, fd, FM_FORMAT_CSV, 60, NULL, save_cb, &res);
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);

  g_assert_no_error (res.error);
  g_assert_cmpuint (res.written, ==, 10);
  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_true (g_str_has_prefix (contents, fm_format_header (FM_FORMAT_CSV)));
  g_unlink (path);
}

static void
assert_fd_refused (int         fd,
                   const char *words)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (fmd_save_check_fd (fd, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS);
  if (strstr (error->message, words) == NULL)
    g_error ("expected “%s” in: %s", words, error->message);
  close (fd);
}

static void
assert_fd_accepted (int fd)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (fmd_save_check_fd (fd, &error));
  g_assert_no_error (error);
  close (fd);
}

static void
test_bad_fds_are_refused (void)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  int p[2];
  int s[2];
  int fd = open_disk_tmp ("filemond-save-XXXXXX", &path);

  close (fd);

  assert_fd_refused (open (path, O_RDONLY | O_CLOEXEC), "not open for writing");
  assert_fd_refused (open (path, O_PATH | O_CLOEXEC), "not open for writing");
  assert_fd_refused (open ("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), "directory");
  assert_fd_refused (open ("/dev/null", O_WRONLY | O_CLOEXEC), "character device");

  g_assert_cmpint (pipe2 (p, O_CLOEXEC), ==, 0);
  assert_fd_refused (p[0], "not open for writing");
  assert_fd_accepted (p[1]);

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, s), ==, 0);
  assert_fd_refused (s[0], "stream socket");
  close (s[1]);
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s), ==, 0);
  assert_fd_accepted (s[0]);
  close (s[1]);

  assert_fd_accepted (open (path, O_WRONLY | O_APPEND | O_CLOEXEC));
  assert_fd_accepted (open (path, O_RDWR | O_CLOEXEC));

  /* a closed descriptor is refused, not a crash */
  fd = open (path, O_WRONLY | O_CLOEXEC);
  close (fd);
  g_assert_false (fmd_save_check_fd (fd, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS);

  g_unlink (path);
}

/* Pages written into a file kept in memory are charged to the writer, filemond, for as
 * long as the file lives: two Saves of a full ring into memfds charged 499 MB to it, and
 * three connections got it killed by its cgroup's MemoryMax. */
static void
test_memory_files_are_refused (void)
{
  g_autoptr(GError) error = NULL;
  int fd = memfd_create ("capture", MFD_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_false (fmd_save_check_fd (fd, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS);
  g_assert_nonnull (strstr (error->message, "pass a pipe"));
  close (fd);
}

/* The page cache of a file on disk is charged to filemond until it is written back and
 * dropped: a save leaves none of the file's pages in memory. */
static void
test_disk_file_leaves_no_page_cache (void)
{
  g_autoptr(FmdRing) ring = ring_with (100000);
  g_autofree char *path = NULL;
  g_autofree unsigned char *vec = NULL;
  Result res = { 0 };
  int fd = open_disk_tmp ("filemond-save-XXXXXX.jsonl", &path);
  gsize size, n_pages, resident = 0;
  long page = sysconf (_SC_PAGESIZE);
  void *map;

  fmd_save_async (ring, 0, fd, FM_FORMAT_JSONL, 60, NULL, save_cb, &res);
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (res.error);
  g_assert_cmpuint (res.written, ==, 100000);

  fd = open (path, O_RDONLY | O_CLOEXEC);
  size = lseek (fd, 0, SEEK_END);
  /* several writebacks' worth */
  g_assert_cmpuint (size, >, 2 * 8 * 1024 * 1024);
  map = mmap (NULL, size, PROT_READ, MAP_SHARED, fd, 0);
  g_assert_true (map != MAP_FAILED);
  n_pages = (size + page - 1) / page;
  vec = g_malloc (n_pages);
  g_assert_cmpint (mincore (map, size, vec), ==, 0);
  for (gsize i = 0; i < n_pages; i++)
    resident += vec[i] & 1;
  g_test_message ("%" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " pages resident", resident, n_pages);
  g_assert_cmpuint (resident, <, n_pages / 10);
  munmap (map, size);
  close (fd);
  g_unlink (path);
}

static void
append_long_paths (FmdRing *ring,
                   guint    n)
{
  char path[2048];

  memset (path, 'y', sizeof path - 1);
  path[sizeof path - 1] = '\0';
  for (guint i = 0; i < n; i++)
    {
      FmEvent event = test_event (i, path);

      g_snprintf (path, 16, "/%013u", g_random_int ());
      path[14] = '/';
      fm_event_set_strings (&event, "stat", path, "", "");
      fmd_ring_append (ring, &event);
    }
}

/* A Save into a FIFO nobody reads pinned the ring's oldest events, and the ring grew past
 * its bound by everything the capture added: now the ring revokes the save's snapshot and
 * the save ends at once with an Io error saying why, well before its stall time. */
static void
test_save_that_falls_behind_ends (void)
{
  guint64 max = 8 * 1024 * 1024;
  g_autoptr(FmdRing) ring = fmd_ring_new (1000000, max);
  Result res = { 0 };
  int p[2];

  append_long_paths (ring, 3000);
  g_assert_cmpint (pipe2 (p, O_CLOEXEC), ==, 0);
  fmd_save_async (ring, 0, p[1], FM_FORMAT_TEXT, 600, NULL, save_cb, &res);
  /* the capture goes on: a hundred times what fits */
  for (guint i = 0; i < 100 && !res.done; i++)
    {
      append_long_paths (ring, 4000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (res.ok);
  g_assert_error (res.error, FM_ERROR, FM_ERROR_IO);
  g_assert_nonnull (strstr (res.error->message, "fell behind"));
  g_clear_error (&res.error);
  g_assert_cmpuint (fmd_ring_get_n_revoked (ring), ==, 1);

  append_long_paths (ring, 100);
  g_assert_cmpuint (fmd_ring_get_memory (ring), <=, max);
  close (p[0]);
}

static void
test_async_refuses_bad_fd (void)
{
  g_autoptr(FmdRing) ring = ring_with (10);
  Result res = { 0 };

  fmd_save_async (ring, 0, open ("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC),
                  FM_FORMAT_TEXT, 60, NULL, save_cb, &res);
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (res.ok);
  g_assert_error (res.error, FM_ERROR, FM_ERROR_INVALID_ARGS);
  g_clear_error (&res.error);
}

static void
test_reader_gone_is_io_error (void)
{
  g_autoptr(FmdRing) ring = ring_with (5000);
  Result res = { 0 };
  int s[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s), ==, 0);
  close (s[0]);
  fmd_save_async (ring, 0, s[1], FM_FORMAT_JSONL, 60, NULL, save_cb, &res);
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (res.ok);
  g_assert_error (res.error, FM_ERROR, FM_ERROR_IO);
  g_clear_error (&res.error);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_frozen_reader_is_cancelled (void)
{
  g_autoptr(FmdRing) ring = ring_with (20000);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result res = { 0 };
  int p[2];

  /* nobody reads p[0]; the pipe (blocking, as a client would leave it) fills up */
  g_assert_cmpint (pipe2 (p, O_CLOEXEC), ==, 0);
  fmd_save_async (ring, 0, p[1], FM_FORMAT_TEXT, 60, cancellable, save_cb, &res);
  g_timeout_add (100, cancel_cb, cancellable);
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (res.ok);
  g_assert_error (res.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&res.error);
  close (p[0]);
}

static void
test_stalled_reader_is_abandoned (void)
{
  g_autoptr(FmdRing) ring = ring_with (20000);
  Result res = { 0 };
  int p[2];

  /* the reader holds the pipe open and never reads */
  g_assert_cmpint (pipe2 (p, O_CLOEXEC), ==, 0);
  fmd_save_async (ring, 0, p[1], FM_FORMAT_TEXT, 1, NULL, save_cb, &res);
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (res.ok);
  g_assert_error (res.error, FM_ERROR, FM_ERROR_IO);
  g_assert_nonnull (strstr (res.error->message, "took nothing"));
  g_clear_error (&res.error);
  close (p[0]);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  /* as in filemond: a closed reader is EPIPE, not a signal */
  signal (SIGPIPE, SIG_IGN);

  g_test_add_func ("/save/slow-pipe-reader-gets-everything", test_slow_pipe_reader_gets_everything);
  g_test_add_func ("/save/since-seq-and-csv-header", test_since_seq_and_csv_header);
  g_test_add_func ("/save/bad-fds-are-refused", test_bad_fds_are_refused);
  g_test_add_func ("/save/async-refuses-bad-fd", test_async_refuses_bad_fd);
  g_test_add_func ("/save/memory-files-are-refused", test_memory_files_are_refused);
  g_test_add_func ("/save/disk-file-leaves-no-page-cache", test_disk_file_leaves_no_page_cache);
  g_test_add_func ("/save/falling-behind-the-capture-ends-the-save", test_save_that_falls_behind_ends);
  g_test_add_func ("/save/reader-gone-is-io-error", test_reader_gone_is_io_error);
  g_test_add_func ("/save/frozen-reader-is-cancelled", test_frozen_reader_is_cancelled);
  g_test_add_func ("/save/stalled-reader-is-abandoned", test_stalled_reader_is_abandoned);

  return g_test_run ();
}
