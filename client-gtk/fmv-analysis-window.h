/* fmv-analysis-window.h: the analysis views of a viewer window's events: the process tree,
 * the file summary and counts of a column's values; selecting an entry filters the window's
 * list to its events. */
#pragma once

#include <gtk/gtk.h>

#include "fmv-window.h"

G_BEGIN_DECLS

#define FMV_TYPE_ANALYSIS_WINDOW (fmv_analysis_window_get_type ())
G_DECLARE_FINAL_TYPE (FmvAnalysisWindow, fmv_analysis_window, FMV, ANALYSIS_WINDOW, GtkWindow)

/* Pages, by name: "processes", "files", "counts". */
/* Opens the views of the events @window shows now (its filter as it is), on @page. */
FmvAnalysisWindow *fmv_analysis_window_new (FmvWindow  *window,
                                            const char *page);

G_END_DECLS
