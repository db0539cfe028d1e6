/* test-model.c: the viewer's model without a display: the record store, the filtered and
 * sorted event list, capture files, "filter on this value" terms and highlight rules. */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "fm-error.h"
#include "fm-filter.h"
#include "fm-stream.h"
#include "fmv-capture.h"
#include "fmv-columns.h"
#include "fmv-event-list.h"
#include "fmv-filter-complete.h"
#include "fmv-filter-term.h"
#include "fmv-gaps.h"
#include "fmv-highlights.h"
#include "fmv-row.h"
#include "fmv-store.h"
#include "fmv-test-events.h"

static FmvStore *
store_with (guint n)
{
  FmvStore *store = fmv_store_new ();

  for (guint i = 0; i < n; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      g_assert_true (fmv_store_append (store, &t.event, NULL));
    }
  return store;
}

static gboolean
row_matches (FmvStore   *store,
             guint       row,
             const char *filter_text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmFilter) filter = fm_filter_new (filter_text, &error);
  FmvStoreEvent stored;
  const FmEvent *ev;

  g_assert_no_error (error);
  ev = fmv_store_get_event (store, row, &stored);
  return fm_filter_match (filter, ev);
}

/* ---- store ------------------------------------------------------------------------------ */

static void
test_store_reads_back_every_field (void)
{
  g_autoptr(FmvStore) store = store_with (5000);

  g_assert_cmpuint (fmv_store_get_n_rows (store), ==, 5000);
  for (guint i = 0; i < 5000; i++)
    {
      FmvTestEvent t;
      FmvStoreEvent stored;
      const FmEvent *ev;

      fmv_test_event (&t, i);
      ev = fmv_store_get_event (store, i, &stored);
      g_assert_true (fm_event_equal (ev, &t.event));
      g_assert_cmpint (fmv_store_get_result (store, i), ==, t.event.result);
    }
  g_assert_cmpuint (fmv_store_get_last_seq (store), ==, 5000);
}

/* Long names, non-UTF-8 bytes, and more rows than a page holds; a name the rows repeat
 * is held once, whatever its length; a path is its directory and its name put together
 * again, up to the longest. */
static void
test_store_keeps_bytes_and_spans_pages (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autofree char *long_path = g_strnfill (FM_PATH_MAX - 1, 'p');
  const char odd[] = "/tmp/caf\xe9-\xff";
  g_autofree char *too_long = g_strnfill (FM_PATH_MAX + 10, 'd');
  FmEvent ev = { .seq = 1, .syscall_nr = 257, .result = -2 };
  FmvStoreEvent stored;
  const FmEvent *back;
  guint row, joined_row, nameless_row;
  const guint n = 70000;   /* a page holds 65536 rows */

  long_path[0] = '/';
  long_path[2000] = '/';
  too_long[0] = too_long[FM_PATH_MAX - 1] = too_long[FM_PATH_MAX + 2] = '/';
  for (guint i = 0; i < n; i++)
    {
      ev.seq = i + 1;
      fm_event_set_strings (&ev, "cat", long_path, long_path, "x");
      g_assert_true (fmv_store_append (store, &ev, &row));
      g_assert_cmpuint (row, ==, i);
    }
  fm_event_set_strings (&ev, "cat", too_long, "x/y", "x");
  g_assert_true (fmv_store_append (store, &ev, &joined_row));
  /* a thread without a name: its numbers are kept all the same */
  ev.pid = 4000000000u;
  ev.ppid = 7;
  ev.tid = 4000000001u;
  ev.uid = G_MAXUINT32;
  fm_event_set_strings (&ev, "", "/x", NULL, NULL);
  g_assert_true (fmv_store_append (store, &ev, &nameless_row));
  fm_event_set_strings (&ev, "c\xfft", odd, NULL, "AT_FDCWD");
  g_assert_true (fmv_store_append (store, &ev, &row));

  for (guint i = 0; i < n; i++)
    {
      back = fmv_store_get_event (store, i, &stored);
      g_assert_cmpuint (back->seq, ==, i + 1);
      g_assert_cmpmem (back->path, back->path_len, long_path, FM_PATH_MAX - 1);
      g_assert_cmpint (back->path[back->path_len], ==, '\0');
      g_assert_cmpmem (back->path2, back->path2_len, long_path, FM_PATH_MAX - 1);
    }
  /* clamped as the stream's encoder clamps it: its last slash is the one kept */
  back = fmv_store_get_event (store, joined_row, &stored);
  g_assert_cmpmem (back->path, back->path_len, too_long, FM_PATH_MAX);
  g_assert_cmpmem (back->path2, back->path2_len, "x/y", 3);
  back = fmv_store_get_event (store, nameless_row, &stored);
  g_assert_cmpuint (back->comm_len, ==, 0);
  g_assert_cmpuint (back->pid, ==, 4000000000u);
  g_assert_cmpuint (back->ppid, ==, 7);
  g_assert_cmpuint (back->tid, ==, 4000000001u);
  g_assert_cmpuint (back->uid, ==, G_MAXUINT32);
  back = fmv_store_get_event (store, row, &stored);
  g_assert_cmpmem (back->path, back->path_len, odd, strlen (odd));
  g_assert_cmpuint (back->pid, ==, 4000000000u);
  g_assert_cmpmem (back->comm, back->comm_len, "c\xfft", 3);
  /* far less than one copy of the path a row: the records, and the strings once */
  g_assert_cmpuint (fmv_store_get_memory_size (store), <, (gsize) n * 100 + 1024 * 1024);
}

/* The sequence number of row @i in test_store_keeps_sequence_gaps: consecutive over the
 * first page, then a gap in the second page's middle, every other number over the third,
 * and the fourth consecutive again after a jump past 32 bits. */
static guint64
gappy_seq (guint i)
{
  const guint page = FMV_STORE_PAGE_ROWS;

  if (i < page + page / 2)
    return i + 1;
  if (i < 3 * page)
    return 1000 + 2 * (guint64) i;
  return G_GUINT64_CONSTANT (1) << 40 | i;
}

/* Rows need not be consecutive events (a filtered capture, events missed): each row reads
 * back its own number, before and after its page stops being consecutive; a page of
 * consecutive events keeps no numbers of its own. */
static void
test_store_keeps_sequence_gaps (void)
{
  const guint page = FMV_STORE_PAGE_ROWS;
  g_autoptr(FmvStore) consecutive = fmv_store_new ();
  g_autoptr(FmvStore) store = fmv_store_new ();
  FmvStoreEvent stored;
  const FmEvent *ev;

  for (guint i = 0; i < 4 * page; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      g_assert_true (fmv_store_append (consecutive, &t.event, NULL));
      t.event.seq = gappy_seq (i);
      g_assert_true (fmv_store_append (store, &t.event, NULL));
      if (i == page + page / 2 - 1 || i == page + page / 2)
        for (guint row = page; row <= i; row++)
          {
            ev = fmv_store_get_event (store, row, &stored);
            g_assert_cmpuint (ev->seq, ==, gappy_seq (row));
          }
    }
  for (guint i = 0; i < 4 * page; i++)
    {
      ev = fmv_store_get_event (store, i, &stored);
      g_assert_cmpuint (ev->seq, ==, gappy_seq (i));
      ev = fmv_store_get_event (consecutive, i, &stored);
      g_assert_cmpuint (ev->seq, ==, i + 1);
    }
  g_assert_cmpuint (fmv_store_get_last_seq (store), ==, gappy_seq (4 * page - 1));
  /* the second and third pages keep their rows' numbers, 8 bytes a row */
  g_assert_cmpuint (fmv_store_get_memory_size (store) - fmv_store_get_memory_size (consecutive),
                    ==, (gsize) 2 * page * sizeof (guint64));
}

/* Paths kept whole and as directory and name compare as their bytes do, wherever the
 * pieces end. */
static void
test_store_compares_paths_as_bytes (void)
{
  static const char *const paths[] = {
    "", "/", "/a", "/a/", "/a/b", "/a-b/c", "/a/b/c", "/ab", "a", "a/b", "/a/b\xff",
    "/a/b\x01", "/b", "//", "/a//b", "/a/bc", "/a/b/",
  };
  g_autoptr(FmvStore) store = fmv_store_new ();
  guint32 ids[G_N_ELEMENTS (paths)];

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      FmEvent ev = { .seq = i + 1 };
      FmCompactEvent record;
      guint row;

      fm_event_set_strings (&ev, "cat", paths[i], NULL, NULL);
      g_assert_true (fmv_store_append (store, &ev, &row));
      ids[i] = fmv_store_get_record (store, row, &record)->path_id;
    }
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    for (guint j = 0; j < G_N_ELEMENTS (paths); j++)
      {
        int want = strcmp (paths[i], paths[j]);
        int got = fmv_store_compare_strings (store, ids[i], ids[j]);

        g_assert_cmpint ((want > 0) - (want < 0), ==, (got > 0) - (got < 0));
      }
}

static gboolean
keep_event (const FmEvent *event, gpointer user_data)
{
  g_assert_true (fmv_store_append (user_data, event, NULL));
  return TRUE;
}

/* What the live view does: the events decoded from a stream are kept, and read back as
 * the same events, whose records are the bytes received. */
static void
test_store_gives_back_stream_records (void)
{
  static const FmStreamCallbacks callbacks = { .event = keep_event };
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&callbacks, store);
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GByteArray) again = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  guint8 header[FM_STREAM_HEADER_SIZE];

  fm_stream_write_header (header);
  g_byte_array_append (stream, header, sizeof header);
  g_byte_array_append (again, header, sizeof header);
  for (guint i = 0; i < 3000; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      fm_record_append_event (stream, &t.event);
    }
  /* fed in uneven pieces, so that some records come whole and some reassembled */
  for (gsize start = 0; start < stream->len; start += 7001)
    {
      g_assert_true (fm_stream_decoder_feed (decoder, stream->data + start,
                                             MIN (7001, stream->len - start), &error));
      g_assert_no_error (error);
    }

  g_assert_cmpuint (fmv_store_get_n_rows (store), ==, 3000);
  for (guint i = 0; i < 3000; i++)
    {
      FmvTestEvent t;
      FmvStoreEvent stored;
      const FmEvent *ev;

      fmv_test_event (&t, i);
      ev = fmv_store_get_event (store, i, &stored);
      g_assert_true (fm_event_equal (ev, &t.event));
      fm_record_append_event (again, ev);
    }
  g_assert_cmpmem (again->data, again->len, stream->data, stream->len);
  g_assert_cmpuint (fmv_store_get_last_seq (store), ==, 3000);
}

/* ---- rows ------------------------------------------------------------------------------- */

/* A name's controls (ESC, C1) and bidi overrides are shown as \xNN, as filemonctl shows
 * them: raw, they would reorder the row around them. Valid UTF-8 stays as it is. */
static void
test_row_escapes_controls_and_bidi (void)
{
  const char name[] = "/tmp/evil\x1b[2J-\xc2\x9b-\xe2\x80\xaetxt.exe-caf\xc3\xa9";
  g_autofree char *shown = fmv_bytes_to_display (name, sizeof name - 1);

  g_assert_cmpstr (shown, ==, "/tmp/evil\\x1b[2J-\\xc2\\x9b-\\xe2\\x80\\xaetxt.exe-caf\xc3\xa9");
}

static void
test_row_formats_columns (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  FmEvent ev = { .seq = 7, .pid = 812, .result = -13, .syscall_nr = fm_syscall_by_name ("openat")->nr,
                 .time_ns = G_GUINT64_CONSTANT (1764763200123456789) };
  g_autoptr(FmvRow) row = NULL;
  g_autofree char *process = NULL, *pid = NULL, *syscall = NULL, *result = NULL, *path = NULL;
  g_autofree char *time = NULL;
  gboolean failed;

  fm_event_set_strings (&ev, "ssh\xff", "/etc/shadow", "/etc/shadow-", "O_RDONLY");
  g_assert_true (fmv_store_append (store, &ev, NULL));
  row = fmv_row_new (store, 0);
  g_object_get (row, "process", &process, "pid", &pid, "syscall", &syscall, "result", &result,
                "path", &path, "failed", &failed, "time", &time, NULL);
  g_assert_cmpstr (process, ==, "ssh\\xff");
  g_assert_cmpstr (pid, ==, "812");
  g_assert_cmpstr (syscall, ==, "openat");
  g_assert_cmpstr (result, ==, "-EACCES");
  g_assert_cmpstr (path, ==, "/etc/shadow → /etc/shadow-");
  g_assert_true (failed);
  /* Local time, microseconds. */
  g_assert_true (g_str_has_suffix (time, ".123456"));
}

/* ---- list ------------------------------------------------------------------------------- */

static void
test_list_shows_every_row_without_filter (void)
{
  g_autoptr(FmvStore) store = store_with (1000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  g_autoptr(FmvRow) a = NULL;
  g_autoptr(FmvRow) b = NULL;
  FmvTestEvent t;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 1000);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (list)) == FMV_TYPE_ROW);
  a = g_list_model_get_item (G_LIST_MODEL (list), 999);
  b = g_list_model_get_item (G_LIST_MODEL (list), 999);
  /* One object per row while it lives: selection models compare items by pointer. */
  g_assert_true (a == b);
  g_assert_cmpuint (fmv_row_get_row (a), ==, 999);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (list), 1000));

  fmv_test_event (&t, 1000);
  g_assert_true (fmv_store_append (store, &t.event, NULL));
  fmv_event_list_update_now (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 1001);
}

/* A live window counts what the list took in: rows appended since the last update are not
 * "filtered out", or the status bar would say "Showing 0 of 240 events" with no filter. */
static void
test_list_counts_only_rows_taken_in (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  FmvTestEvent t;

  for (guint i = 0; i < 240; i++)
    {
      fmv_test_event (&t, i);
      g_assert_true (fmv_store_append (store, &t.event, NULL));
    }
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
  g_assert_cmpuint (fmv_event_list_get_n_total (list), ==, 0);

  fmv_event_list_update_now (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 240);
  g_assert_cmpuint (fmv_event_list_get_n_total (list), ==, 240);
}

typedef struct {
  guint position, removed, added, calls;
} Changes;

static void
items_changed_cb (GListModel *model, guint position, guint removed, guint added, Changes *c)
{
  c->position = position;
  c->removed = removed;
  c->added = added;
  c->calls++;
}

static void
assert_list_is (FmvEventList *list,
                FmvStore     *store,
                const char   *filter_text)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  guint expected = 0;
  guint position = 0;

  for (guint row = 0; row < fmv_store_get_n_rows (store); row++)
    if (filter_text == NULL || row_matches (store, row, filter_text))
      {
        g_assert_cmpuint (position, <, n);
        g_assert_cmpuint (fmv_event_list_get_row (list, position), ==, row);
        position++;
        expected++;
      }
  g_assert_cmpuint (n, ==, expected);
}

/* GTK 4.8's list view creates a widget for each of its first ~200 rows as soon as they
 * exist, so a timed update lets a short list grow a few tens of rows at a time (the ramp,
 * fmv-event-list.c) and still takes everything in by itself, in a few updates: the limit
 * counts rows shown, not rows looked at, or a filter matching few would fall behind. */
static void
test_list_timed_update_ramps_while_short (void)
{
  const char *filters[] = { NULL, "comm=sshd" };

  for (guint f = 0; f < G_N_ELEMENTS (filters); f++)
    {
      g_autoptr(FmvStore) store = fmv_store_new ();
      g_autoptr(FmvEventList) list = fmv_event_list_new (store);
      Changes changes = { 0 };

      if (filters[f] != NULL)
        g_assert_true (fmv_event_list_set_filter (list, filters[f], NULL));
      fmv_event_list_wait (list);
      for (guint i = 0; i < 5000; i++)
        {
          FmvTestEvent t;

          fmv_test_event (&t, i);
          g_assert_true (fmv_store_append (store, &t.event, NULL));
        }
      g_signal_connect (list, "items-changed", G_CALLBACK (items_changed_cb), &changes);
      fmv_event_list_queue_update (list);
      while (changes.calls == 0)
        g_main_context_iteration (NULL, TRUE);
      g_assert_cmpuint (changes.added, >, 0);
      g_assert_cmpuint (changes.added, <=, 64);

      while (fmv_event_list_get_n_total (list) < 5000)
        g_main_context_iteration (NULL, TRUE);
      g_assert_cmpuint (changes.calls, >, 2);
      g_assert_cmpuint (changes.calls, <, 20);
      assert_list_is (list, store, filters[f]);
    }
}

/* Appends @n test events to @store from number @from on, those whose number is a multiple
 * of @every (0: none) with pid 99999. */
static void
append_with_pid (FmvStore *store,
                 guint     from,
                 guint     n,
                 guint     every)
{
  for (guint i = from; i < from + n; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      if (every != 0 && i % every == 0)
        t.event.pid = 99999;
      g_assert_true (fmv_store_append (store, &t.event, NULL));
    }
}

/* A filter that takes every row keeps the list the identity (no index) until a row it
 * drops comes, in the worker (past its first chunk of rows, or in it) or as rows arrive:
 * the list is then exactly the rows it takes, in order, and says so in its changes. */
static void
test_list_filter_taking_every_row_then_not (void)
{
  const char *filter = "pid!=99999";
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  Changes changes = { 0 };
  guint position;

  append_with_pid (store, 0, 70000, 0);
  g_assert_true (fmv_event_list_set_filter (list, filter, NULL));
  fmv_event_list_wait (list);
  assert_list_is (list, store, filter);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 70000);

  /* new rows the filter takes, then some it drops */
  g_signal_connect (list, "items-changed", G_CALLBACK (items_changed_cb), &changes);
  append_with_pid (store, 70000, 500, 0);
  fmv_event_list_update_now (list);
  g_assert_cmpuint (changes.position, ==, 70000);
  g_assert_cmpuint (changes.added, ==, 500);
  append_with_pid (store, 70500, 300, 3);
  fmv_event_list_update_now (list);
  g_assert_cmpuint (changes.position, ==, 70500);
  g_assert_cmpuint (changes.removed, ==, 0);
  g_assert_cmpuint (changes.added, ==, 200);
  assert_list_is (list, store, filter);
  g_assert_false (fmv_event_list_find_row (list, 70500, &position));
  g_assert_true (fmv_event_list_find_row (list, 70501, &position));
  g_assert_cmpuint (position, ==, 70500);

  /* the worker: the first row dropped in its second chunk of rows, then in its first */
  g_assert_true (fmv_event_list_set_filter (list, "seq!=70001", NULL));
  fmv_event_list_wait (list);
  assert_list_is (list, store, "seq!=70001");
  g_assert_true (fmv_event_list_set_filter (list, "seq!=2", NULL));
  fmv_event_list_wait (list);
  assert_list_is (list, store, "seq!=2");
  g_assert_true (fmv_event_list_find_row (list, 70000, &position));
  g_assert_cmpuint (position, ==, 69999);
}

static void
test_list_filters_in_background_and_keeps_up (void)
{
  g_autoptr(FmvStore) store = store_with (20000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  g_autoptr(GError) error = NULL;
  Changes changes = { 0 };

  g_signal_connect (list, "items-changed", G_CALLBACK (items_changed_cb), &changes);
  g_assert_true (fmv_event_list_set_filter (list, "result<0", &error));
  g_assert_no_error (error);
  g_assert_true (fmv_event_list_get_busy (list));
  fmv_event_list_wait (list);
  g_assert_false (fmv_event_list_get_busy (list));
  /* One items-changed replaces everything. */
  g_assert_cmpuint (changes.calls, ==, 1);
  g_assert_cmpuint (changes.position, ==, 0);
  g_assert_cmpuint (changes.removed, ==, 20000);
  assert_list_is (list, store, "result<0");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), >, 1000);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), <, 6000);

  /* Rows appended later are matched as they come, at the end. */
  for (guint i = 20000; i < 21000; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      g_assert_true (fmv_store_append (store, &t.event, NULL));
    }
  changes.calls = 0;
  fmv_event_list_update_now (list);
  g_assert_cmpuint (changes.calls, ==, 1);
  g_assert_cmpuint (changes.removed, ==, 0);
  assert_list_is (list, store, "result<0");

  /* Back to everything, at once. */
  g_assert_true (fmv_event_list_set_filter (list, "  ", &error));
  g_assert_false (fmv_event_list_get_busy (list));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 21000);
}

static void
test_list_rows_arriving_during_refilter_are_kept (void)
{
  g_autoptr(FmvStore) store = store_with (50000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);

  g_assert_true (fmv_event_list_set_filter (list, "comm=sshd", NULL));
  /* Appended while the worker runs over the first 50000. */
  for (guint i = 50000; i < 52000; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      g_assert_true (fmv_store_append (store, &t.event, NULL));
    }
  fmv_event_list_queue_update (list);
  fmv_event_list_wait (list);
  assert_list_is (list, store, "comm=sshd");
}

static void
test_list_newer_filter_wins (void)
{
  g_autoptr(FmvStore) store = store_with (50000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);

  g_assert_true (fmv_event_list_set_filter (list, "comm=bash", NULL));
  g_assert_true (fmv_event_list_set_filter (list, "result<0", NULL));
  g_assert_true (fmv_event_list_set_filter (list, "syscall=openat", NULL));
  fmv_event_list_wait (list);
  g_assert_cmpstr (fmv_event_list_get_filter (list), ==, "syscall=openat");
  assert_list_is (list, store, "syscall=openat");
}

static void
test_list_bad_filter_keeps_previous (void)
{
  g_autoptr(FmvStore) store = store_with (3000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  g_autoptr(GError) error = NULL;
  guint column = 0;

  g_assert_true (fmv_event_list_set_filter (list, "result<0", NULL));
  fmv_event_list_wait (list);
  g_assert_false (fmv_event_list_set_filter (list, "result<0 and comm=", &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  g_assert_true (fmv_filter_error_column (error, &column));
  g_assert_cmpuint (column, >=, 14);
  g_assert_cmpuint (column, <=, 19);
  g_assert_false (fmv_event_list_get_busy (list));
  g_assert_cmpstr (fmv_event_list_get_filter (list), ==, "result<0");
  assert_list_is (list, store, "result<0");
}

/* The order of two events by @field, from the events' values (not the store's ids and
 * ranks the sort reads). */
#define ORDER_OF(x, y) (((x) > (y)) - ((x) < (y)))
#define COMPARE_NUMBER(m) return ORDER_OF (ea->m, eb->m);
#define COMPARE_U64(m) COMPARE_NUMBER (m)
#define COMPARE_U32(m) COMPARE_NUMBER (m)
#define COMPARE_I64(m) COMPARE_NUMBER (m)
#define COMPARE_SYSCALL(m) \
  { \
    char na[16], nb[16]; \
    return strcmp (fm_syscall_name (ea->m, na), fm_syscall_name (eb->m, nb)); \
  }
#define COMPARE_BYTES(m) return strcmp (ea->m, eb->m);
#define COMPARE_UTF8(m) COMPARE_BYTES (m)
#define COMPARE_ERRNO(m) COMPARE_NUMBER (result)
#define COMPARE_USER(m) COMPARE_NUMBER (uid)
#define COMPARE_CASE(id, m, type, ...) case FM_FIELD_##id: COMPARE_##type (m)

static int
compare_texts (FmvRow *a, FmvRow *b, FmFieldId field)
{
  FmvStoreEvent sa, sb;
  const FmEvent *ea = fmv_row_get_event (a, &sa);
  const FmEvent *eb = fmv_row_get_event (b, &sb);

  switch (field)
    {
      FM_EVENT_FIELDS (COMPARE_CASE)
    case FM_N_FIELDS:
    default:
      g_assert_not_reached ();
    }
}

static void
assert_sorted (FmvEventList *list,
               FmFieldId     field,
               gboolean      descending)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));

  for (guint i = 1; i < n; i++)
    {
      g_autoptr(FmvRow) a = g_list_model_get_item (G_LIST_MODEL (list), i - 1);
      g_autoptr(FmvRow) b = g_list_model_get_item (G_LIST_MODEL (list), i);
      int r = compare_texts (a, b, field);

      if (descending)
        r = -r;
      g_assert_cmpint (r, <=, 0);
      /* Ties keep arrival order (reversed when descending). */
      if (r == 0)
        g_assert_true (descending ? fmv_row_get_row (a) > fmv_row_get_row (b)
                                  : fmv_row_get_row (a) < fmv_row_get_row (b));
    }
}

static void
test_list_sorts_by_every_column_and_merges_new_rows (void)
{
  for (guint c = 0; c < fmv_columns_get_n (); c++)
    for (int descending = 0; descending < 2; descending++)
      {
        FmFieldId column = fmv_columns_get (c)->field;
        g_autoptr(FmvStore) store = store_with (4000);
        g_autoptr(FmvEventList) list = fmv_event_list_new (store);

        g_assert_true (fmv_event_list_set_filter (list, "not syscall=close", NULL));
        fmv_event_list_set_sort (list, column, descending);
        fmv_event_list_wait (list);
        assert_sorted (list, column, descending);

        for (guint i = 4000; i < 4500; i++)
          {
            FmvTestEvent t;

            fmv_test_event (&t, i);
            g_assert_true (fmv_store_append (store, &t.event, NULL));
          }
        fmv_event_list_update_now (list);
        assert_sorted (list, column, descending);
        g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), >, 3500);

        /* Arrival order again. */
        fmv_event_list_set_sort (list, FMV_SORT_ARRIVAL, FALSE);
        fmv_event_list_wait (list);
        assert_list_is (list, store, "not syscall=close");
      }
}

static void
test_list_finds_failures_both_ways (void)
{
  g_autoptr(FmvStore) store = store_with (3000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  guint position = 0, first = 0, count = 0, last = 0;

  g_assert_true (fmv_event_list_find_failure (list, G_MAXUINT, TRUE, &first));
  g_assert_cmpint (fmv_store_get_result (store, first), <, 0);
  for (guint p = 0; p < first; p++)
    g_assert_cmpint (fmv_store_get_result (store, p), >=, 0);

  position = G_MAXUINT;
  while (fmv_event_list_find_failure (list, position, TRUE, &position))
    {
      g_assert_cmpint (fmv_store_get_result (store, position), <, 0);
      last = position;
      count++;
    }
  g_assert_cmpuint (count, >, 100);

  g_assert_true (fmv_event_list_find_failure (list, G_MAXUINT, FALSE, &position));
  g_assert_cmpuint (position, ==, last);
  g_assert_false (fmv_event_list_find_failure (list, first, FALSE, &position));

  /* Filtered to successes only: nothing to find. */
  g_assert_true (fmv_event_list_set_filter (list, "result>=0", NULL));
  fmv_event_list_wait (list);
  g_assert_false (fmv_event_list_find_failure (list, G_MAXUINT, TRUE, &position));
}

/* Find: the next and previous rows, in the order shown, that a word or a filter
 * expression takes, and the list still shows every row. */
static void
test_list_find_match (void)
{
  g_autoptr(FmvStore) store = store_with (3000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  g_autoptr(FmFilter) failed = fm_filter_new ("errno=EACCES", NULL);
  g_autoptr(FmFilter) word = fm_filter_new ("eacces", NULL);
  guint position = G_MAXUINT, previous = G_MAXUINT, count = 0, expected = 0;

  fmv_event_list_set_sort (list, FM_FIELD_TIME, TRUE);   /* newest first */
  fmv_event_list_wait (list);
  for (guint p = 0; p < 3000; p++)
    expected += row_matches (store, fmv_event_list_get_row (list, p), "errno=EACCES");
  g_assert_cmpuint (expected, >, 10);

  while (fmv_event_list_find_match (list, failed, position, TRUE, &position))
    {
      g_assert_true (previous == G_MAXUINT || position > previous);
      g_assert_true (row_matches (store, fmv_event_list_get_row (list, position), "errno=EACCES"));
      for (guint p = previous == G_MAXUINT ? 0 : previous + 1; p < position; p++)
        g_assert_false (row_matches (store, fmv_event_list_get_row (list, p), "errno=EACCES"));
      previous = position;
      count++;
    }
  g_assert_cmpuint (count, ==, expected);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 3000);

  /* backwards from the last one found, and a bare word the same way */
  g_assert_true (fmv_event_list_find_match (list, word, G_MAXUINT, FALSE, &position));
  g_assert_cmpuint (position, ==, previous);
  g_assert_true (fmv_event_list_find_match (list, failed, position, FALSE, &position));
  g_assert_cmpuint (position, <, previous);
  g_assert_false (fmv_event_list_find_match (list, failed, 0, FALSE, &position));
}

static void
test_list_find_row_maps_back (void)
{
  g_autoptr(FmvStore) store = store_with (3000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  guint position;

  g_assert_true (fmv_event_list_set_filter (list, "result<0", NULL));
  fmv_event_list_wait (list);
  for (guint p = 0; p < g_list_model_get_n_items (G_LIST_MODEL (list)); p++)
    {
      g_assert_true (fmv_event_list_find_row (list, fmv_event_list_get_row (list, p), &position));
      g_assert_cmpuint (position, ==, p);
    }
  fmv_event_list_set_sort (list, FM_FIELD_TIME, TRUE);
  fmv_event_list_wait (list);
  g_assert_true (fmv_event_list_find_row (list, fmv_event_list_get_row (list, 17), &position));
  g_assert_cmpuint (position, ==, 17);
  for (guint row = 0; row < 3000; row++)
    if (fmv_store_get_result (store, row) >= 0)
      {
        g_assert_false (fmv_event_list_find_row (list, row, &position));
        break;
      }
}

static void
test_list_set_store_replaces_rows (void)
{
  g_autoptr(FmvStore) store = store_with (3000);
  g_autoptr(FmvStore) other = store_with (10);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  g_autoptr(FmvStore) empty = fmv_store_new ();

  fmv_event_list_set_store (list, other);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 10);
  g_assert_true (fmv_event_list_set_filter (list, "result>=0", NULL));
  fmv_event_list_set_store (list, store);
  fmv_event_list_wait (list);
  assert_list_is (list, store, "result>=0");
  fmv_event_list_set_store (list, empty);
  fmv_event_list_wait (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
}

/* What a window's "resetting" handler sees: the rows as they were. It reads the selected
 * row there, and GtkSingleSelection unselects it; both need the old count. */
typedef struct {
  guint n_at_resetting;
  gboolean in_reset;
  guint n_resets;
} ResetWatch;

static void
watch_resetting_cb (FmvEventList *list,
                    ResetWatch   *watch)
{
  g_assert_false (watch->in_reset);
  watch->in_reset = TRUE;
  watch->n_at_resetting = g_list_model_get_n_items (G_LIST_MODEL (list));
  /* the last row shown so far is still there to read */
  if (watch->n_at_resetting > 0)
    (void) fmv_event_list_get_row (list, watch->n_at_resetting - 1);
}

static void
watch_reset_cb (FmvEventList *list,
                gboolean      everything,
                ResetWatch   *watch)
{
  g_assert_true (watch->in_reset);
  watch->in_reset = FALSE;
  watch->n_resets++;
}

static void
watch_items_changed_cb (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        ResetWatch *watch)
{
  if (watch->in_reset)
    g_assert_cmpuint (position + removed, <=, watch->n_at_resetting);
}

static void
test_list_resetting_comes_before_the_rows_change (void)
{
  g_autoptr(FmvStore) store = store_with (3000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  g_autoptr(FmvStore) empty = fmv_store_new ();
  ResetWatch watch = { 0 };

  g_signal_connect (list, "resetting", G_CALLBACK (watch_resetting_cb), &watch);
  g_signal_connect (list, "reset", G_CALLBACK (watch_reset_cb), &watch);
  g_signal_connect (list, "items-changed", G_CALLBACK (watch_items_changed_cb), &watch);

  /* newest first (a job lands), new rows merged in at the top, then arrival order again */
  fmv_event_list_set_sort (list, FM_FIELD_TIME, TRUE);
  fmv_event_list_wait (list);
  g_assert_cmpuint (watch.n_resets, ==, 1);
  for (guint i = 3000; i < 3100; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      g_assert_true (fmv_store_append (store, &t.event, NULL));
    }
  fmv_event_list_update_now (list);
  g_assert_cmpuint (watch.n_resets, ==, 2);
  fmv_event_list_set_sort (list, FMV_SORT_ARRIVAL, FALSE);
  g_assert_cmpuint (watch.n_resets, ==, 3);

  /* Clear: the window gives the list an empty store */
  fmv_event_list_set_sort (list, FM_FIELD_PID, FALSE);
  fmv_event_list_wait (list);
  fmv_event_list_set_store (list, empty);
  fmv_event_list_wait (list);
  g_assert_false (watch.in_reset);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
}

/* ---- missed events ---------------------------------------------------------------------- */

/* Save counts only the misses between the first and the last event it wrote: after a
 * Clear, millions missed earlier are not missing from the file. */
static void
test_gaps_counted_within_the_saved_range (void)
{
  g_autoptr(FmvGaps) gaps = fmv_gaps_new ();

  fmv_gaps_add (gaps, 100, 7700000);          /* long before what is saved */
  fmv_gaps_add (gaps, 8000000, 5);
  fmv_gaps_add (gaps, 8000005, 5);            /* continues the last run: merged */
  fmv_gaps_add (gaps, 8000100, 3);
  g_assert_cmpuint (fmv_gaps_get_n_runs (gaps), ==, 3);

  g_assert_cmpuint (fmv_gaps_count_within (gaps, 7900000, 8000200), ==, 13);
  g_assert_cmpuint (fmv_gaps_count_within (gaps, 8000003, 8000101), ==, 9);  /* parts of runs */
  g_assert_cmpuint (fmv_gaps_count_within (gaps, 8000010, 8000099), ==, 0);
  g_assert_cmpuint (fmv_gaps_count_within (gaps, 1, 8000200), ==, 7700013);
  g_assert_cmpuint (fmv_gaps_count_within (gaps, 100, 100), ==, 1);
  g_assert_cmpuint (fmv_gaps_count_within (gaps, 0, 99), ==, 0);
  /* a count reaching past the last number does not wrap around */
  fmv_gaps_add (gaps, G_MAXUINT64 - 1, G_MAXUINT64);
  g_assert_cmpuint (fmv_gaps_count_within (gaps, G_MAXUINT64 - 10, G_MAXUINT64), ==, 2);

  fmv_gaps_forget_before (gaps, 8000003);     /* keeps the run holding it */
  g_assert_cmpuint (fmv_gaps_get_n_runs (gaps), ==, 3);
  g_assert_cmpuint (fmv_gaps_count_within (gaps, 1, 8000200), ==, 13);
  fmv_gaps_forget_before (gaps, 8000103);
  g_assert_cmpuint (fmv_gaps_get_n_runs (gaps), ==, 1);
  fmv_gaps_forget_before (gaps, G_MAXUINT64);
  g_assert_cmpuint (fmv_gaps_get_n_runs (gaps), ==, 1);       /* it holds the last number */
  fmv_gaps_forget_before (gaps, 0);
  g_assert_cmpuint (fmv_gaps_get_n_runs (gaps), ==, 1);
  fmv_gaps_clear (gaps);
  g_assert_cmpuint (fmv_gaps_count_within (gaps, 0, G_MAXUINT64), ==, 0);
}

/* ---- capture files ---------------------------------------------------------------------- */

static void
save_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Runs a save to the end; returns what fmv_capture_save_finish() says, and in @seqs
 * (unless NULL) the lowest and highest sequence numbers written. */
static gboolean
save_rows (FmvStore  *store,
           GArray    *rows,
           int        fd,
           guint64   *written,
           guint64    seqs[2],
           GError   **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  fmv_capture_save_async (store, rows, fd, FM_FORMAT_JSONL, NULL, save_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (seqs != NULL)
    g_assert_true (fmv_capture_save_get_seq_range (result, &seqs[0], &seqs[1]));
  return fmv_capture_save_finish (result, written, error);
}

static void
test_capture_round_trip (void)
{
  g_autoptr(FmvStore) store = store_with (3000);
  g_autoptr(FmvStore) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  FmEvent odd = { .seq = 9999, .syscall_nr = 257, .result = -13 };
  guint64 written = 0;
  guint n_bad = 99;
  int fd;

  fm_event_set_strings (&odd, "t\xe9st", "/tmp/\xff\xfe name \"quoted\"\n", NULL, "O_RDONLY");
  g_assert_true (fmv_store_append (store, &odd, NULL));

  fd = g_file_open_tmp ("fmv-test-XXXXXX.jsonl", &path, &error);
  g_assert_no_error (error);
  g_assert_true (save_rows (store, NULL, fd, &written, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (written, ==, 3001);

  file = g_file_new_for_path (path);
  back = fmv_capture_load (file, 0, NULL, &n_bad, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_bad, ==, 0);
  g_assert_cmpuint (fmv_store_get_n_rows (back), ==, 3001);
  for (guint i = 0; i < 3001; i++)
    {
      FmvStoreEvent a, b;

      g_assert_true (fm_event_equal (fmv_store_get_event (store, i, &a),
                                     fmv_store_get_event (back, i, &b)));
    }
  g_unlink (path);
}

/* "Save the events shown" writes exactly the rows the filtered, sorted list shows, in its
 * order. */
static void
test_capture_saves_the_rows_shown (void)
{
  g_autoptr(FmvStore) store = store_with (3000);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  g_autoptr(GArray) rows = NULL;
  g_autoptr(FmvStore) back = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  guint64 written = 0, seqs[2], lowest = G_MAXUINT64, highest = 0;
  int fd;

  g_assert_true (fmv_event_list_set_filter (list, "result<0", NULL));
  fmv_event_list_set_sort (list, FM_FIELD_TIME, TRUE);
  fmv_event_list_wait (list);
  rows = fmv_event_list_dup_shown_rows (list);
  g_assert_cmpuint (rows->len, ==, g_list_model_get_n_items (G_LIST_MODEL (list)));
  g_assert_cmpuint (rows->len, >, 0);
  g_assert_cmpuint (rows->len, <, 3000);

  fd = g_file_open_tmp ("fmv-test-XXXXXX.jsonl", &path, &error);
  g_assert_no_error (error);
  g_assert_true (save_rows (store, rows, fd, &written, seqs, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (written, ==, rows->len);
  /* the range Save's missed-events count is taken over, whatever the list's order */
  for (guint i = 0; i < rows->len; i++)
    {
      FmvStoreEvent stored;
      guint64 seq = fmv_store_get_event (store, g_array_index (rows, guint32, i), &stored)->seq;

      lowest = MIN (lowest, seq);
      highest = MAX (highest, seq);
    }
  g_assert_cmpuint (seqs[0], ==, lowest);
  g_assert_cmpuint (seqs[1], ==, highest);
  g_assert_cmpuint (seqs[0], <, seqs[1]);

  file = g_file_new_for_path (path);
  back = fmv_capture_load (file, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fmv_store_get_n_rows (back), ==, rows->len);
  for (guint i = 0; i < rows->len; i++)
    {
      FmvStoreEvent a, b;

      g_assert_true (fm_event_equal (fmv_store_get_event (store, fmv_event_list_get_row (list, i), &a),
                                     fmv_store_get_event (back, i, &b)));
    }
  g_unlink (path);
}

/* A save that cannot write everything fails and says how many of how many made it. */
static void
test_capture_save_reports_short_writes (void)
{
  g_autoptr(FmvStore) store = store_with (3000);
  g_autoptr(GError) error = NULL;
  g_autofree char *count = g_strdup_printf ("of %'u events written", 3000);
  guint64 written = 99;
  int fd = open ("/dev/full", O_WRONLY | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_false (save_rows (store, NULL, fd, &written, NULL, &error));
  g_assert_nonnull (error);
  g_assert_cmpuint (written, <, 3000);
  g_assert_nonnull (strstr (error->message, count));
}

/* The columns added for Process Monitor users: duration, user name, tid, ppid; a worker
 * thread's event shows its process's name (comm) and its own tid. */
static void
test_row_shows_duration_user_tid_ppid_and_process (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmvRow) leader = NULL;
  g_autoptr(FmvRow) thread = NULL;
  FmEvent a = { .seq = 1, .pid = 700, .tid = 700, .ppid = 1, .uid = 0, .duration_ns = 12345 };
  FmEvent b = { .seq = 2, .pid = 700, .tid = 703, .ppid = 1, .uid = 4294967, .duration_ns = 0 };
  g_autofree char *duration = NULL, *user = NULL, *tid = NULL, *ppid = NULL, *process = NULL;
  g_autofree char *thread_process = NULL, *thread_tid = NULL;
  g_autofree char *unknown_duration = NULL, *unknown_user = NULL;

  fm_event_set_strings (&a, "firefox", "/etc/hosts", NULL, NULL);
  fm_event_set_strings (&b, "firefox", "/etc/hosts", NULL, NULL);
  g_assert_true (fmv_store_append (store, &a, NULL));
  g_assert_true (fmv_store_append (store, &b, NULL));
  leader = fmv_row_new (store, 0);
  thread = fmv_row_new (store, 1);
  g_object_get (leader, "duration", &duration, "user", &user, "tid", &tid, "ppid", &ppid,
                "process", &process, NULL);
  g_assert_cmpstr (duration, ==, "12.3 µs");
  g_assert_cmpstr (user, ==, "root");
  g_assert_cmpstr (tid, ==, "700");
  g_assert_cmpstr (ppid, ==, "1");
  g_assert_cmpstr (process, ==, "firefox");
  g_object_get (thread, "process", &thread_process, "tid", &thread_tid,
                "duration", &unknown_duration, "user", &unknown_user, NULL);
  g_assert_cmpstr (thread_process, ==, "firefox");
  g_assert_cmpstr (thread_tid, ==, "703");
  g_assert_cmpstr (unknown_duration, ==, "");
  g_assert_cmpstr (unknown_user, ==, "4294967");
  g_assert_true (fmv_user_name (0) == fmv_user_name (0));
}

static char *
write_temp (const char *contents)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("fmv-test-XXXXXX.jsonl", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_capture_skips_and_counts_bad_lines (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(FmvStore) back = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autofree char *problem = NULL;
  guint n_bad = 0;

  for (guint i = 0; i < 10; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      fm_format_event (FM_FORMAT_JSONL, &t.event, text);
      if (i == 4)
        g_string_append (text, "{\"seq\": oops\n\r\n   \n");
    }
  /* The last line has no newline: it still counts. */
  g_string_truncate (text, text->len - 1);
  path = write_temp (text->str);
  file = g_file_new_for_path (path);
  back = fmv_capture_load (file, 0, NULL, &n_bad, &problem, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fmv_store_get_n_rows (back), ==, 10);
  g_assert_cmpuint (n_bad, ==, 1);
  g_assert_true (g_str_has_prefix (problem, "line 6 (byte "));
  g_unlink (path);
}

static void
test_capture_refuses_other_files (void)
{
  g_autofree char *path = write_temp ("this is not\na capture\n");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/capture.jsonl");
  g_autoptr(GError) error = NULL;
  FmvStore *store;

  store = fmv_capture_load (file, 0, NULL, NULL, NULL, &error);
  g_assert_null (store);
  g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "line 1"));
  g_clear_error (&error);

  store = fmv_capture_load (missing, 0, NULL, NULL, NULL, &error);
  g_assert_null (store);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_unlink (path);
}

/* ---- filter terms ----------------------------------------------------------------------- */

static void
test_terms_match_their_event_only (void)
{
  FmEvent ev = { .seq = 1, .pid = 10, .ppid = 9, .tid = 11, .uid = 1000, .result = -13,
                 .syscall_nr = fm_syscall_by_name ("renameat2")->nr };
  FmEvent other = { .seq = 2, .pid = 20, .ppid = 19, .tid = 21, .uid = 0, .result = 5,
                    .syscall_nr = fm_syscall_by_name ("openat")->nr };

  fm_event_set_strings (&ev, "my prog", "/tmp/it's a \\ \"file\" or not", "/tmp/\xff-and", "");
  fm_event_set_strings (&other, "and", "/tmp/x", "/tmp/y", "");
  for (FmFieldId f = 0; f < FM_N_FIELDS; f++)
    {
      g_autofree char *term = NULL;
      g_autofree char *combined = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(FmFilter) filter = NULL;
      g_autoptr(FmFilter) both = NULL;

      if (!fmv_filter_term_offered (f))
        continue;
      term = fmv_filter_term (f, &ev);
      combined = fmv_filter_and ("comm=x or comm='my prog'", term);
      filter = fm_filter_new (term, &error);
      g_test_message ("term: %s", term);
      g_assert_no_error (error);
      g_assert_true (fm_filter_match (filter, &ev));
      g_assert_false (fm_filter_match (filter, &other));
      both = fm_filter_new (combined, &error);
      g_assert_no_error (error);
      g_assert_true (fm_filter_match (both, &ev));
    }
  /* a time or a sequence number is an event's own */
  g_assert_false (fmv_filter_term_offered (FM_FIELD_TIME));
  g_assert_false (fmv_filter_term_offered (FM_FIELD_SEQ));
  {
    g_autofree char *term = fmv_filter_term (FM_FIELD_COMM, &other);
    g_autoptr(FmFilter) filter = fm_filter_new (term, NULL);

    /* A value spelled like an operator is quoted. */
    g_assert_nonnull (filter);
    g_assert_true (fm_filter_match (filter, &other));
  }
  {
    g_autofree char *joined = fmv_filter_and ("", "pid=1");

    g_assert_cmpstr (joined, ==, "pid=1");
  }
}

/* A set of pids as a term: readable (one term a pid, a range for a run), and joined with
 * "and" to a filter with an "or" it still means exactly the set, or all but it. */
static void
test_terms_pid_set_matches_exactly_its_pids (void)
{
  static const struct {
    guint32 pids[8];
    guint n;
    const char *include, *exclude;
  } cases[] = {
    { { 200 }, 1, "pid=200", "not pid=200" },
    { { 200, 300 }, 2, "(pid=200 or pid=300)", "not (pid=200 or pid=300)" },
    { { 200, 201 }, 2, "(pid=200 or pid=201)", "not (pid=200 or pid=201)" },
    { { 10, 11, 12 }, 3, "(pid>=10 and pid<=12)", "not (pid>=10 and pid<=12)" },
    { { 5, 10, 11, 12, 13, 20, 21, 40 }, 8, "(pid=5 or (pid>=10 and pid<=13) or pid=20 or pid=21 or pid=40)",
      "not (pid=5 or (pid>=10 and pid<=13) or pid=20 or pid=21 or pid=40)" },
  };

  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    for (int exclude = 0; exclude <= 1; exclude++)
      {
        g_autofree char *term = fmv_filter_pid_set (cases[c].pids, cases[c].n, exclude);
        g_autofree char *joined = fmv_filter_and ("comm=a or comm=b", term);
        g_autoptr(GError) error = NULL;
        g_autoptr(FmFilter) filter = NULL;

        g_test_message ("%s", joined);
        g_assert_cmpstr (term, ==, exclude ? cases[c].exclude : cases[c].include);
        filter = fm_filter_new (joined, &error);
        g_assert_no_error (error);
        for (guint32 pid = 1; pid < 400; pid++)
          {
            FmEvent ev = { .seq = 1, .pid = pid, .syscall_nr = fm_syscall_by_name ("openat")->nr };
            gboolean in_set = FALSE;

            for (guint i = 0; i < cases[c].n; i++)
              in_set |= cases[c].pids[i] == pid;
            fm_event_set_strings (&ev, pid % 2 ? "a" : "c", "/x", "", "");
            g_assert_cmpint (fm_filter_match (filter, &ev), ==, (pid % 2 == 1) && (in_set != exclude));
          }
      }
}

/* Joining adds parentheses only where an "or" outside any would take the new term. */
static void
test_terms_and_parenthesizes_only_a_top_level_or (void)
{
  static const struct { const char *current, *joined; } cases[] = {
    { "(pid=200 or pid=300)", "(pid=200 or pid=300) and x" },
    { "not (pid=1 or pid=2)", "not (pid=1 or pid=2) and x" },
    { "path='/a or b' and comm=\"c or d\"", "path='/a or b' and comm=\"c or d\" and x" },
    { "comm=a OR comm=b", "(comm=a OR comm=b) and x" },
    { "comm=a || comm=b", "(comm=a || comm=b) and x" },
    { "(comm=a)or(comm=b)", "((comm=a)or(comm=b)) and x" },
    { "comm=orca and comm=major", "comm=orca and comm=major and x" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *joined = fmv_filter_and (cases[i].current, "x");

      g_assert_cmpstr (joined, ==, cases[i].joined);
    }
}

/* ---- filter completion ------------------------------------------------------------------ */

/* @text without its '|', and in *@at where it was (the end without one). */
static char *
take_bar (const char *text,
          gsize      *at)
{
  const char *bar = strchr (text, '|');

  *at = bar ? (gsize) (bar - text) : strlen (text);
  return bar ? g_strdup_printf ("%.*s%s", (int) (bar - text), text, bar + 1) : g_strdup (text);
}

/* Completes @text at its '|' (or its end) and checks the text, the cursor (the '|' of
 * @want_text, or its end) and the candidates offered, space-separated. */
static void
check_completion (const char *text,
                  const char *want_text,
                  const char *want_words)
{
  gsize cursor;
  gsize want_cursor;
  g_autofree char *plain = take_bar (text, &cursor);
  g_autofree char *want_plain = NULL;
  g_autoptr(FmvCompletion) c = fmv_filter_complete (plain, cursor);
  g_autoptr(GString) words = g_string_new (NULL);

  g_test_message ("complete '%s' -> '%s'", text, c ? c->text : "(none)");
  if (want_text == NULL)
    {
      g_assert_null (c);
      return;
    }
  g_assert_nonnull (c);
  want_plain = take_bar (want_text, &want_cursor);
  g_assert_cmpstr (c->text, ==, want_plain);
  g_assert_cmpuint (c->cursor, ==, want_cursor);
  for (guint i = 0; c->words != NULL && i < c->words->len; i++)
    g_string_append_printf (words, "%s%s", i ? " " : "", (char *) g_ptr_array_index (c->words, i));
  g_assert_cmpstr (c->words ? words->str : NULL, ==, want_words);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* @words sorted and joined by spaces, as check_completion's want_words */
static char *
join_sorted (GPtrArray *words)
{
  g_autoptr(GString) joined = g_string_new (NULL);

  g_ptr_array_sort (words, compare_strings);
  for (guint i = 0; i < words->len; i++)
    g_string_append_printf (joined, "%s%s", i ? " " : "", (char *) g_ptr_array_index (words, i));
  return g_string_free (g_steal_pointer (&joined), FALSE);
}

/* The table's syscall names beginning with @prefix: the table grows with the kernel
 * (open_by_handle_at, open_tree, ...) and the expected completions follow it. */
static char *
syscalls_starting_with (const char *prefix)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint n;
  const FmSyscall *all = fm_syscalls_all (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_has_prefix (all[i].name, prefix))
      g_ptr_array_add (names, (gpointer) all[i].name);
  return join_sorted (names);
}

static void
test_filter_completes_fields_and_values (void)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new ();
  g_autofree char *every_field = NULL;
  g_autofree char *open_calls = syscalls_starting_with ("op");

  /* field names, with the operator they are used with */
  check_completion ("sys", "syscall=", NULL);
  check_completion ("comm=sshd and err", "comm=sshd and errno=", NULL);
  check_completion ("(du", "(duration>", NULL);
  check_completion ("p", "p", "path2~ path~ pid= ppid=");
  check_completion ("pa", "path", "path2~ path~");
  check_completion ("Sys", "syscall=", NULL);
  /* every field of the table is offered for an empty word */
  for (guint i = 0; i < FM_N_FIELDS; i++)
    g_ptr_array_add (fields, (gpointer) fm_event_fields[i].completion);
  every_field = join_sorted (fields);
  check_completion ("comm=a and ", "comm=a and ", every_field);

  /* values: syscall and errno names, in their own case */
  check_completion ("syscall=renamea", "syscall=renameat", "renameat renameat2");
  check_completion ("syscall=renameat2", "syscall=renameat2 ", NULL);
  check_completion ("errno=eacc", "errno=EACCES ", NULL);
  check_completion ("errno!=ENOE", "errno!=ENOE", "ENOENT ENOEXEC");
  check_completion ("errno!=ENOEN", "errno!=ENOENT ", NULL);
  check_completion ("syscall=openat2|and pid=1", "syscall=openat2 |and pid=1", NULL);
  /* every call of the table is offered, in order, the common prefix typed for you */
  g_assert_true (g_str_has_prefix (open_calls, "open open_"));
  g_assert_nonnull (strstr (open_calls, " openat openat2"));
  check_completion ("not syscall=op| or x", "not syscall=open| or x", open_calls);

  /* nothing to offer */
  check_completion ("syscall=nosuchcall", NULL, NULL);
  check_completion ("comm=ssh", NULL, NULL);
  check_completion ("xyz", NULL, NULL);
  check_completion ("result<-EN", NULL, NULL);
}

/* ---- highlight rules -------------------------------------------------------------------- */

static void
count_changes (FmvHighlights *highlights,
               guint         *n)
{
  (*n)++;
}

static void
test_highlights_first_matching_rule_gives_the_colour (void)
{
  g_autoptr(FmvHighlights) highlights = fmv_highlights_new ();
  g_autoptr(GError) error = NULL;
  FmvTestEvent t;
  guint changes = 0;

  g_signal_connect (highlights, "changed", G_CALLBACK (count_changes), &changes);
  fmv_test_event (&t, 0);
  g_assert_cmpint (fmv_highlights_match (highlights, &t.event), ==, -1);

  g_assert_true (fmv_highlights_add (highlights, "result<0", &error));
  g_assert_true (fmv_highlights_add (highlights, "comm=sshd", &error));
  g_assert_true (fmv_highlights_add (highlights, "comm=sshd", &error));   /* not twice */
  g_assert_no_error (error);
  g_assert_cmpuint (fmv_highlights_get_n (highlights), ==, 2);
  g_assert_cmpuint (changes, ==, 2);
  g_assert_false (fmv_highlights_add (highlights, "comm=", &error));
  g_assert_nonnull (error);
  g_assert_cmpuint (fmv_highlights_get_n (highlights), ==, 2);

  /* Event 0 is sshd's failed openat: the first rule's colour. */
  g_assert_cmpstr (t.comm, ==, "sshd");
  g_assert_cmpint (t.event.result, <, 0);
  g_assert_cmpint (fmv_highlights_match (highlights, &t.event), ==, (int) fmv_highlights_get_colour (highlights, 0));
  fmv_highlights_remove (highlights, 0);
  g_assert_cmpuint (changes, ==, 3);
  g_assert_cmpstr (fmv_highlights_get_text (highlights, 0), ==, "comm=sshd");
  g_assert_cmpint (fmv_highlights_match (highlights, &t.event), ==, (int) fmv_highlights_get_colour (highlights, 0));
  g_assert_cmpuint (fmv_highlights_get_colour (highlights, 0), !=, 0);   /* kept its colour */
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viewer/store/reads-back-every-field", test_store_reads_back_every_field);
  g_test_add_func ("/viewer/highlights/first-matching-rule-gives-the-colour",
                   test_highlights_first_matching_rule_gives_the_colour);
  g_test_add_func ("/viewer/store/keeps-bytes-spans-pages-and-holds-a-repeated-name-once",
                   test_store_keeps_bytes_and_spans_pages);
  g_test_add_func ("/viewer/store/keeps-sequence-gaps", test_store_keeps_sequence_gaps);
  g_test_add_func ("/viewer/store/compares-paths-as-bytes", test_store_compares_paths_as_bytes);
  g_test_add_func ("/viewer/store/gives-back-the-stream-records",
                   test_store_gives_back_stream_records);
  g_test_add_func ("/viewer/row/formats-columns", test_row_formats_columns);
  g_test_add_func ("/viewer/row/escapes-controls-and-bidi", test_row_escapes_controls_and_bidi);
  g_test_add_func ("/viewer/list/shows-every-row-without-filter", test_list_shows_every_row_without_filter);
  g_test_add_func ("/viewer/list/counts-only-rows-taken-in", test_list_counts_only_rows_taken_in);
  g_test_add_func ("/viewer/list/timed-update-ramps-while-short", test_list_timed_update_ramps_while_short);
  g_test_add_func ("/viewer/list/filters-in-background-and-keeps-up", test_list_filters_in_background_and_keeps_up);
  g_test_add_func ("/viewer/list/filter-taking-every-row-then-not", test_list_filter_taking_every_row_then_not);
  g_test_add_func ("/viewer/list/rows-arriving-during-refilter-are-kept", test_list_rows_arriving_during_refilter_are_kept);
  g_test_add_func ("/viewer/list/newer-filter-wins", test_list_newer_filter_wins);
  g_test_add_func ("/viewer/list/bad-filter-keeps-previous", test_list_bad_filter_keeps_previous);
  g_test_add_func ("/viewer/list/sorts-by-every-column-and-merges-new-rows", test_list_sorts_by_every_column_and_merges_new_rows);
  g_test_add_func ("/viewer/list/finds-failures-both-ways", test_list_finds_failures_both_ways);
  g_test_add_func ("/viewer/list/find-row-maps-back", test_list_find_row_maps_back);
  g_test_add_func ("/viewer/list/find-selects-matches-both-ways-without-filtering", test_list_find_match);
  g_test_add_func ("/viewer/list/set-store-replaces-rows", test_list_set_store_replaces_rows);
  g_test_add_func ("/viewer/list/resetting-comes-before-the-rows-change",
                   test_list_resetting_comes_before_the_rows_change);
  g_test_add_func ("/viewer/row/shows-duration-user-tid-ppid-and-process",
                   test_row_shows_duration_user_tid_ppid_and_process);
  g_test_add_func ("/viewer/capture/round-trip", test_capture_round_trip);
  g_test_add_func ("/viewer/capture/saves-the-rows-shown", test_capture_saves_the_rows_shown);
  g_test_add_func ("/viewer/capture/missed-counted-only-within-the-saved-range",
                   test_gaps_counted_within_the_saved_range);
  g_test_add_func ("/viewer/capture/save-reports-short-writes", test_capture_save_reports_short_writes);
  g_test_add_func ("/viewer/capture/skips-and-counts-bad-lines", test_capture_skips_and_counts_bad_lines);
  g_test_add_func ("/viewer/capture/refuses-other-files", test_capture_refuses_other_files);
  g_test_add_func ("/viewer/terms/match-their-event-only", test_terms_match_their_event_only);
  g_test_add_func ("/viewer/terms/pid-set-matches-exactly-its-pids", test_terms_pid_set_matches_exactly_its_pids);
  g_test_add_func ("/viewer/terms/and-parenthesizes-only-a-top-level-or",
                   test_terms_and_parenthesizes_only_a_top_level_or);
  g_test_add_func ("/viewer/filter/completes-fields-and-values", test_filter_completes_fields_and_values);

  return g_test_run ();
}
