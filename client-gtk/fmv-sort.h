/* fmv-sort.h: the event list's orders: by one field, ascending or descending, ties in
 * arrival order; and merging newly arrived rows into a sorted index. */
#pragma once

#include <glib.h>

#include "fmv-store.h"

G_BEGIN_DECLS

/* What the event list is ordered by: a field of the table (an FmFieldId), by its
 * value, or FMV_SORT_ARRIVAL. */
typedef int FmvSortField;
#define FMV_SORT_ARRIVAL (-1)

/* Row @row's value of @field (any field of the table) as a number that tells values
 * apart: a number as it is (a signed one with its sign bit flipped, so that unsigned
 * order is its order), a string as its id in @store (fmv_sort_is_text), a syscall as its
 * number, a user as the uid, an errno as the result. @record is the row's
 * (fmv_store_get_record). Safe in a worker thread, as fmv_sort_rows. */
guint64 fmv_sort_value (FmvStore             *store,
                        guint                 row,
                        const FmCompactEvent *record,
                        FmFieldId             field);
/* Whether fmv_sort_value gives @field's strings' ids (compared by
 * fmv_store_compare_strings). */
gboolean fmv_sort_is_text (FmFieldId field);

/* Sorts @rows (store row numbers) in place, by @field and ties in arrival order. Safe in a
 * worker thread for rows the store had when the worker started. */
void fmv_sort_rows (FmvStore     *store,
                    guint32      *rows,
                    guint         n,
                    FmvSortField  field,
                    gboolean      descending);

/* A new index: @sorted (guint32 rows, in this order) with @fresh (sorted the same way)
 * merged in. @first_changed gets the first position that differs from @sorted. */
GArray *fmv_sort_merge (FmvStore     *store,
                        GArray       *sorted,
                        GArray       *fresh,
                        FmvSortField  field,
                        gboolean      descending,
                        guint        *first_changed);

G_END_DECLS
