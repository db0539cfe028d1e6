/* test-analysis.c: the viewer's analysis views without a display: the process forest of a
 * known fork/exec workload, file and value counts checked against a plain recount. */
#include "config.h"

#include <string.h>

#include "fm-syscalls.h"
#include "fmv-analysis.h"
#include "fmv-test-events.h"
#include "fmv-test-store.h"

/* An event of uid 1000. */
static void
append (FmvStore   *store,
        guint32     pid,
        guint32     ppid,
        guint32     tid,
        const char *comm,
        const char *syscall,
        gint64      result,
        const char *path,
        const char *path2,
        const char *detail)
{
  fmv_test_append (store, pid, ppid, tid, 1000, comm, syscall, result, path, path2, detail);
}

static GArray *
all_rows (FmvStore *store)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 i = 0; i < fmv_store_get_n_rows (store); i++)
    g_array_append_val (rows, i);
  return rows;
}

/* The viewer's test events 0 .. n - 1; returns every row. */
static GArray *
append_test_events (FmvStore *store,
                    guint     n)
{
  for (guint i = 0; i < n; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      g_assert_true (fmv_store_append (store, &t.event, NULL));
    }
  return all_rows (store);
}

static const FmvFileInfo *
file_info (FmvAnalysis *analysis,
           const char  *path)
{
  for (guint i = 0; i < analysis->files->len; i++)
    {
      const FmvFileInfo *info = &g_array_index (analysis->files, FmvFileInfo, i);
      FmvStoreEvent stored;
      const FmEvent *ev = fmv_store_get_event (analysis->store, info->row, &stored);

      if (g_str_equal (info->row_is_path2 ? ev->path2 : ev->path, path))
        return info;
    }
  g_assert_not_reached ();
}

static const FmvProcessInfo *
process (FmvAnalysis *analysis,
         guint32      pid)
{
  for (guint i = 0; i < analysis->processes->len; i++)
    if (g_array_index (analysis->processes, FmvProcessInfo, i).pid == pid)
      return &g_array_index (analysis->processes, FmvProcessInfo, i);
  g_assert_not_reached ();
}

static int
parent_pid (FmvAnalysis          *analysis,
            const FmvProcessInfo *info)
{
  return info->parent < 0 ? -1 : (int) g_array_index (analysis->processes, FmvProcessInfo, info->parent).pid;
}

/* bash (100) runs make (200, forked as "bash", then exec'd), which runs cc1 (300) whose
 * worker thread 301 is called "gdbus"; 500 and 501 name each other as parent (pid reuse). */
static void
test_analysis_process_forest_of_fork_exec (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(GArray) rows = NULL;
  g_autoptr(FmvAnalysis) analysis = NULL;
  const FmvProcessInfo *make, *cc1, *a, *b;
  FmvStoreEvent stored;
  const FmEvent *ev;

  append (store, 100, 1, 100, "bash", "openat", 3, "/etc/profile", NULL, "");
  append (store, 200, 100, 200, "bash", "execve", 0, "/usr/bin/make", NULL, "[\"make\", \"-j2\"]");
  append (store, 200, 100, 200, "make", "openat", 3, "/src/Makefile", NULL, "");
  append (store, 200, 100, 200, "make", "execve", -2, "/usr/bin/nothere", NULL, "[\"nothere\"]");
  append (store, 300, 200, 301, "gdbus", "openat", -13, "/etc/shadow", NULL, "");
  append (store, 300, 200, 300, "cc1", "read", 10, "/src/main.c", NULL, "");
  append (store, 300, 200, 301, "gdbus", "read", 10, "/src/main.c", NULL, "");
  append (store, 500, 501, 500, "a", "close", 0, "/tmp/a", NULL, "");
  append (store, 501, 500, 501, "b", "close", 0, "/tmp/a", NULL, "");
  rows = all_rows (store);
  analysis = fmv_analysis_new (store, (guint32 *) (gpointer) rows->data, rows->len);

  g_assert_cmpuint (analysis->processes->len, ==, 5);
  g_assert_cmpint (process (analysis, 100)->parent, ==, -1);
  make = process (analysis, 200);
  g_assert_cmpint (parent_pid (analysis, make), ==, 100);
  g_assert_true (make->has_exec);
  ev = fmv_store_get_event (store, make->exec_row, &stored);
  g_assert_cmpstr (ev->detail, ==, "[\"make\", \"-j2\"]");   /* the failed exec does not count */
  ev = fmv_store_get_event (store, make->row, &stored);
  g_assert_cmpstr (ev->comm, ==, "make");
  g_assert_cmpuint (make->n_events, ==, 3);
  g_assert_cmpuint (make->n_failures, ==, 1);
  g_assert_cmpuint (make->n_files, ==, 3);

  cc1 = process (analysis, 300);
  g_assert_cmpint (parent_pid (analysis, cc1), ==, 200);
  ev = fmv_store_get_event (store, cc1->row, &stored);
  g_assert_cmpstr (ev->comm, ==, "cc1");                     /* the leader, not its thread */
  g_assert_cmpuint (cc1->n_files, ==, 2);
  g_assert_cmpuint (cc1->first_ns, ==, 5000);
  g_assert_cmpuint (cc1->last_ns, ==, 7000);

  a = process (analysis, 500);
  b = process (analysis, 501);
  g_assert_true ((a->parent < 0) != (b->parent < 0));       /* the cycle is cut once */
}

static void
assert_subtree (FmvAnalysis *analysis,
                guint32      pid,
                const char  *want)
{
  const FmvProcessInfo *info = process (analysis, pid);
  g_autoptr(GArray) pids = fmv_analysis_dup_subtree_pids (analysis, info - (const FmvProcessInfo *) (gpointer)
                                                                    analysis->processes->data);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < pids->len; i++)
    g_string_append_printf (text, "%s%u", i > 0 ? " " : "", g_array_index (pids, guint32, i));
  g_assert_cmpstr (text->str, ==, want);
}

/* A process's subtree: itself and every descendant, however deep, in pid order; and its
 * first event, whatever order the rows come in. */
static void
test_analysis_subtree_and_first_event (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(FmvAnalysis) analysis = NULL;
  const guint32 shown[] = { 6, 5, 4, 3, 2, 1, 0, 7, 8, 9 };   /* newest first, as a sorted list */
  FmvStoreEvent stored;
  const FmEvent *ev;

  append (store, 100, 1, 100, "bash", "openat", 3, "/etc/profile", NULL, "");
  append (store, 400, 100, 400, "bash", "execve", 0, "/usr/bin/make", NULL, "");
  append (store, 400, 100, 400, "make", "openat", 3, "/src/Makefile", NULL, "");
  append (store, 150, 400, 150, "cc", "openat", 3, "/src/a.c", NULL, "");
  append (store, 151, 150, 151, "cc1", "openat", 3, "/src/a.c", NULL, "");
  append (store, 152, 151, 152, "as", "openat", 3, "/tmp/a.s", NULL, "");
  append (store, 500, 400, 500, "cc", "openat", 3, "/src/b.c", NULL, "");
  append (store, 600, 100, 600, "ls", "openat", 3, "/", NULL, "");
  append (store, 700, 1, 700, "cron", "openat", 3, "/etc/crontab", NULL, "");
  append (store, 701, 700, 701, "sh", "openat", 3, "/etc/crontab", NULL, "");
  g_array_append_vals (rows, shown, G_N_ELEMENTS (shown));
  analysis = fmv_analysis_new (store, (guint32 *) (gpointer) rows->data, rows->len);

  assert_subtree (analysis, 400, "150 151 152 400 500");
  assert_subtree (analysis, 100, "100 150 151 152 400 500 600");
  assert_subtree (analysis, 151, "151 152");
  assert_subtree (analysis, 600, "600");
  assert_subtree (analysis, 700, "700 701");

  ev = fmv_store_get_event (store, process (analysis, 400)->first_row, &stored);
  g_assert_cmpuint (ev->seq, ==, 2);
  ev = fmv_store_get_event (store, process (analysis, 100)->first_row, &stored);
  g_assert_cmpuint (ev->seq, ==, 1);
}

/* Every file's counts, recounted the plain way. */
static void
test_analysis_file_counts_match_a_recount (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(GArray) rows = NULL;
  g_autoptr(FmvAnalysis) analysis = NULL;
  guint total = 0;

  rows = append_test_events (store, 20000);
  analysis = fmv_analysis_new (store, (guint32 *) (gpointer) rows->data, rows->len);
  g_assert_cmpuint (analysis->files->len, >, 10);

  for (guint f = 0; f < analysis->files->len; f++)
    {
      const FmvFileInfo *info = &g_array_index (analysis->files, FmvFileInfo, f);
      g_autoptr(GHashTable) pids = g_hash_table_new (NULL, NULL);
      guint n = 0, opens = 0, reads = 0, writes = 0, failures = 0;
      guint64 ns = 0;
      FmvStoreEvent stored, wanted;
      const FmEvent *ev, *want;
      char name[16];

      want = fmv_store_get_event (store, info->row, &wanted);
      for (guint r = 0; r < rows->len; r++)
        {
          ev = fmv_store_get_event (store, r, &stored);
          if (strcmp (ev->path, want->path) != 0)
            continue;
          n++;
          opens += strcmp (fm_syscall_name (ev->syscall_nr, name), "openat") == 0;
          reads += strcmp (fm_syscall_name (ev->syscall_nr, name), "read") == 0;
          writes += strcmp (fm_syscall_name (ev->syscall_nr, name), "write") == 0;
          failures += ev->result < 0;
          ns += ev->duration_ns;
          g_hash_table_add (pids, GUINT_TO_POINTER (ev->pid));
        }
      g_assert_cmpuint (info->n_events, ==, n);
      g_assert_cmpuint (info->n_opens, ==, opens);
      g_assert_cmpuint (info->n_reads, ==, reads);
      g_assert_cmpuint (info->n_writes, ==, writes);
      g_assert_cmpuint (info->n_failures, ==, failures);
      g_assert_cmpuint (info->total_ns, ==, ns);
      g_assert_cmpuint (info->n_processes, ==, g_hash_table_size (pids));
      total += n;
    }
  g_assert_cmpuint (total, ==, rows->len);   /* every test event has a path */
}

/* A socket written with writev, a terminal read with readv, a file read with pread64 and
 * preadv2, copied out with sendfile, splice and copy_file_range: every call the syscall
 * table says moves data counts, with the bytes its result says, failures with none. */
static void
test_analysis_file_counts_every_data_call_with_bytes (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(GArray) rows = NULL;
  g_autoptr(FmvAnalysis) analysis = NULL;
  const FmvFileInfo *info;

  append (store, 10, 1, 10, "app", "writev", 300, "socket:[77]", NULL, "");
  append (store, 10, 1, 10, "app", "writev", 200, "socket:[77]", NULL, "");
  append (store, 10, 1, 10, "app", "write", -32, "socket:[77]", NULL, "");
  append (store, 10, 1, 10, "app", "readv", 50, "/dev/ptmx", NULL, "");
  append (store, 10, 1, 10, "app", "read", 7, "/dev/ptmx", NULL, "");
  append (store, 10, 1, 10, "app", "pread64", 4096, "/data/db", NULL, "");
  append (store, 10, 1, 10, "app", "preadv2", 1000, "/data/db", NULL, "");
  append (store, 10, 1, 10, "app", "pwrite64", 10, "/data/db", NULL, "");
  append (store, 10, 1, 10, "app", "pwritev", 20, "/data/db", NULL, "");
  append (store, 10, 1, 10, "app", "lseek", 4096, "/data/db", NULL, "");
  append (store, 10, 1, 10, "app", "sendfile", 100, "/data/db", "socket:[77]", "");
  append (store, 11, 1, 11, "cp", "copy_file_range", 5000, "/data/db", "/backup/db", "");
  append (store, 11, 1, 11, "cp", "splice", 6, "/data/db", "/backup/db", "");
  append (store, 11, 1, 11, "mv", "rename", 0, "/data/old", "/data/new", "");
  rows = all_rows (store);
  analysis = fmv_analysis_new (store, (guint32 *) (gpointer) rows->data, rows->len);

  info = file_info (analysis, "socket:[77]");
  g_assert_cmpuint (info->n_reads, ==, 0);
  g_assert_cmpuint (info->n_writes, ==, 4);         /* writev twice, the failed write, sendfile's end */
  g_assert_cmpuint (info->bytes_written, ==, 600);
  g_assert_cmpuint (info->n_events, ==, 4);
  g_assert_cmpuint (info->n_failures, ==, 1);
  g_assert_false (info->row_is_path2);

  info = file_info (analysis, "/dev/ptmx");
  g_assert_cmpuint (info->n_reads, ==, 2);
  g_assert_cmpuint (info->bytes_read, ==, 57);
  g_assert_cmpuint (info->n_writes, ==, 0);

  info = file_info (analysis, "/data/db");
  g_assert_cmpuint (info->n_reads, ==, 5);          /* pread64, preadv2 and the copies' source */
  g_assert_cmpuint (info->bytes_read, ==, 4096 + 1000 + 100 + 5000 + 6);
  g_assert_cmpuint (info->n_writes, ==, 2);
  g_assert_cmpuint (info->bytes_written, ==, 30);   /* lseek's result is a position */
  g_assert_cmpuint (info->n_events, ==, 8);
  g_assert_cmpuint (info->n_processes, ==, 2);

  /* seen only as a destination: named by path2, the copies counted as writes */
  info = file_info (analysis, "/backup/db");
  g_assert_true (info->row_is_path2);
  g_assert_cmpuint (info->n_writes, ==, 2);
  g_assert_cmpuint (info->bytes_written, ==, 5006);
  g_assert_cmpuint (info->n_reads, ==, 0);
  g_assert_cmpuint (info->n_events, ==, 2);

  /* a rename's target moves no data: not a file of the summary */
  g_assert_cmpuint (analysis->files->len, ==, 5);
}

/* The text of @field in row @row. */
static char *
value_of (FmvStore  *store,
          guint      row,
          FmFieldId  field)
{
  FmvStoreEvent stored;
  const FmEvent *ev = fmv_store_get_event (store, row, &stored);

  switch (field)
    {
    case FM_FIELD_COMM:
      return g_strndup (ev->comm, ev->comm_len);
    case FM_FIELD_PATH:
      return g_strndup (ev->path, ev->path_len);
    case FM_FIELD_PATH2:
      return g_strndup (ev->path2, ev->path2_len);
    default:
      g_assert_not_reached ();
    }
}

static void
test_analysis_counts_values_most_frequent_first (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(GArray) rows = NULL;
  const FmFieldId fields[] = { FM_FIELD_COMM, FM_FIELD_PATH, FM_FIELD_PATH2 };

  rows = append_test_events (store, 5000);
  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    {
      g_autoptr(GArray) counts = fmv_analysis_count_values (store, (guint32 *) (gpointer) rows->data,
                                                            rows->len, fields[f]);
      guint total = 0;

      if (fields[f] == FM_FIELD_COMM)
        g_assert_cmpuint (counts->len, ==, G_N_ELEMENTS (fmv_test_comms));
      g_assert_cmpuint (counts->len, >, 1);
      for (guint c = 0; c < counts->len; c++)
        {
          const FmvValueCount *vc = &g_array_index (counts, FmvValueCount, c);
          g_autofree char *want = NULL;
          guint n = 0;

          if (c > 0)
            g_assert_cmpuint (vc->count, <=, g_array_index (counts, FmvValueCount, c - 1).count);
          want = value_of (store, vc->row, fields[f]);
          /* recounted by the bytes: a value is counted once, whatever pieces it is kept in */
          for (guint r = 0; r < rows->len; r++)
            {
              g_autofree char *value = value_of (store, r, fields[f]);

              n += strcmp (value, want) == 0;
            }
          g_assert_cmpuint (vc->count, ==, n);
          total += n;
        }
      g_assert_cmpuint (total, ==, rows->len);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/viewer/analysis/process-forest-of-fork-exec", test_analysis_process_forest_of_fork_exec);
  g_test_add_func ("/viewer/analysis/subtree-and-first-event", test_analysis_subtree_and_first_event);
  g_test_add_func ("/viewer/analysis/file-counts-match-a-recount", test_analysis_file_counts_match_a_recount);
  g_test_add_func ("/viewer/analysis/file-counts-every-data-call-with-bytes",
                   test_analysis_file_counts_every_data_call_with_bytes);
  g_test_add_func ("/viewer/analysis/counts-values-most-frequent-first",
                   test_analysis_counts_values_most_frequent_first);
  return g_test_run ();
}
