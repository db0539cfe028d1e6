/* filemond-ring.h: the daemon's bounded buffer of captured events.
 *
 * Events are stored compact (fm-compact-event.h): the fixed fields, and each string once
 * in the ring's string table however many events name it. They become stream records
 * (fm-stream.h) again on the way out, byte for byte what they would have been. The ring
 * owns the sequence numbers: each appended event gets the next one, from 1, never
 * reused. Capacity is bounded both in events and in bytes (the records' chunks and the
 * string table together); when either is reached the oldest events go and are counted
 * as overwritten. Append and lookup by sequence number are O(1).
 *
 * Memory is a list of chunks of records. A snapshot (for Save) references the chunks it
 * needs, so taking one costs no copy and the ring can keep overwriting: it simply stops
 * using a chunk that a snapshot still holds, and keeps the strings of that chunk's
 * records until the snapshot lets go of it, which it does chunk by chunk as it is read.
 * The byte bound holds against snapshots too: when the ring is over it and what it would
 * free is pinned, the snapshots pinning it are revoked (their reader stops at its next
 * event, woken by the revoke function when it waits elsewhere) rather than the ring
 * growing for as long as a stalled reader keeps them.
 *
 * Not thread-safe: used on the main loop only. A snapshot may be read from another thread.
 */
#pragma once

#include <glib.h>

#include "fm-compact-event.h"
#include "fm-event.h"

G_BEGIN_DECLS

typedef struct _FmdRing FmdRing;
typedef struct _FmdRingSnapshot FmdRingSnapshot;

/* Called after each append, on the appending thread. Keep it cheap. */
typedef void (*FmdRingWatchFunc) (FmdRing *ring, gpointer user_data);
/* Called once, on the appending thread, when a snapshot is revoked: wakes its reader.
 * Keep it cheap and thread-safe (g_cancellable_cancel). */
typedef void (*FmdRingRevokeFunc) (gpointer user_data);

FmdRing *fmd_ring_new (guint64 max_events,
                       guint64 max_bytes);
void fmd_ring_free (FmdRing *ring);

/* Encodes @event (its seq field is ignored) and returns the sequence number it got. */
guint64 fmd_ring_append (FmdRing       *ring,
                         const FmEvent *event);

/* The oldest buffered sequence number; equal to next_seq when the ring is empty. */
guint64 fmd_ring_get_first_seq (FmdRing *ring);
/* The sequence number the next appended event will get. */
guint64 fmd_ring_get_next_seq (FmdRing *ring);
guint64 fmd_ring_get_n_events (FmdRing *ring);
/* Bytes of memory the ring's chunks (with those out of it that snapshots still hold) and
 * its string table take now: never more than max_bytes, unless one event is bigger alone,
 * or a revoked snapshot's reader has not let go yet. */
guint64 fmd_ring_get_memory (FmdRing *ring);
/* Snapshots revoked so far for the byte bound. */
guint64 fmd_ring_get_n_revoked (FmdRing *ring);
/* Distinct strings the buffered events hold. */
guint fmd_ring_get_n_strings (FmdRing *ring);
guint64 fmd_ring_get_overwritten (FmdRing *ring);
guint64 fmd_ring_get_max_events (FmdRing *ring);
guint64 fmd_ring_get_max_bytes (FmdRing *ring);

/* The event @seq; FALSE when it is not buffered (overwritten or not yet appended). Its
 * strings are valid until the next append. */
gboolean fmd_ring_lookup (FmdRing *ring,
                          guint64  seq,
                          FmEvent *event);

/* Encodes the stream records of up to @max_records consecutive events from @seq into
 * @out, as many as fit in @size bytes (at least FM_RECORD_MAX_SIZE); *len gets the bytes
 * written. Returns how many; 0 when @seq is not buffered. */
guint64 fmd_ring_encode_run (FmdRing *ring,
                             guint64  seq,
                             guint64  max_records,
                             guint8  *out,
                             gsize    size,
                             gsize   *len);

guint fmd_ring_add_watch (FmdRing          *ring,
                          FmdRingWatchFunc  func,
                          gpointer          user_data);
void fmd_ring_remove_watch (FmdRing *ring,
                            guint    id);

/* The buffered events with seq >= @since_seq (all of them for 0), frozen now. Its
 * reader may be another thread. @revoke_func (may be NULL) is called if the ring revokes
 * it; @revoke_destroy frees @revoke_data when neither the ring nor the owner can call it
 * any more. */
FmdRingSnapshot *fmd_ring_snapshot (FmdRing           *ring,
                                    guint64            since_seq,
                                    FmdRingRevokeFunc  revoke_func,
                                    gpointer           revoke_data,
                                    GDestroyNotify     revoke_destroy);
/* TRUE once the ring revoked it: fmd_ring_snapshot_next() then returns FALSE, and the
 * events it had not given yet are lost to it. */
gboolean fmd_ring_snapshot_is_revoked (FmdRingSnapshot *snapshot);
guint64 fmd_ring_snapshot_get_n_events (FmdRingSnapshot *snapshot);
guint64 fmd_ring_snapshot_get_first_seq (FmdRingSnapshot *snapshot);
/* Iterates the events in order; FALSE at the end or once revoked. The view is valid
 * until the next call. */
gboolean fmd_ring_snapshot_next (FmdRingSnapshot *snapshot,
                                 FmEvent         *event);
void fmd_ring_snapshot_free (FmdRingSnapshot *snapshot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdRing, fmd_ring_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdRingSnapshot, fmd_ring_snapshot_free)

G_END_DECLS
