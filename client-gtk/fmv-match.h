/* fmv-match.h: the rows of a store that a filter takes, the loop of the list's refilter
 * (fmv-event-list.c), here on its own so that the measurements and tests run the very
 * loop the viewer runs, with and without a memo. */
#pragma once

#include <gio/gio.h>

#include "fm-filter.h"
#include "fm-filter-memo.h"
#include "fmv-store.h"

G_BEGIN_DECLS

/* Writes to @rows (room for @end - @first) the store rows of [@first, @end) that @filter
 * takes, in order, and returns how many; G_MAXUINT when @cancellable is cancelled first
 * (looked at every 64 Ki rows). @memo is a memo of @filter made for the store's string ids
 * (fmv_store_get_string_id_bound()) while the rows are held (fmv_store_hold()), or NULL to
 * test each row's strings. From any thread, under a hold. */
guint fmv_match_rows (FmvStore     *store,
                      FmFilter     *filter,
                      FmFilterMemo *memo,
                      guint         first,
                      guint         end,
                      guint32      *rows,
                      GCancellable *cancellable);

/* Whether @filter takes store row @row (held). The owner's thread, or under a hold. */
gboolean fmv_match_row (FmvStore *store,
                        FmFilter *filter,
                        guint     row);

G_END_DECLS
