/* fm-event.h: the event record shared by the daemon, its backends and both clients.
 *
 * An FmEvent is a view: its strings point into memory owned by someone else (a backend's
 * read buffer, a stream record, a GVariant), so passing events around costs no allocation.
 * Strings are NUL-terminated and their lengths are given; comm, path and path2 are bytes
 * (Linux file names need not be UTF-8), detail is always valid UTF-8.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Longest path or path2 the backends deliver (PATH_MAX); longer names are truncated by
 * the kernel side already. */
#define FM_PATH_MAX 4096
#define FM_COMM_MAX 16   /* TASK_COMM_LEN, including the NUL */
#define FM_DETAIL_MAX 1024

typedef struct {
  guint64 seq;
  guint64 time_ns;      /* CLOCK_REALTIME at syscall return */
  guint64 duration_ns;  /* 0 when unknown */
  guint32 pid;
  guint32 ppid;
  guint32 tid;
  guint32 uid;
  gint64 result;        /* >= 0, or -errno */
  guint16 syscall_nr;   /* x86_64 syscall number; see fm-syscalls.h */
  guint16 comm_len;
  guint16 path_len;
  guint16 path2_len;
  guint16 detail_len;
  const char *comm;
  const char *path;
  const char *path2;
  const char *detail;
} FmEvent;

/* Fills the string fields from NUL-terminated strings (NULL means empty), for tests and
 * backends that hold C strings. Strings longer than the limits above are truncated. */
void fm_event_set_strings (FmEvent    *event,
                           const char *comm,
                           const char *path,
                           const char *path2,
                           const char *detail);

gboolean fm_event_equal (const FmEvent *a,
                         const FmEvent *b);

G_END_DECLS
