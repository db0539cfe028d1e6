/* fmv-detail-rows.h: the rows of the Event tab of an event's properties, made from the
 * field table (fm-event-fields.h): one per field but the derived ones (the user name is
 * shown in the uid's row, the errno in the result's), and an exec's command line. A
 * field the viewer has no words for (one just added to the table) is shown under its
 * jsonl key, as fmv_field_text() writes it.
 *
 * Rows are numbered as the fields (FmFieldId), FMV_DETAIL_ROW_COMMAND after them. */
#pragma once

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

#define FMV_DETAIL_ROW_COMMAND FM_N_FIELDS
#define FMV_DETAIL_N_ROWS (FM_N_FIELDS + 1)

/* Whether row @r is shown at all (a derived field's is not: its source's row says it). */
gboolean fmv_detail_row_exists (guint r);

const char *fmv_detail_row_label (guint r);

/* The field whose value row @r's button filters on; FALSE for none. */
gboolean fmv_detail_row_filter_field (guint      r,
                                      FmFieldId *field);

/* The text of row @r for @event, or NULL where the event has none (path2 of most calls,
 * the command line of all but an exec, the detail of an exec that holds only its command
 * line). */
char *fmv_detail_row_text (guint          r,
                           const FmEvent *event);

G_END_DECLS
