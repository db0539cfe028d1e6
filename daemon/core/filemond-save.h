/* filemond-save.h: the Save method's writer.
 *
 * The client opens the file itself, with its own rights, and passes the descriptor: the
 * daemon never opens a path a client names. A file kept in memory (tmpfs, memfd) is
 * refused: what the daemon wrote there would be charged to its memory for good. The events are a ring snapshot taken when the
 * call arrives; formatting and writing happen in a thread of their own, so a slow (or
 * frozen) reader holds that thread only, never the main loop, and writes to pipes and
 * sockets never block past cancellation.
 */
#pragma once

#include <gio/gio.h>

#include "filemond-ring.h"
#include "fm-format.h"

G_BEGIN_DECLS

/* TRUE when @fd is open for writing (O_WRONLY or O_RDWR) and is a regular file, a FIFO
 * or pipe, or a stream socket; FM_ERROR_INVALID_ARGS saying what is wrong otherwise. */
gboolean fmd_save_check_fd (int      fd,
                            GError **error);

/* Writes the events of @ring with seq >= @since_seq (a snapshot taken now) to @fd
 * (taken: closed when done) in @format; fails with FM_ERROR_IO when the reader takes
 * nothing for @stall_sec, or falls so far behind that the ring revokes the snapshot (its
 * byte bound, filemond-ring.h). FM_ERROR_INVALID_ARGS for a file kept in memory. */
void fmd_save_async (FmdRing             *ring,
                     guint64              since_seq,
                     int                  fd,
                     FmFormat             format,
                     guint                stall_sec,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data);
/* The number of events written, or FALSE with FM_ERROR_IO (or G_IO_ERROR_CANCELLED). */
gboolean fmd_save_finish (GAsyncResult  *result,
                          guint64       *written,
                          GError       **error);

G_END_DECLS
