/* fmv-store.h: the viewer's backing store, an append-only array of compact events.
 *
 * A million events must fit in little memory and never move once written, so rows are
 * kept as the daemon's ring keeps them (fm-compact-event.h): 58 bytes of fixed fields and
 * string ids, and the sequence number, each string a capture repeats held once. Nothing per row is a GObject;
 * fmv-event-list.c creates row objects only for the rows a view asks for.
 *
 * One thread appends; any number of threads may read the rows that existed when they
 * started (the filter and sort workers): chunks and offset pages are never reallocated,
 * and the tables that point at them have a fixed size, so appending never moves what a
 * reader looks at.
 */
#pragma once

#include <glib-object.h>

#include "fm-event.h"

G_BEGIN_DECLS

#define FMV_TYPE_STORE (fmv_store_get_type ())
G_DECLARE_FINAL_TYPE (FmvStore, fmv_store, FMV, STORE, GObject)

FmvStore *fmv_store_new (void);

/* Copies @event into the store and returns its row number. Returns FALSE (and stores
 * nothing) only when the store is full (about a billion rows, or 268 million distinct
 * strings). */
gboolean fmv_store_append (FmvStore      *self,
                           const FmEvent *event,
                           guint         *row_out);

/* Rows appended so far; safe to call from any thread. */
guint fmv_store_get_n_rows (FmvStore *self);

/* A view of row @row (< n_rows); its strings point into the store and stay valid as long
 * as the store lives. */
void fmv_store_get_event (FmvStore *self,
                          guint     row,
                          FmEvent  *event);

/* Fast accessors for the hot loops (sorting, failure navigation). */
gint64 fmv_store_get_result (FmvStore *self,
                             guint     row);

/* Bytes the store holds (records, strings, page table), for the measurements. */
gsize fmv_store_get_memory_size (FmvStore *self);

/* The highest sequence number appended, 0 when empty. */
guint64 fmv_store_get_last_seq (FmvStore *self);

G_END_DECLS
