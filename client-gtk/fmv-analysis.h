/* fmv-analysis.h: summaries of a set of events for the viewer's analysis views: the
 * processes (with their parentage, as a forest), the files, and how often each value of
 * a column occurs.
 *
 * Computed in one pass over the rows, with no allocation per event (texts are told apart
 * by the ids the store keeps them under; the analysis keeps the store alive), so a
 * million events take a fraction of a second; safe in a worker thread for rows the store
 * had when it started.
 */
#pragma once

#include <glib.h>

#include "fm-event-fields.h"
#include "fmv-store.h"

G_BEGIN_DECLS

typedef struct {
  guint32 pid;
  guint32 ppid;               /* as the process's last event says */
  guint32 uid;
  guint32 row;                /* a row naming the process: its leader's last event, if any */
  guint32 first_row;          /* its earliest event */
  guint32 exec_row;           /* its last successful execve, if has_exec */
  gboolean has_exec;
  gboolean leader_seen;       /* an event with tid == pid: row's comm is the process's */
  int parent;                 /* index of the parent in processes, -1 for a root */
  guint64 first_ns;
  guint64 last_ns;
  guint n_events;
  guint n_failures;
  guint n_files;              /* distinct paths */
} FmvProcessInfo;

/* A file's reads and writes are the calls whose syscall table traits say they move data
 * (FM_TRAIT_READS, ...), with the bytes their results say they moved. The destination of
 * a copy (sendfile, splice, copy_file_range: the event's path2) counts the event too, as
 * a write. */
typedef struct {
  guint32 row;                /* a row of this file: as its path, unless row_is_path2 */
  gboolean row_is_path2;      /* seen only as the destination of copies so far */
  guint n_events;
  guint n_opens;
  guint n_reads;
  guint n_writes;
  guint64 bytes_read;
  guint64 bytes_written;
  guint n_failures;
  guint n_processes;          /* distinct pids */
  guint64 total_ns;           /* the calls' durations, summed */
} FmvFileInfo;

typedef struct {
  guint32 row;                /* a row with the value */
  guint count;
} FmvValueCount;

typedef struct {
  FmvStore *store;
  GArray *processes;          /* FmvProcessInfo, in order of first appearance */
  GArray *files;              /* FmvFileInfo, in order of first appearance */
} FmvAnalysis;

/* Processes and files of @n rows of @store (row numbers in @rows). */
FmvAnalysis *fmv_analysis_new (FmvStore      *store,
                               const guint32 *rows,
                               guint          n);
void fmv_analysis_free (FmvAnalysis *analysis);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmvAnalysis, fmv_analysis_free)

/* The pids of process @index (in processes) and of all its descendants, ascending. */
GArray *fmv_analysis_dup_subtree_pids (FmvAnalysis *analysis,
                                       guint        index);

/* How often each value of @field (any field of the table) occurs among @n rows, most
 * frequent first (ties in order of first appearance); an array of FmvValueCount. */
GArray *fmv_analysis_count_values (FmvStore      *store,
                                   const guint32 *rows,
                                   guint          n,
                                   FmFieldId      field);

G_END_DECLS
