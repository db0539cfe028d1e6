/* fmv-sort.h: the event list's orders: by one column, ascending or descending, ties in
 * arrival order; and merging newly arrived rows into a sorted index. */
#pragma once

#include <glib.h>

#include "fmv-store.h"

G_BEGIN_DECLS

typedef enum {
  FMV_COLUMN_NONE = -1,   /* arrival order */
  FMV_COLUMN_TIME,
  FMV_COLUMN_PROCESS,
  FMV_COLUMN_PID,
  FMV_COLUMN_SYSCALL,
  FMV_COLUMN_RESULT,
  FMV_COLUMN_PATH,
  FMV_COLUMN_DETAIL,
  FMV_COLUMN_DURATION,
  FMV_COLUMN_USER,        /* sorts by uid: names are resolved on the main thread only */
  FMV_COLUMN_TID,
  FMV_COLUMN_PPID,
  FMV_N_COLUMNS
} FmvColumn;

/* Sorts @rows (store row numbers) in place; FMV_COLUMN_NONE is arrival order. Safe in a
 * worker thread for rows the store had when the worker started. */
void fmv_sort_rows (FmvStore  *store,
                    guint32   *rows,
                    guint      n,
                    FmvColumn  column,
                    gboolean   descending);

/* A new index: @sorted (guint32 rows, in this order) with @fresh (sorted the same way)
 * merged in. @first_changed gets the first position that differs from @sorted. */
GArray *fmv_sort_merge (FmvStore  *store,
                        GArray    *sorted,
                        GArray    *fresh,
                        FmvColumn  column,
                        gboolean   descending,
                        guint     *first_changed);

G_END_DECLS
