/* fmv-sort.c: ordering the event list's rows by a field, over the compact store: the
 * keys are read from the records (numbers, or the ids of the store's strings, compared
 * where they lie), so a million-row sort allocates one array of keys and no string. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fm-compact-event.h"
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

gboolean
fmv_sort_is_text (FmFieldId field)
{
  g_return_val_if_fail (field < FM_N_FIELDS, FALSE);

  return fm_event_fields[field].type == FM_FIELD_TYPE_BYTES || fm_event_fields[field].type == FM_FIELD_TYPE_UTF8;
}

/* Signed order as unsigned: flip the sign bit. */
#define SIGNED_VALUE(v) ((guint64) (v) ^ (G_GUINT64_CONSTANT (1) << 63))

#define VALUE_U64(r, m) return (r)->m;
#define VALUE_U32(r, m) return (r)->m;
#define VALUE_I64(r, m) return SIGNED_VALUE ((r)->m);
#define VALUE_SYSCALL(r, m) return (r)->m;
#define VALUE_BYTES(r, m) return (r)->m##_id;
#define VALUE_UTF8(r, m) return (r)->m##_id;
#define VALUE_ERRNO(r, m) return SIGNED_VALUE ((r)->result);
#define VALUE_USER(r, m) return (r)->uid;
#define VALUE_CASE(id, m, type, ...) FM_COMPACT_IF_KEPT (id, case FM_FIELD_##id: VALUE_##type (record, m))

/* The fields the compact record leaves out (the sequence number) are read from the
 * event. */
#define OMITTED_0(...)
#define OMITTED_1(...) __VA_ARGS__
#define IF_OMITTED(id, ...) \
  FM_COMPACT_CAT (OMITTED_, FM_COMPACT_SECOND (FM_COMPACT_OMIT_##id, 0, 0)) (__VA_ARGS__)
#define OMITTED_CASE(id, m, type, ...) IF_OMITTED (id, case FM_FIELD_##id: VALUE_##type (event, m))

static guint64
omitted_value (FmvStore  *store,
               guint      row,
               FmFieldId  field)
{
  FmvStoreEvent stored;
  const FmEvent *event = fmv_store_get_event_without_paths (store, row, &stored);

  switch (field)
    {
      FM_EVENT_FIELDS (OMITTED_CASE)
    default:
      g_return_val_if_reached (0);
    }
}

guint64
fmv_sort_value (FmvStore             *store,
                guint                 row,
                const FmCompactEvent *record,
                FmFieldId             field)
{
  switch (field)
    {
      FM_EVENT_FIELDS (VALUE_CASE)
    case FM_N_FIELDS:
    default:
      return omitted_value (store, row, field);
    }
}

static void
make_entry (FmvStore     *store,
            FmvSortField  field,
            guint         row,
            SortEntry    *entry)
{
  FmCompactEvent record;

  entry->row = row;
  if (field < 0 || field >= FM_N_FIELDS)
    {
      entry->key = row;
      return;
    }
  entry->key = fmv_sort_value (store, row, fmv_store_get_record (store, row, &record), field);
  /* syscalls by name */
  if (fm_event_fields[field].type == FM_FIELD_TYPE_SYSCALL)
    entry->key = syscall_rank[(guint16) entry->key];
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

/* Whether @field's keys are string ids. */
static gboolean
is_text (FmvSortField field)
{
  return field >= 0 && field < FM_N_FIELDS && fmv_sort_is_text (field);
}

void
fmv_sort_rows (FmvStore     *store,
               guint32      *rows,
               guint         n,
               FmvSortField  field,
               gboolean      descending)
{
  g_autofree SortEntry *entries = NULL;
  Order order = { store, is_text (field), descending };

  if (field == FMV_SORT_ARRIVAL || n < 2)
    {
      if (field == FMV_SORT_ARRIVAL && descending)
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
    make_entry (store, field, rows[i], &entries[i]);
  g_qsort_with_data (entries, n, sizeof *entries, compare_entries_cb, &order);
  for (guint i = 0; i < n; i++)
    rows[i] = entries[i].row;
}

GArray *
fmv_sort_merge (FmvStore     *store,
                GArray       *sorted,
                GArray       *fresh,
                FmvSortField  field,
                gboolean      descending,
                guint        *first_changed)
{
  guint old_len = sorted->len;
  GArray *merged = g_array_sized_new (FALSE, FALSE, sizeof (guint32), old_len + fresh->len);
  guint i = 0;
  Order order = { store, is_text (field), descending };

  init_syscall_ranks ();
  *first_changed = G_MAXUINT;
  /* A binary search per newcomer (the newcomers are sorted, so each search starts where
   * the last one ended): k log n comparisons and one copy of the index. */
  for (guint j = 0; j < fresh->len; j++)
    {
      guint32 row = g_array_index (fresh, guint32, j);
      SortEntry e;
      guint lo = i, hi = old_len;

      make_entry (store, field, row, &e);
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          SortEntry m;

          make_entry (store, field, g_array_index (sorted, guint32, mid), &m);
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
