/* fmv-process-index.h: what the events a store holds say about each process, for the
 * Process tab of an event's properties: its first and last event, the program it ran
 * (its execs) and the directories it changed to (its chdirs), at any of its events, and
 * its parents.
 *
 * Built in one pass over the rows and then extended by the rows appended since, so that
 * opening the properties of one event of a million does not read the million again; a
 * store that let rows go (its depth) is read again from its first row, since the first
 * events of many processes went with them. Nothing per event is kept: a process is a
 * small entry, plus a row number per exec and chdir.
 *
 * Not thread-safe: one thread at a time updates or reads it. An update may run in a
 * worker thread under a store hold taken by the caller (fmv-store.h); reading needs the
 * store's rows, so it happens on the store's owner thread.
 */
#pragma once

#include "fmv-store.h"

G_BEGIN_DECLS

typedef struct _FmvProcessIndex FmvProcessIndex;

FmvProcessIndex *fmv_process_index_new (FmvStore *store);
void fmv_process_index_free (FmvProcessIndex *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmvProcessIndex, fmv_process_index_free)

FmvStore *fmv_process_index_get_store (FmvProcessIndex *self);

/* Rows the next update would read: those appended since the last one, or every row held
 * when the store let rows go that the index counted. */
guint fmv_process_index_get_n_pending (FmvProcessIndex *self);
/* Reads those rows (of the rows the store had when it started). */
void fmv_process_index_update (FmvProcessIndex *self);
/* Whether the index, as last updated, counted row @row and every row held before it. */
gboolean fmv_process_index_covers (FmvProcessIndex *self,
                                   guint            row);

/* What the index knows of one process, as of one of its events. */
typedef struct {
  guint32 pid;
  gboolean seen;              /* it has events in the store; all below is unknown if not */
  guint32 ppid;               /* as its event (or, if none given, its last event) says */
  guint32 uid;
  guint32 name_row;           /* an event naming it: its leader thread's, if any */
  guint32 first_row;
  guint32 last_row;
  guint n_events;
  gboolean has_exec;          /* exec_row: its last successful exec up to the event */
  guint32 exec_row;
  gboolean exec_later;        /* it exec'd after the event only (later_exec_row) */
  guint32 later_exec_row;
  gboolean has_cwd;           /* cwd_row: its last successful chdir or fchdir up to the event */
  guint32 cwd_row;
} FmvProcessFacts;

/* The process of the event at @row (covered: fmv_process_index_covers), then its parent,
 * its parent's parent, up to PID 1 or to the first one the store has no event of (a
 * process that started before the capture), each as of @row; an array of
 * FmvProcessFacts. A pid met twice (reused, or a cycle of wrong ppids) ends the chain. */
GArray *fmv_process_index_chain (FmvProcessIndex *self,
                                 guint            row);

G_END_DECLS
