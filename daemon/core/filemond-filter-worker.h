/* filemond-filter-worker.h: a capture's filter, evaluated in a thread of its own.
 *
 * The filter of Start is a member's text, and even bounded (fm-filter.h: a ~ comparison
 * costs up to a few ms on a long path) it can cost more per event than the main loop can
 * give: that loop answers the bus. So the session hands each event to this worker
 * instead: the event is copied (as a stream record) into a bounded queue, a thread
 * evaluates the filter, and the events it keeps come back to the main loop in batches,
 * in their order, where the session appends them to the ring (which numbers them).
 *
 * Nothing here waits on the main loop's side: an event the queue cannot take is refused
 * (the caller counts it as dropped), and stopping discards the backlog at once; the
 * thread notices between two events and ends on its own, holding its own references.
 *
 * Thread safety: fmd_filter_worker_new(), _push() and _stop() are for the main loop
 * (the thread of the GMainContext that was the thread-default when the worker was made);
 * the callbacks run there too, never after _stop(). The filter is the thread's alone
 * from _new() on: nobody else may match with it (its match data is not shared safely).
 */
#pragma once

#include <glib-object.h>

#include "fm-event.h"
#include "fm-filter.h"

G_BEGIN_DECLS

/* Events (and their bytes, as stream records) each way at most: queued for the thread,
 * and kept by it but not yet taken by the main loop. */
#define FMD_FILTER_WORKER_MAX_EVENTS 16384
#define FMD_FILTER_WORKER_MAX_BYTES (8 * 1024 * 1024)

/* On the main loop, for each event the filter kept, in order; its strings are valid for
 * the call only. */
typedef void (*FmdFilterWorkerKeptFunc) (const FmEvent *event,
                                         gpointer       user_data);
/* On the main loop, after a batch: @n_filtered events the filter did not keep since the
 * last call, and how many ~ comparisons its bound has ended in all (fm-filter.h). */
typedef void (*FmdFilterWorkerBatchFunc) (guint64  n_filtered,
                                          guint64  n_undecided,
                                          gpointer user_data);

#define FMD_TYPE_FILTER_WORKER (fmd_filter_worker_get_type ())
G_DECLARE_FINAL_TYPE (FmdFilterWorker, fmd_filter_worker, FMD, FILTER_WORKER, GObject)

/* Starts the thread. @filter gets a reference and is used by the thread alone. */
FmdFilterWorker *fmd_filter_worker_new (FmFilter                *filter,
                                        FmdFilterWorkerKeptFunc  kept,
                                        FmdFilterWorkerBatchFunc batch,
                                        gpointer                 user_data,
                                        GError                 **error);

/* Queues a copy of @event for the filter; FALSE when the queue is full (or the worker
 * stopped): the event is lost, for the caller to count. Never blocks. */
gboolean fmd_filter_worker_push (FmdFilterWorker *self,
                                 const FmEvent   *event);

/* Discards what is queued either way and calls back no more; the thread ends after the
 * event it is on. Returns at once, with how many events were discarded. */
guint64 fmd_filter_worker_stop (FmdFilterWorker *self);

/* No more events will be pushed: @done is called on the main loop once every queued
 * event has been filtered and handed over (at once when nothing is queued), unless
 * _stop() comes first. */
void fmd_filter_worker_finish (FmdFilterWorker *self,
                               GSourceFunc      done,
                               gpointer         user_data);

G_END_DECLS
