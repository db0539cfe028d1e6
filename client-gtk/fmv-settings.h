/* fmv-settings.h: the viewer's settings kept across runs, one key file in the user's
 * state directory ($XDG_STATE_HOME/filemon-viewer/settings). No GSettings: a schema would
 * have to be installed and compiled before the viewer could run from its build tree. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The settings as saved, or an empty key file when there are none yet; a file that cannot
 * be read is said in the log and taken as empty. */
GKeyFile *fmv_settings_load (void);

/* Writes @settings (as fmv_settings_load() gave it, then changed), making the directory;
 * a failure is said in the log: a setting not kept must not stop what the person does. */
void fmv_settings_save (GKeyFile *settings);

G_END_DECLS
