/* filemond-limits.c: per-peer, per-user and global bounds, enforced in a connection
 * filter; see filemond-limits.h.
 *
 * The filter runs in GDBus's worker thread, the rest on the main context: the state
 * below is shared under a mutex.
 *
 * Users: a peer's uid is asked of the bus daemon when the peer is first seen, and what
 * the peer holds (calls in progress, bytes it has not read) is counted for its user from
 * the answer on. Until then (a round trip through the bus, well under a millisecond) it
 * counts for the "unidentified" user, whose bounds are small: an attacker would have to
 * open connections faster than the bus can answer to fill them.
 */
#include "filemond-limits.h"

#include <gio/gunixfdlist.h>

#include "filemond-auth.h"
#include "fm-error.h"
#include "fm-names.h"

#define LIMITS_EXCEEDED "org.freedesktop.DBus.Error.LimitsExceeded"
/* Under global pressure a peer is asked to prove it reads much sooner. */
#define PING_AT_UNDER_PRESSURE 4096
/* What a message's header adds to its body, roughly: enough for the accounting. */
#define HEADER_BYTES 128
/* The user of peers not identified yet. */
#define UID_UNKNOWN G_MAXUINT32

typedef struct {
  guint n_calls;            /* in progress, of all its peers */
  guint64 unread;           /* sent - acked, of all its peers */
} User;

typedef struct {
  guint32 uid;              /* UID_UNKNOWN until the bus told it */
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
  GHashTable *users;        /* uid -> User */
  GHashTable *calls;        /* "name serial" of calls in progress */
  GHashTable *refusals;     /* "uid action" -> when polkit last refused it (monotonic) */
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

static User *
user_of (FmdLimits *self,
         Peer      *peer)
{
  User *user = g_hash_table_lookup (self->users, GUINT_TO_POINTER (peer->uid));

  if (user == NULL)
    {
      user = g_new0 (User, 1);
      g_hash_table_insert (self->users, GUINT_TO_POINTER (peer->uid), user);
    }
  return user;
}

static void
forget_user_if_idle (FmdLimits *self,
                     guint32    uid)
{
  User *user = g_hash_table_lookup (self->users, GUINT_TO_POINTER (uid));

  if (user != NULL && user->n_calls == 0 && user->unread == 0)
    g_hash_table_remove (self->users, GUINT_TO_POINTER (uid));
}

/* What @peer holds goes to (@sign +1) or comes off (-1) its user's account. */
static void
account_peer (FmdLimits *self,
              Peer      *peer,
              int        sign)
{
  User *user = user_of (self, peer);
  guint64 unread = peer->sent - peer->acked;

  if (sign > 0)
    {
      user->n_calls += peer->n_calls;
      user->unread += unread;
    }
  else
    {
      user->n_calls -= peer->n_calls;
      user->unread -= unread;
      forget_user_if_idle (self, peer->uid);
    }
}

/* Calls in progress of everyone but root. */
static guint
calls_not_root (FmdLimits *self)
{
  User *root = g_hash_table_lookup (self->users, GUINT_TO_POINTER (0));

  return self->n_calls - (root != NULL ? root->n_calls : 0);
}

/* A peer named in a callback that may outlive it (a Ping's or its uid's answer). */
typedef struct {
  FmdLimits *self;
  char *name;
} PeerRef;

/* Runs @func with a new PeerRef of @name on the main context. */
static void
invoke_for_peer (FmdLimits   *self,
                 const char  *name,
                 GSourceFunc  func)
{
  PeerRef *ref = g_new0 (PeerRef, 1);

  ref->self = g_object_ref (self);
  ref->name = g_strdup (name);
  g_main_context_invoke (self->main_context, func, ref);
}

static void
peer_ref_free (PeerRef *ref)
{
  g_object_unref (ref->self);
  g_free (ref->name);
  g_free (ref);
}

static void
uid_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  PeerRef *ref = user_data;
  FmdLimits *self = ref->self;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  Peer *peer;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (reply == NULL)
    g_debug ("the user of %s is unknown: %s", ref->name, error->message);

  g_mutex_lock (&self->lock);
  peer = g_hash_table_lookup (self->peers, ref->name);
  if (reply != NULL && peer != NULL && peer->uid == UID_UNKNOWN)
    {
      account_peer (self, peer, -1);
      g_variant_get (reply, "(u)", &peer->uid);
      account_peer (self, peer, +1);
    }
  g_mutex_unlock (&self->lock);
  peer_ref_free (ref);
}

static gboolean
ask_uid_cb (gpointer user_data)
{
  PeerRef *ref = user_data;

  g_dbus_connection_call (ref->self->connection, "org.freedesktop.DBus",
                          "/org/freedesktop/DBus", "org.freedesktop.DBus",
                          "GetConnectionUnixUser", g_variant_new ("(s)", ref->name),
                          G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL,
                          uid_done_cb, ref);
  return G_SOURCE_REMOVE;
}

/* The peer @name, known from its first call on; its user is asked of the bus then. With
 * the lock held, from either thread. */
static Peer *
peer_get (FmdLimits  *self,
          const char *name)
{
  Peer *peer = g_hash_table_lookup (self->peers, name);

  if (peer == NULL)
    {
      peer = g_new0 (Peer, 1);
      peer->uid = UID_UNKNOWN;
      g_hash_table_insert (self->peers, g_strdup (name), peer);
      invoke_for_peer (self, name, ask_uid_cb);
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
      account_peer (self, peer, -1);
      g_hash_table_remove (self->peers, name);
    }
}

/* Whether @peer's user holds more unread bytes than a user may: its own bound (root has
 * none), or, while all peers together are over theirs, more than its share of it. One
 * user's unread replies never come out of another user's budget: an outsider's flood of
 * unread Introspect replies must not stop every subscriber's events. */
static gboolean
user_over (FmdLimits *self,
           Peer      *peer,
           gsize      more)
{
  guint64 unread = user_of (self, peer)->unread + more;

  if (peer->uid == UID_UNKNOWN)
    return unread > FMD_LIMIT_UNIDENTIFIED_UNREAD;
  if (peer->uid != 0 && unread > FMD_LIMIT_USER_UNREAD)
    return TRUE;
  return self->unread > FMD_LIMIT_UNREAD && unread > FMD_LIMIT_USER_SHARE_UNREAD;
}

static guint64
ping_threshold (FmdLimits *self,
                Peer      *peer)
{
  return user_over (self, peer, 0) ? PING_AT_UNDER_PRESSURE : FMD_LIMIT_PING_AT;
}

static gboolean
peer_blocked (FmdLimits *self,
              Peer      *peer,
              gsize      more)
{
  guint64 unread = peer->sent - peer->acked + more;

  return unread > FMD_LIMIT_PEER_UNREAD ||
         (unread > PING_AT_UNDER_PRESSURE && user_over (self, peer, more));
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
  PeerRef *data = user_data;
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
          user_of (self, peer)->unread -= peer->ping_at - peer->acked;
          peer->acked = peer->ping_at;
          peer->refused_unread = FALSE;
        }
      else if (!peer_answered (error))
        g_debug ("%s did not answer a Ping: %s", data->name, error->message);
      peer->ping_outstanding = FALSE;
      peer_forget_if_done (self, data->name, peer);
    }
  g_mutex_unlock (&self->lock);
  peer_ref_free (data);
}

static gboolean
send_ping_cb (gpointer user_data)
{
  PeerRef *data = user_data;

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
  if (peer->ping_outstanding || peer->vanished ||
      peer->sent - peer->acked < ping_threshold (self, peer))
    return;

  peer->ping_outstanding = TRUE;
  peer->ping_at = peer->sent;
  invoke_for_peer (self, name, send_ping_cb);
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

static char *
refusal_key (guint32     uid,
             const char *action)
{
  return g_strdup_printf ("%u %s", uid, action);
}

/* Whether polkit refused @peer's user the action of @message a moment ago: its call is
 * then refused here, before it takes a slot, a thread and a polkit check that an
 * authorized caller needs (an outsider's flood of Stops made root's calls wait and
 * fail). A caller that allows interactive authorization is always asked again. */
static gboolean
refused_locked (FmdLimits  *self,
                guint32     uid,
                const char *action)
{
  g_autofree char *key = refusal_key (uid, action);
  gpointer when;

  if (!g_hash_table_lookup_extended (self->refusals, key, NULL, &when))
    return FALSE;
  return g_get_monotonic_time () - *(gint64 *) when < FMD_LIMIT_REFUSAL_SEC * G_USEC_PER_SEC;
}

static gboolean
refused_lately_locked (FmdLimits    *self,
                       GDBusMessage *message,
                       Peer         *peer)
{
  const char *action;

  if (peer->uid == UID_UNKNOWN ||
      (g_dbus_message_get_flags (message) & G_DBUS_MESSAGE_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION) ||
      g_strcmp0 (g_dbus_message_get_interface (message), FM_INTERFACE) != 0)
    return FALSE;
  action = fmd_auth_action_for_method (g_dbus_message_get_member (message));
  return action != NULL && refused_locked (self, peer->uid, action);
}

gboolean
fmd_limits_refused_lately (FmdLimits  *self,
                           guint32     uid,
                           const char *action)
{
  gboolean refused;

  g_return_val_if_fail (FMD_IS_LIMITS (self), FALSE);

  g_mutex_lock (&self->lock);
  refused = refused_locked (self, uid, action);
  g_mutex_unlock (&self->lock);
  return refused;
}

void
fmd_limits_remember_refusal (FmdLimits  *self,
                             guint32     uid,
                             const char *action)
{
  gint64 now = g_get_monotonic_time ();
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (FMD_IS_LIMITS (self));
  g_return_if_fail (action != NULL);

  g_mutex_lock (&self->lock);
  /* expired ones go first: the table holds at most the users refused lately */
  g_hash_table_iter_init (&iter, self->refusals);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (now - *(gint64 *) value >= FMD_LIMIT_REFUSAL_SEC * G_USEC_PER_SEC)
      g_hash_table_iter_remove (&iter);
  g_hash_table_insert (self->refusals, refusal_key (uid, action), g_memdup2 (&now, sizeof now));
  g_mutex_unlock (&self->lock);
}

static gboolean
send_later_cb (gpointer user_data)
{
  GDBusMessage *reply = user_data;
  FmdLimits *self = g_object_get_data (G_OBJECT (reply), "filemond-limits");

  (void) g_dbus_connection_send_message (self->connection, reply,
                                         G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, NULL);
  return G_SOURCE_REMOVE;
}

/* Refuses @message as not authorized, FMD_LIMIT_REFUSAL_DELAY_MS from now: the call
 * keeps its slot meanwhile, so that a refused client that calls again as soon as it is
 * answered (4 calls in flight on each of 20 connections) calls a few times a second
 * instead of making filemond and the bus spend both cores on its refusals. */
static void
refuse_later (FmdLimits    *self,
              GDBusMessage *message)
{
  GDBusMessage *reply;
  GSource *source;

  reply = g_dbus_message_new_method_error (message, FM_ERROR_PREFIX "NotAuthorized",
                                           "not authorized to call %s (polkit refused it "
                                           "%d s ago or less); ask an administrator to add "
                                           "you to the “%s” group",
                                           g_dbus_message_get_member (message),
                                           FMD_LIMIT_REFUSAL_SEC, FM_GROUP_NAME);
  g_object_set_data_full (G_OBJECT (reply), "filemond-limits", g_object_ref (self),
                          g_object_unref);
  source = g_timeout_source_new (FMD_LIMIT_REFUSAL_DELAY_MS);
  g_source_set_static_name (source, "[filemond] refusal");
  g_source_set_callback (source, send_later_cb, reply, g_object_unref);
  g_source_attach (source, self->main_context);
  g_source_unref (source);
}

/* FALSE when the call goes no further, with @why set when it gets an answer; with the
 * lock held. */
static gboolean
check_call_locked (FmdLimits    *self,
                   GDBusMessage *message,
                   const char   *sender,
                   Peer         *peer,
                   gboolean      refused_lately,
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
  /* A user refused lately who calls beyond its bounds is answered by its pending
   * refusals alone: answering each extra call at once would let it spin on them. */
  if (refused_lately &&
      (peer->n_calls >= FMD_LIMIT_CALLS_PER_PEER ||
       user_of (self, peer)->n_calls >= FMD_LIMIT_CALLS_PER_USER))
    return FALSE;
  if (peer->n_calls >= FMD_LIMIT_CALLS_PER_PEER)
    {
      *why = g_strdup_printf ("this connection has %d calls in progress, the most one may; "
                              "wait for their replies", FMD_LIMIT_CALLS_PER_PEER);
      return FALSE;
    }
  if (peer->uid != 0 &&
      user_of (self, peer)->n_calls >= (peer->uid == UID_UNKNOWN ? FMD_LIMIT_CALLS_UNIDENTIFIED
                                                                 : FMD_LIMIT_CALLS_PER_USER))
    {
      *why = g_strdup ("your user has as many calls in progress as a user may; wait for "
                       "their replies");
      return FALSE;
    }
  if (self->n_calls >= FMD_LIMIT_CALLS ||
      (peer->uid != 0 && calls_not_root (self) >= FMD_LIMIT_CALLS - FMD_LIMIT_CALLS_ROOT_RESERVE))
    {
      *why = g_strdup ("filemond has as many calls in progress as it takes; try again in a "
                       "moment");
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
  gboolean refused_lately;
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
  refused_lately = refused_lately_locked (self, message, peer);
  if (!check_call_locked (self, message, sender, peer, refused_lately, &why))
    {
      /* not logged one by one: a flood of them would flood the journal too */
      self->n_refused++;
      if (why != NULL)
        refuse (self, message, why);
      g_object_unref (message);
      return NULL;
    }

  peer->n_calls++;
  user_of (self, peer)->n_calls++;
  self->n_calls++;
  g_hash_table_add (self->calls, call_key (sender, g_dbus_message_get_serial (message)));

  if (refused_lately)
    {
      self->n_refused++;
      refuse_later (self, message);
      g_object_unref (message);
      return NULL;
    }
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
          user_of (self, peer)->n_calls--;
          self->n_calls--;
        }
    }

  bytes = message_bytes (message);
  peer->sent += bytes;
  user_of (self, peer)->unread += bytes;
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

void
fmd_limits_disconnect_vanished (FmdLimits *self,
                                gulong    *handler)
{
  g_return_if_fail (FMD_IS_LIMITS (self));

  /* the limits may have been disposed first, which took their handlers with them */
  if (*handler != 0 && g_signal_handler_is_connected (self, *handler))
    g_signal_handler_disconnect (self, *handler);
  *handler = 0;
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
  g_hash_table_unref (self->users);
  g_hash_table_unref (self->refusals);
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
  self->users = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  self->refusals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->owner_checks = g_cancellable_new ();
}
