/* fmv-window-loading.c: what a window shows while events are still coming in bulk.
 *
 * A capture file is read in a thread (fmv-capture.c): the middle of the empty list says
 * how far (events read, how much of the file) with a Stop Reading button, which keeps
 * the events read so far, as a person who opened the wrong million-event file expects.
 * The reading thread only writes counters; a timer here reads them a few times a second.
 *
 * A live window first replays what filemond had buffered (up to its whole ring, a
 * million events), read at idle priority (fmv-live.c) so the window stays usable: the
 * status bar says how many of how many have come, with a progress bar, until it is live.
 */
#include "config.h"

#include "fmv-window-private.h"

#define TICK_MS 100

static void
show_file_progress (FmvWindow *self)
{
  guint64 bytes_read, bytes_total, events;
  g_autofree char *name = g_file_get_basename (self->file);
  g_autofree char *title = NULL;
  g_autofree char *text = NULL;

  fmv_load_progress_get (self->load_progress, &bytes_read, &bytes_total, &events);
  if (self->load_stopping)
    title = g_strdup_printf ("Stopping the reading of “%s”…", name);
  else
    title = g_strdup_printf ("Reading “%s”…", name);
  if (bytes_total > 0)
    {
      g_autofree char *done = g_format_size (bytes_read);
      g_autofree char *total = g_format_size (bytes_total);
      double fraction = MIN (1.0, (double) bytes_read / (double) bytes_total);

      text = g_strdup_printf ("%'" G_GUINT64_FORMAT " events read · %s of %s (%d %%)",
                              events, done, total, (int) (fraction * 100));
      gtk_progress_bar_set_fraction (self->loading_bar, fraction);
    }
  else
    {
      /* a pipe, or a file whose size is unknown: how many, but not of how many */
      g_autofree char *done = g_format_size (bytes_read);

      text = g_strdup_printf ("%'" G_GUINT64_FORMAT " events read · %s", events, done);
      gtk_progress_bar_pulse (self->loading_bar);
    }
  /* The Xvfb tests read this line. */
  if (g_strcmp0 (gtk_progress_bar_get_text (self->loading_bar), text) != 0)
    g_debug ("loading: %s: %s", title, text);
  gtk_label_set_label (self->loading_label, title);
  gtk_progress_bar_set_text (self->loading_bar, text);
}

static gboolean
tick_cb (gpointer data)
{
  FmvWindow *self = data;

  show_file_progress (self);
  return G_SOURCE_CONTINUE;
}

FmvLoadProgress *
fmv_window_begin_loading (FmvWindow *self)
{
  fmv_window_end_loading (self);
  self->load_progress = fmv_load_progress_new ();
  self->load_stopping = FALSE;
  gtk_progress_bar_set_fraction (self->loading_bar, 0);
  show_file_progress (self);
  gtk_widget_set_visible (GTK_WIDGET (self->loading_box), TRUE);
  self->load_tick = g_timeout_add (TICK_MS, tick_cb, self);
  return self->load_progress;
}

void
fmv_window_end_loading (FmvWindow *self)
{
  g_clear_handle_id (&self->load_tick, g_source_remove);
  g_clear_pointer (&self->load_progress, fmv_load_progress_unref);
  self->load_stopping = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->loading_box), FALSE);
}

void
fmv_window_stop_loading (FmvWindow *self)
{
  if (self->load_progress == NULL || self->load_stopping)
    return;
  g_debug ("loading: stop asked");
  self->load_stopping = TRUE;
  fmv_load_progress_stop (self->load_progress);
  show_file_progress (self);
}

gboolean
fmv_window_get_loading_stopped (FmvWindow *self)
{
  return self->load_progress != NULL && fmv_load_progress_was_stopped (self->load_progress);
}

char *
fmv_window_dup_replay_status (FmvWindow *self)
{
  guint64 done = 0, total = 0;
  gboolean replaying = self->live != NULL && fmv_live_get_replay_progress (self->live, &done, &total);

  gtk_widget_set_visible (GTK_WIDGET (self->replay_bar), replaying);
  if (!replaying)
    return NULL;
  gtk_progress_bar_set_fraction (self->replay_bar, (double) done / (double) total);
  return g_strdup_printf ("Loading the events filemond holds: %'" G_GUINT64_FORMAT " of %'"
                          G_GUINT64_FORMAT "…", done, total);
}
