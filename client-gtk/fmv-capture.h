/* fmv-capture.h: saved captures on disk: reading a jsonl capture into a store and writing
 * a store out in any of the save formats, both in worker threads. */
#pragma once

#include <gio/gio.h>

#include "fm-format.h"
#include "fmv-load-progress.h"
#include "fmv-store.h"

G_BEGIN_DECLS

/* Reads a jsonl capture (as written by filemonctl save, the daemon's Save or the viewer)
 * into a new store of depth @depth (0: no bound), which keeps the newest @depth events of
 * a longer file. Lines that do not parse are skipped and counted, never fatal; a file
 * that gives no event is an error saying why in words for people
 * (fmv-capture-explain.h): FM_ERROR_PARSE for what it holds (empty, another format, the
 * first bad line and its byte offset), the G_IO_ERROR of opening or reading it otherwise.
 * @progress (may be NULL) is kept up to date as blocks are read; once it is stopped, the
 * load ends with the events read so far. */
void fmv_capture_load_async (GFile               *file,
                             guint                depth,
                             FmvLoadProgress     *progress,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data);
/* @n_bad: lines skipped; @first_problem: where the first of them failed, "line 17 (byte
 * 4,210), column 44: …", "line 1,001, the last: the file ends in the middle of an event…"
 * (or NULL). */
FmvStore *fmv_capture_load_finish (GAsyncResult  *result,
                                   guint         *n_bad,
                                   char         **first_problem,
                                   GError       **error);

/* The same, blocking (for tests and measurements). */
FmvStore *fmv_capture_load (GFile         *file,
                            guint          depth,
                            GCancellable  *cancellable,
                            guint         *n_bad,
                            char         **first_problem,
                            GError       **error);

/* Writes rows of @store to @fd (taken over, closed when done) in @format: the store rows
 * listed in @rows (held at the call), in that order, or, when @rows is NULL, every row
 * the store holds at the call. Succeeds only when every one of them is in the file; otherwise the error says how
 * many of how many were written. @written is set either way. */
void fmv_capture_save_async (FmvStore            *store,
                             GArray              *rows,
                             int                  fd,
                             FmFormat             format,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data);
gboolean fmv_capture_save_finish (GAsyncResult  *result,
                                  guint64       *written,
                                  GError       **error);
/* The lowest and highest sequence numbers among the events the save wrote; FALSE (and
 * zeros) when it wrote none. */
gboolean fmv_capture_save_get_seq_range (GAsyncResult *result,
                                         guint64      *first_seq,
                                         guint64      *last_seq);

/* Creates (or truncates) @file for writing with the user's own rights, in a thread, and
 * returns the descriptor: what the daemon's Save gets. */
void fmv_capture_create_async (GFile               *file,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data);
int fmv_capture_create_finish (GAsyncResult  *result,
                               GError       **error);

G_END_DECLS
