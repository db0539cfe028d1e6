/* fmv-row.h: the small object a view gets for one row of the event list.
 *
 * It holds only a store reference and a row number; every property is formatted from the
 * stored record when asked, so a row costs nothing until it is on screen.
 */
#pragma once

#include <glib-object.h>

#include "fmv-store.h"

G_BEGIN_DECLS

#define FMV_TYPE_ROW (fmv_row_get_type ())
G_DECLARE_FINAL_TYPE (FmvRow, fmv_row, FMV, ROW, GObject)

FmvRow *fmv_row_new (FmvStore *store,
                     guint     row);

FmvStore *fmv_row_get_store (FmvRow *self);
guint fmv_row_get_row (FmvRow *self);
/* A view of the row's event (fmv_store_get_event), valid while the row and @stored live. */
const FmEvent *fmv_row_get_event (FmvRow        *self,
                                  FmvStoreEvent *stored);
gboolean fmv_row_get_failed (FmvRow *self);

/* "12.3 µs"; empty for 0 (unknown). */
char *fmv_format_duration (guint64 ns);
/* The user's name for @uid (the number when it has none), looked up once per uid; main
 * thread only. */
const char *fmv_user_name (guint32 uid);

/* Formatting shared with the detail pane. */
char *fmv_format_time (guint64 time_ns,
                       gboolean with_date);
/* Bytes as UTF-8 text: bytes that are not valid UTF-8, controls and bidi characters
 * become \xNN (as filemonctl's text shows them), so nothing is lost, silently replaced or
 * acts on what is shown. */
char *fmv_bytes_to_display (const char *bytes,
                            gsize       len);

G_END_DECLS
