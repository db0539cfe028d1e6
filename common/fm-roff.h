/* fm-roff.h: text for the man pages generated at build time (filemonctl(1)'s fields,
 * filemond.conf(5)'s keys), written from C tables that are not roff. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends @text to @out as roff text: a minus becomes \- (roff would print a hyphen), a
 * backslash \e, and a leading dot or quote is kept text with \& (it would be a request). */
void fm_roff_append (GString *out, const char *text);

G_END_DECLS
