/* fmv-match.c: the rows of a store that a filter takes; see fmv-match.h. */
#include "config.h"

#include "fmv-match.h"

#define CANCEL_CHECK_ROWS 65536

static gboolean
match_one (FmvStore     *store,
           FmFilter     *filter,
           FmFilterMemo *memo,
           gboolean      paths,
           guint         row)
{
  FmvStoreEvent stored;
  const FmEvent *ev;

  ev = paths ? fmv_store_get_event (store, row, &stored)
             : fmv_store_get_event_without_paths (store, row, &stored);
  return memo != NULL ? fm_filter_memo_match (memo, ev, &stored.record) : fm_filter_match (filter, ev);
}

guint
fmv_match_rows (FmvStore     *store,
                FmFilter     *filter,
                FmFilterMemo *memo,
                guint         first,
                guint         end,
                guint32      *rows,
                GCancellable *cancellable)
{
  guint n = 0;
  gboolean paths;

  g_return_val_if_fail (FMV_IS_STORE (store), 0);
  g_return_val_if_fail (filter != NULL && rows != NULL, 0);

  paths = fm_filter_reads_paths (filter);
  for (guint row = first; row < end; row++)
    {
      if ((row % CANCEL_CHECK_ROWS) == 0 && g_cancellable_is_cancelled (cancellable))
        return G_MAXUINT;
      if (match_one (store, filter, memo, paths, row))
        rows[n++] = row;
    }
  return n;
}

gboolean
fmv_match_row (FmvStore *store,
               FmFilter *filter,
               guint     row)
{
  g_return_val_if_fail (FMV_IS_STORE (store), FALSE);
  g_return_val_if_fail (filter != NULL, FALSE);

  return match_one (store, filter, NULL, fm_filter_reads_paths (filter), row);
}
