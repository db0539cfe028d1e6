/* fmv-detail.h: the pane that shows every field of one event, copyable, with a "filter on
 * this value" button per field. */
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

/* The signal "filter-requested" (const char *term) carries a filter term such as
 * comm='sshd' for the window to add to the filter. */

G_END_DECLS
