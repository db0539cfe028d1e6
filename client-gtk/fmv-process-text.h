/* fmv-process-text.h: the Process tab of an event's properties as text: the process's
 * command line, program, working directory, user, first and last event, and its parents
 * up to PID 1, from a process index (fmv-process-index.h).
 *
 * What the events held do not tell (an exec before the capture, a parent with no event,
 * a directory never changed to) is said in words, and marked, rather than left blank.
 */
#pragma once

#include "fmv-process-index.h"

G_BEGIN_DECLS

typedef struct {
  char *label;
  char *value;
  gboolean unknown;           /* the value says what is not known, and why */
} FmvPropField;

typedef struct {
  char *title;                /* "make (PID 200)" */
  GPtrArray *fields;          /* FmvPropField: the process itself */
  GPtrArray *parents;         /* FmvPropField: its parent first, up to PID 1 */
} FmvProcessText;

/* The Process tab of the event at @row, which @index covers (fmv_process_index_covers).
 * The owner thread of the index's store only (user names are looked up there). */
FmvProcessText *fmv_process_text_new (FmvProcessIndex *index,
                                      guint            row);
void fmv_process_text_free (FmvProcessText *text);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmvProcessText, fmv_process_text_free)

/* "Label: value" lines, the parents under a "Parents:" line, for Copy and the log. */
char *fmv_process_text_to_string (FmvProcessText *text);

/* "alice (1000)", or "1000 (no user of that id here)": a user as the properties show it. */
char *fmv_format_user (guint32 uid);

G_END_DECLS
