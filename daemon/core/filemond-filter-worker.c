/* filemond-filter-worker.c: a capture's filter in a thread of its own; see
 * filemond-filter-worker.h.
 *
 * Events travel as stream records (fm-stream.h) in two byte arrays guarded by one mutex:
 * "in" from the main loop to the thread, "out" back. Each side swaps the array it reads
 * for an empty one, so the lock is held for a copy or a swap, never for a match. The
 * main loop appends what it takes in slices (DRAIN_SLICE events a dispatch), so a full
 * queue coming back does not hold the bus either.
 */
#include "config.h"

#include "filemond-filter-worker.h"

#include "fm-stream.h"

/* Events handed to the main loop in one dispatch: about a millisecond of ring appends. */
#define DRAIN_SLICE 1024
/* What the thread gathers before it hands events over, when a batch is long. */
#define KEPT_CHUNK_BYTES (64 * 1024)

struct _FmdFilterWorker {
  GObject parent_instance;

  FmFilter *filter;                /* the thread's alone */
  FmdFilterWorkerKeptFunc kept;
  FmdFilterWorkerBatchFunc batch;
  gpointer user_data;
  GMainContext *context;

  GMutex lock;
  GCond cond;                      /* the thread waits for input, or for room in out */
  gint stopping;                   /* atomic: the thread reads it between events */
  GByteArray *in;
  guint in_events;
  GByteArray *out;
  guint out_events;
  gboolean busy;                   /* the thread holds a batch taken from in */
  gboolean drain_scheduled;
  guint64 n_filtered;              /* since the main loop last took out */
  guint64 n_undecided;

  /* the main loop's */
  GByteArray *draining;            /* taken from out, being appended */
  gsize draining_at;
  guint draining_events;
  GSourceFunc done;
  gpointer done_data;
};

G_DEFINE_FINAL_TYPE (FmdFilterWorker, fmd_filter_worker, G_TYPE_OBJECT)

static gboolean drain_cb (gpointer data);

/* Under the lock: a drain on the main loop, unless one is pending. */
static void
schedule_drain (FmdFilterWorker *self)
{
  g_autoptr(GSource) source = NULL;

  if (self->drain_scheduled)
    return;
  self->drain_scheduled = TRUE;
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, drain_cb, g_object_ref (self), g_object_unref);
  g_source_set_static_name (source, "[filemond] filter worker drain");
  g_source_attach (source, self->context);
}

/* The thread's: hands @kept (@n_kept records) and the count of filtered events over to
 * the main loop, waiting for room in out. FALSE when stopping. */
static gboolean
publish (FmdFilterWorker *self,
         GByteArray      *kept,
         guint           *n_kept,
         guint64         *n_filtered,
         gboolean         last)
{
  g_mutex_lock (&self->lock);
  while (!self->stopping && self->out_events > 0 &&
         (self->out_events + *n_kept > FMD_FILTER_WORKER_MAX_EVENTS ||
          self->out->len + kept->len > FMD_FILTER_WORKER_MAX_BYTES))
    g_cond_wait (&self->cond, &self->lock);
  if (self->stopping)
    {
      g_mutex_unlock (&self->lock);
      return FALSE;
    }
  g_byte_array_append (self->out, kept->data, kept->len);
  self->out_events += *n_kept;
  self->n_filtered += *n_filtered;
  self->n_undecided = fm_filter_get_n_undecided (self->filter);
  if (last)
    self->busy = FALSE;
  schedule_drain (self);
  g_mutex_unlock (&self->lock);

  g_byte_array_set_size (kept, 0);
  *n_kept = 0;
  *n_filtered = 0;
  return TRUE;
}

static gpointer
run (gpointer data)
{
  g_autoptr(FmdFilterWorker) self = data;
  g_autoptr(GByteArray) batch = g_byte_array_new ();
  g_autoptr(GByteArray) kept = g_byte_array_new ();

  for (;;)
    {
      guint n_kept = 0;
      guint64 n_filtered = 0;
      gsize at = 0;
      GByteArray *swap;

      g_mutex_lock (&self->lock);
      while (!self->stopping && self->in->len == 0)
        g_cond_wait (&self->cond, &self->lock);
      if (self->stopping)
        {
          g_mutex_unlock (&self->lock);
          break;
        }
      /* a swap: the lock is not held for a copy of the queue */
      g_byte_array_set_size (batch, 0);
      swap = self->in;
      self->in = g_steal_pointer (&batch);
      batch = swap;
      self->in_events = 0;
      self->busy = TRUE;
      g_mutex_unlock (&self->lock);

      while (at < batch->len && !g_atomic_int_get (&self->stopping))
        {
          guint32 size = fm_record_get_size (batch->data + at);
          FmEvent event;
          gboolean ok = fm_record_decode_event (batch->data + at, size, &event, NULL);

          g_assert (ok);   /* our own encoding */
          if (fm_filter_match (self->filter, &event))
            {
              g_byte_array_append (kept, batch->data + at, size);
              n_kept++;
            }
          else
            n_filtered++;
          at += size;
          if (kept->len >= KEPT_CHUNK_BYTES && !publish (self, kept, &n_kept, &n_filtered, FALSE))
            break;
        }
      if (!publish (self, kept, &n_kept, &n_filtered, TRUE))
        break;
    }
  return NULL;
}

/* The main loop's: appends up to DRAIN_SLICE events the thread kept. */
static gboolean
drain_cb (gpointer data)
{
  FmdFilterWorker *self = data;
  guint64 n_filtered = 0, n_undecided = 0;
  gboolean took = FALSE, finished = FALSE;

  if (g_atomic_int_get (&self->stopping))
    return G_SOURCE_REMOVE;

  if (self->draining_at == self->draining->len)
    {
      GByteArray *swap;

      g_mutex_lock (&self->lock);
      swap = self->draining;
      self->draining = self->out;
      self->out = swap;
      g_byte_array_set_size (self->out, 0);
      self->draining_at = 0;
      self->draining_events = self->out_events;
      self->out_events = 0;
      n_filtered = self->n_filtered;
      self->n_filtered = 0;
      n_undecided = self->n_undecided;
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
      took = TRUE;
    }

  for (guint i = 0; i < DRAIN_SLICE && self->draining_at < self->draining->len; i++)
    {
      guint32 size = fm_record_get_size (self->draining->data + self->draining_at);
      FmEvent event;
      gboolean ok = fm_record_decode_event (self->draining->data + self->draining_at, size,
                                            &event, NULL);

      g_assert (ok);
      self->draining_at += size;
      self->draining_events--;
      self->kept (&event, self->user_data);
      if (g_atomic_int_get (&self->stopping))
        return G_SOURCE_REMOVE;
    }
  if (took && self->batch != NULL)
    self->batch (n_filtered, n_undecided, self->user_data);
  if (self->draining_at < self->draining->len)
    return G_SOURCE_CONTINUE;

  g_mutex_lock (&self->lock);
  if (self->out->len > 0 || self->n_filtered > 0)
    {
      g_mutex_unlock (&self->lock);
      return G_SOURCE_CONTINUE;
    }
  self->drain_scheduled = FALSE;
  finished = self->done != NULL && !self->busy && self->in->len == 0;
  g_mutex_unlock (&self->lock);

  if (finished)
    {
      GSourceFunc done = g_steal_pointer (&self->done);

      done (self->done_data);
    }
  return G_SOURCE_REMOVE;
}

gboolean
fmd_filter_worker_push (FmdFilterWorker *self,
                        const FmEvent   *event)
{
  gsize size, old;

  g_return_val_if_fail (FMD_IS_FILTER_WORKER (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  size = fm_record_event_size (event);
  g_mutex_lock (&self->lock);
  if (self->stopping || self->in_events >= FMD_FILTER_WORKER_MAX_EVENTS ||
      self->in->len + size > FMD_FILTER_WORKER_MAX_BYTES)
    {
      g_mutex_unlock (&self->lock);
      return FALSE;
    }
  old = self->in->len;
  g_byte_array_set_size (self->in, old + size);
  fm_record_encode_event (event, self->in->data + old);
  if (self->in_events++ == 0)
    g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

guint64
fmd_filter_worker_stop (FmdFilterWorker *self)
{
  guint64 discarded;

  g_return_val_if_fail (FMD_IS_FILTER_WORKER (self), 0);

  g_mutex_lock (&self->lock);
  if (self->stopping)
    {
      g_mutex_unlock (&self->lock);
      return 0;
    }
  g_atomic_int_set (&self->stopping, TRUE);
  discarded = (guint64) self->in_events + self->out_events + self->draining_events;
  g_byte_array_set_size (self->in, 0);
  g_byte_array_set_size (self->out, 0);
  self->in_events = self->out_events = 0;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  g_byte_array_set_size (self->draining, 0);
  self->draining_at = 0;
  self->draining_events = 0;
  self->done = NULL;
  return discarded;
}

void
fmd_filter_worker_finish (FmdFilterWorker *self,
                          GSourceFunc      done,
                          gpointer         user_data)
{
  g_return_if_fail (FMD_IS_FILTER_WORKER (self));
  g_return_if_fail (done != NULL);

  self->done = done;
  self->done_data = user_data;
  g_mutex_lock (&self->lock);
  /* the drain sees the end, once everything queued is through */
  if (!self->stopping)
    schedule_drain (self);
  g_mutex_unlock (&self->lock);
}

FmdFilterWorker *
fmd_filter_worker_new (FmFilter                *filter,
                       FmdFilterWorkerKeptFunc  kept,
                       FmdFilterWorkerBatchFunc batch,
                       gpointer                 user_data,
                       GError                 **error)
{
  g_autoptr(FmdFilterWorker) self = NULL;
  GThread *thread;

  g_return_val_if_fail (filter != NULL, NULL);
  g_return_val_if_fail (kept != NULL, NULL);

  self = g_object_new (FMD_TYPE_FILTER_WORKER, NULL);
  self->filter = fm_filter_ref (filter);
  self->kept = kept;
  self->batch = batch;
  self->user_data = user_data;
  self->context = g_main_context_ref_thread_default ();

  /* the thread holds a reference of its own: stopping never waits for it */
  thread = g_thread_try_new ("filemond-filter", run, g_object_ref (self), error);
  if (thread == NULL)
    {
      g_object_unref (self);   /* the thread's */
      return NULL;
    }
  g_thread_unref (thread);
  return g_steal_pointer (&self);
}

static void
fmd_filter_worker_finalize (GObject *object)
{
  FmdFilterWorker *self = FMD_FILTER_WORKER (object);

  g_clear_pointer (&self->filter, fm_filter_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_byte_array_unref (self->in);
  g_byte_array_unref (self->out);
  g_byte_array_unref (self->draining);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (fmd_filter_worker_parent_class)->finalize (object);
}

static void
fmd_filter_worker_class_init (FmdFilterWorkerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fmd_filter_worker_finalize;
}

static void
fmd_filter_worker_init (FmdFilterWorker *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->in = g_byte_array_new ();
  self->out = g_byte_array_new ();
  self->draining = g_byte_array_new ();
}
