/* fmv-load-progress.c: a capture file's reading progress, written by the reading thread
 * once per block and read by the window at its own pace (a timer), so a million-event
 * file costs the main loop a few label updates a second, not a message per block. */
#include "config.h"

#include "fmv-load-progress.h"

struct _FmvLoadProgress
{
  GMutex lock;
  guint64 bytes_read;
  guint64 bytes_total;
  guint64 events;
  gboolean stop;
  gboolean stopped;
};

static void
progress_clear (gpointer data)
{
  FmvLoadProgress *self = data;

  g_mutex_clear (&self->lock);
}

FmvLoadProgress *
fmv_load_progress_new (void)
{
  FmvLoadProgress *self = g_atomic_rc_box_new0 (FmvLoadProgress);

  g_mutex_init (&self->lock);
  return self;
}

FmvLoadProgress *
fmv_load_progress_ref (FmvLoadProgress *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
fmv_load_progress_unref (FmvLoadProgress *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, progress_clear);
}

void
fmv_load_progress_set_total (FmvLoadProgress *self,
                             guint64          bytes_total)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->bytes_total = bytes_total;
  g_mutex_unlock (&self->lock);
}

void
fmv_load_progress_update (FmvLoadProgress *self,
                          guint64          bytes_read,
                          guint64          events)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->bytes_read = bytes_read;
  self->events = events;
  g_mutex_unlock (&self->lock);
}

gboolean
fmv_load_progress_stop_requested (FmvLoadProgress *self)
{
  gboolean stop;

  g_return_val_if_fail (self != NULL, FALSE);

  g_mutex_lock (&self->lock);
  stop = self->stop;
  g_mutex_unlock (&self->lock);
  return stop;
}

void
fmv_load_progress_mark_stopped (FmvLoadProgress *self)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->stopped = TRUE;
  g_mutex_unlock (&self->lock);
}

void
fmv_load_progress_get (FmvLoadProgress *self,
                       guint64         *bytes_read,
                       guint64         *bytes_total,
                       guint64         *events)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  *bytes_read = self->bytes_read;
  *bytes_total = self->bytes_total;
  *events = self->events;
  g_mutex_unlock (&self->lock);
}

void
fmv_load_progress_stop (FmvLoadProgress *self)
{
  g_return_if_fail (self != NULL);

  g_mutex_lock (&self->lock);
  self->stop = TRUE;
  g_mutex_unlock (&self->lock);
}

gboolean
fmv_load_progress_was_stopped (FmvLoadProgress *self)
{
  gboolean stopped;

  g_return_val_if_fail (self != NULL, FALSE);

  g_mutex_lock (&self->lock);
  stopped = self->stopped;
  g_mutex_unlock (&self->lock);
  return stopped;
}
