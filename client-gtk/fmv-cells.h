/* fmv-cells.h: the cells of the event list's columns. */
#pragma once

#include <gtk/gtk.h>

#include "fmv-bookmarks.h"
#include "fmv-highlights.h"

G_BEGIN_DECLS

/* Called on a right click on a cell of @column (its index in fmv-columns.h): @cell is its
 * widget (its root is the window), (@x, @y) the click in it. */
typedef void (*FmvCellMenuFunc) (GtkWidget *cell,
                                 GObject   *row,
                                 guint      column,
                                 double     x,
                                 double     y);

/* Called on a right click on @cell, which shows @item (the list item's item). */
typedef void (*FmvCellClickFunc) (GtkWidget *cell,
                                  GObject   *item,
                                  double     x,
                                  double     y,
                                  gpointer   user_data);

/* Calls @func on a right click on @cell, a child of @list_item: the press is claimed (the
 * row is not selected), @func runs on the release. */
void fmv_cells_add_right_click (GtkWidget        *cell,
                                GtkListItem      *list_item,
                                FmvCellClickFunc  func,
                                gpointer          user_data);

/* Gives each column (fmv_columns_get_n() of them, in the order of fmv-columns.h) the
 * factory of its cells; @menu_func is called on right clicks; rows are coloured by the
 * first of @highlights they match and marked when in @bookmarks. */
void fmv_cells_set_factories (GtkColumnViewColumn *const *columns,
                              FmvCellMenuFunc            menu_func,
                              FmvHighlights             *highlights,
                              FmvBookmarks              *bookmarks);

/* A cell's label for the analysis views' lists (the event list's cells are FmvCellText):
 * one line, ellipsized, "numeric" for tabular figures (style.css). */
GtkWidget *fmv_cells_new_label (float              xalign,
                                PangoEllipsizeMode ellipsize,
                                gboolean           numeric);

G_END_DECLS
