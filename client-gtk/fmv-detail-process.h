/* fmv-detail-process.h: the Process tab of the event properties: the selected event's
 * process as the events the viewer holds describe it (fmv-process-text.h), its parents
 * up to PID 1 below. */
#pragma once

#include <gtk/gtk.h>

#include "fmv-row.h"

G_BEGIN_DECLS

#define FMV_TYPE_PROCESS_PAGE (fmv_process_page_get_type ())
G_DECLARE_FINAL_TYPE (FmvProcessPage, fmv_process_page, FMV, PROCESS_PAGE, GtkWidget)

GtkWidget *fmv_process_page_new (void);
/* Shows @row's process (NULL: nothing). The index of @row's store is read first where it
 * does not cover @row yet: at once for a few rows, else in a worker thread, the tab
 * saying so meanwhile. */
void fmv_process_page_set_row (FmvProcessPage *self,
                               FmvRow         *row);
/* The tab as "Label: value" lines, or NULL while it shows no process. */
char *fmv_process_page_dup_text (FmvProcessPage *self);

G_END_DECLS
