/* fmv-cell-text.h: one line of text in a cell of the event list, laid out only when drawn.
 *
 * A GtkLabel lays its text out to be measured: GTK 4.8's list view keeps 205 rows bound
 * around its anchor however few are visible, so every update that follows a live capture
 * shaped ~1 850 texts, most of them never shown. This widget's size does not depend on its
 * text (one line of its font; the columns have fixed widths), so setting the text costs a
 * redraw, and only the visible cells lay theirs out. Its CSS name is "label": the theme and
 * style.css treat it as one.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FMV_TYPE_CELL_TEXT (fmv_cell_text_get_type ())
G_DECLARE_FINAL_TYPE (FmvCellText, fmv_cell_text, FMV, CELL_TEXT, GtkWidget)

/* @xalign: 0 left, 1 right; @ellipsize: where a text too long for the cell is cut;
 * @tabular_figures: digits of equal width (a column of numbers). */
GtkWidget *fmv_cell_text_new (float              xalign,
                              PangoEllipsizeMode ellipsize,
                              gboolean           tabular_figures);

void        fmv_cell_text_set_text (FmvCellText *self,
                                    const char  *text);
const char *fmv_cell_text_get_text (FmvCellText *self);

G_END_DECLS
