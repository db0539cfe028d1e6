/* fmv-store.h: the viewer's backing store, an append-only array of encoded event records.
 *
 * A million events must fit in little memory and never move once written, so rows are
 * kept in the stream's own binary record (fm-stream.h) inside big chunks, with one 64-bit
 * offset per row: the bytes received from the daemon are kept as they came, and viewed in
 * place. Nothing per row is a GObject; fmv-event-list.c creates row objects only
 * for the rows a view asks for.
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
 * nothing) only when the store is full (about a billion rows). */
gboolean fmv_store_append (FmvStore      *self,
                           const FmEvent *event,
                           guint         *row_out);

/* Keeps the @size bytes of an event record received from the stream as they are, with
 * @event its view (from the stream decoder, which checked the record): no decoding and
 * encoding again. Returns FALSE as fmv_store_append() does. */
gboolean fmv_store_append_record (FmvStore      *self,
                                  const guint8  *record,
                                  gsize          size,
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

/* Bytes the store holds (chunks and offset pages), for the measurements. */
gsize fmv_store_get_memory_size (FmvStore *self);

/* The highest sequence number appended, 0 when empty. */
guint64 fmv_store_get_last_seq (FmvStore *self);

G_END_DECLS
