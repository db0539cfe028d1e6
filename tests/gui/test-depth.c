/* test-depth.c: the viewer's history depth without a display: the store keeps the newest
 * rows and gives back the memory and strings of the others, readers in other threads keep
 * what they hold, and the event list, Save and Open see exactly the rows kept. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "fm-filter.h"
#include "fmv-capture.h"
#include "fmv-event-list.h"
#include "fmv-row.h"
#include "fmv-store.h"
#include "fmv-test-events.h"

#define PAGE FMV_STORE_PAGE_ROWS
/* a path of its own for every ROWS_PER_PATH rows: strings only some rows name */
#define ROWS_PER_PATH 64u

/* Event @i: the test events' fields, but a path shared only by its ROWS_PER_PATH rows. */
static void
depth_event (FmvTestEvent *t,
             guint         i)
{
  fmv_test_event (t, i);
  g_snprintf (t->path, sizeof t->path, "/depth/%u", i / ROWS_PER_PATH);
  t->event.path = t->path;
  t->event.path_len = strlen (t->path);
}

static void
append_range (FmvStore *store,
              guint     from,
              guint     to)
{
  for (guint i = from; i < to; i++)
    {
      FmvTestEvent t;
      guint row;

      depth_event (&t, i);
      g_assert_true (fmv_store_append (store, &t.event, &row));
      g_assert_cmpuint (row, ==, i);
    }
}

static void
assert_row_is_event (FmvStore *store,
                     guint     row)
{
  FmvTestEvent t;
  FmvStoreEvent stored;
  const FmEvent *ev;

  depth_event (&t, row);
  ev = fmv_store_get_event (store, row, &stored);
  g_assert_true (fm_event_equal (ev, &t.event));
}

static void
count_cb (gpointer  instance,
          guint    *count)
{
  (*count)++;
}

static void
count_changes_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  (*count)++;
}

/* Ten pages into a store three pages deep: the first row moves on, the numbers stay the
 * ones rows were given, every row kept reads back as appended, and the strings only the
 * rows let go named are gone. */
static void
test_store_keeps_the_newest_rows (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmvStore) unbounded = fmv_store_new ();
  guint n_releasing = 0;
  FmvStoreEvent stored;
  const FmEvent *ev;

  fmv_store_set_depth (store, 3 * PAGE);
  g_signal_connect (store, "releasing", G_CALLBACK (count_cb), &n_releasing);
  append_range (store, 0, 10 * PAGE);
  append_range (unbounded, 0, 10 * PAGE);

  g_assert_cmpuint (fmv_store_get_n_rows (store), ==, 10 * PAGE);
  g_assert_cmpuint (fmv_store_get_first_row (store), ==, 7 * PAGE);
  g_assert_false (fmv_store_has_row (store, 7 * PAGE - 1));
  g_assert_true (fmv_store_has_row (store, 7 * PAGE));
  for (guint row = 7 * PAGE; row < 10 * PAGE; row += 997)
    assert_row_is_event (store, row);
  assert_row_is_event (store, 10 * PAGE - 1);
  ev = fmv_store_get_event (store, 7 * PAGE, &stored);
  g_assert_cmpuint (ev->seq, ==, 7 * PAGE + 1);
  /* one release of memory a page, not one a row */
  g_assert_cmpuint (n_releasing, ==, 7);

  /* The paths of three pages (and the few comms, flags and rename targets), not of ten. */
  g_assert_cmpuint (fmv_store_get_n_strings (unbounded), >=, 10 * PAGE / ROWS_PER_PATH);
  g_assert_cmpuint (fmv_store_get_n_strings (store), <=, 3 * PAGE / ROWS_PER_PATH + 200);
  g_assert_cmpuint (fmv_store_get_memory_size (store), <, fmv_store_get_memory_size (unbounded) / 2);

  /* A row object of a row let go reads as empty rather than as freed memory. */
  {
    g_autoptr(FmvRow) gone = fmv_row_new (store, 0);

    ev = fmv_row_get_event (gone, &stored);
    g_assert_cmpuint (ev->seq, ==, 0);
    g_assert_cmpuint (ev->path_len, ==, 0);
    g_assert_false (fmv_row_get_failed (gone));
  }

  /* A smaller depth lets rows go at once. */
  fmv_store_set_depth (store, PAGE);
  g_assert_cmpuint (fmv_store_get_first_row (store), ==, 9 * PAGE);
  g_assert_cmpuint (fmv_store_get_n_strings (store), <=, PAGE / ROWS_PER_PATH + 200);
  assert_row_is_event (store, 9 * PAGE);
}

/* While a reader holds the store, the first row moves on but the rows' memory and strings
 * stay; they go when the last hold ends. */
static void
test_store_hold_keeps_memory_until_released (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  guint n_releasing = 0, held_strings;

  fmv_store_set_depth (store, PAGE);
  g_signal_connect (store, "releasing", G_CALLBACK (count_cb), &n_releasing);
  append_range (store, 0, PAGE);
  held_strings = fmv_store_get_n_strings (store);

  fmv_store_hold (store);
  fmv_store_hold (store);
  append_range (store, PAGE, 3 * PAGE);
  g_assert_cmpuint (fmv_store_get_first_row (store), ==, 2 * PAGE);
  g_assert_cmpuint (n_releasing, ==, 0);
  /* what a reader that started before may still read */
  assert_row_is_event (store, 0);
  assert_row_is_event (store, PAGE + 5);
  g_assert_cmpuint (fmv_store_get_n_strings (store), >=, 3 * PAGE / ROWS_PER_PATH);

  fmv_store_unhold (store);
  g_assert_cmpuint (n_releasing, ==, 0);
  /* the last one: on this (the owner's) thread the memory goes at once */
  fmv_store_unhold (store);
  g_assert_cmpuint (n_releasing, ==, 1);
  g_assert_cmpuint (fmv_store_get_n_strings (store), <=, held_strings + 200);
  assert_row_is_event (store, 2 * PAGE);
}

/* The rows a list shows: the store's rows kept that match @filter_text, in the list's
 * order (checked by the caller), each once. */
static void
assert_list_shows_kept_rows (FmvEventList *list,
                             FmvStore     *store,
                             const char   *filter_text)
{
  g_autoptr(FmFilter) filter = filter_text ? fm_filter_new (filter_text, NULL) : NULL;
  g_autoptr(GHashTable) shown = g_hash_table_new (NULL, NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  guint expected = 0;

  for (guint p = 0; p < n; p++)
    {
      guint row = fmv_event_list_get_row (list, p);

      g_assert_true (fmv_store_has_row (store, row));
      g_assert_true (g_hash_table_add (shown, GUINT_TO_POINTER (row + 1)));
    }
  for (guint row = fmv_store_get_first_row (store); row < fmv_store_get_n_rows (store); row++)
    {
      FmvStoreEvent stored;
      const FmEvent *ev;

      ev = fmv_store_get_event (store, row, &stored);
      if (filter != NULL && !fm_filter_match (filter, ev))
        continue;
      g_assert_true (g_hash_table_contains (shown, GUINT_TO_POINTER (row + 1)));
      expected++;
    }
  g_assert_cmpuint (n, ==, expected);
}

static void
assert_sorted_by_path (FmvEventList *list)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));

  for (guint p = 1; p < n; p++)
    {
      FmvStoreEvent sa, sb;
      const FmEvent *a, *b;
      int r;

      a = fmv_store_get_event (fmv_event_list_get_store (list), fmv_event_list_get_row (list, p - 1), &sa);
      b = fmv_store_get_event (fmv_event_list_get_store (list), fmv_event_list_get_row (list, p), &sb);
      r = strcmp (a->path, b->path);
      g_assert_true (r < 0 || (r == 0 && a->seq < b->seq));
    }
}

typedef struct {
  const char *filter;
  FmvSortField column;
} ListCase;

/* Plain, filtered, and filtered and sorted lists after the store let rows go: exactly the
 * rows kept that match; the rows gone leave in one items-changed. Then the same while a
 * refilter runs: the rows it was given go when it lands. */
static void
test_list_shows_only_rows_kept (void)
{
  static const ListCase cases[] = {
    { NULL, FMV_SORT_ARRIVAL },
    { "result<0", FMV_SORT_ARRIVAL },
    { "result<0 or syscall=read", FM_FIELD_PATH },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(FmvStore) store = fmv_store_new ();
      g_autoptr(FmvEventList) list = fmv_event_list_new (store);
      guint n_changes = 0, n_releasing = 0;

      fmv_store_set_depth (store, 2 * PAGE);
      g_assert_true (fmv_event_list_set_filter (list, cases[c].filter, NULL));
      fmv_event_list_set_sort (list, cases[c].column, FALSE);
      append_range (store, 0, PAGE);
      fmv_event_list_wait (list);
      assert_list_shows_kept_rows (list, store, cases[c].filter);

      /* Half a page past the depth: nothing freed yet, the list lets the rows go at its
       * next update, in one change. */
      append_range (store, PAGE, 2 * PAGE + PAGE / 2);
      g_signal_connect (list, "items-changed", G_CALLBACK (count_changes_cb), &n_changes);
      fmv_event_list_update_now (list);
      g_assert_cmpuint (n_changes, ==, 2);   /* the rows gone, then the rows new */
      assert_list_shows_kept_rows (list, store, cases[c].filter);
      if (cases[c].column == FM_FIELD_PATH)
        assert_sorted_by_path (list);
      if (cases[c].filter == NULL)
        {
          g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 2 * PAGE);
          g_assert_cmpuint (fmv_event_list_get_row (list, 0), ==, PAGE / 2);
        }

      /* A page freed: the list drops its rows before their memory goes. */
      append_range (store, 2 * PAGE + PAGE / 2, 4 * PAGE);
      fmv_event_list_update_now (list);
      assert_list_shows_kept_rows (list, store, cases[c].filter);

      /* A refilter given rows that go while it runs: it holds the store, so their memory
       * stays until its result landed (on this thread, which has not run it yet). */
      g_assert_true (fmv_event_list_set_filter (list, "not syscall=close", NULL));
      g_assert_true (fmv_event_list_get_busy (list));
      g_signal_connect (store, "releasing", G_CALLBACK (count_cb), &n_releasing);
      append_range (store, 4 * PAGE, 6 * PAGE + 100);
      g_assert_cmpuint (fmv_store_get_first_row (store), ==, 4 * PAGE + 100);
      g_assert_true (fmv_event_list_get_busy (list));
      g_assert_cmpuint (n_releasing, ==, 0);
      fmv_event_list_wait (list);
      g_assert_cmpuint (n_releasing, ==, 1);
      assert_list_shows_kept_rows (list, store, "not syscall=close");
      if (cases[c].column == FM_FIELD_PATH)
        assert_sorted_by_path (list);
    }
}

/* Refilters with text tests, which the worker decides once per string (fm-filter-memo.h),
 * show exactly the rows fm_filter_match takes: before the depth is reached, after pages
 * went with the strings only their rows named, after new strings took those ids, and with
 * rows coming (and strings interned) while the refilter runs. */
static void
test_text_refilter_at_depth (void)
{
  static const char *const filters[] = {
    "depth/1", "path~'7$'", "path=/depth/*3", "not depth/2 and (comm=bash or passwd)",
    "path=/etc/*", "SHADOW or shadow", "/depth.1[0-9]$/", "path!=/depth/*5 and detail~o_cloexec",
  };
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);
  guint end = 0;

  fmv_store_set_depth (store, 2 * PAGE);
  for (guint round = 0; round < 4; round++)
    {
      append_range (store, end, end + PAGE + PAGE / 3);
      end += PAGE + PAGE / 3;
      for (gsize f = 0; f < G_N_ELEMENTS (filters); f++)
        {
          g_assert_true (fmv_event_list_set_filter (list, filters[f], NULL));
          if (f == 0)
            {
              /* new paths while the worker runs: their rows are matched when it lands */
              g_assert_true (fmv_event_list_get_busy (list));
              append_range (store, end, end + 1000);
              end += 1000;
            }
          fmv_event_list_wait (list);
          assert_list_shows_kept_rows (list, store, filters[f]);
        }
    }
  /* the ids of the paths that went were given to new ones */
  g_assert_cmpuint (fmv_store_get_string_id_bound (store), <, end / ROWS_PER_PATH);
}

static void
save_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Save all writes the rows kept, and opening a longer file keeps its newest rows. */
static void
test_save_and_open_keep_the_newest (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmvStore) back = NULL;
  g_autoptr(FmvStore) shallow = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  guint64 written = 0;
  guint first, n_releasing = 0;
  int fd;

  fmv_store_set_depth (store, PAGE + 1000);
  append_range (store, 0, 2 * PAGE + 5);
  first = fmv_store_get_first_row (store);
  g_assert_cmpuint (first, ==, PAGE - 995);

  fd = g_file_open_tmp ("fmv-depth-XXXXXX.jsonl", &path, &error);
  g_assert_no_error (error);
  fmv_capture_save_async (store, NULL, fd, FM_FORMAT_JSONL, NULL, save_done_cb, &result);
  /* Rows let go while the save runs are still written: it holds their memory until it is
   * done (its callback, on this thread, has not run yet). */
  g_signal_connect (store, "releasing", G_CALLBACK (count_cb), &n_releasing);
  append_range (store, 2 * PAGE + 5, 4 * PAGE);
  g_assert_cmpuint (fmv_store_get_first_row (store), >, 2 * PAGE);
  g_assert_cmpuint (n_releasing, ==, 0);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (fmv_capture_save_finish (result, &written, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (written, ==, PAGE + 1000);
  /* then they go, on this thread, once the save's task is gone */
  g_clear_object (&result);
  while (n_releasing == 0)
    g_main_context_iteration (NULL, TRUE);

  file = g_file_new_for_path (path);
  back = fmv_capture_load (file, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fmv_store_get_n_rows (back), ==, PAGE + 1000);
  for (guint row = 0; row < PAGE + 1000; row += 501)
    {
      FmvTestEvent t;
      FmvStoreEvent b;

      depth_event (&t, first + row);
      g_assert_true (fm_event_equal (&t.event, fmv_store_get_event (back, row, &b)));
    }

  shallow = fmv_capture_load (file, 1000, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fmv_store_get_n_rows (shallow) - fmv_store_get_first_row (shallow), ==, 1000);
  {
    FmvStoreEvent stored;
    const FmEvent *ev;

    ev = fmv_store_get_event (shallow, fmv_store_get_first_row (shallow), &stored);
    g_assert_cmpuint (ev->seq, ==, first + PAGE + 1);
  }
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viewer/depth/store-keeps-the-newest-rows", test_store_keeps_the_newest_rows);
  g_test_add_func ("/viewer/depth/hold-keeps-memory-until-released", test_store_hold_keeps_memory_until_released);
  g_test_add_func ("/viewer/depth/list-shows-only-rows-kept", test_list_shows_only_rows_kept);
  g_test_add_func ("/viewer/depth/text-refilter-matches-each-row", test_text_refilter_at_depth);
  g_test_add_func ("/viewer/depth/save-and-open-keep-the-newest", test_save_and_open_keep_the_newest);
  return g_test_run ();
}
