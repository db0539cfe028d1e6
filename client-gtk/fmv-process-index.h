/* fmv-process-index.h: what the events a store holds say about each process, for the
 * Process tab of an event's properties: its first and last event, the program it ran
 * (its execs) and the directories it changed to (its chdirs), at any of its events, and
 * its parents.
 *
 * Built in one pass over the rows and then extended by the rows appended since, so that
 * opening the properties of one event of a million does not read the million again. The
 * few texts shown of other rows than the event's (first event, execs, chdirs) are copied
 * when read, so rows the store lets go (its depth) need no second pass and are still
 * described. Nothing per event is kept: a process is a small entry, plus one per exec
 * and chdir.
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

/* Rows the next update would read: those appended since the last one and still held. */
guint fmv_process_index_get_n_pending (FmvProcessIndex *self);
/* Reads those rows (of the rows the store had when it started). */
void fmv_process_index_update (FmvProcessIndex *self);
/* Whether the index, as last updated, counted row @row (held) and every row before it. */
gboolean fmv_process_index_covers (FmvProcessIndex *self,
                                   guint            row);

/* What the index knows of one process, as of one of its events. The texts belong to the
 * index, and stay until its next update: they were copied when their rows were read, so
 * that they outlive rows the store lets go. */
typedef struct {
  guint32 pid;
  gboolean seen;              /* it has events in the store; all below is unknown if not */
  guint32 ppid;               /* as the event says (a parent's: as its first event did) */
  guint32 uid;
  const char *name;           /* its command, from its leader thread's events if any */
  const char *first_event;    /* its first event read (fmv_process_describe_event) */
  gboolean first_gone;        /* that event is no longer held */
  guint32 last_row;
  guint n_events;             /* read, including those no longer held */
  /* its last successful exec up to the event, or NULL: */
  const char *command_line;   /* as shell words */
  const char *executable;
  /* else its first one after the event, or NULL: */
  const char *later_exec_event;
  const char *later_executable;
  /* its last successful chdir or fchdir up to the event, or NULL: */
  const char *cwd;
  const char *cwd_event;
} FmvProcessFacts;

/* "12:00:00.100000 execve /usr/bin/make (event 2)": an event as the Process tab names it. */
char *fmv_process_describe_event (const FmEvent *event);

/* Parents shown at most: real chains are a few tens deep. */
#define FMV_PROCESS_CHAIN_MAX 64

/* The process of the event at @row (covered: fmv_process_index_covers), then its parent,
 * its parent's parent, up to PID 1 or to the first one the store has no event of (a
 * process that started before the capture), each as of @row; an array of
 * FmvProcessFacts. A pid met twice (reused, or a cycle of wrong ppids) ends the chain,
 * and so does its FMV_PROCESS_CHAIN_MAX-th parent. */
GArray *fmv_process_index_chain (FmvProcessIndex *self,
                                 guint            row);

G_END_DECLS
