/* fmv-detail.h: the event properties, a pane beside the list: an Event tab with every
 * field of one event, copyable, with a "filter on this value" button per field, and a
 * Process tab (fmv-detail-process.h). */
#pragma once

#include <gtk/gtk.h>

#include "fmv-row.h"

G_BEGIN_DECLS

#define FMV_TYPE_DETAIL (fmv_detail_get_type ())
G_DECLARE_FINAL_TYPE (FmvDetail, fmv_detail, FMV, DETAIL, GtkWidget)

GtkWidget *fmv_detail_new (void);
/* Shows @row's event; NULL shows the "select an event" hint. */
void fmv_detail_set_row (FmvDetail *self,
                         FmvRow    *row);
FmvRow *fmv_detail_get_row (FmvDetail *self);

/* Adds a row to a properties grid at row @top: @label, and a selectable value label,
 * returned, for the caller to fill. */
GtkWidget *fmv_detail_attach_field (GtkGrid    *grid,
                                    int         top,
                                    const char *label);

/* The signal "filter-requested" (const char *term) carries a filter term such as
 * comm='sshd' for the window to add to the filter. */

G_END_DECLS
