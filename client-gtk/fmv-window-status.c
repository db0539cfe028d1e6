/* fmv-window-status.c: what the window says about its state: the status bar (shown,
 * total and dropped counts, backend), the title, the page shown when there is nothing to
 * list (no bus, no daemon, not allowed, a file that gave no events), the hint over an
 * empty list, and the info bar. */
#include "config.h"

#include "fmv-window-private.h"

void
fmv_window_show_info (FmvWindow      *self,
                      GtkMessageType  type,
                      const char     *text)
{
  self->info_is_live_status = FALSE;
  g_clear_pointer (&self->info_copy_text, g_free);
  if (self->info_copy_button != NULL)
    gtk_widget_set_visible (self->info_copy_button, FALSE);
  if (text == NULL)
    {
      g_debug ("info bar: hidden");
      gtk_info_bar_set_revealed (self->info_bar, FALSE);
      return;
    }
  g_debug ("info bar: %s", text);
  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_label_set_label (self->info_label, text);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

void
fmv_window_offer_copy (FmvWindow  *self,
                       const char *label,
                       const char *text)
{
  g_return_if_fail (FMV_IS_WINDOW (self));
  g_return_if_fail (text != NULL);

  if (self->info_copy_button == NULL)
    self->info_copy_button = gtk_info_bar_add_button (self->info_bar, label, FMV_INFO_RESPONSE_COPY);
  gtk_button_set_label (GTK_BUTTON (self->info_copy_button), label);
  gtk_button_set_use_underline (GTK_BUTTON (self->info_copy_button), TRUE);
  gtk_widget_set_visible (self->info_copy_button, TRUE);
  g_free (self->info_copy_text);
  self->info_copy_text = g_strdup (text);
}

static gboolean
status_message_timeout_cb (gpointer data)
{
  FmvWindow *self = data;

  self->status_message_source = 0;
  fmv_window_update_status (self);
  return G_SOURCE_REMOVE;
}

/* A short-lived message in the status bar ("Saved 1,204 events"); NULL takes the current
 * one away at once (a failure must not sit beside an earlier "Saved"). */
void
fmv_window_flash_status (FmvWindow  *self,
                         const char *text)
{
  g_clear_handle_id (&self->status_message_source, g_source_remove);
  if (text == NULL)
    {
      fmv_window_update_status (self);
      return;
    }
  gtk_label_set_label (self->counts_label, text);
  self->status_message_source = g_timeout_add_seconds (4, status_message_timeout_cb, self);
}

static const char *
status_page_title (FmvLiveStatus status)
{
  switch (status)
    {
    case FMV_LIVE_CONNECTING:
      return "Connecting…";
    case FMV_LIVE_NO_BUS:
      return "No System Bus";
    case FMV_LIVE_ABSENT:
      return "filemond Is Not Running";
    case FMV_LIVE_REFUSED:
      return "Not Allowed";
    case FMV_LIVE_NO_AUTHORITY:
      return "Permissions Cannot Be Checked";
    case FMV_LIVE_FAILED:
      return "Cannot Connect";
    case FMV_LIVE_CONNECTED:
    default:
      return "";
    }
}

static void
update_pages (FmvWindow *self)
{
  gboolean empty_store = fmv_store_get_n_rows (self->store) == 0;
  FmvLiveStatus status = self->live ? fmv_live_get_status (self->live) : FMV_LIVE_CONNECTED;

  if (self->live == NULL && self->file_problem != NULL)
    {
      g_autofree char *name = g_file_get_basename (self->file);
      g_autofree char *title = g_strdup_printf ("Cannot Open “%s”", name);

      /* The Xvfb tests read this line. */
      if (g_strcmp0 (gtk_label_get_label (self->status_description), self->file_problem) != 0)
        g_debug ("status page: %s: %s", title, self->file_problem);
      gtk_label_set_label (self->status_title, title);
      gtk_label_set_label (self->status_description, self->file_problem);
      gtk_widget_set_visible (self->status_retry_button, FALSE);
      gtk_stack_set_visible_child_name (self->stack, "status");
      gtk_widget_set_visible (self->filter_bar, FALSE);
      return;
    }
  if (self->live != NULL && status != FMV_LIVE_CONNECTED && empty_store && !self->loading)
    {
      g_autofree char *description = NULL;
      const char *message = fmv_live_get_message (self->live) ?: "";
      const char *hint = status == FMV_LIVE_REFUSED
        ? "Members of the filemon group may watch file activity; ask an administrator. "
          "A saved capture can be opened without filemond."
        : "A saved capture can be opened without filemond.";

      description = g_strdup_printf ("%s\n%s", message, hint);
      if (g_strcmp0 (gtk_label_get_label (self->status_description), description) != 0)
        g_debug ("status page: %s: %s %s", status_page_title (status), message, hint);
      gtk_label_set_label (self->status_title, status_page_title (status));
      gtk_label_set_label (self->status_description, description);
      gtk_widget_set_visible (self->status_retry_button, status != FMV_LIVE_CONNECTING);
      gtk_stack_set_visible_child_name (self->stack, "status");
      gtk_widget_set_visible (self->filter_bar, FALSE);
      fmv_window_show_info (self, GTK_MESSAGE_INFO, NULL);
      return;
    }

  gtk_stack_set_visible_child_name (self->stack, "events");
  gtk_widget_set_visible (self->filter_bar, TRUE);
  if (self->live != NULL && status != FMV_LIVE_CONNECTED && status != FMV_LIVE_CONNECTING)
    {
      fmv_window_show_info (self, status == FMV_LIVE_REFUSED ? GTK_MESSAGE_ERROR : GTK_MESSAGE_WARNING,
                            fmv_live_get_message (self->live));
      self->info_is_live_status = TRUE;
    }
  else if (status == FMV_LIVE_CONNECTED && self->info_is_live_status)
    fmv_window_show_info (self, GTK_MESSAGE_INFO, NULL);   /* "filemond stopped" is over */
}

void
fmv_window_update_empty_label (FmvWindow *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  guint total = fmv_event_list_get_n_total (self->list);
  const char *text = NULL;

  if (shown > 0)
    text = NULL;
  else if (self->loading)
    text = NULL;   /* the reading's progress is shown in its place */
  else if (total > 0 && fmv_event_list_get_busy (self->list))
    text = "Filtering…";
  else if (total > 0)
    text = "No events match the filter.";
  else if (self->live == NULL)
    text = "This capture holds no events.";
  else if (g_strcmp0 (fmv_live_get_state (self->live), "running") == 0)
    text = "Waiting for file activity…";
  else if (g_strcmp0 (fmv_live_get_state (self->live), "starting") == 0)
    text = "Starting the capture…";
  else if (g_strcmp0 (fmv_live_get_state (self->live), "compiling") == 0)
    text = "Building the capture's kernel module (SystemTap)…\n"
           "The first time for these syscalls on this kernel takes a minute or more.";
  else
    text = "No events yet.\nPress Start to capture file activity.";

  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), text != NULL);
  if (text != NULL)
    gtk_label_set_label (self->empty_label, text);
}

/* Whether new rows pull the view, said in words beside the toggle's icon. Only a live
 * window has new rows to follow. */
void
fmv_window_update_follow_state (FmvWindow *self)
{
  gboolean follow = fmv_window_get_follow (self);
  const char *text = follow ? "Following new events" : "Paused · End follows again";

  gtk_widget_set_visible (GTK_WIDGET (self->follow_label), self->live != NULL);
  if (follow)
    gtk_widget_remove_css_class (GTK_WIDGET (self->follow_label), "warning");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->follow_label), "warning");
  /* The Xvfb tests read this line. */
  if (g_strcmp0 (gtk_label_get_label (self->follow_label), text) != 0)
    g_debug ("follow: %s", follow ? "on" : "off");
  gtk_label_set_label (self->follow_label, text);
}

void
fmv_window_update_status (FmvWindow *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  guint total = fmv_event_list_get_n_total (self->list);
  g_autofree char *counts = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *depth = fmv_window_dup_depth_status (self);

  if (self->status_message_source == 0)
    {
      g_autofree char *replay = fmv_window_dup_replay_status (self);

      if (self->loading)
        counts = g_strdup ("Opening…");
      else if (replay != NULL)
        counts = g_steal_pointer (&replay);
      else if (fmv_event_list_get_busy (self->list))
        /* The rows shown are still the previous filter's: no count of them is true yet. */
        counts = g_strdup_printf ("Filtering %'u events…", total);
      else if (shown == total)
        counts = g_strdup_printf ("%'u event%s", total, total == 1 ? "" : "s");
      else
        counts = g_strdup_printf ("Showing %'u of %'u events", shown, total);
      if (depth != NULL && !self->loading)
        {
          g_autofree char *events = g_steal_pointer (&counts);

          counts = g_strdup_printf ("%s · %s", events, depth);
        }
      /* The Xvfb tests read this line: it is what the status bar says. */
      if (g_strcmp0 (gtk_label_get_label (self->counts_label), counts) != 0)
        g_debug ("status bar: %s", counts);
      gtk_label_set_label (self->counts_label, counts);
      fmv_window_update_depth_tooltip (self);
    }

  if (self->live != NULL)
    {
      guint64 dropped = fmv_live_get_dropped (self->live);
      guint64 missed = fmv_live_get_missed (self->live);
      const char *state = fmv_live_get_state (self->live);
      const char *backend = fmv_live_get_backend (self->live);
      g_autofree char *dropped_text = g_strdup_printf ("%'" G_GUINT64_FORMAT " dropped", dropped + missed);
      g_autofree char *tooltip = g_strdup_printf ("The capture lost %'" G_GUINT64_FORMAT " events (kernel "
                                                  "buffers full or unreadable backend output); this "
                                                  "window missed %'" G_GUINT64_FORMAT " more because it "
                                                  "fell behind.", dropped, missed);
      g_autofree char *backend_text = NULL;

      gtk_label_set_label (self->dropped_label, dropped_text);
      /* This runs at every list update of a live capture; setting a tooltip, even the same
       * text, costs a tooltip query (a round trip to the X server, see fmv-window.c). */
      if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->dropped_label)), tooltip) != 0)
        gtk_widget_set_tooltip_text (GTK_WIDGET (self->dropped_label), tooltip);
      if (dropped + missed > 0)
        gtk_widget_add_css_class (GTK_WIDGET (self->dropped_label), "warning");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->dropped_label), "warning");
      gtk_widget_set_visible (GTK_WIDGET (self->dropped_label), TRUE);

      if (fmv_live_get_status (self->live) != FMV_LIVE_CONNECTED)
        backend_text = g_strdup ("Not connected");
      else if (backend != NULL && *backend != '\0')
        backend_text = g_strdup_printf ("Backend: %s · %s", backend, state ? state : "unknown");
      else
        backend_text = g_strdup_printf ("Backend: none yet · %s", state ? state : "unknown");
      gtk_label_set_label (self->backend_label, backend_text);

      if (fmv_live_get_status (self->live) == FMV_LIVE_CONNECTED)
        subtitle = g_strdup_printf ("Live · %s", state ? state : "unknown");
      else
        subtitle = g_strdup ("Live · not connected");
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->dropped_label), FALSE);
      gtk_label_set_label (self->backend_label, "Saved capture · no daemon needed");
      subtitle = self->file ? g_file_get_basename (self->file) : g_strdup ("No capture");
    }
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), self->file && !self->live ? subtitle : "filemon Viewer");

  update_pages (self);
  fmv_window_update_empty_label (self);
  fmv_window_update_follow_state (self);
  fmv_window_update_actions (self);
}
