/* fmv-load-progress.h: how far the reading of a capture file has come, shared between the
 * thread that reads it and the window that shows it, and the window's way to stop it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FmvLoadProgress FmvLoadProgress;

FmvLoadProgress *fmv_load_progress_new (void);
FmvLoadProgress *fmv_load_progress_ref (FmvLoadProgress *self);
void fmv_load_progress_unref (FmvLoadProgress *self);

/* The reader's side: the file's size, then the bytes and events read so far. */
void fmv_load_progress_set_total (FmvLoadProgress *self,
                                  guint64          bytes_total);
void fmv_load_progress_update (FmvLoadProgress *self,
                               guint64          bytes_read,
                               guint64          events);
/* TRUE once fmv_load_progress_stop() was called; the reader then ends where it is. */
gboolean fmv_load_progress_stop_requested (FmvLoadProgress *self);
/* The reader ended before the end of the file because it was asked to. */
void fmv_load_progress_mark_stopped (FmvLoadProgress *self);

/* The window's side, from any thread. @bytes_total is 0 when the size is unknown. */
void fmv_load_progress_get (FmvLoadProgress *self,
                            guint64         *bytes_read,
                            guint64         *bytes_total,
                            guint64         *events);
void fmv_load_progress_stop (FmvLoadProgress *self);
gboolean fmv_load_progress_was_stopped (FmvLoadProgress *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmvLoadProgress, fmv_load_progress_unref)

G_END_DECLS
