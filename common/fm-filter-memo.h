/* fm-filter-memo.h: a filter's verdicts on interned strings, remembered, for evaluating
 * one filter over many events whose strings repeat (the viewer's refilter: millions of
 * rows naming a few thousand paths, commands and flag sets, each held once in an
 * FmStrtab and named by an id, fm-compact-event.h).
 *
 * A test on a text (a bare word's substring search, a glob, a regex, an exact compare, a
 * path prefix) depends on the string alone, so its verdict is decided the first time a
 * string id comes and read back for every later row naming it, so that a bare word does
 * not search every text of every row. fm_filter_match() serves those that have events but
 * no ids (filemond, filemonctl): the memo is a side table the caller makes, one byte per
 * (text test, id), and the compiled filter, shared and immutable, is not touched.
 *
 * Validity: an id must name the same string for the memo's whole life. The caller makes
 * a memo for one pass over rows whose strings cannot be released (and their ids given to
 * other strings) meanwhile: the viewer's refilter runs under the store's hold. Ids at or
 * above the memo's bound (strings interned after it was made) are tested without it.
 *
 * Threads: a memo is written as it learns, and evaluating a filter uses its regexes'
 * scratch space: one thread at a time for both. */
#pragma once

#include <glib.h>

#include "fm-compact-event.h"
#include "fm-filter.h"

G_BEGIN_DECLS

typedef struct _FmFilterMemo FmFilterMemo;

/* A memo for @filter (a reference is taken) and the string ids below @n_ids. Nothing is
 * decided yet; memory is touched as ids come (n_ids bytes per text test at most). NULL
 * when @filter tests no text (numbers only): there is nothing to remember, and
 * fm_filter_match() is the cheaper way then. */
FmFilterMemo *fm_filter_memo_new (FmFilter *filter,
                                  guint32   n_ids);
void fm_filter_memo_free (FmFilterMemo *memo);

/* fm_filter_match (filter, @event), where @ids holds the ids of @event's strings (the
 * record @event is a view of). Allocates nothing. */
gboolean fm_filter_memo_match (FmFilterMemo         *memo,
                               const FmEvent        *event,
                               const FmCompactEvent *ids);

/* Bytes the memo may take: its verdict tables at their full size, and its nodes. */
gsize fm_filter_memo_get_size (FmFilterMemo *memo);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmFilterMemo, fm_filter_memo_free)

G_END_DECLS
