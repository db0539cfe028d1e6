/* fmv-store.c: the append-only record store behind the viewer's event list.
 *
 * Layout: records are written back to back into 4 MiB chunks (a record never straddles
 * two chunks); row N's position is a 64-bit "global offset" (chunk << 22 | offset in the
 * chunk) kept in pages of 64 Ki rows. The chunk and page tables are allocated once at
 * their full size, so a reader thread holding a row number below the row count it saw
 * never races with an append that adds a chunk or a page.
 */
#include "config.h"

#include <string.h>

#include "fm-stream.h"
#include "fmv-store.h"

#define CHUNK_SHIFT 22
#define CHUNK_SIZE (1u << CHUNK_SHIFT)
#define MAX_CHUNKS 16384u            /* 64 GiB of records */
#define PAGE_SHIFT 16
#define PAGE_ROWS (1u << PAGE_SHIFT)
#define MAX_PAGES 16384u             /* 1 Gi rows */

G_STATIC_ASSERT (FM_RECORD_MAX_SIZE < CHUNK_SIZE);

struct _FmvStore
{
  GObject parent_instance;

  guint8 **chunks;      /* MAX_CHUNKS entries */
  guint n_chunks;
  guint32 chunk_used;   /* bytes used in the last chunk */

  guint64 **pages;      /* MAX_PAGES entries, each PAGE_ROWS offsets */
  guint n_pages;

  guint n_rows;         /* read atomically by other threads */
  guint64 last_seq;
};

G_DEFINE_FINAL_TYPE (FmvStore, fmv_store, G_TYPE_OBJECT)

static void
fmv_store_finalize (GObject *object)
{
  FmvStore *self = FMV_STORE (object);

  for (guint i = 0; i < self->n_chunks; i++)
    g_free (self->chunks[i]);
  for (guint i = 0; i < self->n_pages; i++)
    g_free (self->pages[i]);
  g_free (self->chunks);
  g_free (self->pages);

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
  self->chunks = g_new0 (guint8 *, MAX_CHUNKS);
  self->pages = g_new0 (guint64 *, MAX_PAGES);
}

FmvStore *
fmv_store_new (void)
{
  return g_object_new (FMV_TYPE_STORE, NULL);
}

/* Room for a record of @size bytes at the end of the store, or NULL when it is full. */
static guint8 *
reserve (FmvStore *self,
         gsize     size)
{
  guint row = self->n_rows;
  guint8 *at;

  if (row >= MAX_PAGES * PAGE_ROWS)
    return NULL;
  if (self->n_chunks == 0 || self->chunk_used + size > CHUNK_SIZE)
    {
      if (self->n_chunks == MAX_CHUNKS)
        return NULL;
      /* g_malloc of 4 MiB is an mmap: untouched tail pages cost nothing. */
      self->chunks[self->n_chunks++] = g_malloc (CHUNK_SIZE);
      self->chunk_used = 0;
    }
  if ((row >> PAGE_SHIFT) >= self->n_pages)
    self->pages[self->n_pages++] = g_new (guint64, PAGE_ROWS);

  at = self->chunks[self->n_chunks - 1] + self->chunk_used;
  self->pages[row >> PAGE_SHIFT][row & (PAGE_ROWS - 1)] =
    ((guint64) (self->n_chunks - 1) << CHUNK_SHIFT) | self->chunk_used;
  self->chunk_used += size;
  return at;
}

/* Makes the row reserved last, now written, visible. */
static void
publish (FmvStore *self,
         guint64   seq,
         guint    *row_out)
{
  guint row = self->n_rows;

  if (seq > self->last_seq)
    self->last_seq = seq;

  /* Publishes the row (and the bytes above) to readers in other threads. */
  g_atomic_int_set (&self->n_rows, row + 1);

  if (row_out)
    *row_out = row;
}

gboolean
fmv_store_append (FmvStore      *self,
                  const FmEvent *event,
                  guint         *row_out)
{
  guint8 *at;

  g_return_val_if_fail (FMV_IS_STORE (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  at = reserve (self, fm_record_event_size (event));
  if (at == NULL)
    return FALSE;
  fm_record_encode_event (event, at);
  publish (self, event->seq, row_out);
  return TRUE;
}

gboolean
fmv_store_append_record (FmvStore      *self,
                         const guint8  *record,
                         gsize          size,
                         const FmEvent *event,
                         guint         *row_out)
{
  guint8 *at;

  g_return_val_if_fail (FMV_IS_STORE (self), FALSE);
  g_return_val_if_fail (record != NULL && event != NULL, FALSE);
  g_return_val_if_fail (size <= FM_RECORD_MAX_SIZE, FALSE);

  at = reserve (self, size);
  if (at == NULL)
    return FALSE;
  memcpy (at, record, size);
  publish (self, event->seq, row_out);
  return TRUE;
}

guint
fmv_store_get_n_rows (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return g_atomic_int_get (&self->n_rows);
}

static inline const guint8 *
record_at (FmvStore *self,
           guint     row)
{
  guint64 offset = self->pages[row >> PAGE_SHIFT][row & (PAGE_ROWS - 1)];

  return self->chunks[offset >> CHUNK_SHIFT] + (offset & (CHUNK_SIZE - 1));
}

/* The records were written by fm_record_encode_event from a valid event, so they are read
 * without the checks fm_record_decode_event makes on foreign input: this runs once per
 * row in every refilter. */
void
fmv_store_get_event (FmvStore *self,
                     guint     row,
                     FmEvent  *event)
{
  g_assert (row < fmv_store_get_n_rows (self));

  fm_record_view_event (record_at (self, row), event);
}

gint64
fmv_store_get_result (FmvStore *self,
                      guint     row)
{
  gint64 v;

  memcpy (&v, record_at (self, row) + FM_RECORD_OFFSET_RESULT, sizeof v);
  return (gint64) GINT64_FROM_LE (v);
}

gsize
fmv_store_get_memory_size (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  /* Only the used part of the last chunk counts: the rest was never touched. */
  return (gsize) (self->n_chunks ? self->n_chunks - 1 : 0) * CHUNK_SIZE + self->chunk_used
         + (gsize) self->n_pages * PAGE_ROWS * sizeof (guint64)
         + (MAX_CHUNKS + MAX_PAGES) * sizeof (gpointer);
}

guint64
fmv_store_get_last_seq (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return self->last_seq;
}
