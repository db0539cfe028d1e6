/* fm-filter.h: the filter language shared by filemonctl and filemon-viewer.
 *
 *   comm=sshd and result<0        errno=EACCES or errno=EPERM      path~'^/etc/'
 *   not syscall=close             syscall=open*                    failed
 *   (pid=1234 or ppid=1234) and not path~'\.so'                    passwd    /sh(adow)?/
 *
 * Fields: those of FM_EVENT_FIELDS (fm-event-fields.h), by their filter names.
 * Operators: = != < <= > >= ~ (PCRE2); `=`/`!=` on syscall, comm, path, path2, detail and
 * user are globs when the value holds * or ?. and, or, not, parentheses (not binds tighter
 * than and, and tighter than or). A bare word or /regex/ matches anywhere in the record;
 * all-lowercase text matches case-insensitively. Values may be quoted with ' or ".
 * time takes ns since the epoch or HH:MM[:SS[.frac]], a local time of day on any date,
 * naming its whole minute/second (time=12:00 is that minute); duration takes ns or a
 * number with ns/us/ms/s; user takes a name (or glob), looked up when compiling.
 *
 * One ~ comparison costs a bounded time whatever the pattern: PCRE2's match limit, and for
 * patterns with assertions, backreferences, atomic groups, conditions, recursion or verbs
 * (which that limit does not bound) a budget of items tried. A comparison its bound ends
 * is unknown; and, or and not follow three-valued logic (false and unknown = false, true
 * or unknown = true, not unknown = unknown), and an event whose whole filter is unknown
 * matches: it is kept.
 *
 * The text is compiled once; fm_filter_match() allocates nothing. Over many events whose
 * strings are interned (the viewer's store), fm-filter-memo.h decides each text test once
 * per string.
 */
#pragma once

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

typedef struct _FmFilter FmFilter;

/* Compiles @text. Empty or blank text is a filter that matches everything. On a syntax
 * error: NULL with FM_ERROR_PARSE whose message starts "column N: " (N counts characters
 * from 1) and says what was expected there. */
FmFilter *fm_filter_new (const char *text, GError **error);
/* A filter is immutable once made, so it may be shared: fm_filter_ref() adds a reference
 * and fm_filter_free() drops one, the last freeing it. */
FmFilter *fm_filter_ref (FmFilter *filter);
void fm_filter_free (FmFilter *filter);

/* The column (from 1) a FM_ERROR_PARSE from fm_filter_new() points at, or 0. */
guint fm_filter_error_column (const GError *error);

gboolean fm_filter_match (const FmFilter *filter, const FmEvent *event);

/* How many ~ comparisons of @filter its bound ended since it was made (each one left a
 * verdict unknown). */
guint64 fm_filter_get_n_undecided (const FmFilter *filter);

/* Whether fm_filter_match may read an event's path or path2: the viewer's store puts
 * paths together from pieces, and spares that for a filter that never looks at them. */
gboolean fm_filter_reads_paths (const FmFilter *filter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmFilter, fm_filter_free)

G_END_DECLS
