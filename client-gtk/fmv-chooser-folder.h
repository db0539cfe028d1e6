/* fmv-chooser-folder.h: the folder the Open and Save file choosers start in: the one the
 * last file was opened from or saved to, in this run or an earlier one. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Makes @chooser start in the last folder, when there is one and it is still a folder. */
void fmv_chooser_folder_restore (GtkFileChooser *chooser);

/* Remembers the folder of @file, just opened or saved through a chooser. */
void fmv_chooser_folder_remember (GFile *file);

G_END_DECLS
