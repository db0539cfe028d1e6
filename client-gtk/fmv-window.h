/* fmv-window.h: a viewer window, showing either the live capture of filemond or a saved
 * capture file. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FMV_TYPE_WINDOW (fmv_window_get_type ())
G_DECLARE_FINAL_TYPE (FmvWindow, fmv_window, FMV, WINDOW, GtkApplicationWindow)

/* A window connected to filemond. */
FmvWindow *fmv_window_new_live (GtkApplication *application);
/* A window showing @file (a jsonl capture), without the daemon. */
FmvWindow *fmv_window_new_for_file (GtkApplication *application,
                                    GFile          *file);

/* TRUE when the window shows nothing worth keeping (no rows, no file): Open reuses it. */
gboolean fmv_window_is_pristine (FmvWindow *self);
/* Shows @file in this window, leaving the live capture. */
void fmv_window_open_file (FmvWindow *self,
                           GFile     *file);

G_END_DECLS
