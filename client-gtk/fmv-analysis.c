/* fmv-analysis.c: the processes, files and value counts of a set of events; see
 * fmv-analysis.h.
 *
 * Entities are found through hash tables keyed by a number (a text by the id the store
 * keeps it under: one id a string), so only a new process, file or value allocates. The
 * (file, pid) pairs seen give both "processes per file" and "files per process".
 */
#include "config.h"

#include <string.h>

#include "fm-syscalls.h"
#include "fmv-analysis.h"
#include "fmv-sort.h"

typedef struct {
  gint64 number;
} Key;

static guint
key_hash (gconstpointer p)
{
  guint64 v = (guint64) ((const Key *) p)->number;

  v ^= v >> 33;
  v *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  v ^= v >> 33;
  return (guint) v;
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  return ((const Key *) a)->number == ((const Key *) b)->number;
}

/* The index of @key's entry in a table mapping keys to index + 1; a new entry gets
 * *n_entries (and *n_entries grows), *is_new says which. */
static guint
intern (GHashTable *table,
        const Key  *key,
        guint      *n_entries,
        gboolean   *is_new)
{
  gpointer found = g_hash_table_lookup (table, key);

  *is_new = found == NULL;
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_hash_table_insert (table, g_memdup2 (key, sizeof *key), GUINT_TO_POINTER (*n_entries + 1));
  return (*n_entries)++;
}

static GHashTable *
key_table_new (void)
{
  return g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
}

static guint
pair_hash (gconstpointer p)
{
  guint64 v = GPOINTER_TO_SIZE (p);

  v ^= v >> 33;
  v *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  v ^= v >> 33;
  return (guint) v;
}

static guint16
syscall_nr (const char *name)
{
  const FmSyscall *sc = fm_syscall_by_name (name);

  g_assert (sc != NULL);
  return sc->nr;
}

typedef struct {
  guint16 open, openat, openat2, creat;
} Kinds;

static void
kinds_init (Kinds *k)
{
  k->open = syscall_nr ("open");
  k->openat = syscall_nr ("openat");
  k->openat2 = syscall_nr ("openat2");
  k->creat = syscall_nr ("creat");
}

static guint
syscall_traits (const FmEvent *ev)
{
  const FmSyscall *sc = fm_syscall_by_nr (ev->syscall_nr);

  return sc != NULL ? sc->traits : 0;
}

/* @ev on @file, which is its path, or its path2 when @as_path2 (a copy's destination). */
static void
count_file (FmvFileInfo    *file,
            const FmEvent  *ev,
            const Kinds    *k,
            guint32         row,
            gboolean        as_path2)
{
  const FmSyscall *sc = fm_syscall_by_nr (ev->syscall_nr);
  guint traits = sc != NULL ? sc->traits : 0;
  guint64 bytes = sc != NULL ? fm_syscall_result_bytes (sc, ev->result) : 0;
  guint16 nr = ev->syscall_nr;

  if (file->n_events++ == 0 || (file->row_is_path2 && !as_path2))
    {
      file->row = row;
      file->row_is_path2 = as_path2;
    }
  file->n_failures += ev->result < 0;
  file->total_ns += ev->duration_ns;
  if (as_path2)
    {
      if (traits & FM_TRAIT_WRITES_PATH2)
        {
          file->n_writes++;
          file->bytes_written += bytes;
        }
      return;
    }
  file->n_opens += nr == k->open || nr == k->openat || nr == k->openat2 || nr == k->creat;
  if (traits & FM_TRAIT_READS)
    {
      file->n_reads++;
      file->bytes_read += bytes;
    }
  if (traits & FM_TRAIT_WRITES)
    {
      file->n_writes++;
      file->bytes_written += bytes;
    }
}

static void
count_process (FmvProcessInfo *proc,
               const FmEvent  *ev,
               guint32         row)
{
  gboolean leader = ev->tid == ev->pid;

  if (proc->n_events++ == 0)
    {
      proc->pid = ev->pid;
      proc->first_ns = ev->time_ns;
      proc->row = row;
      proc->first_row = row;
    }
  proc->ppid = ev->ppid;
  proc->uid = ev->uid;
  /* the rows come in the list's order, which need not be time's */
  if (ev->time_ns < proc->first_ns)
    {
      proc->first_ns = ev->time_ns;
      proc->first_row = row;
    }
  proc->last_ns = MAX (proc->last_ns, ev->time_ns);
  proc->n_failures += ev->result < 0;
  /* The process is named by its leader thread's events, and after an exec by the new
   * program: in captures that recorded each thread's own name (older filemond ones, other
   * tools' files), worker threads carry names such as "gdbus". */
  if (leader || !proc->leader_seen)
    proc->row = row;
  proc->leader_seen |= leader;
  if ((syscall_traits (ev) & FM_TRAIT_EXEC) != 0 && ev->result == 0)
    {
      proc->exec_row = row;
      proc->has_exec = TRUE;
    }
}

/* Parents from the ppids, as a forest: a parent that is not among the processes, or one
 * that would close a cycle (a pid reused within the capture), makes a root. */
static void
link_parents (GArray     *processes,
              GHashTable *by_pid)
{
  FmvProcessInfo *procs = (FmvProcessInfo *) (gpointer) processes->data;
  guint n = processes->len;

  for (guint i = 0; i < n; i++)
    {
      Key key = { .number = procs[i].ppid };
      gpointer found = procs[i].ppid != procs[i].pid ? g_hash_table_lookup (by_pid, &key) : NULL;

      procs[i].parent = found != NULL ? (int) GPOINTER_TO_UINT (found) - 1 : -1;
    }
  /* Walking up from a process and meeting it again is a cycle: cutting its link to its
   * parent makes it the root of the others. */
  for (guint i = 0; i < n; i++)
    for (int p = procs[i].parent, steps = 0; p >= 0 && steps < (int) n; p = procs[p].parent, steps++)
      if (p == (int) i)
        {
          procs[i].parent = -1;
          break;
        }
}

/* One pass over the rows: the tables that find an entity's entry. */
typedef struct {
  FmvAnalysis *analysis;
  GHashTable *files_by_path;
  GHashTable *procs_by_pid;
  GHashTable *pairs;          /* (file, pid) seen */
  guint n_files;
  guint n_procs;
  Kinds kinds;
} Pass;

/* @ev (of process index @proc) on the file of the text with id @path. */
static void
count_path (Pass          *pass,
            guint32        path,
            guint          proc,
            const FmEvent *ev,
            guint32        row,
            gboolean       as_path2)
{
  GArray *files = pass->analysis->files;
  Key key = { .number = path };
  gboolean is_new;
  guint file = intern (pass->files_by_path, &key, &pass->n_files, &is_new);

  if (is_new)
    g_array_set_size (files, pass->n_files);
  count_file (&g_array_index (files, FmvFileInfo, file), ev, &pass->kinds, row, as_path2);
  if (g_hash_table_add (pass->pairs, GSIZE_TO_POINTER ((guint64) file << 32 | ev->pid)))
    {
      g_array_index (files, FmvFileInfo, file).n_processes++;
      g_array_index (pass->analysis->processes, FmvProcessInfo, proc).n_files++;
    }
}

FmvAnalysis *
fmv_analysis_new (FmvStore      *store,
                  const guint32 *rows,
                  guint          n)
{
  g_autoptr(GHashTable) files_by_path = key_table_new ();
  g_autoptr(GHashTable) procs_by_pid = key_table_new ();
  g_autoptr(GHashTable) pairs = g_hash_table_new (pair_hash, g_direct_equal);
  FmvAnalysis *analysis;
  Pass pass;

  g_return_val_if_fail (FMV_IS_STORE (store), NULL);

  analysis = g_new0 (FmvAnalysis, 1);
  analysis->store = g_object_ref (store);
  analysis->files = g_array_new (FALSE, TRUE, sizeof (FmvFileInfo));
  analysis->processes = g_array_new (FALSE, TRUE, sizeof (FmvProcessInfo));
  pass = (Pass) { analysis, files_by_path, procs_by_pid, pairs, 0, 0, { 0 } };
  kinds_init (&pass.kinds);

  for (guint i = 0; i < n; i++)
    {
      FmvStoreEvent stored;
      const FmEvent *ev = fmv_store_get_event (store, rows[i], &stored);
      Key key = { .number = ev->pid };
      gboolean is_new;
      guint proc = intern (procs_by_pid, &key, &pass.n_procs, &is_new);

      if (is_new)
        g_array_set_size (analysis->processes, pass.n_procs);
      count_process (&g_array_index (analysis->processes, FmvProcessInfo, proc), ev, rows[i]);
      if (stored.record.path_id != FM_STRTAB_EMPTY)
        count_path (&pass, stored.record.path_id, proc, ev, rows[i], FALSE);
      if (stored.record.path2_id != FM_STRTAB_EMPTY && (syscall_traits (ev) & FM_TRAIT_WRITES_PATH2) != 0)
        count_path (&pass, stored.record.path2_id, proc, ev, rows[i], TRUE);
    }
  link_parents (analysis->processes, procs_by_pid);
  return analysis;
}

void
fmv_analysis_free (FmvAnalysis *analysis)
{
  if (analysis == NULL)
    return;
  g_clear_object (&analysis->store);
  g_array_unref (analysis->processes);
  g_array_unref (analysis->files);
  g_free (analysis);
}

static int
compare_pids (gconstpointer a,
              gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

enum { UNKNOWN, INSIDE, OUTSIDE };

GArray *
fmv_analysis_dup_subtree_pids (FmvAnalysis *analysis,
                               guint        index)
{
  const FmvProcessInfo *procs;
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint8 *state = NULL;
  guint n;

  g_return_val_if_fail (analysis != NULL, pids);
  g_return_val_if_fail (index < analysis->processes->len, pids);

  procs = (const FmvProcessInfo *) (gpointer) analysis->processes->data;
  n = analysis->processes->len;
  /* A process is inside when its parent is. The links form a forest (link_parents), so
   * the walk up from any process meets @index, a process already decided, or a root;
   * what it passed gets that answer, so each process is walked past once. */
  state = g_new0 (guint8, n);
  state[index] = INSIDE;
  for (guint i = 0; i < n; i++)
    {
      int p = (int) i;
      guint8 answer;

      while (p >= 0 && state[p] == UNKNOWN)
        p = procs[p].parent;
      answer = p >= 0 ? state[p] : OUTSIDE;
      for (int q = (int) i; q >= 0 && state[q] == UNKNOWN; q = procs[q].parent)
        state[q] = answer;
    }
  for (guint i = 0; i < n; i++)
    if (state[i] == INSIDE)
      g_array_append_val (pids, procs[i].pid);
  g_array_sort (pids, compare_pids);
  return pids;
}

static int
compare_counts (gconstpointer a,
                gconstpointer b)
{
  const FmvValueCount *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->row < y->row ? -1 : x->row > y->row;
}

GArray *
fmv_analysis_count_values (FmvStore      *store,
                           const guint32 *rows,
                           guint          n,
                           FmFieldId      field)
{
  g_autoptr(GHashTable) values = key_table_new ();
  GArray *counts = g_array_new (FALSE, TRUE, sizeof (FmvValueCount));
  guint n_values = 0;

  g_return_val_if_fail (FMV_IS_STORE (store), counts);
  g_return_val_if_fail (field < FM_N_FIELDS, counts);

  for (guint i = 0; i < n; i++)
    {
      FmCompactEvent record;
      Key key;
      gboolean is_new;
      guint index;

      /* strings by their ids, which tell them apart */
      key.number = (gint64) fmv_sort_value (store, rows[i], fmv_store_get_record (store, rows[i], &record), field);
      index = intern (values, &key, &n_values, &is_new);
      if (is_new)
        {
          g_array_set_size (counts, n_values);
          g_array_index (counts, FmvValueCount, index).row = rows[i];
        }
      g_array_index (counts, FmvValueCount, index).count++;
    }
  g_array_sort (counts, compare_counts);
  return counts;
}
