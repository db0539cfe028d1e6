/* fmv-window-actions.c: what the window's buttons, menu items and shortcuts do: Start and
 * Stop (polkit may ask for a password), Clear, Open, Save (all events or those shown),
 * follow-tail, the detail pane, jumping between failed calls and between bookmarks, and
 * the analysis views. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "fm-error.h"
#include "fm-format.h"
#include "fmv-analysis-window.h"
#include "fmv-capture.h"
#include "fmv-chooser-folder.h"
#include "fmv-window-private.h"

/* A call that outlived its window (closed while polkit asked for a password, say). */
static gboolean
window_gone (FmvWindow *self)
{
  return self->list == NULL;
}

static gboolean
capture_running (FmvWindow *self)
{
  const char *state = self->live ? fmv_live_get_state (self->live) : NULL;

  /* "compiling" is part of starting: the stap backend builds its module */
  return g_strcmp0 (state, "running") == 0 || g_strcmp0 (state, "starting") == 0 ||
         g_strcmp0 (state, "compiling") == 0;
}

static gboolean
connected (FmvWindow *self)
{
  return self->live != NULL && fmv_live_get_status (self->live) == FMV_LIVE_CONNECTED;
}

static void
set_enabled (FmvWindow  *self,
             const char *name,
             gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

void
fmv_window_update_actions (FmvWindow *self)
{
  gboolean running = capture_running (self);
  gboolean stopping = self->live && g_strcmp0 (fmv_live_get_state (self->live), "stopping") == 0;
  gboolean has_rows = fmv_store_get_n_rows (self->store) > 0;

  set_enabled (self, "start", connected (self) && !running && !stopping);
  set_enabled (self, "stop", connected (self) && running);
  set_enabled (self, "toggle-capture", connected (self) && !stopping);
  set_enabled (self, "save", !self->loading && has_rows);
  set_enabled (self, "save-shown", !self->loading && has_rows &&
               fmv_event_list_get_filter (self->list) != NULL);
  set_enabled (self, "clear", !self->loading);
  set_enabled (self, "stop-loading", self->loading && self->load_progress != NULL && !self->load_stopping);
  set_enabled (self, "reconnect", self->live != NULL);

  gtk_widget_set_visible (self->start_button, self->live != NULL && !running);
  gtk_widget_set_visible (self->stop_button, self->live != NULL && running);
}

/* ---- Start / Stop ----------------------------------------------------------------------- */

static void
report_call_error (FmvWindow    *self,
                   const char   *what,
                   const GError *error)
{
  g_autofree char *text = NULL;

  /* the daemon's words for a refusal name the polkit action: the log keeps them */
  if (g_error_matches (error, FM_ERROR, FM_ERROR_NOT_AUTHORIZED))
    {
      g_debug ("%s refused: %s", what, error->message);
      text = g_strdup_printf ("You are not allowed to %s. Members of the filemon group may; "
                              "ask an administrator to add you.", what);
    }
  else if (g_error_matches (error, FM_ERROR, FM_ERROR_AUTHORIZATION_UNAVAILABLE))
    {
      g_debug ("%s refused: %s", what, error->message);
      text = g_strdup_printf ("Could not %s. %s", what, FMV_LIVE_POLKIT_DOWN_TEXT);
    }
  else
    text = g_strdup_printf ("Could not %s: %s", what, error->message);
  fmv_window_show_info (self, GTK_MESSAGE_ERROR, text);
}

static void
start_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(FmvWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  gboolean ok = fmv_live_start_finish (FMV_LIVE (source), result, &error);

  if (window_gone (self))
    return;
  if (!ok && !g_error_matches (error, FM_ERROR, FM_ERROR_ALREADY_RUNNING))
    report_call_error (self, "start a capture", error);
  else
    fmv_window_show_info (self, GTK_MESSAGE_INFO, NULL);
}

static void
stop_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(FmvWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!fmv_live_stop_finish (FMV_LIVE (source), result, &error) && !window_gone (self) &&
      !g_error_matches (error, FM_ERROR, FM_ERROR_NOT_RUNNING))
    report_call_error (self, "stop the capture", error);
}

static void
start_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  FmvWindow *self = user_data;
  g_autoptr(GVariant) backend = g_action_group_get_action_state (G_ACTION_GROUP (self), "backend");
  g_autoptr(GVariant) filter = g_action_group_get_action_state (G_ACTION_GROUP (self), "capture-filter");
  g_autoptr(GVariant) options = NULL;
  GVariantDict dict;

  if (self->live == NULL)
    return;
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert_value (&dict, "backend", backend);
  if (*g_variant_get_string (filter, NULL) != '\0')
    g_variant_dict_insert_value (&dict, "filter", filter);
  options = g_variant_ref_sink (g_variant_dict_end (&dict));
  fmv_live_start_async (self->live, options, NULL, start_done_cb, g_object_ref (self));
}

static void
stop_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  FmvWindow *self = user_data;

  if (self->live != NULL)
    fmv_live_stop_async (self->live, NULL, stop_done_cb, g_object_ref (self));
}

static void
toggle_capture_activated (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       user_data)
{
  FmvWindow *self = user_data;

  if (capture_running (self))
    stop_activated (action, parameter, user_data);
  else
    start_activated (action, parameter, user_data);
}

static void
reconnect_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  FmvWindow *self = user_data;

  if (self->live != NULL)
    fmv_live_connect (self->live);
}

/* ---- Clear ------------------------------------------------------------------------------ */

static void
clear_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  FmvWindow *self = user_data;
  g_autoptr(FmvStore) store = fmv_store_new ();

  fmv_window_set_store (self, store);
}

/* ---- Open ------------------------------------------------------------------------------- */

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  FmvWindow       *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  g_object_unref (dialog);
  if (file == NULL)
    return;
  fmv_chooser_folder_remember (file);

  if (fmv_window_is_pristine (self))
    fmv_window_open_file (self, file);
  else
    gtk_window_present (GTK_WINDOW (fmv_window_new_for_file (gtk_window_get_application (GTK_WINDOW (self)),
                                                             file)));
}

static void
open_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  FmvWindow *self = user_data;
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) captures = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  /* GtkFileDialog is GTK 4.10; the native chooser works from 4.0 on. */
  chooser = gtk_file_chooser_native_new ("Open Capture", GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  gtk_file_filter_set_name (captures, "filemon captures (JSON Lines)");
  gtk_file_filter_add_pattern (captures, "*.jsonl");
  gtk_file_filter_add_mime_type (captures, "application/x-ndjson");
  gtk_file_filter_set_name (all, "All files");
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), captures);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  fmv_chooser_folder_restore (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* ---- Save ------------------------------------------------------------------------------- */

/* Save writes what the window holds, never the daemon's buffer: that is what the user looks
 * at, and the daemon's buffer may hold fewer (it is bounded) or other events (a Clear). */
typedef struct {
  FmvWindow *window;
  GFile *file;
  FmFormat format;
  gboolean shown_only;
  int fd;
  gulong busy_handler;
} SaveRequest;

static void
save_request_free (SaveRequest *request)
{
  if (request->busy_handler != 0)
    g_signal_handler_disconnect (request->window->list, request->busy_handler);
  if (request->fd >= 0)
    close (request->fd);
  g_clear_object (&request->window);
  g_clear_object (&request->file);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SaveRequest, save_request_free)

static void
report_saved (SaveRequest  *request,
              guint64       written,
              guint64       missed,
              const GError *error)
{
  FmvWindow *self = request->window;
  g_autofree char *name = g_file_get_basename (request->file);
  g_autofree char *text = NULL;

  if (window_gone (self))
    return;
  if (error != NULL)
    {
      text = g_strdup_printf ("Could not save %s: %s", name, error->message);
      g_debug ("save failed: %s", text);
      fmv_window_flash_status (self, NULL);
      fmv_window_show_info (self, GTK_MESSAGE_ERROR, text);
      return;
    }
  text = g_strdup_printf ("Saved %'" G_GUINT64_FORMAT " %sevent%s to %s", written,
                          request->shown_only ? "shown " : "", written == 1 ? "" : "s", name);
  g_debug ("saved: %" G_GUINT64_FORMAT " %s", written, request->shown_only ? "shown" : "all");
  /* The file holds what the window holds; if the window itself missed events among
   * them, say so rather than let "saved" suggest the capture is complete. */
  if (missed > 0)
    {
      g_autofree char *warning = g_strdup_printf ("%s. This window missed %'" G_GUINT64_FORMAT
                                                  " events that filemond could not deliver to "
                                                  "it; they are not in the file.", text, missed);
      fmv_window_show_info (self, GTK_MESSAGE_WARNING, warning);
    }
  fmv_window_flash_status (self, text);
}

static void
saved_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(SaveRequest) request = user_data;
  g_autoptr(GError) error = NULL;
  FmvWindow *self = request->window;
  guint64 written = 0, first_seq, last_seq, missed = 0;

  fmv_capture_save_finish (result, &written, &error);
  /* only the gaps between the first and the last event saved: older misses (before a
   * Clear, or of rows the history let go) are not missing from this file */
  if (self->live != NULL && fmv_capture_save_get_seq_range (result, &first_seq, &last_seq))
    missed = fmv_live_count_missed_within (self->live, first_seq, last_seq);
  report_saved (request, written, missed, error);
}

static void
write_rows (SaveRequest *request)
{
  FmvWindow *self = request->window;
  g_autoptr(GArray) rows = NULL;
  int fd = request->fd;

  /* The rows appended since the last update are part of "everything" but not yet of the
   * list; take them in so that "shown" means what the filter lets through now. */
  if (request->shown_only)
    {
      fmv_event_list_update_now (self->list);
      rows = fmv_event_list_dup_shown_rows (self->list);
    }
  request->fd = -1;
  fmv_capture_save_async (self->store, rows, fd, request->format, self->cancellable, saved_cb, request);
}

/* A refilter in progress: the list still shows the previous filter's rows. */
static void
list_busy_cb (FmvEventList *list,
              GParamSpec   *pspec,
              SaveRequest  *request)
{
  if (fmv_event_list_get_busy (list))
    return;
  g_signal_handler_disconnect (list, request->busy_handler);
  request->busy_handler = 0;
  write_rows (request);
}

static void
created_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  SaveRequest *request = user_data;
  FmvWindow *self = request->window;
  g_autoptr(GError) error = NULL;

  request->fd = fmv_capture_create_finish (result, &error);
  if (window_gone (self))
    {
      save_request_free (request);
      return;
    }
  if (request->fd < 0)
    {
      report_saved (request, 0, 0, error);
      save_request_free (request);
      return;
    }
  if (request->shown_only && fmv_event_list_get_busy (self->list))
    request->busy_handler = g_signal_connect (self->list, "notify::busy", G_CALLBACK (list_busy_cb),
                                              request);
  else
    write_rows (request);
}

static void
save_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  SaveRequest     *request)
{
  FmvWindow *self = request->window;
  const char *choice;
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "format");
  if (choice == NULL || !fm_format_from_string (choice, &request->format))
    request->format = FM_FORMAT_JSONL;
  g_object_unref (dialog);
  if (file == NULL || window_gone (self))
    {
      save_request_free (request);
      return;
    }
  fmv_chooser_folder_remember (file);
  request->file = g_steal_pointer (&file);
  fmv_capture_create_async (request->file, self->cancellable, created_cb, request);
}

static void
run_save_dialog (FmvWindow *self,
                 gboolean   shown_only)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *name = g_date_time_format (now, "filemon-%Y%m%d-%H%M%S.jsonl");
  const char *ids[] = { "jsonl", "text", "csv", NULL };
  const char *labels[] = { "JSON Lines (lossless, can be opened again)", "Text", "CSV", NULL };
  SaveRequest *request = g_new0 (SaveRequest, 1);

  request->window = g_object_ref (self);
  request->shown_only = shown_only;
  request->fd = -1;
  chooser = gtk_file_chooser_native_new (shown_only ? "Save the Events Shown" : "Save All Events",
                                         GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         "_Save", "_Cancel");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), "format", "Format", ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), "format", "jsonl");
  fmv_chooser_folder_restore (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (save_response_cb), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
save_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  run_save_dialog (user_data, FALSE);
}

static void
save_shown_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  run_save_dialog (user_data, TRUE);
}

/* ---- view ------------------------------------------------------------------------------- */

static void
follow_changed (GSimpleAction *action,
                GVariant      *state,
                gpointer       user_data)
{
  FmvWindow *self = user_data;
  gboolean follow = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  if (follow)
    {
      /* Following means watching the newest rows, not one pinned row (see
       * selected_item_cb in fmv-window.c). */
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      fmv_window_follow_now (self);
    }
  fmv_window_update_follow_state (self);
}

static void
add_filter_term_activated (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  fmv_window_add_filter_term (user_data, g_variant_get_string (parameter, NULL));
}

static void
add_highlight_activated (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  fmv_window_add_highlight (user_data, g_variant_get_string (parameter, NULL));
}

/* The process tree, file summary or value counts of the events shown. */
static void
analysis_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  FmvWindow *self = user_data;
  FmvAnalysisWindow *analysis;

  /* The rows shown are known once a refilter has finished. */
  if (fmv_event_list_get_busy (self->list))
    {
      fmv_window_flash_status (self, "The list is still being filtered: try again in a moment");
      return;
    }
  analysis = fmv_analysis_window_new (self, g_variant_get_string (parameter, NULL));
  gtk_window_present (GTK_WINDOW (analysis));
}

static void
hide_monitor_changed (GSimpleAction *action,
                      GVariant      *state,
                      gpointer       user_data)
{
  FmvWindow *self = user_data;

  g_simple_action_set_state (action, state);
  g_debug ("hide monitor: %s", g_variant_get_boolean (state) ? "on" : "off");
  fmv_window_refilter (self);
}

static void
show_details_changed (GSimpleAction *action,
                      GVariant      *state,
                      gpointer       user_data)
{
  FmvWindow *self = user_data;
  gboolean show = g_variant_get_boolean (state);
  int width = gtk_widget_get_width (GTK_WIDGET (self->paned));

  g_simple_action_set_state (action, state);
  /* The list is what the window is for: the pane takes a third of a narrow window and no
   * more than it needs of a wide one (a fixed position gave it half of a narrow one). */
  if (show && width > 0)
    gtk_paned_set_position (self->paned, width - CLAMP (width / 3, FMV_DETAIL_MIN_WIDTH, 480));
  gtk_widget_set_visible (GTK_WIDGET (self->detail), show);
  if (show)
    g_debug ("details: shown, %d of %d px", width - gtk_paned_get_position (self->paned), width);
}

static void
jump_to_failure (FmvWindow *self,
                 gboolean   forward)
{
  guint from = gtk_single_selection_get_selected (self->selection);
  guint position;

  if (fmv_event_list_find_failure (self->list, from, forward, &position))
    {
      /* Following would pull the view away from the row just found. */
      fmv_window_set_follow (self, FALSE);
      fmv_window_select_position (self, position);
      return;
    }
  gtk_widget_error_bell (GTK_WIDGET (self));
  fmv_window_flash_status (self, forward ? "No failed call below" : "No failed call above");
}

static void
toggle_bookmark_row_activated (GSimpleAction *action,
                               GVariant      *parameter,
                               gpointer       user_data)
{
  FmvWindow *self = user_data;
  guint row = g_variant_get_uint32 (parameter);

  if (fmv_store_has_row (self->store, row))
    fmv_bookmarks_toggle (self->bookmarks, row);
}

static void
open_folder_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  fmv_window_open_folder (user_data, g_variant_get_uint32 (parameter));
}

/* Ctrl+C in the list: the selected event as one line of filemonctl's text output. */
static void
copy_row_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  FmvWindow *self = user_data;
  guint selected = gtk_single_selection_get_selected (self->selection);
  g_autoptr(GString) line = g_string_new (NULL);
  FmvStoreEvent stored;
  const FmEvent *ev;

  if (selected == GTK_INVALID_LIST_POSITION)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  ev = fmv_store_get_event (self->store, fmv_event_list_get_row (self->list, selected), &stored);
  fm_format_event (FM_FORMAT_TEXT, ev, line);
  g_strchomp (line->str);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), line->str);
  /* The Xvfb tests read this line. */
  g_debug ("copied row: %s", line->str);
  fmv_window_flash_status (self, "Copied the selected event");
}

/* On the selected event. */
static void
toggle_bookmark_activated (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  FmvWindow *self = user_data;
  guint selected = gtk_single_selection_get_selected (self->selection);

  if (selected == GTK_INVALID_LIST_POSITION)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      fmv_window_flash_status (self, "Select an event to bookmark it");
      return;
    }
  fmv_bookmarks_toggle (self->bookmarks, fmv_event_list_get_row (self->list, selected));
}

/* The nearest bookmarked event shown below (above) the selected one, or the first (last)
 * when nothing is selected. */
static void
jump_to_bookmark (FmvWindow *self,
                  gboolean   forward)
{
  g_autoptr(GArray) rows = fmv_bookmarks_dup_rows (self->bookmarks);
  guint from = gtk_single_selection_get_selected (self->selection);
  gboolean found = FALSE;
  guint best = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      guint position;

      if (!fmv_event_list_find_row (self->list, g_array_index (rows, guint32, i), &position))
        continue;
      if (from != GTK_INVALID_LIST_POSITION && (forward ? position <= from : position >= from))
        continue;
      if (!found || (forward ? position < best : position > best))
        best = position;
      found = TRUE;
    }
  if (!found)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      fmv_window_flash_status (self, forward ? "No bookmark below" : "No bookmark above");
      return;
    }
  fmv_window_set_follow (self, FALSE);
  fmv_window_select_position (self, best);
  {
    FmvStoreEvent stored;
    const FmEvent *ev;

    ev = fmv_store_get_event (self->store, fmv_event_list_get_row (self->list, best), &stored);
    /* The Xvfb tests read this line. */
    g_debug ("bookmark: selected event %" G_GUINT64_FORMAT, ev->seq);
  }
}

static void
next_bookmark_activated (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  jump_to_bookmark (user_data, TRUE);
}

static void
previous_bookmark_activated (GSimpleAction *action,
                             GVariant      *parameter,
                             gpointer       user_data)
{
  jump_to_bookmark (user_data, FALSE);
}

static void
next_failure_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  jump_to_failure (user_data, TRUE);
}

static void
previous_failure_activated (GSimpleAction *action,
                            GVariant      *parameter,
                            gpointer       user_data)
{
  jump_to_failure (user_data, FALSE);
}

static void
find_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  fmv_window_show_find (user_data);
}

static void
find_next_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  fmv_window_find (user_data, TRUE);
}

static void
find_previous_activated (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  fmv_window_find (user_data, FALSE);
}

static void
focus_filter_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  FmvWindow *self = user_data;

  gtk_widget_grab_focus (GTK_WIDGET (self->filter_entry));
}

static void
edit_capture_filter_activated (GSimpleAction *action,
                               GVariant      *parameter,
                               gpointer       user_data)
{
  fmv_window_edit_capture_filter (user_data);
}

static void
history_depth_activated (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  fmv_window_edit_depth (user_data);
}

static void
stop_loading_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  fmv_window_stop_loading (user_data);
  fmv_window_update_actions (user_data);
}

static const GActionEntry window_actions[] = {
  { .name = "start", .activate = start_activated },
  { .name = "stop", .activate = stop_activated },
  { .name = "toggle-capture", .activate = toggle_capture_activated },
  { .name = "reconnect", .activate = reconnect_activated },
  { .name = "clear", .activate = clear_activated },
  { .name = "open", .activate = open_activated },
  { .name = "stop-loading", .activate = stop_loading_activated },
  { .name = "save", .activate = save_activated },
  { .name = "save-shown", .activate = save_shown_activated },
  { .name = "follow", .state = "true", .change_state = follow_changed },
  /* Start options (the menu beside Start). */
  { .name = "backend", .parameter_type = "s", .state = "'auto'" },
  { .name = "capture-filter", .parameter_type = "s", .state = "''" },
  { .name = "edit-capture-filter", .activate = edit_capture_filter_activated },
  { .name = "history-depth", .activate = history_depth_activated },
  { .name = "add-filter-term", .parameter_type = "s", .activate = add_filter_term_activated },
  { .name = "analysis", .parameter_type = "s", .activate = analysis_activated },
  { .name = "add-highlight", .parameter_type = "s", .activate = add_highlight_activated },
  { .name = "hide-monitor", .state = "true", .change_state = hide_monitor_changed },
  { .name = "show-details", .state = "false", .change_state = show_details_changed },
  { .name = "next-failure", .activate = next_failure_activated },
  { .name = "toggle-bookmark", .activate = toggle_bookmark_activated },
  { .name = "toggle-bookmark-row", .parameter_type = "u", .activate = toggle_bookmark_row_activated },
  { .name = "next-bookmark", .activate = next_bookmark_activated },
  { .name = "open-folder", .parameter_type = "u", .activate = open_folder_activated },
  { .name = "copy-row", .activate = copy_row_activated },
  { .name = "previous-bookmark", .activate = previous_bookmark_activated },
  { .name = "previous-failure", .activate = previous_failure_activated },
  { .name = "focus-filter", .activate = focus_filter_activated },
  { .name = "find", .activate = find_activated },
  { .name = "find-next", .activate = find_next_activated },
  { .name = "find-previous", .activate = find_previous_activated },
};

void
fmv_window_install_actions (FmvWindow *self)
{
  g_autoptr(GSimpleAction) unavailable = g_simple_action_new ("unavailable", NULL);

  g_action_map_add_action_entries (G_ACTION_MAP (self), window_actions,
                                    G_N_ELEMENTS (window_actions), self);
  /* the action of a backend that cannot run: never enabled (fmv-window-backends.c) */
  g_simple_action_set_enabled (unavailable, FALSE);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (unavailable));
  fmv_window_update_backends (self, NULL);
}
