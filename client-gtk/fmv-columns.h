/* fmv-columns.h: the event list's columns, made from the field table (fm-event-fields.h).
 *
 * A column per field, but for the fields another column shows (the uid is the User
 * column's, the errno the Result column's, the second path the Path column's) and the
 * sequence number (the list's own order). The fields the viewer has words for come in
 * the order it shows them; any other field (one just added to the table) comes after
 * them, shown, titled by its jsonl key, its text, alignment and width from its type.
 *
 * This one list is what the column view (fmv-window.c) and its chooser, the cells
 * (fmv-cells.c), the row objects' properties (fmv-row.c), the sort (by a column's field)
 * and the analysis's value counts are made from.
 */
#pragma once

#include <gio/gio.h>

#include "fm-event.h"

G_BEGIN_DECLS

/* How a cell's text is shortened: PangoEllipsizeMode's values (this list needs no GTK). */
typedef enum {
  FMV_ELLIPSIZE_NONE,
  FMV_ELLIPSIZE_START,
  FMV_ELLIPSIZE_MIDDLE,
  FMV_ELLIPSIZE_END,
} FmvEllipsize;

/* A cell's text for @event, newly allocated. */
typedef char *(*FmvColumnFormat) (FmFieldId      field,
                                  const FmEvent *event);

typedef struct {
  const char *name;         /* its FmvRow property and chooser action ("column-pid") */
  const char *title;
  FmFieldId field;          /* what it sorts by, filters and counts on */
  int width;                /* fixed width in pixels */
  gboolean visible;         /* until the user hides it */
  gboolean expand;          /* takes the room the others leave */
  float xalign;             /* 0: at the start, 1: at the end */
  gboolean numeric;         /* tabular figures */
  FmvEllipsize ellipsize;
  gboolean tooltip;         /* the whole text on hover */
  FmvColumnFormat format;   /* called with the column's field */
} FmvColumnInfo;

/* The columns, in the order the list shows them. */
guint fmv_columns_get_n (void);
const FmvColumnInfo *fmv_columns_get (guint column);

/* The column that shows @field; FALSE when none does. */
gboolean fmv_columns_find_field (FmFieldId  field,
                                 guint     *column);

/* The column that shows @field's value: its own, or the one that shows it beside its own
 * field's (the uid is the User column's sort key, the errno the Result column's text of a
 * failure, the second path the Path column's text after the arrow). FALSE for the
 * sequence number, which only the list's order and the detail pane show. */
gboolean fmv_columns_find_shown (FmFieldId  field,
                                 guint     *column);

/* The window action that shows or hides @column ("column-pid"), a boolean state. */
char *fmv_columns_action_name (guint column);

/* The column chooser (Columns in the main menu): appends to @menu an item per column, in
 * the list's order, titled as the column, for its window action ("win.column-pid"). */
void fmv_columns_append_chooser (GMenu *menu);

/* @field's value in @event as text, by its type: a number, a name (syscall, user,
 * errno; empty for a call that did not fail), bytes as fmv_bytes_to_display shows them. */
char *fmv_field_text (FmFieldId      field,
                      const FmEvent *event);

G_END_DECLS
