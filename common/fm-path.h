/* fm-path.h: how a path too long to be shown whole is shortened. One rule for every cut,
 * used by both backends, so that a long path reads the same whichever captured it and
 * whichever limit it met (a dentry walk's buffer, PATH_MAX, SystemTap's print buffer):
 * the root and the last components stay, the middle gives way to a marker. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What stands for the components left out: the path reads "/.../dir/name". The marker
 * alone cannot tell it from a directory really named "...": the event's detail says
 * "path truncated" (or "path2 truncated") whenever it is used. */
#define FM_PATH_MARK "..."

gboolean fm_path_elide (GString  *path,
                        gsize     max,
                        gboolean  start_lost);
void fm_path_mark_end (GString *path,
                       gsize    max);

G_END_DECLS
