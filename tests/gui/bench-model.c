/* bench-model.c: the viewer's numbers for a million events: memory per row (RSS growth
 * while a generated jsonl capture loads), refilter and sort times, append throughput
 * through the stream decoder (the live path), batch updates of a filtered list, and the
 * analysis views (process tree, file summary, value counts) of every row, and an event's
 * Process tab.
 *   bench-model [N]   (default 1000000) */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fm-format.h"
#include "fm-stream.h"
#include "fmv-analysis.h"
#include "fmv-capture.h"
#include "fmv-event-list.h"
#include "fmv-match.h"
#include "fmv-process-index.h"
#include "fmv-process-text.h"
#include "fmv-test-events.h"

static gsize
rss_bytes (void)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  p = strstr (status, "VmRSS:");
  return p ? (gsize) strtoull (p + 6, NULL, 10) * 1024 : 0;
}

static double
refilter (FmvEventList *list,
          const char   *text)
{
  gint64 start = g_get_monotonic_time ();

  if (!fmv_event_list_set_filter (list, text, NULL))
    g_error ("filter %s does not parse", text);
  fmv_event_list_wait (list);
  return (g_get_monotonic_time () - start) / 1e6;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The refilter's loop over every row (fmv-match.c) as it was, testing each row's strings,
 * and with the memo of verdicts per string id the list now uses, side by side: three runs
 * each, interleaved, their medians. */
static void
compare_memo (FmvStore          *store,
              const char *const *filters,
              gsize              n_filters)
{
  guint first = fmv_store_get_first_row (store), end = fmv_store_get_n_rows (store);
  g_autofree guint32 *rows = g_new (guint32, end - first);

  printf ("refilter loop of %u rows, median of 3 (string ids: %u):\n", end - first,
          fmv_store_get_string_id_bound (store));
  for (gsize i = 0; i < n_filters; i++)
    {
      g_autoptr(FmFilter) filter = fm_filter_new (filters[i], NULL);
      double plain[3], memo[3];
      guint n_plain = 0, n_memo = 0, n_matched = 0;
      gsize memo_size = 0;

      g_assert_nonnull (filter);
      for (guint run = 0; run < 6; run++)
        {
          /* plain, memo, memo, plain, plain, memo: neither always comes first */
          gboolean with_memo = (run % 4 == 1 || run % 4 == 2);
          gint64 start = g_get_monotonic_time ();
          g_autoptr(FmFilterMemo) m = NULL;
          guint n_rows;

          if (with_memo)
            m = fm_filter_memo_new (filter, fmv_store_get_string_id_bound (store));
          n_rows = fmv_match_rows (store, filter, m, first, end, rows, NULL);
          if (with_memo)
            {
              memo[n_memo++] = (g_get_monotonic_time () - start) / 1e6;
              memo_size = m != NULL ? fm_filter_memo_get_size (m) : 0;
            }
          else
            plain[n_plain++] = (g_get_monotonic_time () - start) / 1e6;
          if (run > 0)
            g_assert_cmpuint (n_rows, ==, n_matched);
          n_matched = n_rows;
        }
      qsort (plain, 3, sizeof (double), compare_doubles);
      qsort (memo, 3, sizeof (double), compare_doubles);
      printf ("  \"%s\": each row %.3f s, memo %.3f s (%.1fx; memo %" G_GSIZE_FORMAT
              " bytes) -> %u rows\n", filters[i], plain[1], memo[1], plain[1] / memo[1],
              memo_size, n_matched);
    }
}

static gboolean
count_event (const FmEvent *event, gpointer user_data)
{
  return fmv_store_append (user_data, event, NULL);
}

int
main (int argc, char *argv[])
{
  guint n = argc > 1 ? (guint) strtoul (argv[1], NULL, 10) : 1000000;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(FmvStore) store = NULL;
  g_autoptr(FmvEventList) list = NULL;
  g_autoptr(GFile) file = NULL;
  guint8 header[FM_STREAM_HEADER_SIZE];
  gsize rss_before, rss_after;
  gint64 start;
  double seconds;
  int fd;

  /* A capture file of n events. */
  fd = g_file_open_tmp ("fmv-bench-XXXXXX.jsonl", &path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      fm_format_event (FM_FORMAT_JSONL, &t.event, text);
      if (text->len > (1 << 20) || i + 1 == n)
        {
          g_assert_cmpint (write (fd, text->str, text->len), ==, (gssize) text->len);
          g_string_truncate (text, 0);
        }
      fm_record_append_event (stream, &t.event);
    }
  close (fd);

  /* Memory per row: RSS growth while loading the whole capture into a store. */
  file = g_file_new_for_path (path);
  rss_before = rss_bytes ();
  start = g_get_monotonic_time ();
  store = fmv_capture_load (file, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  rss_after = rss_bytes ();
  g_unlink (path);
  printf ("rows: %u\n", fmv_store_get_n_rows (store));
  printf ("load jsonl: %.2f s (%.0f rows/s)\n", seconds, n / seconds);
  printf ("memory per row: %.1f bytes (RSS delta %.1f MiB; store accounts %.1f bytes/row)\n",
          (double) (rss_after - rss_before) / n, (rss_after - rss_before) / 1048576.0,
          (double) fmv_store_get_memory_size (store) / n);

  /* The analysis views of the whole capture. */
  {
    g_autoptr(GArray) rows = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
    g_autoptr(FmvAnalysis) analysis = NULL;
    g_autoptr(GArray) counts = NULL;

    for (guint32 i = 0; i < fmv_store_get_n_rows (store); i++)
      g_array_append_val (rows, i);
    start = g_get_monotonic_time ();
    analysis = fmv_analysis_new (store, (guint32 *) (gpointer) rows->data, rows->len);
    printf ("process tree and file summary: %.3f s (%u processes, %u files)\n",
            (g_get_monotonic_time () - start) / 1e6, analysis->processes->len, analysis->files->len);
    start = g_get_monotonic_time ();
    counts = fmv_analysis_count_values (store, (guint32 *) (gpointer) rows->data, rows->len, FM_FIELD_PATH);
    printf ("count occurrences of paths: %.3f s (%u values)\n",
            (g_get_monotonic_time () - start) / 1e6, counts->len);
  }

  /* An event's Process tab: the index read once over every row (in a worker thread in
   * the viewer), then one more row appended read alone, then the tab's text of the last
   * event, which is all that opening the properties of an event costs on the main thread
   * once the index is there. */
  {
    g_autoptr(FmvProcessIndex) index = fmv_process_index_new (store);
    g_autoptr(FmvProcessText) tab = NULL;
    FmvTestEvent t;

    start = g_get_monotonic_time ();
    fmv_process_index_update (index);
    printf ("process index of every row: %.3f s\n", (g_get_monotonic_time () - start) / 1e6);
    fmv_test_event (&t, n);
    g_assert_true (fmv_store_append (store, &t.event, NULL));
    start = g_get_monotonic_time ();
    fmv_process_index_update (index);
    printf ("process index of one more row: %.6f s\n", (g_get_monotonic_time () - start) / 1e6);
    start = g_get_monotonic_time ();
    tab = fmv_process_text_new (index, fmv_store_get_n_rows (store) - 1);
    printf ("process tab of an event: %.6f s (%u fields, %u parents)\n", (g_get_monotonic_time () - start) / 1e6,
            tab->fields->len, tab->parents->len);
  }

  /* The same for a build: a process every 50 events (20 000 in a million), each an exec,
   * a chdir and 48 reads, all children of the first one (make). */
  {
    g_autoptr(FmvStore) build = fmv_store_new ();
    g_autoptr(FmvProcessIndex) index = fmv_process_index_new (build);
    g_autoptr(FmvProcessText) tab = NULL;

    for (guint i = 0; i < n; i++)
      {
        const char *syscall = i % 50 == 0 ? "execve" : i % 50 == 1 ? "chdir" : "read";
        FmEvent ev = {
          .seq = i + 1,
          .time_ns = (guint64) i * 1000,
          .pid = 1000 + i / 50,
          .ppid = i < 50 ? 1 : 1000,
          .tid = 1000 + i / 50,
          .uid = 1000,
          .result = 0,
          .syscall_nr = fm_syscall_by_name (syscall)->nr,
        };

        fm_event_set_strings (&ev, "cc1", i % 50 == 1 ? "/src/sub" : "/usr/lib/gcc/cc1", NULL,
                              i % 50 == 0 ? "[\"cc1\", \"-O2\", \"main.c\"]" : "fd=3 count=4096");
        g_assert_true (fmv_store_append (build, &ev, NULL));
      }
    start = g_get_monotonic_time ();
    fmv_process_index_update (index);
    printf ("process index of a build's %u rows: %.3f s\n", n, (g_get_monotonic_time () - start) / 1e6);
    start = g_get_monotonic_time ();
    tab = fmv_process_text_new (index, n - 1);
    printf ("process tab of its last event: %.6f s (%u parents)\n", (g_get_monotonic_time () - start) / 1e6,
            tab->parents->len);
  }

  /* The live path: stream records fed 256 KiB at a time to the decoder, into a store
   * (what the viewer does). The best of three runs: on a shared machine the best is the
   * one least disturbed. */
  {
    double best = 0;

    for (guint run = 0; run < 3; run++)
      {
        static const FmStreamCallbacks callbacks = { .event = count_event };
        g_autoptr(FmvStore) into = fmv_store_new ();
        g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&callbacks, into);

        fm_stream_write_header (header);
        start = g_get_monotonic_time ();
        g_assert_true (fm_stream_decoder_feed (decoder, header, sizeof header, NULL));
        for (gsize off = 0; off < stream->len; off += 256 * 1024)
          g_assert_true (fm_stream_decoder_feed (decoder, stream->data + off,
                                                 MIN (256 * 1024, stream->len - off), NULL));
        seconds = (g_get_monotonic_time () - start) / 1e6;
        g_assert_cmpuint (fmv_store_get_n_rows (into), ==, n);
        best = MAX (best, n / seconds);
      }
    printf ("append through the stream decoder: %.0f events/s\n", best);
  }

  /* The list over a million rows. */
  list = fmv_event_list_new (store);
  {
    const char *filters[] = { "result<0", "comm=sshd and not syscall=close", "path~'^/etc/'",
                              "shadow", "Makefile", "/sh(adow)?/", "path=*/lib*/*.so.?",
                              "comm=firefox", "not path/etc and (detail~O_RDONLY or comm=cc1)",
                              "errno=EACCES or errno=ENOENT", "" };

    for (gsize i = 0; i < G_N_ELEMENTS (filters); i++)
      {
        /* Separate statements: the count must be read after the refilter. */
        double t = refilter (list, filters[i]);
        guint shown = g_list_model_get_n_items (G_LIST_MODEL (list));

        printf ("refilter \"%s\": %.3f s -> %u rows\n", filters[i], t, shown);
      }
    compare_memo (store, filters, G_N_ELEMENTS (filters) - 1);
  }

  start = g_get_monotonic_time ();
  fmv_event_list_set_sort (list, FM_FIELD_PATH, FALSE);
  fmv_event_list_wait (list);
  printf ("sort all rows by path: %.3f s\n", (g_get_monotonic_time () - start) / 1e6);
  start = g_get_monotonic_time ();
  fmv_event_list_set_sort (list, FM_FIELD_PID, TRUE);
  fmv_event_list_wait (list);
  printf ("sort all rows by pid, descending: %.3f s\n", (g_get_monotonic_time () - start) / 1e6);
  fmv_event_list_set_sort (list, FMV_SORT_ARRIVAL, FALSE);
  fmv_event_list_wait (list);

  /* Batches arriving into a filtered list of a million rows, as the live view gets them. */
  {
    const guint batches = 100, batch = 2000;
    double worst = 0, total = 0;

    refilter (list, "result<0");
    for (guint b = 0; b < batches; b++)
      {
        for (guint i = 0; i < batch; i++)
          {
            FmvTestEvent t;

            fmv_test_event (&t, n + b * batch + i);
            fmv_store_append (store, &t.event, NULL);
          }
        start = g_get_monotonic_time ();
        fmv_event_list_update_now (list);
        seconds = (g_get_monotonic_time () - start) / 1e6;
        worst = MAX (worst, seconds);
        total += seconds;
      }
    printf ("filtered batch of %u rows into the list: %.2f ms average, %.2f ms worst\n",
            batch, total / batches * 1e3, worst * 1e3);

    fmv_event_list_set_sort (list, FM_FIELD_PATH, FALSE);
    fmv_event_list_wait (list);
    worst = total = 0;
    for (guint b = 0; b < 20; b++)
      {
        for (guint i = 0; i < batch; i++)
          {
            FmvTestEvent t;

            fmv_test_event (&t, n + (batches + b) * batch + i);
            fmv_store_append (store, &t.event, NULL);
          }
        start = g_get_monotonic_time ();
        fmv_event_list_update_now (list);
        seconds = (g_get_monotonic_time () - start) / 1e6;
        worst = MAX (worst, seconds);
        total += seconds;
      }
    printf ("sorted (by path) batch of %u rows merged into the list: %.2f ms average, %.2f ms worst\n",
            batch, total / 20 * 1e3, worst * 1e3);
  }
  return 0;
}
