/* fmv-bookmarks.h: the events a user bookmarked in a window, by store row. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define FMV_TYPE_BOOKMARKS (fmv_bookmarks_get_type ())
G_DECLARE_FINAL_TYPE (FmvBookmarks, fmv_bookmarks, FMV, BOOKMARKS, GObject)

FmvBookmarks *fmv_bookmarks_new (void);

/* Bookmarks store row @row, or removes its bookmark; emits "changed". Returns whether it
 * is bookmarked now. */
gboolean fmv_bookmarks_toggle (FmvBookmarks *self,
                               guint         row);
gboolean fmv_bookmarks_contains (FmvBookmarks *self,
                                 guint         row);
guint fmv_bookmarks_get_n (FmvBookmarks *self);
/* The bookmarked rows, ascending (a new array of guint32). */
GArray *fmv_bookmarks_dup_rows (FmvBookmarks *self);
/* Forgets the bookmarks of rows below @first (rows the store let go); emits "changed"
 * when there were any. */
void fmv_bookmarks_forget_before (FmvBookmarks *self,
                                  guint         first);
/* Forgets them all (the store was replaced); emits "changed". */
void fmv_bookmarks_clear (FmvBookmarks *self);

G_END_DECLS
