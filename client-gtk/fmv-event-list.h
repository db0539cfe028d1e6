/* fmv-event-list.h: the GListModel the viewer shows: the rows of an FmvStore that pass
 * the filter, in the chosen order.
 *
 * It keeps its own index of row numbers (4 bytes a row, none at all while nothing is
 * filtered or sorted) instead of stacking GtkFilterListModel and GtkSortListModel, which
 * would create a GObject for every one of a million rows. Refiltering and resorting run in
 * a worker thread over the rows that existed when they started; rows appended meanwhile
 * are matched on the main thread when the result lands. Items are FmvRow objects, created
 * when a view asks for them.
 */
#pragma once

#include <gio/gio.h>

#include "fmv-sort.h"
#include "fm-filter.h"
#include "fmv-store.h"

G_BEGIN_DECLS


#define FMV_TYPE_EVENT_LIST (fmv_event_list_get_type ())
G_DECLARE_FINAL_TYPE (FmvEventList, fmv_event_list, FMV, EVENT_LIST, GObject)

FmvEventList *fmv_event_list_new (FmvStore *store);

/* Replaces the store (Clear, Open): the list shows the new store's rows at once. */
void fmv_event_list_set_store (FmvEventList *self,
                               FmvStore     *store);
FmvStore *fmv_event_list_get_store (FmvEventList *self);

/* Takes the rows appended to the store since the last call into the list. Cheap to call
 * often: the work happens at most every few tens of milliseconds, in one items-changed;
 * while the list is short, a few tens of rows at a time (the ramp, fmv-event-list.c). */
void fmv_event_list_queue_update (FmvEventList *self);
/* The same, at once (tests, measurements). */
void fmv_event_list_update_now (FmvEventList *self);

/* Parses @text (the filemonctl filter language; empty or NULL shows everything) and
 * refilters in the background. On a parse error the list keeps its current filter and
 * @error says what is wrong; fmv_event_list_get_filter_error_column() then tells where. */
gboolean fmv_event_list_set_filter (FmvEventList *self,
                                    const char   *text,
                                    GError      **error);
const char *fmv_event_list_get_filter (FmvEventList *self);

/* Orders the rows by @field (FMV_SORT_ARRIVAL: as they came), ties in arrival order. */
void fmv_event_list_set_sort (FmvEventList *self,
                              FmvSortField  field,
                              gboolean      descending);

/* TRUE while a refilter or resort runs (the "busy" property). */
gboolean fmv_event_list_get_busy (FmvEventList *self);

/* Rows in the store that the list has taken in (shown or filtered out), not those still
 * waiting for the next update; while busy, every row in the store. */
guint fmv_event_list_get_n_total (FmvEventList *self);

/* The store row shown at @position. */
guint fmv_event_list_get_row (FmvEventList *self,
                              guint         position);
/* The store rows shown, in the order shown (a copy, for Save). Not while busy: the rows
 * shown then are those of the previous filter. */
GArray *fmv_event_list_dup_shown_rows (FmvEventList *self);
/* Where store row @row is shown; FALSE when the filter hides it. */
gboolean fmv_event_list_find_row (FmvEventList *self,
                                  guint         row,
                                  guint        *position);
/* The next (or previous) failed call strictly after (before) @from; @from may be
 * G_MAXUINT to start at the top (bottom). */
gboolean fmv_event_list_find_failure (FmvEventList *self,
                                      guint         from,
                                      gboolean      forward,
                                      guint        *position);
/* The same for the next (previous) event @filter takes: Find, which leaves the list as it
 * is. */
gboolean fmv_event_list_find_match (FmvEventList *self,
                                    FmFilter     *filter,
                                    guint         from,
                                    gboolean      forward,
                                    guint        *position);

/* Runs the default main context until no refilter or resort is pending (tests). */
void fmv_event_list_wait (FmvEventList *self);

G_END_DECLS
