/* fmv-store.c: the append-only event store behind the viewer's event list.
 *
 * Layout: compact records (fm-compact-event.h), fixed-size, in pages of 64 Ki rows, with
 * a page of their sequence numbers each (rows need not be consecutive events), their
 * strings once each in a string table that never releases one (the store only grows).
 * The page table is allocated once at its full size, so a reader thread holding a row
 * number below the row count it saw never races with an append that adds a page; the
 * string table's lookup by id is safe for it in the same way (fm-strtab.h).
 */
#include "config.h"

#include "fm-compact-event.h"
#include "fmv-store.h"

#define PAGE_SHIFT 16
#define PAGE_ROWS (1u << PAGE_SHIFT)
#define MAX_PAGES 16384u             /* 1 Gi rows */

struct _FmvStore
{
  GObject parent_instance;

  FmCompactEvent **pages;   /* MAX_PAGES entries, each PAGE_ROWS records */
  guint64 **seq_pages;      /* the same, each PAGE_ROWS sequence numbers */
  guint n_pages;
  FmStrtab *strings;

  guint n_rows;             /* read atomically by other threads */
  guint64 last_seq;
};

G_DEFINE_FINAL_TYPE (FmvStore, fmv_store, G_TYPE_OBJECT)

static void
fmv_store_finalize (GObject *object)
{
  FmvStore *self = FMV_STORE (object);

  for (guint i = 0; i < self->n_pages; i++)
    {
      g_free (self->pages[i]);
      g_free (self->seq_pages[i]);
    }
  g_free (self->pages);
  g_free (self->seq_pages);
  fm_strtab_unref (self->strings);

  G_OBJECT_CLASS (fmv_store_parent_class)->finalize (object);
}

static void
fmv_store_class_init (FmvStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fmv_store_finalize;
}

static void
fmv_store_init (FmvStore *self)
{
  self->pages = g_new0 (FmCompactEvent *, MAX_PAGES);
  self->seq_pages = g_new0 (guint64 *, MAX_PAGES);
  self->strings = fm_strtab_new ();
}

FmvStore *
fmv_store_new (void)
{
  return g_object_new (FMV_TYPE_STORE, NULL);
}

static inline const FmCompactEvent *
record_at (FmvStore *self,
           guint     row)
{
  return &self->pages[row >> PAGE_SHIFT][row & (PAGE_ROWS - 1)];
}

gboolean
fmv_store_append (FmvStore      *self,
                  const FmEvent *event,
                  guint         *row_out)
{
  guint row;

  g_return_val_if_fail (FMV_IS_STORE (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  row = self->n_rows;
  if (row >= MAX_PAGES * PAGE_ROWS)
    return FALSE;
  if ((row >> PAGE_SHIFT) >= self->n_pages)
    {
      /* g_malloc of MiBs is an mmap: untouched tail pages cost nothing */
      self->pages[self->n_pages] = g_new (FmCompactEvent, PAGE_ROWS);
      self->seq_pages[self->n_pages++] = g_new (guint64, PAGE_ROWS);
    }
  if (!fm_compact_event_intern (&self->pages[row >> PAGE_SHIFT][row & (PAGE_ROWS - 1)],
                                event, self->strings,
                                row > 0 ? record_at (self, row - 1) : NULL))
    return FALSE;
  self->seq_pages[row >> PAGE_SHIFT][row & (PAGE_ROWS - 1)] = event->seq;

  if (event->seq > self->last_seq)
    self->last_seq = event->seq;

  /* Publishes the row (its record and strings above) to readers in other threads. */
  g_atomic_int_set (&self->n_rows, row + 1);

  if (row_out)
    *row_out = row;
  return TRUE;
}

guint
fmv_store_get_n_rows (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return g_atomic_int_get (&self->n_rows);
}

/* Runs once per row in every refilter: no checks beyond the row number. */
void
fmv_store_get_event (FmvStore *self,
                     guint     row,
                     FmEvent  *event)
{
  g_assert (row < fmv_store_get_n_rows (self));

  fm_compact_event_view (record_at (self, row),
                         self->seq_pages[row >> PAGE_SHIFT][row & (PAGE_ROWS - 1)],
                         self->strings, event);
}

gint64
fmv_store_get_result (FmvStore *self,
                      guint     row)
{
  return record_at (self, row)->result;
}

gsize
fmv_store_get_memory_size (FmvStore *self)
{
  guint n_rows;

  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  /* Only the used part of the last page counts: the rest was never touched. */
  n_rows = fmv_store_get_n_rows (self);
  return (gsize) n_rows * (sizeof (FmCompactEvent) + sizeof (guint64))
         + fm_strtab_get_memory (self->strings)
         + MAX_PAGES * 2 * sizeof (gpointer);
}

guint64
fmv_store_get_last_seq (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return self->last_seq;
}
