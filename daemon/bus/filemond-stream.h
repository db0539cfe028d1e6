/* filemond-stream.h: the OpenStream writers.
 *
 * Each stream is one end of a socketpair; the client holds the other. A stream is a
 * cursor into the ring (the next sequence number it owes its reader) plus a small
 * pending buffer: it copies records from the ring to the socket, without blocking, as
 * fast as the reader takes them. Replay (since-seq) and the live part are therefore the
 * same loop, with no gap and no duplicate between them. A reader so slow that the ring
 * overwrote events it had not got yet receives a gap record with the exact count; since
 * nothing is queued per stream beyond the socket buffer, a frozen reader costs the daemon
 * no memory and never holds back capture or the other readers.
 */
#pragma once

#include <glib-object.h>

#include "filemond-ring.h"
#include "fm-stream.h"

G_BEGIN_DECLS

/* Each stream holds a descriptor and up to StreamBufferBytes of kernel memory, read or
 * not: bound how many, in all, per user (filemond-quota.h: the last few are root's) and
 * per bus connection. */
#define FMD_STREAMS_MAX 32
#define FMD_STREAMS_PER_UID 8
#define FMD_STREAMS_ROOT_RESERVE 8
#define FMD_STREAMS_PER_PEER 4

#define FMD_TYPE_STREAMS (fmd_streams_get_type ())
G_DECLARE_FINAL_TYPE (FmdStreams, fmd_streams, FMD, STREAMS, GObject)

/* @ring must outlive the streams. @socket_buffer_bytes bounds the kernel socket buffer
 * of each stream (filemond.conf StreamBufferBytes). Property "n-streams" (guint)
 * notifies when streams open or end. */
FmdStreams *fmd_streams_new (FmdRing *ring,
                             gsize    socket_buffer_bytes);

/* Opens a stream for @peer, of user @uid, and returns the reader's end (blocking,
 * close-on-exec; the caller owns it), or -1 with FM_ERROR_IO, or
 * G_DBUS_ERROR_LIMITS_EXCEEDED past one of the bounds above. With @replay, the stream starts at @since_seq (0: the
 * oldest buffered event; a number beyond the newest: the next live event); without it,
 * at the next live event. With @follow it goes on with live events until the reader
 * closes it; without, it ends (the daemon closes its end) once it has sent every event
 * buffered when it was opened: the live edge. */
int fmd_streams_open (FmdStreams *self,
                      const char *peer,
                      guint32     uid,
                      gboolean    replay,
                      guint64     since_seq,
                      gboolean    follow,
                      GError    **error);

/* The capture stopped or a new one started: each stream gets a capture record. */
void fmd_streams_capture_changed (FmdStreams      *self,
                                  FmCaptureChange  change);

/* The daemon's DroppedCount; each stream sends a dropped record when it changes. */
void fmd_streams_set_dropped_total (FmdStreams *self,
                                    guint64     total);

guint fmd_streams_get_n_streams (FmdStreams *self);
/* Events skipped by gap records, over all streams since creation. */
guint64 fmd_streams_get_gap_total (FmdStreams *self);
/* Ends every stream (their readers see end of file). */
void fmd_streams_close_all (FmdStreams *self);

G_END_DECLS
