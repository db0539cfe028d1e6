/* filemond-ring.c: the bounded event buffer; see filemond-ring.h for the contract.
 *
 * Layout: chunks of whole encoded records, packed without padding, kept in a circular
 * array (oldest first), and an index with one slot per event (seq % max_events) giving
 * the chunk serial and offset of its record. Records never straddle chunks, so
 * consecutive events in one chunk form one contiguous run of stream bytes that a stream
 * writes with one syscall.
 */
#include "filemond-ring.h"

#include <string.h>

#include "fm-stream.h"

#define MIN_CHUNK_SIZE ((gsize) 64 * 1024)
#define MAX_CHUNK_SIZE ((gsize) 4 * 1024 * 1024)
/* The byte capacity is spent in chunks; overwriting frees a whole chunk at a time, so
 * more chunks mean finer overwriting (1/32 of the buffer at worst). */
#define CHUNKS_PER_RING 32

typedef struct {
  gatomicrefcount ref_count;
  guint64 serial;
  guint64 first_seq;     /* seq of the first record appended here */
  guint64 n_records;     /* records appended here (some may be overwritten already) */
  gsize used;
  gsize size;
  guint8 data[];
} Chunk;

typedef struct {
  guint id;
  FmdRingWatchFunc func;
  gpointer user_data;
} Watch;

struct _FmdRing {
  guint64 max_events;
  guint64 max_bytes;
  gsize chunk_size;
  guint max_chunks;

  Chunk **chunks;        /* circular, max_chunks slots */
  guint chunk_head;      /* slot of the oldest chunk */
  guint n_chunks;
  guint64 next_serial;

  guint64 *index;        /* max_events slots: (serial << 32) | offset */
  guint64 first_seq;
  guint64 next_seq;
  guint64 n_bytes;
  guint64 overwritten;

  GArray *watches;
  guint next_watch_id;
};

struct _FmdRingSnapshot {
  GPtrArray *chunks;     /* Chunk *, referenced */
  GArray *begin;         /* gsize per chunk */
  GArray *end;
  guint64 first_seq;
  guint64 n_events;
  guint cur;
  gsize cur_off;
};

static Chunk *
chunk_ref (Chunk *chunk)
{
  g_atomic_ref_count_inc (&chunk->ref_count);
  return chunk;
}

static void
chunk_unref (gpointer data)
{
  Chunk *chunk = data;

  if (g_atomic_ref_count_dec (&chunk->ref_count))
    g_free (chunk);
}

static inline guint32
record_size (const guint8 *record)
{
  guint32 size;

  memcpy (&size, record, sizeof size);
  return GUINT32_FROM_LE (size);
}

FmdRing *
fmd_ring_new (guint64 max_events,
              guint64 max_bytes)
{
  FmdRing *ring;
  gsize chunk_size;

  g_return_val_if_fail (max_events > 0, NULL);
  g_return_val_if_fail (max_bytes >= 2 * FM_RECORD_MAX_SIZE, NULL);

  chunk_size = CLAMP (max_bytes / CHUNKS_PER_RING, MIN_CHUNK_SIZE, MAX_CHUNK_SIZE);
  if (chunk_size * 2 > max_bytes)
    chunk_size = max_bytes / 2;

  ring = g_new0 (FmdRing, 1);
  ring->max_events = max_events;
  ring->max_bytes = max_bytes;
  ring->chunk_size = chunk_size;
  ring->max_chunks = max_bytes / chunk_size;
  ring->chunks = g_new0 (Chunk *, ring->max_chunks);
  ring->index = g_new (guint64, max_events);
  ring->first_seq = 1;
  ring->next_seq = 1;
  ring->watches = g_array_new (FALSE, FALSE, sizeof (Watch));
  ring->next_watch_id = 1;
  return ring;
}

void
fmd_ring_free (FmdRing *ring)
{
  if (ring == NULL)
    return;

  for (guint i = 0; i < ring->n_chunks; i++)
    chunk_unref (ring->chunks[(ring->chunk_head + i) % ring->max_chunks]);
  g_free (ring->chunks);
  g_free (ring->index);
  g_array_unref (ring->watches);
  g_free (ring);
}

static inline Chunk *
chunk_at (FmdRing *ring, guint i)
{
  return ring->chunks[(ring->chunk_head + i) % ring->max_chunks];
}

static inline guint64
chunk_last_seq (const Chunk *chunk)
{
  return chunk->first_seq + chunk->n_records - 1;
}

/* Where the record of a buffered @seq lives. */
static void
locate (FmdRing  *ring,
        guint64   seq,
        Chunk   **chunk_out,
        gsize    *offset_out)
{
  guint64 packed = ring->index[seq % ring->max_events];
  guint32 serial = packed >> 32;
  guint32 oldest = (guint32) chunk_at (ring, 0)->serial;
  /* Serials are compared modulo 2^32: far fewer chunks than that are ever alive. */
  guint k = (guint32) (serial - oldest);

  g_assert (k < ring->n_chunks);
  *chunk_out = chunk_at (ring, k);
  *offset_out = packed & G_MAXUINT32;
}

static void
pop_oldest_chunk (FmdRing *ring)
{
  Chunk *chunk = chunk_at (ring, 0);

  ring->chunks[ring->chunk_head] = NULL;
  ring->chunk_head = (ring->chunk_head + 1) % ring->max_chunks;
  ring->n_chunks--;
  chunk_unref (chunk);
}

/* Frees chunks whose every record is gone, except the one being appended to. */
static void
trim_chunks (FmdRing *ring)
{
  while (ring->n_chunks > 1 && chunk_last_seq (chunk_at (ring, 0)) < ring->first_seq)
    pop_oldest_chunk (ring);
}

static void
drop_oldest_event (FmdRing *ring)
{
  Chunk *chunk;
  gsize offset;

  g_assert (ring->first_seq < ring->next_seq);

  locate (ring, ring->first_seq, &chunk, &offset);
  ring->n_bytes -= record_size (chunk->data + offset);
  ring->first_seq++;
  ring->overwritten++;
  trim_chunks (ring);
}

static void
drop_oldest_chunk (FmdRing *ring)
{
  Chunk *chunk = chunk_at (ring, 0);
  guint64 last = chunk_last_seq (chunk);

  g_assert (ring->n_chunks > 1);

  while (ring->first_seq <= last)
    drop_oldest_event (ring);
  /* drop_oldest_event trimmed it already once its last record went */
  g_assert (chunk_at (ring, 0) != chunk);
}

static Chunk *
push_chunk (FmdRing *ring)
{
  Chunk *chunk = g_malloc (sizeof (Chunk) + ring->chunk_size);

  g_atomic_ref_count_init (&chunk->ref_count);
  chunk->serial = ring->next_serial++;
  chunk->first_seq = ring->next_seq;
  chunk->n_records = 0;
  chunk->used = 0;
  chunk->size = ring->chunk_size;

  ring->chunks[(ring->chunk_head + ring->n_chunks) % ring->max_chunks] = chunk;
  ring->n_chunks++;
  return chunk;
}

guint64
fmd_ring_append (FmdRing       *ring,
                 const FmEvent *event)
{
  FmEvent numbered;
  Chunk *tail;
  gsize size;
  guint64 seq;

  g_return_val_if_fail (ring != NULL, 0);
  g_return_val_if_fail (event != NULL, 0);

  size = fm_record_event_size (event);
  g_assert (size <= ring->chunk_size);

  if (ring->next_seq - ring->first_seq == ring->max_events)
    drop_oldest_event (ring);

  tail = ring->n_chunks > 0 ? chunk_at (ring, ring->n_chunks - 1) : NULL;
  if (tail == NULL || tail->size - tail->used < size)
    {
      if (ring->n_chunks == ring->max_chunks)
        drop_oldest_chunk (ring);
      /* an empty tail chunk (every record overwritten) is not worth keeping */
      trim_chunks (ring);
      if (ring->n_chunks == 1 && ring->first_seq == ring->next_seq)
        pop_oldest_chunk (ring);
      tail = push_chunk (ring);
    }

  seq = ring->next_seq;
  numbered = *event;
  numbered.seq = seq;
  fm_record_encode_event (&numbered, tail->data + tail->used);

  ring->index[seq % ring->max_events] = (tail->serial << 32) | tail->used;
  tail->used += size;
  tail->n_records++;
  ring->n_bytes += size;
  ring->next_seq++;

  for (guint i = 0; i < ring->watches->len; i++)
    {
      const Watch *w = &g_array_index (ring->watches, Watch, i);
      w->func (ring, w->user_data);
    }

  return seq;
}

guint64 fmd_ring_get_first_seq (FmdRing *ring) { return ring->first_seq; }
guint64 fmd_ring_get_next_seq (FmdRing *ring) { return ring->next_seq; }
guint64 fmd_ring_get_n_events (FmdRing *ring) { return ring->next_seq - ring->first_seq; }
guint64 fmd_ring_get_n_bytes (FmdRing *ring) { return ring->n_bytes; }
guint64 fmd_ring_get_memory (FmdRing *ring) { return (guint64) ring->n_chunks * ring->chunk_size; }
guint64 fmd_ring_get_overwritten (FmdRing *ring) { return ring->overwritten; }
guint64 fmd_ring_get_max_events (FmdRing *ring) { return ring->max_events; }
guint64 fmd_ring_get_max_bytes (FmdRing *ring) { return ring->max_bytes; }

gboolean
fmd_ring_lookup (FmdRing       *ring,
                 guint64        seq,
                 const guint8 **data,
                 gsize         *len)
{
  Chunk *chunk;
  gsize offset;

  g_return_val_if_fail (ring != NULL, FALSE);

  if (seq < ring->first_seq || seq >= ring->next_seq)
    return FALSE;

  locate (ring, seq, &chunk, &offset);
  *data = chunk->data + offset;
  *len = record_size (*data);
  return TRUE;
}

gboolean
fmd_ring_peek_run (FmdRing       *ring,
                   guint64        seq,
                   const guint8 **data,
                   gsize         *len,
                   guint64       *n_records)
{
  Chunk *chunk;
  gsize offset;

  g_return_val_if_fail (ring != NULL, FALSE);

  if (seq < ring->first_seq || seq >= ring->next_seq)
    return FALSE;

  locate (ring, seq, &chunk, &offset);
  *data = chunk->data + offset;
  *len = chunk->used - offset;
  *n_records = chunk_last_seq (chunk) - seq + 1;
  return TRUE;
}

guint
fmd_ring_add_watch (FmdRing          *ring,
                    FmdRingWatchFunc  func,
                    gpointer          user_data)
{
  Watch w = { ring->next_watch_id++, func, user_data };

  g_return_val_if_fail (func != NULL, 0);

  g_array_append_val (ring->watches, w);
  return w.id;
}

void
fmd_ring_remove_watch (FmdRing *ring,
                       guint    id)
{
  for (guint i = 0; i < ring->watches->len; i++)
    if (g_array_index (ring->watches, Watch, i).id == id)
      {
        g_array_remove_index (ring->watches, i);
        return;
      }
}

FmdRingSnapshot *
fmd_ring_snapshot (FmdRing *ring,
                   guint64  since_seq)
{
  FmdRingSnapshot *snap = g_new0 (FmdRingSnapshot, 1);
  guint64 start = MAX (since_seq, ring->first_seq);

  snap->chunks = g_ptr_array_new_with_free_func (chunk_unref);
  snap->begin = g_array_new (FALSE, FALSE, sizeof (gsize));
  snap->end = g_array_new (FALSE, FALSE, sizeof (gsize));
  snap->first_seq = start;

  if (start < ring->next_seq)
    {
      Chunk *chunk;
      gsize offset;
      guint k;

      snap->n_events = ring->next_seq - start;
      locate (ring, start, &chunk, &offset);
      for (k = 0; chunk_at (ring, k) != chunk; k++)
        ;
      for (; k < ring->n_chunks; k++)
        {
          Chunk *c = chunk_at (ring, k);

          g_ptr_array_add (snap->chunks, chunk_ref (c));
          g_array_append_val (snap->begin, offset);
          g_array_append_val (snap->end, c->used);
          offset = 0;
        }
      snap->cur_off = g_array_index (snap->begin, gsize, 0);
    }

  return snap;
}

guint64
fmd_ring_snapshot_get_n_events (FmdRingSnapshot *snapshot)
{
  return snapshot->n_events;
}

guint64
fmd_ring_snapshot_get_first_seq (FmdRingSnapshot *snapshot)
{
  return snapshot->first_seq;
}

gboolean
fmd_ring_snapshot_next (FmdRingSnapshot *snapshot,
                        const guint8   **data,
                        gsize           *len)
{
  while (snapshot->cur < snapshot->chunks->len)
    {
      Chunk *chunk = g_ptr_array_index (snapshot->chunks, snapshot->cur);
      gsize end = g_array_index (snapshot->end, gsize, snapshot->cur);

      if (snapshot->cur_off < end)
        {
          *data = chunk->data + snapshot->cur_off;
          *len = record_size (*data);
          snapshot->cur_off += *len;
          return TRUE;
        }

      snapshot->cur++;
      if (snapshot->cur < snapshot->chunks->len)
        snapshot->cur_off = g_array_index (snapshot->begin, gsize, snapshot->cur);
    }
  return FALSE;
}

void
fmd_ring_snapshot_free (FmdRingSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;

  g_ptr_array_unref (snapshot->chunks);
  g_array_unref (snapshot->begin);
  g_array_unref (snapshot->end);
  g_free (snapshot);
}
