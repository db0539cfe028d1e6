/* fmv-highlights.h: highlight rules: a filter expression and the colour its events are
 * shown in (Process Monitor's "Highlight"). The first rule an event matches gives its
 * colour. */
#pragma once

#include <glib-object.h>

#include "fm-event.h"

G_BEGIN_DECLS

/* Colours a rule can have; rules take them in turn. */
#define FMV_HIGHLIGHT_N_COLOURS 4

#define FMV_TYPE_HIGHLIGHTS (fmv_highlights_get_type ())
G_DECLARE_FINAL_TYPE (FmvHighlights, fmv_highlights, FMV, HIGHLIGHTS, GObject)

FmvHighlights *fmv_highlights_new (void);

/* Adds a rule for the filter expression @text (the filemonctl filter language); emits
 * "changed". A text already among the rules is not added twice. */
gboolean fmv_highlights_add (FmvHighlights *self,
                             const char    *text,
                             GError       **error);
/* Removes rule @index; emits "changed". */
void fmv_highlights_remove (FmvHighlights *self,
                            guint          index);

guint fmv_highlights_get_n (FmvHighlights *self);
const char *fmv_highlights_get_text (FmvHighlights *self,
                                     guint          index);
/* 0 .. FMV_HIGHLIGHT_N_COLOURS - 1 */
guint fmv_highlights_get_colour (FmvHighlights *self,
                                 guint          index);

/* The colour of the first rule @event matches, or -1. Allocates nothing. */
int fmv_highlights_match (FmvHighlights *self,
                          const FmEvent *event);

G_END_DECLS
