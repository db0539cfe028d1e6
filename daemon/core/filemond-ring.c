/* filemond-ring.c: the bounded event buffer; see filemond-ring.h for the contract.
 *
 * Layout: chunks of compact records (fm-compact-event.h), fixed-size, in a circular array
 * (oldest first). Every chunk but the newest is full, so the chunk and slot of a
 * sequence number are arithmetic: no index.
 *
 * Strings: a record's string references are dropped when the record leaves the ring,
 * unless a snapshot (another thread) still reads its chunk; then when the snapshot lets
 * go, noticed on the main loop (a chunk whose only reference is the ring's again).
 * Retired chunks that snapshots hold wait in a list for that. The string table itself
 * is referenced by the snapshots too, so a ring freed during a save leaves it to them.
 *
 * Snapshots and the byte bound: a snapshot lets go of each event's strings and each chunk
 * as soon as its reader has passed them, so a save that keeps up pins little. One that does not (its reader
 * stalls, or reads slower than the capture overwrites) would pin every chunk and every
 * string from its start for as long as it lasts, and the ring would grow past its bound
 * by whatever the capture adds meanwhile: with distinct long paths, hundreds of MB. So
 * when the ring is over its bytes and what it would free is pinned, it revokes the
 * snapshots that pin it: their reader stops at its next event (or is woken by the
 * revoke function) and lets go of everything. Until it does the ring keeps appending,
 * so the bound may be passed by what one reader's reaction time lets in (an event, or
 * one write of the save's buffer), never by a stalled reader's whole lifetime.
 */
#include "filemond-ring.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fm-stream.h"

#define MIN_CHUNK_SIZE ((gsize) 64 * 1024)
/* The oldest chunk's overwritten records keep their pages until the whole chunk goes:
 * half a chunk on average, so chunks stay small (2 MiB: 36 000 events), one huge page. */
#define HUGE_PAGE_SIZE ((gsize) 2 * 1024 * 1024)
#define MAX_CHUNK_SIZE HUGE_PAGE_SIZE
/* The byte capacity is spent in chunks; overwriting frees a whole chunk at a time, so
 * more chunks mean finer overwriting (1/32 of the buffer at worst). */
#define CHUNKS_PER_RING 32

typedef struct {
  gatomicrefcount ref_count;
  guint64 first_seq;     /* seq of its first record */
  guint n_records;       /* appended here (some may be overwritten already) */
  guint n_released;      /* leading records whose strings were released */
  FmCompactEvent records[];
} Chunk;

typedef struct {
  guint id;
  FmdRingWatchFunc func;
  gpointer user_data;
} Watch;

struct _FmdRing {
  guint64 max_events;
  guint64 max_bytes;
  guint chunk_records;
  gsize chunk_bytes;
  guint max_chunks;
  gsize chunk_alloc;     /* the bytes a chunk's allocation takes: chunk_bytes or a huge page */

  Chunk **chunks;        /* circular, max_chunks slots */
  guint chunk_head;      /* slot of the oldest chunk */
  guint n_chunks;
  Chunk *spare;          /* the last chunk that left the ring, for the next to reuse */
  GPtrArray *retired;    /* Chunk *: out of the ring, strings held for a snapshot */

  FmStrtab *strings;
  guint64 first_seq;
  guint64 next_seq;
  guint64 overwritten;

  GArray *watches;
  guint next_watch_id;

  GPtrArray *snapshots;  /* FmdRingSnapshot *, referenced, until their owner frees them */
  guint64 n_revoked;
};

struct _FmdRingSnapshot {
  gatomicrefcount ref_count;   /* its owner's and the ring's list's */
  FmStrtab *strings;
  GPtrArray *chunks;     /* Chunk *, referenced until released (then NULL) */
  guint chunk_records;
  guint64 chunk0_first_seq;
  guint64 first_seq;
  guint64 n_events;
  guint64 next;          /* index of the next event, from first_seq */
  guint n_unreffed;      /* leading chunks let go of (the reader's own) */

  /* Read by the ring on the main loop while the owner's thread reads the snapshot. */
  gsize done;            /* events the reader is done with (their views unused) */
  gint revoked;
  gint finished;         /* the owner freed it */

  FmdRingRevokeFunc revoke_func;
  gpointer revoke_data;
  GDestroyNotify revoke_destroy;
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
    free (chunk);
}

/* A growing ring writes each of its pages once, and on virtual machines the fault of a new
 * 4 KiB page is a large share of a record's cost (bench/README.md, "Where filemond's time
 * goes, round 2"). A chunk of a huge page's size is therefore one aligned huge page where
 * the kernel gives transparent huge pages on request (THP "madvise" or "always"): one fault
 * per 36 000 records. Elsewhere, or when none is free, the same memory is 4 KiB pages. */
static Chunk *
chunk_alloc (FmdRing *ring)
{
  gsize align = ring->chunk_alloc == HUGE_PAGE_SIZE ? HUGE_PAGE_SIZE : sizeof (gpointer);
  gpointer mem;

  if (posix_memalign (&mem, align, ring->chunk_alloc) != 0)
    g_error ("%s: cannot allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, ring->chunk_alloc);
  if (align == HUGE_PAGE_SIZE)
    (void) madvise (mem, HUGE_PAGE_SIZE, MADV_HUGEPAGE);
  return mem;
}

static gboolean
chunk_is_shared (Chunk *chunk)
{
  return !g_atomic_ref_count_compare (&chunk->ref_count, 1);
}

static void
snapshot_unref (gpointer data)
{
  FmdRingSnapshot *snap = data;

  if (!g_atomic_ref_count_dec (&snap->ref_count))
    return;
  if (snap->revoke_destroy != NULL)
    snap->revoke_destroy (snap->revoke_data);
  g_ptr_array_unref (snap->chunks);
  fm_strtab_unref (snap->strings);
  g_free (snap);
}

/* The first event @snap's reader still needs; G_MAXUINT64 when it needs none. Read from
 * the main loop while the reader moves on: a stale value is smaller, never unsafe. */
static guint64
snapshot_pinned_seq (FmdRingSnapshot *snap)
{
  gsize done = (gsize) g_atomic_pointer_get (&snap->done);

  return done < snap->n_events && !g_atomic_int_get (&snap->finished)
           ? snap->first_seq + done : G_MAXUINT64;
}

/* The first event any snapshot's reader still needs. */
static guint64
min_pinned_seq (FmdRing *ring)
{
  guint64 min = G_MAXUINT64;

  for (guint i = 0; i < ring->snapshots->len; i++)
    min = MIN (min, snapshot_pinned_seq (g_ptr_array_index (ring->snapshots, i)));
  return min;
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
  ring->chunk_records = (chunk_size - sizeof (Chunk)) / sizeof (FmCompactEvent);
  ring->chunk_bytes = sizeof (Chunk) + ring->chunk_records * sizeof (FmCompactEvent);
  ring->chunk_alloc = chunk_size == HUGE_PAGE_SIZE ? HUGE_PAGE_SIZE : ring->chunk_bytes;
  ring->max_chunks = max_bytes / ring->chunk_bytes;
  ring->chunks = g_new0 (Chunk *, ring->max_chunks);
  ring->retired = g_ptr_array_new_with_free_func (chunk_unref);
  ring->strings = fm_strtab_new ();
  ring->first_seq = 1;
  ring->next_seq = 1;
  ring->watches = g_array_new (FALSE, FALSE, sizeof (Watch));
  ring->next_watch_id = 1;
  ring->snapshots = g_ptr_array_new_with_free_func (snapshot_unref);
  return ring;
}

static inline Chunk *
chunk_at (FmdRing *ring, guint i)
{
  return ring->chunks[(ring->chunk_head + i) % ring->max_chunks];
}

void
fmd_ring_free (FmdRing *ring)
{
  if (ring == NULL)
    return;

  /* the table goes whole with its last reference: no string is released one by one */
  for (guint i = 0; i < ring->n_chunks; i++)
    chunk_unref (chunk_at (ring, i));
  free (ring->spare);
  g_free (ring->chunks);
  g_ptr_array_unref (ring->retired);
  fm_strtab_unref (ring->strings);
  g_array_unref (ring->watches);
  g_ptr_array_unref (ring->snapshots);
  g_free (ring);
}

/* The record of a buffered @seq. */
static inline const FmCompactEvent *
locate (FmdRing  *ring,
        guint64   seq,
        Chunk   **chunk_out)
{
  guint64 i = seq - chunk_at (ring, 0)->first_seq;
  Chunk *chunk = chunk_at (ring, i / ring->chunk_records);

  g_assert (i / ring->chunk_records < ring->n_chunks);
  if (chunk_out)
    *chunk_out = chunk;
  return &chunk->records[i % ring->chunk_records];
}

/* Releases the strings of the records of @chunk that left the ring (all of them when
 * @chunk left it), but those a snapshot's reader still needs. */
static void
release_gone (FmdRing *ring,
              Chunk   *chunk,
              gboolean retired)
{
  guint64 gone = retired ? chunk->n_records
                         : MIN (ring->first_seq - chunk->first_seq, chunk->n_records);

  if (chunk_is_shared (chunk))
    {
      guint64 pinned = min_pinned_seq (ring);

      gone = MIN (gone, pinned > chunk->first_seq ? pinned - chunk->first_seq : 0);
    }
  for (; chunk->n_released < gone; chunk->n_released++)
    fm_compact_event_release (&chunk->records[chunk->n_released], ring->strings);
}

/* Retired chunks give back the strings that snapshots' readers are done with, and go
 * once no snapshot holds them. */
static void
sweep_retired (FmdRing *ring)
{
  for (guint i = ring->retired->len; i > 0; i--)
    {
      Chunk *chunk = g_ptr_array_index (ring->retired, i - 1);

      release_gone (ring, chunk, TRUE);
      if (!chunk_is_shared (chunk))
        g_ptr_array_remove_index_fast (ring->retired, i - 1);
    }
}

static void
pop_oldest_chunk (FmdRing *ring)
{
  Chunk *chunk = chunk_at (ring, 0);

  ring->chunks[ring->chunk_head] = NULL;
  ring->chunk_head = (ring->chunk_head + 1) % ring->max_chunks;
  ring->n_chunks--;
  release_gone (ring, chunk, TRUE);
  if (chunk->n_released < chunk->n_records)
    g_ptr_array_add (ring->retired, chunk);
  else if (ring->spare == NULL && !chunk_is_shared (chunk))
    ring->spare = chunk;   /* its pages are mapped already: the next chunk costs no fault */
  else
    chunk_unref (chunk);
}

static void
drop_oldest_event (FmdRing *ring)
{
  Chunk *chunk = chunk_at (ring, 0);

  g_assert (ring->first_seq < ring->next_seq);

  ring->first_seq++;
  ring->overwritten++;
  release_gone (ring, chunk, FALSE);
  /* the only chunk, even empty, is the one appended to next */
  if (ring->first_seq - chunk->first_seq >= chunk->n_records && ring->n_chunks > 1)
    pop_oldest_chunk (ring);
}

static void
drop_oldest_chunk (FmdRing *ring)
{
  Chunk *chunk = chunk_at (ring, 0);

  g_assert (ring->n_chunks > 1);

  while (chunk_at (ring, 0) == chunk)
    drop_oldest_event (ring);
}

static Chunk *
push_chunk (FmdRing *ring)
{
  Chunk *chunk = ring->spare != NULL ? g_steal_pointer (&ring->spare) : chunk_alloc (ring);

  g_atomic_ref_count_init (&chunk->ref_count);
  chunk->first_seq = ring->next_seq;
  chunk->n_records = 0;
  chunk->n_released = 0;

  ring->chunks[(ring->chunk_head + ring->n_chunks) % ring->max_chunks] = chunk;
  ring->n_chunks++;
  return chunk;
}

/* The chunk the next record goes to. */
static Chunk *
tail_chunk (FmdRing *ring)
{
  Chunk *tail = ring->n_chunks > 0 ? chunk_at (ring, ring->n_chunks - 1) : NULL;

  if (tail != NULL && tail->n_records < ring->chunk_records)
    return tail;

  sweep_retired (ring);
  if (ring->n_chunks == ring->max_chunks)
    drop_oldest_chunk (ring);
  /* a tail whose every record is gone is not worth keeping */
  if (ring->n_chunks == 1 && ring->first_seq == ring->next_seq)
    pop_oldest_chunk (ring);
  return push_chunk (ring);
}

/* Drops the ring's references to the snapshots their owners freed. */
static void
forget_finished_snapshots (FmdRing *ring)
{
  for (guint i = ring->snapshots->len; i > 0; i--)
    if (g_atomic_int_get (&((FmdRingSnapshot *) g_ptr_array_index (ring->snapshots, i - 1))->finished))
      g_ptr_array_remove_index_fast (ring->snapshots, i - 1);
}

/* Revokes the snapshots whose reader still needs an event before @seq; TRUE when one
 * still does (revoked now or before, its reader not done yet). */
static gboolean
revoke_pinning (FmdRing *ring,
                guint64  seq)
{
  gboolean pinned = FALSE;

  forget_finished_snapshots (ring);
  for (guint i = 0; i < ring->snapshots->len; i++)
    {
      FmdRingSnapshot *snap = g_ptr_array_index (ring->snapshots, i);

      if (snapshot_pinned_seq (snap) >= seq)
        continue;
      pinned = TRUE;
      if (g_atomic_int_compare_and_exchange (&snap->revoked, 0, 1))
        {
          ring->n_revoked++;
          if (snap->revoke_func != NULL)
            snap->revoke_func (snap->revoke_data);
        }
    }
  return pinned;
}

/* The byte bound: the oldest events go until the chunks and the strings fit. An event a
 * snapshot's reader still needs cannot go: the snapshots needing it are revoked, and the
 * ring waits for their readers to let go rather than drop newer events in its place. */
static void
enforce_bytes (FmdRing *ring)
{
  if (fmd_ring_get_memory (ring) <= ring->max_bytes)
    return;

  /* what readers passed since the last look */
  sweep_retired (ring);
  release_gone (ring, chunk_at (ring, 0), FALSE);

  while (fmd_ring_get_memory (ring) > ring->max_bytes
         && ring->next_seq - ring->first_seq > 1)
    {
      if (revoke_pinning (ring, ring->first_seq + 1))
        return;
      drop_oldest_event (ring);
    }
}

/* The last event appended while its strings are held, for the intern's hint. */
static const FmCompactEvent *
newest (FmdRing *ring)
{
  Chunk *tail;

  if (ring->first_seq == ring->next_seq)
    return NULL;
  tail = chunk_at (ring, ring->n_chunks - 1);
  return &tail->records[tail->n_records - 1];
}

guint64
fmd_ring_append (FmdRing       *ring,
                 const FmEvent *event)
{
  FmCompactEvent compact;
  Chunk *tail;
  guint64 seq;

  g_return_val_if_fail (ring != NULL, 0);
  g_return_val_if_fail (event != NULL, 0);

  /* 2^28 distinct strings: only a ring of a hundred million events with nothing in
   * common gets there; its oldest go first */
  while (!fm_compact_event_intern (&compact, event, ring->strings, newest (ring)))
    {
      g_assert (ring->first_seq < ring->next_seq);
      drop_oldest_event (ring);
    }
  /* after the intern: the newest event may be the one that goes */
  if (ring->next_seq - ring->first_seq == ring->max_events)
    drop_oldest_event (ring);

  tail = tail_chunk (ring);
  seq = ring->next_seq;
  tail->records[tail->n_records++] = compact;
  ring->next_seq++;
  enforce_bytes (ring);

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
guint64 fmd_ring_get_overwritten (FmdRing *ring) { return ring->overwritten; }
guint64 fmd_ring_get_max_events (FmdRing *ring) { return ring->max_events; }
guint64 fmd_ring_get_max_bytes (FmdRing *ring) { return ring->max_bytes; }
guint fmd_ring_get_n_strings (FmdRing *ring) { return fm_strtab_get_n_strings (ring->strings); }

guint64
fmd_ring_get_memory (FmdRing *ring)
{
  return (guint64) (ring->n_chunks + ring->retired->len) * ring->chunk_bytes
         + fm_strtab_get_memory (ring->strings);
}

guint64 fmd_ring_get_n_revoked (FmdRing *ring) { return ring->n_revoked; }

gboolean
fmd_ring_lookup (FmdRing *ring,
                 guint64  seq,
                 FmEvent *event)
{
  g_return_val_if_fail (ring != NULL, FALSE);

  if (seq < ring->first_seq || seq >= ring->next_seq)
    return FALSE;

  fm_compact_event_view (locate (ring, seq, NULL), seq, ring->strings, event);
  return TRUE;
}

guint64
fmd_ring_encode_run (FmdRing *ring,
                     guint64  seq,
                     guint64  max_records,
                     guint8  *out,
                     gsize    size,
                     gsize   *len)
{
  gsize used = 0;
  guint64 n = 0;

  g_return_val_if_fail (ring != NULL, 0);
  g_return_val_if_fail (size >= FM_RECORD_MAX_SIZE, 0);

  *len = 0;
  if (seq < ring->first_seq || seq >= ring->next_seq)
    return 0;

  max_records = MIN (max_records, ring->next_seq - seq);
  while (n < max_records)
    {
      Chunk *chunk;
      const FmCompactEvent *record = locate (ring, seq + n, &chunk);
      /* the rest of this chunk's records lie one after the other */
      guint64 in_chunk = MIN (max_records - n,
                              chunk->n_records - (guint64) (record - chunk->records));

      for (guint64 k = 0; k < in_chunk; k++, n++)
        {
          FmEvent event;

          fm_compact_event_view (record + k, seq + n, ring->strings, &event);
          if (fm_record_event_size (&event) > size - used)
            goto full;
          used += fm_record_encode_event (&event, out + used);
        }
    }

full:
  *len = used;
  return n;
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

static void
chunk_unref_nullable (gpointer data)
{
  if (data != NULL)
    chunk_unref (data);
}

FmdRingSnapshot *
fmd_ring_snapshot (FmdRing           *ring,
                   guint64            since_seq,
                   FmdRingRevokeFunc  revoke_func,
                   gpointer           revoke_data,
                   GDestroyNotify     revoke_destroy)
{
  FmdRingSnapshot *snap = g_new0 (FmdRingSnapshot, 1);
  guint64 start = MAX (since_seq, ring->first_seq);

  /* those whose owners are done go here too, not only when the ring is over its bound */
  forget_finished_snapshots (ring);

  g_atomic_ref_count_init (&snap->ref_count);
  snap->strings = fm_strtab_ref (ring->strings);
  snap->chunks = g_ptr_array_new_with_free_func (chunk_unref_nullable);
  snap->chunk_records = ring->chunk_records;
  snap->first_seq = start;
  snap->revoke_func = revoke_func;
  snap->revoke_data = revoke_data;
  snap->revoke_destroy = revoke_destroy;

  if (start < ring->next_seq)
    {
      Chunk *chunk;

      snap->n_events = ring->next_seq - start;
      locate (ring, start, &chunk);
      snap->chunk0_first_seq = chunk->first_seq;
      for (guint k = (chunk->first_seq - chunk_at (ring, 0)->first_seq) / ring->chunk_records;
           k < ring->n_chunks; k++)
        g_ptr_array_add (snap->chunks, chunk_ref (chunk_at (ring, k)));
      /* the ring's reference: it may have to revoke it */
      g_atomic_ref_count_inc (&snap->ref_count);
      g_ptr_array_add (ring->snapshots, snap);
    }

  return snap;
}

gboolean
fmd_ring_snapshot_is_revoked (FmdRingSnapshot *snapshot)
{
  return g_atomic_int_get (&snapshot->revoked) != 0;
}

/* Lets go of the chunks before the @n-th (the reader is done with their events). */
static void
snapshot_release_chunks (FmdRingSnapshot *snap,
                         guint            n)
{
  for (; snap->n_unreffed < MIN (n, snap->chunks->len); snap->n_unreffed++)
    chunk_unref (g_steal_pointer (&g_ptr_array_index (snap->chunks, snap->n_unreffed)));
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
                        FmEvent         *event)
{
  Chunk *chunk;
  guint64 i;
  guint k;

  /* the view of the event before is no longer used: its strings may go */
  g_atomic_pointer_set (&snapshot->done, (gsize) snapshot->next);
  if (snapshot->next >= snapshot->n_events || fmd_ring_snapshot_is_revoked (snapshot))
    {
      g_atomic_pointer_set (&snapshot->done, (gsize) snapshot->n_events);
      snapshot_release_chunks (snapshot, snapshot->chunks->len);
      return FALSE;
    }

  /* chunks are full but the last, so the position is arithmetic as in the ring */
  i = snapshot->first_seq + snapshot->next - snapshot->chunk0_first_seq;
  k = i / snapshot->chunk_records;
  snapshot_release_chunks (snapshot, k);
  chunk = g_ptr_array_index (snapshot->chunks, k);
  fm_compact_event_view (&chunk->records[i % snapshot->chunk_records],
                         snapshot->first_seq + snapshot->next, snapshot->strings, event);
  snapshot->next++;
  return TRUE;
}

void
fmd_ring_snapshot_free (FmdRingSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;

  g_atomic_int_set (&snapshot->finished, 1);
  snapshot_release_chunks (snapshot, snapshot->chunks->len);
  snapshot_unref (snapshot);
}
