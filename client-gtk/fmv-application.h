/* fmv-application.h: filemon-viewer's GtkApplication: one live window by default, one
 * window per capture file given on the command line or opened from the menu. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FMV_TYPE_APPLICATION (fmv_application_get_type ())
G_DECLARE_FINAL_TYPE (FmvApplication, fmv_application, FMV, APPLICATION, GtkApplication)

FmvApplication *fmv_application_new (void);

G_END_DECLS
