/* fmv-window.c: the viewer window: wires the event list to the column view, the filter
 * entry, the detail pane and the status bar, and follows the live connection's state. The
 * actions (Start, Stop, Clear, Open, Save, navigation) live in fmv-window-actions.c.
 */
#include "config.h"

#include <unistd.h>

#include "fm-filter.h"
#include "fmv-capture.h"
#include "fmv-cells.h"
#include "fmv-columns.h"
#include "fmv-filter-term.h"
#include "fmv-row.h"
#include "fmv-window-private.h"

G_DEFINE_FINAL_TYPE (FmvWindow, fmv_window, GTK_TYPE_APPLICATION_WINDOW)

/* ---- columns ---------------------------------------------------------------------------- */

/* The Xvfb tests read this line. */
static void
column_visible_cb (GtkColumnViewColumn *column,
                   GParamSpec          *pspec,
                   gpointer             user_data)
{
  g_debug ("column %s: %s", gtk_column_view_column_get_title (column),
           gtk_column_view_column_get_visible (column) ? "shown" : "hidden");
}

/* The columns of fmv-columns.h, in its order, and an item per column in the chooser (Columns
 * in the main menu) for an action that shows or hides it. */
static void
make_columns (FmvWindow *self)
{
  for (guint c = 0; c < fmv_columns_get_n (); c++)
    {
      const FmvColumnInfo *info = fmv_columns_get (c);
      g_autoptr(GtkColumnViewColumn) column = gtk_column_view_column_new (info->title, NULL);
      g_autofree char *name = fmv_columns_action_name (c);
      g_autoptr(GPropertyAction) action = NULL;

      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_fixed_width (column, info->width);
      gtk_column_view_column_set_expand (column, info->expand);
      gtk_column_view_column_set_visible (column, info->visible);
      gtk_column_view_append_column (self->column_view, column);
      self->columns[c] = column;

      action = g_property_action_new (name, column, "visible");
      g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
      g_signal_connect (column, "notify::visible", G_CALLBACK (column_visible_cb), NULL);
    }
  fmv_columns_append_chooser (self->columns_menu);
}

/* ---- info bar --------------------------------------------------------------------------- */

static void
info_bar_response_cb (GtkInfoBar *info_bar,
                      int         response,
                      FmvWindow  *self)
{
  if (response == FMV_INFO_RESPONSE_COPY && self->info_copy_text != NULL)
    {
      gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->info_copy_text);
      /* The Xvfb tests read this line. */
      g_debug ("info bar: copied %s", self->info_copy_text);
      fmv_window_flash_status (self, "Copied");
    }
  gtk_info_bar_set_revealed (info_bar, FALSE);
}

/* ---- following and selection ------------------------------------------------------------ */

gboolean
fmv_window_get_follow (FmvWindow *self)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self), "follow");

  return state != NULL && g_variant_get_boolean (state);
}

void
fmv_window_set_follow (FmvWindow *self,
                       gboolean   follow)
{
  g_action_group_change_action_state (G_ACTION_GROUP (self), "follow", g_variant_new_boolean (follow));
}

static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  FmvWindow *self = user_data;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  guint position = self->scroll_target;

  /* Scrolling a list that was never allocated, or in the middle of the items-changed that
   * added the row, leaves GTK 4.8's list view showing a single row: wait for a frame. */
  if (!gtk_widget_get_mapped (widget))
    return G_SOURCE_CONTINUE;
  self->scroll_tick = 0;
  if (n > 0 && position < n)
    gtk_widget_activate_action (widget, "list.scroll-to-item", "u", position);
  return G_SOURCE_REMOVE;
}

/* Scrolls @position into view at the next frame.
 * GTK 4.8 has no gtk_column_view_scroll_to(); the inner list view has the action. */
void
fmv_window_scroll_to (FmvWindow *self,
                      guint      position)
{
  if (self->list_view == NULL)
    return;
  self->scroll_target = position;
  if (self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (self->list_view, scroll_tick_cb, self, NULL);
}

/* Following: whenever rows are added, scroll to the newest at the next frame, before
 * that frame lays the list out, with the list view's own scroll-to-item: its anchor
 * becomes the last row, so the rows it lays out are the ones shown (and a window resize
 * keeps the last row in place). Going to the bottom through the adjustment once the list
 * had laid out the longer list (value = upper - page size) took two frames per update,
 * and left the anchor at the middle row, below which GTK 4.8 keeps about 100 rows bound:
 * every append bound that many new rows, thrown away by the scroll that followed (its
 * cost: bench/README.md, "Figures behind the code").
 *
 * Rows the list has not laid out yet are 0 px high to it, so when the view was exactly at
 * the bottom, scroll-to-item puts the top of the new last row at the bottom edge, out of
 * sight: the frame after looks again and, if the view is not at the bottom, scrolls once
 * more (the row is measured by then; that pass moves the view by a row, binding next to
 * nothing). Scrolling away turns following off (setup_follow_breakers). */
static gboolean
at_bottom (FmvWindow *self)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));

  return gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment) >=
         gtk_adjustment_get_upper (adjustment) - 1;
}

static gboolean
follow_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  FmvWindow *self = user_data;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->list));

  /* The same wait as scroll_tick_cb's, for the same GTK 4.8 reason. */
  if (!gtk_widget_get_mapped (self->list_view))
    return G_SOURCE_CONTINUE;
  if (!fmv_window_get_follow (self) || n == 0 || (self->follow_scrolled && at_bottom (self)))
    {
      self->follow_tick = 0;
      self->follow_scrolled = FALSE;
      return G_SOURCE_REMOVE;
    }
  gtk_widget_activate_action (self->list_view, "list.scroll-to-item", "u", n - 1);
  self->follow_scrolled = TRUE;
  return G_SOURCE_CONTINUE;
}

void
fmv_window_follow_now (FmvWindow *self)
{
  if (self->list_view == NULL)
    return;
  /* New rows: whatever the last pass saw, scroll again. */
  self->follow_scrolled = FALSE;
  if (self->follow_tick == 0)
    self->follow_tick = gtk_widget_add_tick_callback (self->list_view, follow_tick_cb, self, NULL);
}

void
fmv_window_select_position (FmvWindow *self,
                            guint      position)
{
  gtk_single_selection_set_selected (self->selection, position);
  fmv_window_scroll_to (self, position);
}

static void
list_items_changed_cb (GListModel *model,
                       guint       position,
                       guint       removed,
                       guint       added,
                       FmvWindow  *self)
{
  /* rows the store let go left the list: their bookmarks go with them */
  if (removed > 0)
    fmv_bookmarks_forget_before (self->bookmarks, fmv_store_get_first_row (self->store));
  fmv_window_update_status (self);
  /* A refilter or resort (resetting) decides where to scroll in list_reset_cb. */
  if (added > 0 && !self->resetting && fmv_window_get_follow (self))
    fmv_window_follow_now (self);
}

static void
list_resetting_cb (FmvEventList *list,
                   FmvWindow    *self)
{
  guint selected = gtk_single_selection_get_selected (self->selection);

  /* Keep the selected event across the change without GtkSingleSelection looking for it
   * among every new item (see fmv-event-list.c). */
  self->had_selection = selected != GTK_INVALID_LIST_POSITION;
  if (self->had_selection)
    self->selected_row = fmv_event_list_get_row (list, selected);
  self->resetting = TRUE;
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

static void
list_reset_cb (FmvEventList *list,
               gboolean      everything,
               FmvWindow    *self)
{
  guint position;
  gboolean kept;

  self->resetting = FALSE;
  kept = self->had_selection && fmv_event_list_find_row (list, self->selected_row, &position);
  self->had_selection = FALSE;
  if (kept)
    gtk_single_selection_set_selected (self->selection, position);
  else
    fmv_detail_set_row (self->detail, NULL);

  /* After a new filter or order, show the selected event, or the newest when following,
   * or the top; a merge of new rows leaves the view where it is. */
  if (!everything)
    return;
  if (kept)
    fmv_window_scroll_to (self, position);
  else if (fmv_window_get_follow (self))
    fmv_window_follow_now (self);
  else if (g_list_model_get_n_items (G_LIST_MODEL (list)) > 0)
    fmv_window_scroll_to (self, 0);
}

static void
selected_item_cb (GtkSingleSelection *selection,
                  GParamSpec         *pspec,
                  FmvWindow          *self)
{
  gpointer item;

  if (self->resetting)
    return;
  item = gtk_single_selection_get_selected_item (selection);
  /* The Xvfb tests read this line. */
  g_debug ("selection: %s", item != NULL ? "a row" : "none");
  fmv_detail_set_row (self->detail, item);
  /* A selected row must stay under the pointer: following would slide it away. Turning
   * following back on drops the selection (fmv_window_update_follow_state), so a selection
   * and following never coexist and a refilter restoring the selection changes nothing. */
  if (item != NULL && fmv_window_get_follow (self))
    fmv_window_set_follow (self, FALSE);
}

/* Double-click or Enter on a row opens its properties, as in Process Monitor; F9 (the
 * show-details action) opens and closes them. */
static void
row_activated_cb (GtkColumnView *view,
                  guint          position,
                  FmvWindow     *self)
{
  g_autoptr(GVariant) shown = g_action_group_get_action_state (G_ACTION_GROUP (self), "show-details");

  gtk_single_selection_set_selected (self->selection, position);
  if (!g_variant_get_boolean (shown))
    g_action_group_change_action_state (G_ACTION_GROUP (self), "show-details", g_variant_new_boolean (TRUE));
  /* The Xvfb tests read this line. */
  g_debug ("properties: opened for the row at %u", position);
}

static void
busy_cb (FmvEventList *list,
         GParamSpec   *pspec,
         FmvWindow    *self)
{
  gboolean busy = fmv_event_list_get_busy (list);

  gtk_spinner_set_spinning (self->busy_spinner, busy);
  fmv_window_update_status (self);
}

void
fmv_window_set_store (FmvWindow *self,
                      FmvStore  *store)
{
  fmv_store_set_depth (store, self->depth);
  g_set_object (&self->store, store);
  /* Bookmarks are rows of the store they were made in. */
  fmv_bookmarks_clear (self->bookmarks);
  fmv_event_list_set_store (self->list, store);
  if (self->live != NULL)
    fmv_live_set_store (self->live, store);
  fmv_detail_set_row (self->detail, NULL);
  fmv_window_update_status (self);
}

/* ---- sorting ---------------------------------------------------------------------------- */

/* GTK 4.8 cannot tell which column a GtkColumnView sorts by (that getter came in 4.10),
 * and its sorter would be used by a GtkSortListModel that creates every item. So each
 * column gets a sorter that only records that it was asked: comparing two probe objects
 * with the view's sorter calls the primary column's sorter first, and the sign of the
 * answer is the direction. The event list then sorts its own index. */
typedef struct {
  FmvWindow *window;
  FmvSortField field;
} Probe;

static int
probe_compare (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  Probe *probe = user_data;

  probe->window->probe_field = probe->field;
  return GTK_ORDERING_SMALLER;
}

static void
view_sorter_changed_cb (GtkSorter       *sorter,
                        GtkSorterChange  change,
                        FmvWindow       *self)
{
  GtkOrdering order;

  self->probe_field = FMV_SORT_ARRIVAL;
  order = gtk_sorter_compare (sorter, self->probe_a, self->probe_b);
  if (order == GTK_ORDERING_EQUAL || self->probe_field == FMV_SORT_ARRIVAL)
    fmv_event_list_set_sort (self->list, FMV_SORT_ARRIVAL, FALSE);
  else
    fmv_event_list_set_sort (self->list, self->probe_field, order == GTK_ORDERING_LARGER);
}

static void
setup_sorting (FmvWindow *self)
{
  self->probe_a = g_object_new (G_TYPE_OBJECT, NULL);
  self->probe_b = g_object_new (G_TYPE_OBJECT, NULL);
  for (guint c = 0; c < fmv_columns_get_n (); c++)
    {
      Probe *probe = g_new (Probe, 1);
      g_autoptr(GtkCustomSorter) sorter = NULL;

      probe->window = self;
      probe->field = fmv_columns_get (c)->field;
      sorter = gtk_custom_sorter_new (probe_compare, probe, g_free);
      gtk_column_view_column_set_sorter (self->columns[c], GTK_SORTER (sorter));
    }
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (view_sorter_changed_cb), self, 0);
}

/* ---- filter ----------------------------------------------------------------------------- */

static void
show_filter_error (FmvWindow    *self,
                   const GError *error)
{
  GtkEditable *delegate = gtk_editable_get_delegate (GTK_EDITABLE (self->filter_entry));
  g_autoptr(PangoAttrList) attrs = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  guint column = 0;

  if (error == NULL)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->filter_entry), "error");
      gtk_revealer_set_reveal_child (self->filter_error_revealer, FALSE);
      if (GTK_IS_TEXT (delegate))
        gtk_text_set_attributes (GTK_TEXT (delegate), NULL);
      return;
    }

  gtk_widget_add_css_class (GTK_WIDGET (self->filter_entry), "error");
  gtk_label_set_label (self->filter_error_label, error->message);
  gtk_revealer_set_reveal_child (self->filter_error_revealer, TRUE);

  /* Mark the place the parser stopped at, from there to the end of that word. */
  if (GTK_IS_TEXT (delegate) && fmv_filter_error_column (error, &column))
    {
      gsize len = strlen (text);
      gsize start = MIN ((gsize) column - 1, len);
      gsize end = start;
      PangoAttribute *attr;

      while (end < len && text[end] != ' ')
        end++;
      if (end == start)
        {
          /* At the end of the text: mark the last character instead. */
          start = start > 0 ? start - 1 : 0;
          end = len;
        }
      attrs = pango_attr_list_new ();
      attr = pango_attr_underline_new (PANGO_UNDERLINE_ERROR);
      attr->start_index = start;
      attr->end_index = end;
      pango_attr_list_insert (attrs, attr);
      attr = pango_attr_underline_color_new (0xe000, 0x1b00, 0x2400);
      attr->start_index = start;
      attr->end_index = end;
      pango_attr_list_insert (attrs, attr);
      gtk_text_set_attributes (GTK_TEXT (delegate), attrs);
    }
}

/* The monitor's own activity, hidden by default as Process Monitor hides its own: the
 * programs of filemon by name and, in a live capture, this viewer by pid (its other
 * threads, gdbus, gmain and pool workers, carry other names). A capture opened from a file
 * was recorded by another process, or on another boot: a pid there that happens to be
 * this viewer's is some other program's. */
#define MONITOR_PROGRAMS "comm=filemond or comm=filemonctl or comm=filemon-viewer"

static char *
monitor_filter (FmvWindow *self)
{
  if (self->live == NULL)
    return g_strdup ("not (" MONITOR_PROGRAMS ")");
  return g_strdup_printf ("not (" MONITOR_PROGRAMS " or pid=%d)", (int) getpid ());
}

static void
filter_changed_cb (GtkSearchEntry *entry,
                   FmvWindow      *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmFilter) check = NULL;
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));
  g_autofree char *applied = NULL;

  /* The Xvfb tests read this line. */
  g_debug ("filter entry: %s", text);
  /* The user's text alone first, so that an error's column points into what they typed. */
  check = fm_filter_new (text, &error);
  if (check == NULL)
    {
      show_filter_error (self, error);
      fmv_window_update_empty_label (self);
      return;
    }
  if (fmv_window_get_hide_monitor (self))
    {
      g_autofree char *own = monitor_filter (self);

      applied = *text != '\0' ? g_strdup_printf ("(%s) and %s", text, own) : g_steal_pointer (&own);
    }
  else
    applied = g_steal_pointer (&text);
  if (!fmv_event_list_set_filter (self->list, applied, &error))
    show_filter_error (self, error);
  else
    show_filter_error (self, NULL);
  fmv_window_update_empty_label (self);
}

gboolean
fmv_window_get_hide_monitor (FmvWindow *self)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self), "hide-monitor");

  return state != NULL && g_variant_get_boolean (state);
}

void
fmv_window_refilter (FmvWindow *self)
{
  filter_changed_cb (self->filter_entry, self);
}

/* Enter: apply at once, and keep the filter among the recent ones if it parses. */
static void
filter_activate_cb (GtkSearchEntry *entry,
                    FmvWindow      *self)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));
  g_autoptr(FmFilter) check = fm_filter_new (text, NULL);

  filter_changed_cb (entry, self);
  if (check != NULL)
    fmv_window_remember_filter (self, text);
}

static void
filter_stop_cb (GtkSearchEntry *entry,
                FmvWindow      *self)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

void
fmv_window_set_filter_text (FmvWindow  *self,
                            const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text);
  gtk_editable_set_position (GTK_EDITABLE (self->filter_entry), -1);
  /* Apply now rather than after the entry's typing delay. */
  filter_changed_cb (self->filter_entry, self);
}

static void
detail_filter_requested_cb (FmvDetail  *detail,
                            const char *term,
                            FmvWindow  *self)
{
  g_autofree char *text = fmv_filter_and (gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)), term);

  fmv_window_set_filter_text (self, text);
}

/* ---- live connection -------------------------------------------------------------------- */

static void
live_changed_cb (FmvLive    *live,
                 GParamSpec *pspec,
                 FmvWindow  *self)
{
  fmv_window_update_status (self);
  fmv_window_update_backends (self, fmv_live_get_available_backends (live));
}

static void
live_appended_cb (FmvLive   *live,
                  FmvWindow *self)
{
  fmv_event_list_queue_update (self->list);
}

static void
attach_live (FmvWindow *self)
{
  self->live = fmv_live_new (self->store);
  g_signal_connect_object (self->live, "notify", G_CALLBACK (live_changed_cb), self, 0);
  g_signal_connect_object (self->live, "appended", G_CALLBACK (live_appended_cb), self, 0);
  fmv_live_connect (self->live);
}

static void
detach_live (FmvWindow *self)
{
  if (self->live == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->live, self);
  g_clear_object (&self->live);
}

/* ---- dialogs ----------------------------------------------------------------------------- */

GtkWidget *
fmv_window_new_dialog (FmvWindow   *self,
                       const char  *title,
                       gpointer     editor,
                       GtkWidget  **box)
{
  GtkWidget *dialog = gtk_window_new ();

  g_object_set_data_full (G_OBJECT (dialog), "fmv-editor", editor, g_free);
  gtk_window_set_title (GTK_WINDOW (dialog), title);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);

  *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (*box, 12);
  gtk_widget_set_margin_end (*box, 12);
  gtk_widget_set_margin_top (*box, 12);
  gtk_widget_set_margin_bottom (*box, 12);
  gtk_window_set_child (GTK_WINDOW (dialog), *box);
  return dialog;
}

GtkWidget *
fmv_dialog_buttons (GCallback cancel_clicked,
                    GCallback apply_clicked,
                    gpointer  data)
{
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *cancel = gtk_button_new_with_mnemonic ("_Cancel");
  GtkWidget *apply = gtk_button_new_with_mnemonic ("_Apply");

  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  g_signal_connect (cancel, "clicked", cancel_clicked, data);
  gtk_widget_add_css_class (apply, "suggested-action");
  g_signal_connect (apply, "clicked", apply_clicked, data);
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_box_append (GTK_BOX (buttons), apply);
  return buttons;
}

/* ---- opening files ---------------------------------------------------------------------- */

gboolean
fmv_window_is_pristine (FmvWindow *self)
{
  g_return_val_if_fail (FMV_IS_WINDOW (self), FALSE);

  /* a window that could not open its file has nothing to lose either */
  return (self->file == NULL || self->file_problem != NULL) && !self->loading &&
         fmv_store_get_n_rows (self->store) == 0;
}

/* What a file that could be read only in part lost, named so the person knows the list
 * is not the whole file. */
static void
report_partial_load (FmvWindow  *self,
                     guint       n_bad,
                     const char *first_problem,
                     gboolean    stopped)
{
  g_autofree char *name = g_file_get_basename (self->file);
  g_autofree char *skipped = NULL;
  g_autofree char *text = NULL;

  if (n_bad == 1)
    skipped = g_strdup_printf ("One line of “%s” could not be read and is left out: %s.", name,
                               first_problem);
  else if (n_bad > 1)
    skipped = g_strdup_printf ("%'u lines of “%s” could not be read and are left out; the first: "
                               "%s.", n_bad, name, first_problem);
  if (stopped)
    text = g_strdup_printf ("Reading “%s” was stopped: the list holds the events read until "
                            "then, not the rest of the file.%s%s", name,
                            skipped ? " " : "", skipped ? skipped : "");
  else
    text = g_steal_pointer (&skipped);
  if (text != NULL)
    {
      g_debug ("partial load: %s", text);
      fmv_window_show_info (self, GTK_MESSAGE_WARNING, text);
    }
}

static void
load_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(FmvWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(FmvStore) store = NULL;
  g_autofree char *first_problem = NULL;
  guint n_bad = 0;
  gboolean stopped;

  store = fmv_capture_load_finish (result, &n_bad, &first_problem, &error);
  if (store == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  stopped = fmv_window_get_loading_stopped (self);
  fmv_window_end_loading (self);
  self->loading = FALSE;
  if (store == NULL)
    {
      /* The page says it, where the events would be: an info bar over an empty list was
       * easy to miss, and "holds no events" under it contradicted it. */
      self->file_problem = g_strdup (error->message);
      g_debug ("cannot open: %s", error->message);
      fmv_window_update_status (self);
      return;
    }
  fmv_window_set_store (self, store);
  report_partial_load (self, n_bad, first_problem, stopped);
}

void
fmv_window_open_file (FmvWindow *self,
                      GFile     *file)
{
  g_return_if_fail (FMV_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  detach_live (self);
  /* the monitor's own activity: by name alone now */
  fmv_window_refilter (self);
  /* A capture opens at its beginning; nothing new arrives to follow. */
  fmv_window_set_follow (self, FALSE);
  g_set_object (&self->file, file);
  g_clear_pointer (&self->file_problem, g_free);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->loading = TRUE;
  fmv_window_show_info (self, GTK_MESSAGE_INFO, NULL);
  {
    g_autoptr(FmvStore) empty = fmv_store_new ();

    fmv_window_set_store (self, empty);
  }
  fmv_capture_load_async (file, self->depth, fmv_window_begin_loading (self), self->cancellable,
                          load_done_cb, g_object_ref (self));
}

/* ---- the rows' context menu -------------------------------------------------------------- */

void
fmv_menu_append (GMenu      *menu,
                 const char *label,
                 const char *action,
                 GVariant   *target)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, target);
  g_menu_append_item (menu, item);
}

static void
add_filter_item (GMenu      *menu,
                 const char *label,
                 const char *term)
{
  fmv_menu_append (menu, label, "win.add-filter-term", g_variant_new_string (term));
}

/* Include / Exclude <value> of the clicked cell's column, and the events before or after
 * this one; each edits the filter entry's text, so the entry shows what happened.
 * Highlight <value> adds a highlight rule (fmv-window-highlights.c). One section: with
 * several, GTK 4.8 sized the popover before drawing the separators between them, and the
 * last item ended up scrolled out of sight. */
static void
cell_menu_cb (GtkWidget *cell,
              GObject   *item,
              guint      column,
              double     x,
              double     y)
{
  FmvWindow *self = FMV_WINDOW (gtk_widget_get_root (cell));
  FmvRow *row = FMV_ROW (item);
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autofree char *term = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  graphene_point_t at;
  FmvStoreEvent stored;
  const FmEvent *ev;

  ev = fmv_row_get_event (row, &stored);
  if (fmv_filter_term_offered (fmv_columns_get (column)->field))
    term = fmv_filter_term (fmv_columns_get (column)->field, ev);
  if (term != NULL)
    {
      g_autofree char *include = g_strdup_printf ("Include %s", term);
      g_autofree char *exclude = g_strdup_printf ("Exclude %s", term);
      g_autofree char *not_term = g_strdup_printf ("not %s", term);

      g_autofree char *highlight = g_strdup_printf ("Highlight %s", term);
      g_autoptr(GMenuItem) highlight_item = g_menu_item_new (highlight, NULL);

      add_filter_item (menu, include, term);
      add_filter_item (menu, exclude, not_term);
      g_menu_item_set_action_and_target_value (highlight_item, "win.add-highlight", g_variant_new_string (term));
      g_menu_append_item (menu, highlight_item);
    }
  {
    g_autoptr(GMenuItem) bookmark = g_menu_item_new (fmv_bookmarks_contains (self->bookmarks, fmv_row_get_row (row)) ?
                                                     "Remove Bookmark" : "Bookmark This Event", NULL);

    g_menu_item_set_action_and_target_value (bookmark, "win.toggle-bookmark-row",
                                             g_variant_new_uint32 (fmv_row_get_row (row)));
    g_menu_append_item (menu, bookmark);
  }

  before = g_strdup_printf ("seq>=%" G_GUINT64_FORMAT, ev->seq);
  after = g_strdup_printf ("seq<=%" G_GUINT64_FORMAT, ev->seq);
  add_filter_item (menu, "Exclude Events Before This One", before);
  add_filter_item (menu, "Exclude Events After This One", after);
  if (ev->path_len > 0 && ev->path[0] == '/')
    {
      g_autoptr(GMenuItem) folder = g_menu_item_new ("Open Containing Folder", NULL);

      g_menu_item_set_action_and_target_value (folder, "win.open-folder", g_variant_new_uint32 (fmv_row_get_row (row)));
      g_menu_append_item (menu, folder);
    }

  if (!gtk_widget_compute_point (cell, GTK_WIDGET (self->column_view),
                                 &GRAPHENE_POINT_INIT ((float) x, (float) y), &at))
    return;
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->row_menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->row_menu),
                               &(GdkRectangle) { (int) at.x, (int) at.y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->row_menu));
}

void
fmv_window_add_filter_term (FmvWindow  *self,
                            const char *term)
{
  detail_filter_requested_cb (self->detail, term, self);
}

/* The Xvfb tests read these lines. */
static void
bookmarks_changed_cb (FmvBookmarks *bookmarks,
                      gpointer      user_data)
{
  g_debug ("bookmarks: %u", fmv_bookmarks_get_n (bookmarks));
}

/* ---- construction ----------------------------------------------------------------------- */

static void
scrolled_up_cb (FmvWindow *self)
{
  fmv_window_set_follow (self, FALSE);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           FmvWindow                *self)
{
  /* Scrolling back through history means the newest rows should stop pulling the view. */
  if (dy < 0)
    scrolled_up_cb (self);
  return FALSE;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                FmvWindow             *self)
{
  /* End resumes following (the list's own End would select the last row, which stops it:
   * a row that is the last one now is not the last one a moment later). */
  if ((keyval == GDK_KEY_End || keyval == GDK_KEY_KP_End) &&
      (state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) == 0)
    {
      fmv_window_set_follow (self, TRUE);
      return TRUE;
    }
  if (keyval == GDK_KEY_Up || keyval == GDK_KEY_Page_Up || keyval == GDK_KEY_Home ||
      keyval == GDK_KEY_KP_Up || keyval == GDK_KEY_KP_Page_Up || keyval == GDK_KEY_KP_Home)
    scrolled_up_cb (self);
  return FALSE;
}

static void
setup_follow_breakers (FmvWindow *self)
{
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkEventController *window_keys;
  GtkEventController *copy = gtk_shortcut_controller_new ();
  GtkGesture *drag = gtk_gesture_click_new ();

  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->scrolled_window), scroll);

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), keys);

  /* End anywhere no widget takes it: after Clear the focused row is gone and the focus
   * with it, and End, said to follow again, reached nothing. Bubbling, so the filter
   * entry keeps End for its cursor. */
  window_keys = gtk_event_controller_key_new ();
  g_signal_connect (window_keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), window_keys);

  /* Ctrl+C copies the selected row, in the list only: elsewhere (the filter entry, the
   * detail pane) it copies their own selected text. */
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (copy),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>c"),
                                                          gtk_named_action_new ("win.copy-row")));
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), copy);

  /* Grabbing the scrollbar is scrolling too. */
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (drag), GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (drag, "pressed", G_CALLBACK (scrolled_up_cb), self);
  gtk_widget_add_controller (gtk_scrolled_window_get_vscrollbar (self->scrolled_window),
                             GTK_EVENT_CONTROLLER (drag));
}

static void
fmv_window_dispose (GObject *object)
{
  FmvWindow *self = FMV_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->loading_box != NULL)
    fmv_window_end_loading (self);
  g_clear_pointer (&self->file_problem, g_free);
  g_clear_handle_id (&self->status_message_source, g_source_remove);
  g_clear_pointer (&self->row_menu, gtk_widget_unparent);
  g_clear_pointer (&self->candidates_popover, gtk_widget_unparent);
  if (self->scroll_tick != 0)
    gtk_widget_remove_tick_callback (self->list_view, self->scroll_tick);
  self->scroll_tick = 0;
  if (self->follow_tick != 0)
    gtk_widget_remove_tick_callback (self->list_view, self->follow_tick);
  self->follow_tick = 0;
  detach_live (self);
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  /* The column view's sorter says "changed" as its columns go, after the probes and the
   * list are gone (a sorted window asked gtk_sorter_compare() about NULL items on Quit). */
  if (self->column_view != NULL)
    g_signal_handlers_disconnect_by_func (gtk_column_view_get_sorter (self->column_view),
                                          view_sorter_changed_cb, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), FMV_TYPE_WINDOW);
  g_clear_object (&self->selection);
  g_clear_object (&self->list);
  g_clear_object (&self->store);
  g_clear_object (&self->file);
  g_clear_object (&self->probe_a);
  g_clear_object (&self->probe_b);
  g_clear_object (&self->highlights);
  g_clear_object (&self->bookmarks);
  g_clear_pointer (&self->recent_filters, g_ptr_array_unref);
  g_clear_pointer (&self->find_filter, fm_filter_free);
  g_clear_pointer (&self->find_text, g_free);
  g_clear_pointer (&self->info_copy_text, g_free);
  g_clear_pointer (&self->shown_backends, g_variant_unref);

  G_OBJECT_CLASS (fmv_window_parent_class)->dispose (object);
}

static void
fmv_window_class_init (FmvWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fmv_window_dispose;

  g_type_ensure (FMV_TYPE_DETAIL);
  g_type_ensure (FMV_TYPE_ROW);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/filemond/Viewer/fmv-window.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, FmvWindow, name)
  CHILD (start_button);
  CHILD (stop_button);
  CHILD (title_label);
  CHILD (subtitle_label);
  CHILD (info_bar);
  CHILD (info_label);
  CHILD (backend_section);
  CHILD (filter_bar);
  CHILD (filter_entry);
  CHILD (highlight_button);
  CHILD (filter_help_button);
  CHILD (busy_spinner);
  CHILD (find_bar);
  CHILD (find_entry);
  CHILD (filter_error_revealer);
  CHILD (filter_error_label);
  CHILD (stack);
  CHILD (paned);
  CHILD (scrolled_window);
  CHILD (column_view);
  CHILD (columns_menu);
  CHILD (empty_label);
  CHILD (loading_box);
  CHILD (loading_label);
  CHILD (loading_bar);
  CHILD (replay_bar);
  CHILD (detail);
  CHILD (status_icon);
  CHILD (status_title);
  CHILD (status_description);
  CHILD (status_retry_button);
  CHILD (counts_label);
  CHILD (follow_label);
  CHILD (dropped_label);
  CHILD (backend_label);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, filter_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, detail_filter_requested_cb);
}

static void
fmv_window_init (FmvWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  make_columns (self);

  self->depth = fmv_window_load_depth ();
  self->store = fmv_store_new ();
  fmv_store_set_depth (self->store, self->depth);
  self->list = fmv_event_list_new (self->store);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->list)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      self->list_view = child;

  /* After the selection's own handler: by then the view knows the new rows. */
  g_signal_connect (self->list, "items-changed", G_CALLBACK (list_items_changed_cb), self);
  g_signal_connect (self->list, "resetting", G_CALLBACK (list_resetting_cb), self);
  g_signal_connect (self->list, "reset", G_CALLBACK (list_reset_cb), self);
  g_signal_connect (self->list, "notify::busy", G_CALLBACK (busy_cb), self);
  g_signal_connect (self->selection, "notify::selected-item", G_CALLBACK (selected_item_cb), self);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (row_activated_cb), self);

  fmv_window_setup_highlights (self);
  fmv_window_setup_filter_help (self);
  fmv_window_setup_find (self);
  self->bookmarks = fmv_bookmarks_new ();
  g_signal_connect (self->bookmarks, "changed", G_CALLBACK (bookmarks_changed_cb), NULL);
  fmv_cells_set_factories (self->columns, cell_menu_cb, self->highlights, self->bookmarks);
  self->row_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->row_menu), FALSE);
  gtk_widget_set_halign (self->row_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->row_menu, GTK_WIDGET (self->column_view));
  setup_sorting (self);
  setup_follow_breakers (self);
  fmv_window_install_actions (self);
  gtk_widget_set_size_request (GTK_WIDGET (self->detail), FMV_DETAIL_MIN_WIDTH, -1);
  gtk_search_entry_set_key_capture_widget (self->filter_entry, GTK_WIDGET (self->column_view));
  /* filemon's own activity is hidden from the start. */
  fmv_window_refilter (self);
}

FmvWindow *
fmv_window_new_live (GtkApplication *application)
{
  FmvWindow *self = g_object_new (FMV_TYPE_WINDOW, "application", application, NULL);

  attach_live (self);
  /* the monitor's own activity: this viewer's pid too */
  fmv_window_refilter (self);
  fmv_window_update_status (self);
  return self;
}

FmvWindow *
fmv_window_new_for_file (GtkApplication *application,
                         GFile          *file)
{
  FmvWindow *self = g_object_new (FMV_TYPE_WINDOW, "application", application, NULL);

  fmv_window_open_file (self, file);
  return self;
}
