/* fmv-test-store.h: appending a hand-written event to a viewer store, for the model
 * tests that build a known workload row by row. */
#pragma once

#include "fm-syscalls.h"
#include "fmv-store.h"

/* Appends an event of @pid (its sequence number and time follow from its row: row r is
 * event r + 1 at (r + 1) µs after the epoch). */
static inline void
fmv_test_append (FmvStore   *store,
                 guint32     pid,
                 guint32     ppid,
                 guint32     tid,
                 guint32     uid,
                 const char *comm,
                 const char *syscall,
                 gint64      result,
                 const char *path,
                 const char *path2,
                 const char *detail)
{
  FmEvent ev = {
    .seq = fmv_store_get_n_rows (store) + 1,
    .time_ns = 1000 * (fmv_store_get_n_rows (store) + 1),
    .duration_ns = 10,
    .pid = pid,
    .ppid = ppid,
    .tid = tid,
    .uid = uid,
    .result = result,
    .syscall_nr = fm_syscall_by_name (syscall)->nr,
  };

  fm_event_set_strings (&ev, comm, path, path2, detail);
  g_assert_true (fmv_store_append (store, &ev, NULL));
}
