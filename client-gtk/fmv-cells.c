/* fmv-cells.c: the cells of the event list's columns: a line of text per cell
 * (fmv-cell-text.h), filled by the column's format (fmv-columns.h), failed calls in red;
 * see fmv-cells.h.
 */
#include "config.h"

#include "fmv-cell-text.h"
#include "fmv-cells.h"
#include "fmv-columns.h"
#include "fmv-row.h"

/* A window's cells: the highlight rules they are coloured by, its bookmarks, and the
 * labels bound now, restyled when either changes (the view does not rebind them by
 * itself). */
typedef struct {
  FmvHighlights *highlights;
  FmvBookmarks *bookmarks;
  gulong highlights_id;
  gulong bookmarks_id;
  GHashTable *bound;          /* FmvCellText -> its GtkListItem */
} Cells;

/* Each column's cells are plain text widgets made and filled here (a
 * GtkSignalListItemFactory), not .ui templates with property bindings: GTK 4.8's list view
 * keeps 205 rows bound around its anchor, so following a live capture rebinds 205 rows x 9
 * cells at each update, and the bindings' expression watches (a notify handler connected on
 * each row per cell, re-evaluated, then disconnected) took most of that frame. Failed calls
 * get the "failed" class (red), toggled only when it changes, since any class change
 * restyles the cell. How a column's cells look and what they say is its FmvColumnInfo. */
/* The tooltip is made when the pointer asks for it. Setting tooltip-text at every bind
 * made GTK 4.8 query the tooltip each time, which asks the display where the pointer is:
 * on X11 a round trip to the server per cell, at every scroll to the newest rows of a
 * live capture (its cost: bench/README.md, "Figures behind the code"). */
static gboolean
cell_query_tooltip_cb (GtkWidget  *label,
                       int         x,
                       int         y,
                       gboolean    keyboard_mode,
                       GtkTooltip *tooltip,
                       gpointer    user_data)
{
  const char *text = fmv_cell_text_get_text (FMV_CELL_TEXT (label));

  if (text == NULL || *text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* fmv-columns.h names its ellipsizing without GTK */
G_STATIC_ASSERT ((int) FMV_ELLIPSIZE_NONE == (int) PANGO_ELLIPSIZE_NONE);
G_STATIC_ASSERT ((int) FMV_ELLIPSIZE_START == (int) PANGO_ELLIPSIZE_START);
G_STATIC_ASSERT ((int) FMV_ELLIPSIZE_MIDDLE == (int) PANGO_ELLIPSIZE_MIDDLE);
G_STATIC_ASSERT ((int) FMV_ELLIPSIZE_END == (int) PANGO_ELLIPSIZE_END);

typedef struct {
  guint column;
  FmvCellMenuFunc func;
} MenuHook;

/* The same for every window: the function finds its window from the cell. A column per
 * field at most. */
static MenuHook menu_hooks[FM_N_FIELDS];

typedef struct {
  FmvCellClickFunc func;
  gpointer user_data;
} Click;

/* The press is claimed (the row under a right click is not selected, and no other
 * controller acts on it); the menu opens on the release. Opening it on the press gave
 * the popover the pointer grab while the button was still down: GTK 4.8 then lost track
 * of the pressed cell's :active state ("Broken accounting of active state"). */
static void
cell_pressed_cb (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 GtkListItem     *item)
{
  if (gtk_list_item_get_item (item) != NULL)
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
cell_released_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkListItem     *item)
{
  GtkWidget *cell = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  const Click *click = g_object_get_data (G_OBJECT (gesture), "fmv-click");
  GObject *row = gtk_list_item_get_item (item);

  if (row != NULL)
    click->func (cell, row, x, y, click->user_data);
}

void
fmv_cells_add_right_click (GtkWidget        *cell,
                           GtkListItem      *list_item,
                           FmvCellClickFunc  func,
                           gpointer          user_data)
{
  GtkGesture *gesture = gtk_gesture_click_new ();
  Click *click = g_new (Click, 1);

  *click = (Click) { func, user_data };
  g_object_set_data_full (G_OBJECT (gesture), "fmv-click", click, g_free);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (cell_pressed_cb), list_item);
  g_signal_connect (gesture, "released", G_CALLBACK (cell_released_cb), list_item);
  gtk_widget_add_controller (cell, GTK_EVENT_CONTROLLER (gesture));
}

static void
column_menu_cb (GtkWidget *cell,
                GObject   *row,
                double     x,
                double     y,
                gpointer   user_data)
{
  const MenuHook *hook = user_data;

  if (hook->func != NULL)
    hook->func (cell, row, hook->column, x, y);
}

GtkWidget *
fmv_cells_new_label (float              xalign,
                     PangoEllipsizeMode ellipsize,
                     gboolean           numeric)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), ellipsize);
  gtk_widget_add_css_class (label, "cell");
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  return label;
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  guint c = GPOINTER_TO_UINT (user_data);
  const FmvColumnInfo *column = fmv_columns_get (c);
  GtkWidget *label = fmv_cell_text_new (column->xalign, (PangoEllipsizeMode) column->ellipsize, column->numeric);

  fmv_cells_add_right_click (label, item, column_menu_cb, &menu_hooks[c]);

  if (column->tooltip)
    {
      gtk_widget_set_has_tooltip (label, TRUE);
      g_signal_connect (label, "query-tooltip", G_CALLBACK (cell_query_tooltip_cb), NULL);
    }
  gtk_list_item_set_child (item, label);
}

static void
set_class (GtkWidget  *widget,
           const char *name,
           gboolean    on)
{
  if (on == gtk_widget_has_css_class (widget, name))
    return;
  if (on)
    gtk_widget_add_css_class (widget, name);
  else
    gtk_widget_remove_css_class (widget, name);
}

/* The "bookmarked" class, and the "highlight-N" class of the rule @label's row matches,
 * if any. */
static void
apply_marks (Cells     *cells,
             GtkWidget *label,
             FmvRow    *row)
{
  int old = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "fmv-highlight")) - 1;
  int colour = -1;

  set_class (label, "bookmarked", row != NULL && fmv_bookmarks_contains (cells->bookmarks, fmv_row_get_row (row)));
  /* With no rules (the common case) a row costs nothing more than before. */
  if (old < 0 && fmv_highlights_get_n (cells->highlights) == 0)
    return;
  if (row != NULL)
    {
      FmvStoreEvent stored;
      const FmEvent *ev;

      ev = fmv_row_get_event (row, &stored);
      colour = fmv_highlights_match (cells->highlights, ev);
    }
  if (colour == old)
    return;
  if (old >= 0)
    {
      g_autofree char *name = g_strdup_printf ("highlight-%d", old);

      gtk_widget_remove_css_class (label, name);
    }
  if (colour >= 0)
    {
      g_autofree char *name = g_strdup_printf ("highlight-%d", colour);

      gtk_widget_add_css_class (label, name);
    }
  g_object_set_data (G_OBJECT (label), "fmv-highlight", GINT_TO_POINTER (colour + 1));
}

static void
marks_changed_cb (GObject *marks,
                  Cells   *cells)
{
  GHashTableIter iter;
  gpointer label, item;

  g_hash_table_iter_init (&iter, cells->bound);
  while (g_hash_table_iter_next (&iter, &label, &item))
    apply_marks (cells, label, gtk_list_item_get_item (item));
}

static void
cells_free (gpointer data)
{
  Cells *cells = data;

  g_signal_handler_disconnect (cells->highlights, cells->highlights_id);
  g_signal_handler_disconnect (cells->bookmarks, cells->bookmarks_id);
  g_object_unref (cells->highlights);
  g_object_unref (cells->bookmarks);
  g_hash_table_unref (cells->bound);
  g_free (cells);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  const FmvColumnInfo *column = fmv_columns_get (GPOINTER_TO_UINT (user_data));
  Cells *cells = g_object_get_data (G_OBJECT (factory), "fmv-cells");
  FmvRow *row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  FmvStoreEvent stored;
  g_autofree char *text = NULL;

  text = column->format (column->field, fmv_row_get_event (row, &stored));
  fmv_cell_text_set_text (FMV_CELL_TEXT (label), text);
  set_class (label, "failed", fmv_row_get_failed (row));
  g_hash_table_insert (cells->bound, label, item);
  apply_marks (cells, label, row);
}

static void
cell_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  Cells *cells = g_object_get_data (G_OBJECT (factory), "fmv-cells");

  g_hash_table_remove (cells->bound, gtk_list_item_get_child (item));
}

void
fmv_cells_set_factories (GtkColumnViewColumn *const *columns,
                         FmvCellMenuFunc            menu_func,
                         FmvHighlights             *highlights,
                         FmvBookmarks              *bookmarks)
{
  for (guint c = 0; c < fmv_columns_get_n (); c++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
      Cells *cells = g_new0 (Cells, 1);

      menu_hooks[c] = (MenuHook) { c, menu_func };
      cells->highlights = g_object_ref (highlights);
      cells->bookmarks = g_object_ref (bookmarks);
      cells->bound = g_hash_table_new (NULL, NULL);
      cells->highlights_id = g_signal_connect (highlights, "changed", G_CALLBACK (marks_changed_cb), cells);
      cells->bookmarks_id = g_signal_connect (bookmarks, "changed", G_CALLBACK (marks_changed_cb), cells);
      g_object_set_data_full (G_OBJECT (factory), "fmv-cells", cells, cells_free);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind_cb), GUINT_TO_POINTER (c));
      gtk_column_view_column_set_factory (columns[c], factory);
    }
}
