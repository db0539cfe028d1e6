/* filemond-limits.c: per-peer and global bounds, enforced in a connection filter; see
 * filemond-limits.h.
 *
 * The filter runs in GDBus's worker thread, the rest on the main context: the state
 * below is shared under a mutex.
 */
#include "filemond-limits.h"

#include <gio/gunixfdlist.h>

#include "fm-names.h"

#define LIMITS_EXCEEDED "org.freedesktop.DBus.Error.LimitsExceeded"
/* Under global pressure a peer is asked to prove it reads much sooner. */
#define PING_AT_UNDER_PRESSURE 4096
/* What a message's header adds to its body, roughly: enough for the accounting. */
#define HEADER_BYTES 128

typedef struct {
  guint n_calls;            /* received, reply not sent yet */
  guint64 sent;             /* bytes sent to the peer */
  guint64 acked;            /* of those, proven read by a Ping's answer */
  guint64 ping_at;          /* `sent` when the outstanding Ping went out */
  gboolean ping_outstanding;
  gboolean refused_unread;  /* told already that it must read first */
  gboolean vanished;
} Peer;

struct _FmdLimits {
  GObject parent_instance;

  GDBusConnection *connection;
  GMainContext *main_context;
  guint filter_id;
  guint owner_changed_id;
  /* the GetNameOwner checks in flight: cancelled at dispose, so that none outlives us */
  GCancellable *owner_checks;

  GMutex lock;
  GHashTable *peers;        /* unique name -> Peer */
  GHashTable *calls;        /* "name serial" of calls in progress */
  guint n_calls;
  guint64 unread;           /* sum of sent - acked over the peers */
  guint64 n_refused;
};

enum {
  SIGNAL_PEER_VANISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (FmdLimits, fmd_limits, G_TYPE_OBJECT)

static char *
call_key (const char *peer,
          guint32     serial)
{
  return g_strdup_printf ("%s %u", peer, serial);
}

static Peer *
peer_get (FmdLimits  *self,
          const char *name)
{
  Peer *peer = g_hash_table_lookup (self->peers, name);

  if (peer == NULL)
    {
      peer = g_new0 (Peer, 1);
      g_hash_table_insert (self->peers, g_strdup (name), peer);
    }
  return peer;
}

static void
peer_forget_if_done (FmdLimits  *self,
                     const char *name,
                     Peer       *peer)
{
  if (peer->vanished && peer->n_calls == 0 && !peer->ping_outstanding)
    {
      self->unread -= peer->sent - peer->acked;
      g_hash_table_remove (self->peers, name);
    }
}

static guint64
ping_threshold (FmdLimits *self)
{
  return self->unread > FMD_LIMIT_UNREAD ? PING_AT_UNDER_PRESSURE : FMD_LIMIT_PING_AT;
}

static gboolean
peer_blocked (FmdLimits *self,
              Peer      *peer,
              gsize      more)
{
  guint64 unread = peer->sent - peer->acked + more;

  return unread > FMD_LIMIT_PEER_UNREAD ||
         (self->unread > FMD_LIMIT_UNREAD && unread > PING_AT_UNDER_PRESSURE);
}

typedef struct {
  FmdLimits *self;
  char *name;
} PingData;

static void
ping_data_free (PingData *data)
{
  g_object_unref (data->self);
  g_free (data->name);
  g_free (data);
}

/* An error that the bus itself gives says nothing about whether the peer reads. */
static gboolean
peer_answered (GError *error)
{
  return error == NULL ||
         !(g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_TIMEOUT) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_TIMED_OUT) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CLOSED));
}

static void
ping_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  PingData *data = user_data;
  FmdLimits *self = data->self;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  Peer *peer;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);

  g_mutex_lock (&self->lock);
  peer = g_hash_table_lookup (self->peers, data->name);
  if (peer != NULL)
    {
      if (peer_answered (error) && peer->ping_at > peer->acked)
        {
          self->unread -= peer->ping_at - peer->acked;
          peer->acked = peer->ping_at;
          peer->refused_unread = FALSE;
        }
      else if (!peer_answered (error))
        g_debug ("%s did not answer a Ping: %s", data->name, error->message);
      peer->ping_outstanding = FALSE;
      peer_forget_if_done (self, data->name, peer);
    }
  g_mutex_unlock (&self->lock);
  ping_data_free (data);
}

static gboolean
send_ping_cb (gpointer user_data)
{
  PingData *data = user_data;

  g_dbus_connection_call (data->self->connection, data->name, "/",
                          "org.freedesktop.DBus.Peer", "Ping", NULL, NULL,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, FMD_LIMIT_PING_TIMEOUT_MS, NULL,
                          ping_done_cb, data);
  return G_SOURCE_REMOVE;
}

/* With the lock held, from either thread. */
static void
maybe_ping_locked (FmdLimits  *self,
                   const char *name,
                   Peer       *peer)
{
  PingData *data;

  if (peer->ping_outstanding || peer->vanished ||
      peer->sent - peer->acked < ping_threshold (self))
    return;

  peer->ping_outstanding = TRUE;
  peer->ping_at = peer->sent;
  data = g_new0 (PingData, 1);
  data->self = g_object_ref (self);
  data->name = g_strdup (name);
  g_main_context_invoke (self->main_context, send_ping_cb, data);
}

static guint
allowed_fds (GDBusMessage *message)
{
  return g_strcmp0 (g_dbus_message_get_interface (message), FM_INTERFACE) == 0 &&
         g_strcmp0 (g_dbus_message_get_member (message), "Save") == 0 ? 1 : 0;
}

static gsize
message_bytes (GDBusMessage *message)
{
  GVariant *body = g_dbus_message_get_body (message);

  return HEADER_BYTES + (body != NULL ? g_variant_get_size (body) : 0);
}

static void
refuse (FmdLimits    *self,
        GDBusMessage *message,
        const char   *why)
{
  g_autoptr(GDBusMessage) reply = NULL;

  reply = g_dbus_message_new_method_error (message, LIMITS_EXCEEDED, "%s", why);
  /* queued for the worker thread; sending from a filter does not block */
  (void) g_dbus_connection_send_message (self->connection, reply,
                                         G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, NULL);
}

/* FALSE when the call goes no further, with @why set when it gets an answer; with the
 * lock held. */
static gboolean
check_call_locked (FmdLimits    *self,
                   GDBusMessage *message,
                   const char   *sender,
                   Peer         *peer,
                   char        **why)
{
  GUnixFDList *fds = g_dbus_message_get_unix_fd_list (message);
  guint n_fds = fds != NULL ? (guint) g_unix_fd_list_get_length (fds) : 0;

  if (peer_blocked (self, peer, 0))
    {
      /* One small refusal, so that a client that reads (and answers the Ping in a
       * moment) is not left waiting for a reply; after it, silence: any answer to one
       * that does not read would only pile up too. */
      maybe_ping_locked (self, sender, peer);
      if (!peer->refused_unread)
        *why = g_strdup ("this connection has not read what filemond sent it; read it "
                         "and call again");
      peer->refused_unread = TRUE;
      return FALSE;
    }
  if (n_fds > allowed_fds (message))
    {
      *why = g_strdup_printf ("%s.%s takes %u file descriptors; this call carries %u",
                              g_dbus_message_get_interface (message),
                              g_dbus_message_get_member (message), allowed_fds (message), n_fds);
      return FALSE;
    }
  if (message_bytes (message) > FMD_LIMIT_CALL_BYTES)
    {
      *why = g_strdup_printf ("a call to filemond may carry at most %d bytes of arguments",
                              FMD_LIMIT_CALL_BYTES);
      return FALSE;
    }
  if (peer->n_calls >= FMD_LIMIT_CALLS_PER_PEER || self->n_calls >= FMD_LIMIT_CALLS)
    {
      *why = g_strdup_printf ("too many calls in progress (at most %d per connection, %d in "
                              "all); wait for the replies", FMD_LIMIT_CALLS_PER_PEER,
                              FMD_LIMIT_CALLS);
      return FALSE;
    }
  return TRUE;
}

static GDBusMessage *
incoming_locked (FmdLimits    *self,
                 GDBusMessage *message)
{
  const char *sender = g_dbus_message_get_sender (message);
  g_autofree char *why = NULL;
  Peer *peer;

  if (g_dbus_message_get_message_type (message) != G_DBUS_MESSAGE_TYPE_METHOD_CALL ||
      sender == NULL)
    return message;

  if (g_dbus_message_get_flags (message) & G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED)
    {
      self->n_refused++;
      g_object_unref (message);
      return NULL;
    }

  peer = peer_get (self, sender);
  if (!check_call_locked (self, message, sender, peer, &why))
    {
      /* not logged one by one: a flood of them would flood the journal too */
      self->n_refused++;
      if (why != NULL)
        refuse (self, message, why);
      g_object_unref (message);
      return NULL;
    }

  peer->n_calls++;
  self->n_calls++;
  g_hash_table_add (self->calls, call_key (sender, g_dbus_message_get_serial (message)));
  return message;
}

static void
outgoing_locked (FmdLimits    *self,
                 GDBusMessage *message)
{
  const char *dest = g_dbus_message_get_destination (message);
  GDBusMessageType type = g_dbus_message_get_message_type (message);
  gsize bytes;
  Peer *peer;

  if (dest == NULL || dest[0] != ':')
    return;

  /* A peer is known from its first call (a subscriber's is Subscribe) until it leaves
   * the bus; nothing sent to it may create an entry: one for a name that has left (a
   * reply or a signal queued before it did) would stay forever. */
  peer = g_hash_table_lookup (self->peers, dest);
  if (peer == NULL)
    return;
  if (type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN || type == G_DBUS_MESSAGE_TYPE_ERROR)
    {
      g_autofree char *key = call_key (dest, g_dbus_message_get_reply_serial (message));

      if (g_hash_table_remove (self->calls, key))
        {
          peer->n_calls--;
          self->n_calls--;
        }
    }

  bytes = message_bytes (message);
  peer->sent += bytes;
  self->unread += bytes;
  maybe_ping_locked (self, dest, peer);
  peer_forget_if_done (self, dest, peer);
}

static GDBusMessage *
filter_cb (GDBusConnection *connection,
           GDBusMessage    *message,
           gboolean         incoming,
           gpointer         user_data)
{
  FmdLimits *self = user_data;

  g_mutex_lock (&self->lock);
  if (incoming)
    message = incoming_locked (self, message);
  else
    outgoing_locked (self, message);
  g_mutex_unlock (&self->lock);
  return message;
}

/* @name left the bus: its entry goes once nothing more is owed to it, and the users of the
 * limits drop what they hold for it. */
static void
peer_gone (FmdLimits  *self,
           const char *name)
{
  Peer *peer;

  g_mutex_lock (&self->lock);
  peer = g_hash_table_lookup (self->peers, name);
  if (peer != NULL)
    {
      peer->vanished = TRUE;
      peer_forget_if_done (self, name, peer);
    }
  g_mutex_unlock (&self->lock);

  g_signal_emit (self, signals[SIGNAL_PEER_VANISHED], 0, name);
}

static void
name_owner_changed_cb (GDBusConnection *connection,
                       const char      *sender_name,
                       const char      *object_path,
                       const char      *interface_name,
                       const char      *signal_name,
                       GVariant        *parameters,
                       gpointer         user_data)
{
  FmdLimits *self = user_data;
  const char *name;
  const char *old_owner;
  const char *new_owner;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(sss)")))
    return;
  g_variant_get (parameters, "(&s&s&s)", &name, &old_owner, &new_owner);
  if (name[0] != ':' || new_owner[0] != '\0')
    return;

  peer_gone (self, name);
}

typedef struct {
  FmdLimits *self;        /* not a reference: the check is cancelled at dispose */
  char *name;
} OwnerCheck;

static void
name_owner_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  OwnerCheck *check = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (reply == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_debug ("%s is not on the bus: %s", check->name, error->message);
      peer_gone (check->self, check->name);
    }
  g_free (check->name);
  g_free (check);
}

void
fmd_limits_confirm_peer (FmdLimits  *self,
                         const char *name)
{
  OwnerCheck *check;

  g_return_if_fail (FMD_IS_LIMITS (self));
  g_return_if_fail (name != NULL);

  if (name[0] != ':' || self->connection == NULL)
    return;

  check = g_new0 (OwnerCheck, 1);
  check->self = self;
  check->name = g_strdup (name);
  g_dbus_connection_call (self->connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "GetNameOwner", g_variant_new ("(s)", name),
                          G_VARIANT_TYPE ("(s)"), G_DBUS_CALL_FLAGS_NONE, -1,
                          self->owner_checks, name_owner_cb, check);
}

gboolean
fmd_limits_may_send (FmdLimits  *self,
                     const char *name,
                     gsize       bytes)
{
  gboolean blocked;
  Peer *peer;

  g_return_val_if_fail (FMD_IS_LIMITS (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  g_mutex_lock (&self->lock);
  peer = g_hash_table_lookup (self->peers, name);
  blocked = peer != NULL && peer_blocked (self, peer, bytes);
  if (blocked)
    maybe_ping_locked (self, name, peer);
  g_mutex_unlock (&self->lock);
  return !blocked;
}

guint
fmd_limits_get_n_calls (FmdLimits *self)
{
  guint n;

  g_return_val_if_fail (FMD_IS_LIMITS (self), 0);

  g_mutex_lock (&self->lock);
  n = self->n_calls;
  g_mutex_unlock (&self->lock);
  return n;
}

guint64
fmd_limits_get_n_refused (FmdLimits *self)
{
  guint64 n;

  g_return_val_if_fail (FMD_IS_LIMITS (self), 0);

  g_mutex_lock (&self->lock);
  n = self->n_refused;
  g_mutex_unlock (&self->lock);
  return n;
}

FmdLimits *
fmd_limits_new (GDBusConnection *connection)
{
  FmdLimits *self;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), NULL);

  self = g_object_new (FMD_TYPE_LIMITS, NULL);
  self->connection = g_object_ref (connection);
  self->main_context = g_main_context_ref_thread_default ();
  /* The filter may still run in the worker thread after it is removed: it holds a
   * reference, dropped when GDBus says it is done with it. */
  self->filter_id = g_dbus_connection_add_filter (connection, filter_cb, g_object_ref (self),
                                                  g_object_unref);
  if (g_dbus_connection_get_unique_name (connection) != NULL)
    self->owner_changed_id =
      g_dbus_connection_signal_subscribe (connection, "org.freedesktop.DBus",
                                          "org.freedesktop.DBus", "NameOwnerChanged",
                                          "/org/freedesktop/DBus", NULL,
                                          G_DBUS_SIGNAL_FLAGS_NONE, name_owner_changed_cb,
                                          self, NULL);
  return self;
}

static void
fmd_limits_dispose (GObject *object)
{
  FmdLimits *self = FMD_LIMITS (object);

  g_cancellable_cancel (self->owner_checks);
  if (self->connection != NULL)
    {
      if (self->filter_id != 0)
        g_dbus_connection_remove_filter (self->connection, self->filter_id);
      if (self->owner_changed_id != 0)
        g_dbus_connection_signal_unsubscribe (self->connection, self->owner_changed_id);
      self->filter_id = self->owner_changed_id = 0;
    }
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (fmd_limits_parent_class)->dispose (object);
}

static void
fmd_limits_finalize (GObject *object)
{
  FmdLimits *self = FMD_LIMITS (object);

  g_hash_table_unref (self->peers);
  g_hash_table_unref (self->calls);
  g_object_unref (self->owner_checks);
  g_main_context_unref (self->main_context);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (fmd_limits_parent_class)->finalize (object);
}

static void
fmd_limits_class_init (FmdLimitsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fmd_limits_dispose;
  object_class->finalize = fmd_limits_finalize;

  signals[SIGNAL_PEER_VANISHED] =
    g_signal_new ("peer-vanished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
fmd_limits_init (FmdLimits *self)
{
  g_mutex_init (&self->lock);
  self->peers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->owner_checks = g_cancellable_new ();
}
