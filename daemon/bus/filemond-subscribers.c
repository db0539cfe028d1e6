/* filemond-subscribers.c: Events signals, unicast; see filemond-subscribers.h.
 *
 * Never broadcast: the events show every user's file activity, so each signal carries
 * its subscriber as destination and dbus-daemon routes it to that connection alone.
 */
#include "filemond-subscribers.h"

#include "filemond-quota.h"
#include "fm-codec.h"
#include "fm-names.h"
#include "fm-stream.h"

typedef struct {
  FmdSubscribers *owner;   /* not a reference: it frees its subscribers first */
  char *name;
  guint32 uid;             /* whose quota slot it holds */
  guint64 cursor;          /* next seq owed */
  guint64 missed;          /* skipped, not reported yet */
  double tokens;
  gint64 refilled_at;
  gint64 overflowing_since;
} Subscriber;

struct _FmdSubscribers {
  GObject parent_instance;

  GDBusConnection *connection;
  FmdLimits *limits;
  gulong vanished_handler;
  FmdRing *ring;
  guint ring_watch;
  guint queue_events;
  GHashTable *subscribers;   /* name -> Subscriber */
  FmdQuota *quota;
  guint tick_id;
  guint early_id;
  guint64 wake_seq;          /* an early flush is worth it once next_seq reaches this */

  FmBatchBuilder *batch_builder;
  /* the last batch built, reused while subscribers walk in step */
  GVariant *cached_batch;
  guint64 cached_first;
  guint64 cached_n;
};

enum {
  PROP_0,
  PROP_N_SUBSCRIBERS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (FmdSubscribers, fmd_subscribers, G_TYPE_OBJECT)

static void
subscriber_free (gpointer data)
{
  Subscriber *sub = data;

  fmd_quota_release (sub->owner->quota, sub->uid);
  g_free (sub->name);
  g_free (sub);
}

static void
emit_to (FmdSubscribers *self,
         Subscriber     *sub,
         const char     *signal,
         GVariant       *parameters)
{
  g_autoptr(GError) error = NULL;

  if (!g_dbus_connection_emit_signal (self->connection, sub->name, FM_OBJECT_PATH,
                                      FM_INTERFACE, signal, parameters, &error))
    g_debug ("cannot send %s to %s: %s", signal, sub->name, error->message);
}

static GVariant *
build_batch (FmdSubscribers *self,
             guint64         first,
             guint64         n)
{
  if (self->cached_batch != NULL && self->cached_first == first && self->cached_n == n)
    return self->cached_batch;

  for (guint64 seq = first; seq < first + n; seq++)
    {
      FmEvent event;

      if (!fmd_ring_lookup (self->ring, seq, &event))
        g_assert_not_reached ();
      fm_batch_builder_add (self->batch_builder, &event);
    }

  g_clear_pointer (&self->cached_batch, g_variant_unref);
  self->cached_batch = g_variant_ref_sink (fm_batch_builder_end (self->batch_builder));
  self->cached_first = first;
  self->cached_n = n;
  return self->cached_batch;
}

/* The final Dropped goes out whatever the peer's backlog: it is the last word. */
static void
send_dropped (FmdSubscribers *self,
              Subscriber     *sub,
              gboolean        unsubscribed)
{
  if (!unsubscribed && !fmd_limits_may_send (self->limits, sub->name, 0))
    return;
  emit_to (self, sub, "Dropped", g_variant_new ("(tb)", sub->missed, unsubscribed));
  sub->missed = 0;
}

/* FALSE when the subscriber has to go. */
static gboolean
flush_one (FmdSubscribers *self,
           Subscriber     *sub,
           gboolean        partial,
           gboolean        unlimited,
           gint64          now)
{
  guint64 first = fmd_ring_get_first_seq (self->ring);
  guint64 next = fmd_ring_get_next_seq (self->ring);
  gboolean overflow = FALSE;

  if (sub->cursor < first)
    {
      sub->missed += first - sub->cursor;
      sub->cursor = first;
      overflow = TRUE;
    }
  if (next - sub->cursor > self->queue_events)
    {
      sub->missed += next - sub->cursor - self->queue_events;
      sub->cursor = next - self->queue_events;
    }
  /* A full queue counts too: a flush that finds no new event since the last must not
   * reset the clock of a subscriber that takes nothing. */
  overflow = overflow || next - sub->cursor >= self->queue_events;

  if (!overflow)
    sub->overflowing_since = 0;
  else if (sub->overflowing_since == 0)
    sub->overflowing_since = now;
  else if (now - sub->overflowing_since > FMD_SUBSCRIBER_OVERFLOW_LIMIT_SEC * G_USEC_PER_SEC)
    {
      g_message ("dropping subscriber %s: its queue overflowed for %d s without pause",
                 sub->name, FMD_SUBSCRIBER_OVERFLOW_LIMIT_SEC);
      send_dropped (self, sub, TRUE);
      return FALSE;
    }

  sub->tokens = MIN (sub->tokens + (now - sub->refilled_at) * (FMD_SUBSCRIBER_MAX_RATE / 1e6),
                     FMD_SUBSCRIBER_MAX_RATE / 10.0);
  sub->refilled_at = now;

  if (sub->missed > 0)
    send_dropped (self, sub, FALSE);

  while (sub->cursor < next)
    {
      guint64 n = MIN (FMD_SUBSCRIBER_BATCH, next - sub->cursor);

      if (n < FMD_SUBSCRIBER_BATCH && !partial)
        break;
      if (!unlimited && sub->tokens < n)
        break;
      /* a peer that does not read what it was sent gets no more: its events wait in
       * the queue, which overflows, and the subscriber is dropped */
      if (!fmd_limits_may_send (self->limits, sub->name, n * FMD_SUBSCRIBER_EVENT_BYTES))
        break;

      emit_to (self, sub, "Events",
               g_variant_new ("(@a" FM_EVENT_VARIANT_TYPE_STRING ")",
                              build_batch (self, sub->cursor, n)));
      sub->cursor += n;
      sub->tokens -= n;
    }

  return TRUE;
}

static void update_timers (FmdSubscribers *self);

static void
update_wake_seq (FmdSubscribers *self)
{
  GHashTableIter iter;
  Subscriber *sub;

  self->wake_seq = G_MAXUINT64;
  g_hash_table_iter_init (&iter, self->subscribers);
  /* a subscriber that is not reading waits for the tick: an early flush on every batch
   * the ring takes would only find it still blocked */
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &sub))
    if (sub->tokens >= FMD_SUBSCRIBER_BATCH && fmd_limits_may_send (self->limits, sub->name, 0))
      self->wake_seq = MIN (self->wake_seq, sub->cursor + FMD_SUBSCRIBER_BATCH);
}

static void
flush_all (FmdSubscribers *self,
           gboolean        partial,
           gboolean        unlimited)
{
  gint64 now = g_get_monotonic_time ();
  GHashTableIter iter;
  Subscriber *sub;
  guint before = g_hash_table_size (self->subscribers);

  g_hash_table_iter_init (&iter, self->subscribers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &sub))
    if (!flush_one (self, sub, partial, unlimited, now))
      g_hash_table_iter_remove (&iter);

  g_clear_pointer (&self->cached_batch, g_variant_unref);
  update_wake_seq (self);

  if (g_hash_table_size (self->subscribers) != before)
    {
      update_timers (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SUBSCRIBERS]);
    }
}

static gboolean
tick_cb (gpointer user_data)
{
  flush_all (user_data, TRUE, FALSE);
  return G_SOURCE_CONTINUE;
}

static gboolean
early_cb (gpointer user_data)
{
  FmdSubscribers *self = user_data;

  self->early_id = 0;
  flush_all (self, FALSE, FALSE);
  return G_SOURCE_REMOVE;
}

static void
ring_appended_cb (FmdRing  *ring,
                  gpointer  user_data)
{
  FmdSubscribers *self = user_data;

  if (self->early_id == 0 && fmd_ring_get_next_seq (ring) >= self->wake_seq)
    self->early_id = g_idle_add_full (G_PRIORITY_DEFAULT, early_cb, self, NULL);
}

static void
update_timers (FmdSubscribers *self)
{
  if (g_hash_table_size (self->subscribers) > 0)
    {
      if (self->tick_id == 0)
        self->tick_id = g_timeout_add (FMD_SUBSCRIBER_INTERVAL_MS, tick_cb, self);
    }
  else
    {
      g_clear_handle_id (&self->tick_id, g_source_remove);
      g_clear_handle_id (&self->early_id, g_source_remove);
    }
  update_wake_seq (self);
}

static void
peer_vanished_cb (FmdLimits      *limits,
                  const char     *name,
                  FmdSubscribers *self)
{
  if (fmd_subscribers_contains (self, name))
    {
      g_debug ("subscriber %s left the bus", name);
      fmd_subscribers_remove (self, name);
    }
}

gboolean
fmd_subscribers_add (FmdSubscribers *self,
                     const char     *unique_name,
                     guint32         uid,
                     GError        **error)
{
  Subscriber *sub;

  g_return_val_if_fail (FMD_IS_SUBSCRIBERS (self), FALSE);
  g_return_val_if_fail (unique_name != NULL, FALSE);

  if (g_hash_table_contains (self->subscribers, unique_name))
    return TRUE;
  if (!fmd_quota_take (self->quota, uid, error))
    return FALSE;

  sub = g_new0 (Subscriber, 1);
  sub->owner = self;
  sub->uid = uid;
  sub->name = g_strdup (unique_name);
  sub->cursor = fmd_ring_get_next_seq (self->ring);
  sub->tokens = FMD_SUBSCRIBER_MAX_RATE / 10.0;
  sub->refilled_at = g_get_monotonic_time ();
  g_hash_table_insert (self->subscribers, sub->name, sub);

  fmd_limits_confirm_peer (self->limits, unique_name);
  g_debug ("subscriber %s added", unique_name);
  update_timers (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SUBSCRIBERS]);
  return TRUE;
}

void
fmd_subscribers_remove (FmdSubscribers *self,
                        const char     *unique_name)
{
  g_return_if_fail (FMD_IS_SUBSCRIBERS (self));
  g_return_if_fail (unique_name != NULL);

  if (!g_hash_table_remove (self->subscribers, unique_name))
    return;

  update_timers (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SUBSCRIBERS]);
}

gboolean
fmd_subscribers_contains (FmdSubscribers *self,
                          const char     *unique_name)
{
  g_return_val_if_fail (FMD_IS_SUBSCRIBERS (self), FALSE);

  return g_hash_table_contains (self->subscribers, unique_name);
}

guint
fmd_subscribers_get_n_subscribers (FmdSubscribers *self)
{
  g_return_val_if_fail (FMD_IS_SUBSCRIBERS (self), 0);

  return g_hash_table_size (self->subscribers);
}

void
fmd_subscribers_capture_changed (FmdSubscribers *self,
                                 gboolean        running)
{
  GHashTableIter iter;
  Subscriber *sub;

  g_return_if_fail (FMD_IS_SUBSCRIBERS (self));

  /* the events before the change go first, so that next_seq follows them */
  flush_all (self, TRUE, FALSE);
  /* to every subscriber, whatever its backlog, as the final Dropped: a peer that is
   * merely slow to prove it reads (its Ping answer late on a loaded machine) would
   * otherwise never learn that the capture it shows has ended; a few bytes for each
   * authorized Start or Stop cannot fill dbus-daemon's queue */
  g_hash_table_iter_init (&iter, self->subscribers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &sub))
    emit_to (self, sub, "CaptureChanged",
             g_variant_new ("(bt)", running, fmd_ring_get_next_seq (self->ring)));
}

void
fmd_subscribers_flush (FmdSubscribers *self)
{
  g_return_if_fail (FMD_IS_SUBSCRIBERS (self));

  flush_all (self, TRUE, TRUE);
}

FmdSubscribers *
fmd_subscribers_new (GDBusConnection *connection,
                     FmdLimits       *limits,
                     FmdRing         *ring,
                     guint            queue_events)
{
  FmdSubscribers *self;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), NULL);
  g_return_val_if_fail (FMD_IS_LIMITS (limits), NULL);
  g_return_val_if_fail (ring != NULL, NULL);
  g_return_val_if_fail (queue_events > 0, NULL);

  self = g_object_new (FMD_TYPE_SUBSCRIBERS, NULL);
  self->connection = g_object_ref (connection);
  self->limits = g_object_ref (limits);
  self->vanished_handler = g_signal_connect (limits, "peer-vanished",
                                             G_CALLBACK (peer_vanished_cb), self);
  self->ring = ring;
  self->queue_events = queue_events;
  self->batch_builder = fm_batch_builder_new ();
  self->ring_watch = fmd_ring_add_watch (ring, ring_appended_cb, self);
  return self;
}

static void
fmd_subscribers_dispose (GObject *object)
{
  FmdSubscribers *self = FMD_SUBSCRIBERS (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->early_id, g_source_remove);
  if (self->ring_watch != 0)
    {
      fmd_ring_remove_watch (self->ring, self->ring_watch);
      self->ring_watch = 0;
    }
  g_hash_table_remove_all (self->subscribers);
  g_clear_pointer (&self->cached_batch, g_variant_unref);
  if (self->limits != NULL)
    fmd_limits_disconnect_vanished (self->limits, &self->vanished_handler);
  g_clear_object (&self->limits);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (fmd_subscribers_parent_class)->dispose (object);
}

static void
fmd_subscribers_finalize (GObject *object)
{
  FmdSubscribers *self = FMD_SUBSCRIBERS (object);

  g_hash_table_unref (self->subscribers);
  fmd_quota_free (self->quota);
  g_clear_pointer (&self->batch_builder, fm_batch_builder_free);

  G_OBJECT_CLASS (fmd_subscribers_parent_class)->finalize (object);
}

static void
fmd_subscribers_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  FmdSubscribers *self = FMD_SUBSCRIBERS (object);

  switch (prop_id)
    {
    case PROP_N_SUBSCRIBERS:
      g_value_set_uint (value, g_hash_table_size (self->subscribers));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fmd_subscribers_class_init (FmdSubscribersClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fmd_subscribers_dispose;
  object_class->finalize = fmd_subscribers_finalize;
  object_class->get_property = fmd_subscribers_get_property;

  properties[PROP_N_SUBSCRIBERS] =
    g_param_spec_uint ("n-subscribers", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fmd_subscribers_init (FmdSubscribers *self)
{
  self->subscribers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, subscriber_free);
  self->quota = fmd_quota_new ("subscribers", FMD_SUBSCRIBERS_MAX, FMD_SUBSCRIBERS_PER_UID,
                               FMD_SUBSCRIBERS_ROOT_RESERVE);
  self->wake_seq = G_MAXUINT64;
}
