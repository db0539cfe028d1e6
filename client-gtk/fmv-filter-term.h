/* fmv-filter-term.h: building filter-language text from an event's values ("filter on this
 * value") and reading the column out of a filter parse error. */
#pragma once

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

/* A term that matches @event's value of @field (any field of the table), e.g.
 * comm=sshd, path='/tmp/a b', pid=7; a failed call's result as its errno when it has a
 * name (errno=ENOENT), the user as its uid (uid=1000). */
char *fmv_filter_term (FmFieldId      field,
                       const FmEvent *event);

/* Whether "show only events with this value" is offered for @field (the row menu, the
 * detail pane's buttons, the analysis's value counts): not for values that nearly every
 * event has its own of. */
gboolean fmv_filter_term_offered (FmFieldId field);

/* A term that matches the events of @n pids (ascending, n >= 1), or with @exclude those
 * of every other pid, ready to be joined with "and": pid=7, (pid=7 or pid=9),
 * not (pid=7 or pid=9). A run of three or more consecutive pids is one range,
 * (pid>=10 and pid<=14), so that a build's many children stay a short filter. */
char *fmv_filter_pid_set (const guint32 *pids,
                          guint          n,
                          gboolean       exclude);

/* @current and @term joined with "and" (@current parenthesized when it has an "or"), or
 * @term alone when @current is empty. */
char *fmv_filter_and (const char *current,
                      const char *term);

/* The 1-based column a filter parse error points at. */
gboolean fmv_filter_error_column (const GError *error,
                                  guint        *column);

G_END_DECLS
