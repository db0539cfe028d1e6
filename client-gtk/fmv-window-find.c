/* fmv-window-find.c: Find, as in Process Monitor: Ctrl+F opens a bar whose text (a word,
 * a /regex/ or any filter expression) picks the next (F3, Enter) or previous (Shift+F3)
 * event shown, which is selected and scrolled to. The list is not filtered: the events
 * around the one found stay in view. */
#include "config.h"

#include "fm-filter.h"
#include "fmv-window-private.h"

/* The entry's text compiled, kept while the text stays the same: F3 held down compiles
 * it once. */
static FmFilter *
find_filter (FmvWindow  *self,
             GError    **error)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->find_entry));
  FmFilter *filter;

  if (self->find_filter != NULL && g_strcmp0 (self->find_text, text) == 0)
    return self->find_filter;
  filter = fm_filter_new (text, error);
  if (filter == NULL)
    return NULL;
  g_clear_pointer (&self->find_filter, fm_filter_free);
  g_free (self->find_text);
  self->find_filter = filter;
  self->find_text = g_strdup (text);
  return filter;
}

void
fmv_window_show_find (FmvWindow *self)
{
  g_return_if_fail (FMV_IS_WINDOW (self));

  gtk_search_bar_set_search_mode (self->find_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->find_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->find_entry), 0, -1);
}

void
fmv_window_find (FmvWindow *self,
                 gboolean   forward)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  FmFilter *filter;
  guint position;

  g_return_if_fail (FMV_IS_WINDOW (self));

  /* F3 before anything was asked for: ask */
  if (*gtk_editable_get_text (GTK_EDITABLE (self->find_entry)) == '\0')
    {
      fmv_window_show_find (self);
      return;
    }
  filter = find_filter (self, &error);
  if (filter == NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->find_entry), "error");
      message = g_strdup_printf ("Find: %s", error->message);
      g_debug ("find: %s", message);
      gtk_widget_error_bell (GTK_WIDGET (self));
      fmv_window_flash_status (self, message);
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->find_entry), "error");
  if (fmv_event_list_find_match (self->list, filter, gtk_single_selection_get_selected (self->selection),
                                 forward, &position))
    {
      /* following would pull the view away from the row found */
      fmv_window_set_follow (self, FALSE);
      fmv_window_select_position (self, position);
      g_debug ("find: position %u", position);
      return;
    }
  g_debug ("find: no match %s", forward ? "below" : "above");
  gtk_widget_error_bell (GTK_WIDGET (self));
  fmv_window_flash_status (self, forward ? "No match below" : "No match above");
}

static void
find_activate_cb (GtkSearchEntry *entry,
                  FmvWindow      *self)
{
  fmv_window_find (self, TRUE);
}

static void
find_previous_cb (GtkSearchEntry *entry,
                  FmvWindow      *self)
{
  fmv_window_find (self, FALSE);
}

/* Escape: the bar closes by itself; the keyboard goes back to the list. */
static void
find_stop_cb (GtkSearchEntry *entry,
              FmvWindow      *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

/* Said in the debug log so that a test types only once the keys reach the entry. */
static void
find_focus_enter_cb (GtkEventControllerFocus *controller,
                     FmvWindow               *self)
{
  g_debug ("find: entry has the keyboard");
}

void
fmv_window_setup_find (FmvWindow *self)
{
  GtkEventController *focus = gtk_event_controller_focus_new ();

  g_signal_connect (focus, "enter", G_CALLBACK (find_focus_enter_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->find_entry), focus);
  gtk_search_bar_connect_entry (self->find_bar, GTK_EDITABLE (self->find_entry));
  g_signal_connect (self->find_entry, "activate", G_CALLBACK (find_activate_cb), self);
  g_signal_connect (self->find_entry, "next-match", G_CALLBACK (find_activate_cb), self);
  g_signal_connect (self->find_entry, "previous-match", G_CALLBACK (find_previous_cb), self);
  g_signal_connect (self->find_entry, "stop-search", G_CALLBACK (find_stop_cb), self);
}
