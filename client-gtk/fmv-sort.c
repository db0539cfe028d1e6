/* fmv-sort.c: ordering the event list's rows by a column, over the compact store: the
 * keys are read from the records (numbers, or the ids of the store's strings, compared
 * where they lie), so a million-row sort allocates one array of keys and no string. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fm-syscalls.h"
#include "fmv-sort.h"

typedef struct {
  guint64 key;       /* a string id for the text columns */
  guint32 row;
} SortEntry;

typedef struct {
  FmvStore *store;
  gboolean text;     /* keys are string ids */
  gboolean descending;
} Order;

/* Syscalls sort by name: a rank per number, computed once. */
static guint16 syscall_rank[65536];

static int
compare_syscall_names (gconstpointer a,
                       gconstpointer b)
{
  const FmSyscall *const *sa = a;
  const FmSyscall *const *sb = b;

  return strcmp ((*sa)->name, (*sb)->name);
}

static void
init_syscall_ranks (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      guint n = 0;
      const FmSyscall *all = fm_syscalls_all (&n);
      g_autofree const FmSyscall **sorted = g_new (const FmSyscall *, n);

      for (guint i = 0; i < n; i++)
        sorted[i] = &all[i];
      qsort (sorted, n, sizeof *sorted, compare_syscall_names);
      /* Numbers the table does not know ("syscall_N") sort after every name, by number. */
      for (guint nr = 0; nr < G_N_ELEMENTS (syscall_rank); nr++)
        syscall_rank[nr] = (guint16) MIN (n + nr, G_MAXUINT16);
      for (guint i = 0; i < n; i++)
        syscall_rank[sorted[i]->nr] = (guint16) i;
      g_once_init_leave (&done, 1);
    }
}

static gboolean
is_text (FmvColumn column)
{
  return column == FMV_COLUMN_PROCESS || column == FMV_COLUMN_PATH || column == FMV_COLUMN_DETAIL;
}

static void
make_entry (FmvStore  *store,
            FmvColumn  column,
            guint      row,
            SortEntry *entry)
{
  FmCompactEvent record;
  const FmCompactEvent *r = fmv_store_get_record (store, row, &record);

  entry->row = row;
  switch (column)
    {
    case FMV_COLUMN_TIME:
      entry->key = r->time_ns;
      break;
    case FMV_COLUMN_PROCESS:
      entry->key = r->comm_id;
      break;
    case FMV_COLUMN_PID:
      entry->key = r->pid;
      break;
    case FMV_COLUMN_SYSCALL:
      entry->key = syscall_rank[r->syscall_nr];
      break;
    case FMV_COLUMN_RESULT:
      /* Signed order as unsigned: flip the sign bit. */
      entry->key = (guint64) r->result ^ (G_GUINT64_CONSTANT (1) << 63);
      break;
    case FMV_COLUMN_PATH:
      entry->key = r->path_id;
      break;
    case FMV_COLUMN_DETAIL:
      entry->key = r->detail_id;
      break;
    case FMV_COLUMN_DURATION:
      entry->key = r->duration_ns;
      break;
    case FMV_COLUMN_USER:
      entry->key = r->uid;
      break;
    case FMV_COLUMN_TID:
      entry->key = r->tid;
      break;
    case FMV_COLUMN_PPID:
      entry->key = r->ppid;
      break;
    case FMV_COLUMN_NONE:
    case FMV_N_COLUMNS:
    default:
      entry->key = row;
      break;
    }
}

static int
compare_entries (const SortEntry *a,
                 const SortEntry *b,
                 const Order     *order)
{
  int r;

  if (order->text)
    r = fmv_store_compare_strings (order->store, a->key, b->key);
  else
    r = (a->key > b->key) - (a->key < b->key);
  /* The row number breaks ties, so the order is total and a descending sort is the exact
   * reverse of the ascending one. */
  if (r == 0)
    r = (a->row > b->row) - (a->row < b->row);
  return order->descending ? -r : r;
}

static int
compare_entries_cb (gconstpointer a,
                    gconstpointer b,
                    gpointer      order)
{
  return compare_entries (a, b, order);
}

void
fmv_sort_rows (FmvStore  *store,
               guint32   *rows,
               guint      n,
               FmvColumn  column,
               gboolean   descending)
{
  g_autofree SortEntry *entries = NULL;
  Order order = { store, is_text (column), descending };

  if (column == FMV_COLUMN_NONE || n < 2)
    {
      if (column == FMV_COLUMN_NONE && descending)
        for (guint i = 0; i < n / 2; i++)
          {
            guint32 t = rows[i];
            rows[i] = rows[n - 1 - i];
            rows[n - 1 - i] = t;
          }
      return;
    }

  init_syscall_ranks ();
  entries = g_new (SortEntry, n);
  for (guint i = 0; i < n; i++)
    make_entry (store, column, rows[i], &entries[i]);
  g_qsort_with_data (entries, n, sizeof *entries, compare_entries_cb, &order);
  for (guint i = 0; i < n; i++)
    rows[i] = entries[i].row;
}

GArray *
fmv_sort_merge (FmvStore  *store,
                GArray    *sorted,
                GArray    *fresh,
                FmvColumn  column,
                gboolean   descending,
                guint     *first_changed)
{
  guint old_len = sorted->len;
  GArray *merged = g_array_sized_new (FALSE, FALSE, sizeof (guint32), old_len + fresh->len);
  guint i = 0;
  Order order = { store, is_text (column), descending };

  init_syscall_ranks ();
  *first_changed = G_MAXUINT;
  /* A binary search per newcomer (the newcomers are sorted, so each search starts where
   * the last one ended): k log n comparisons and one copy of the index. */
  for (guint j = 0; j < fresh->len; j++)
    {
      guint32 row = g_array_index (fresh, guint32, j);
      SortEntry e;
      guint lo = i, hi = old_len;

      make_entry (store, column, row, &e);
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          SortEntry m;

          make_entry (store, column, g_array_index (sorted, guint32, mid), &m);
          if (compare_entries (&m, &e, &order) < 0)
            lo = mid + 1;
          else
            hi = mid;
        }
      g_array_append_vals (merged, &g_array_index (sorted, guint32, i), lo - i);
      if (*first_changed == G_MAXUINT)
        *first_changed = merged->len;
      g_array_append_val (merged, row);
      i = lo;
    }
  g_array_append_vals (merged, &g_array_index (sorted, guint32, i), old_len - i);
  return merged;
}
