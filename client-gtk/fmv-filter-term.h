/* fmv-filter-term.h: building filter-language text from an event's values ("filter on this
 * value") and reading the column out of a filter parse error. */
#pragma once

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

typedef enum {
  FMV_TERM_NONE,
  FMV_TERM_COMM,
  FMV_TERM_PID,
  FMV_TERM_PPID,
  FMV_TERM_TID,
  FMV_TERM_UID,
  FMV_TERM_SYSCALL,
  FMV_TERM_RESULT,
  FMV_TERM_PATH,
  FMV_TERM_PATH2,
} FmvTermField;

/* A term that matches @event's value of @field, e.g. comm=sshd, path='/tmp/a b',
 * errno=ENOENT; NULL for FMV_TERM_NONE. */
char *fmv_filter_term (FmvTermField   field,
                       const FmEvent *event);

/* A term that matches the events of @n pids (ascending, n >= 1), or with @exclude those
 * of every other pid, ready to be joined with "and": pid=7, (pid=7 or pid=9),
 * not (pid=7 or pid=9). A run of three or more consecutive pids is one range,
 * (pid>=10 and pid<=14), so that a build's many children stay a short filter. */
char *fmv_filter_pid_set (const guint32 *pids,
                          guint          n,
                          gboolean       exclude);

/* @current and @term joined with "and" (@current parenthesized when it has an "or"), or
 * @term alone when @current is empty. */
char *fmv_filter_and (const char *current,
                      const char *term);

/* The 1-based column a filter parse error points at. */
gboolean fmv_filter_error_column (const GError *error,
                                  guint        *column);

G_END_DECLS
