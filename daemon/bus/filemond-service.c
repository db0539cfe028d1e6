/* filemond-service.c: the D-Bus object; see filemond-service.h.
 *
 * Authorization lives in one place, g_authorize_method, with a method -> polkit action
 * table and default deny. Because that vfunc is overridden (and the skeleton does not
 * handle invocations in a thread), GIO runs it in a worker thread and dispatches the
 * handler back on the main loop only when it returned TRUE: handlers stay
 * single-threaded and never run for a refused caller. Get and GetAll go through the
 * same check (filemond-service-properties.c).
 */
#include "config.h"

#include "filemond-service-private.h"

#include <gio/gunixfdlist.h>
#include <unistd.h>

#include "filemond-auth.h"
#include "filemond-options.h"
#include "filemond-save.h"
#include "fm-error.h"
#include "fm-format.h"
#include "fm-names.h"

/* PropertiesChanged for the counters at most this often. */
#define COUNTERS_INTERVAL_MS 250

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void fmd_service_iface_init (FmFilemond1Iface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (FmdService, fmd_service, FM_TYPE_FILEMOND1_SKELETON,
                               G_IMPLEMENT_INTERFACE (FM_TYPE_FILEMOND1, fmd_service_iface_init))

static gboolean
fmd_service_authorize_method (GDBusInterfaceSkeleton *skeleton,
                              GDBusMethodInvocation  *invocation)
{
  FmdService *self = FMD_SERVICE (skeleton);

  if (fmd_is_properties_call (invocation))
    return fmd_authorize_properties (self->connection, self->session_bus, self->limits,
                                     invocation,
                                     fmd_watchers_contains (self->watchers,
                                                            g_dbus_method_invocation_get_sender (invocation)));
  return fmd_authorize_method (self->connection, self->session_bus, self->limits, invocation);
}

/* --- the session as properties ------------------------------------------------------- */

static void
update_busy (FmdService *self)
{
  gboolean busy = fmd_subscribers_get_n_subscribers (self->subscribers) > 0 ||
                  fmd_streams_get_n_streams (self->streams) > 0 ||
                  fmd_save_slots_get_n_taken (self->save_slots) > 0;

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

void
fmd_service_update_counters (FmdService *self)
{
  FmFilemond1 *iface = FM_FILEMOND1 (self);
  guint64 n_events;

  g_return_if_fail (FMD_IS_SERVICE (self));

  n_events = fmd_ring_get_n_events (self->ring);
  fm_filemond1_set_event_count (iface, fmd_session_get_event_count (self->session));
  fm_filemond1_set_dropped_count (iface, fmd_session_get_dropped_count (self->session));
  fm_filemond1_set_filtered_count (iface, fmd_session_get_filtered_count (self->session));
  fm_filemond1_set_overwritten_count (iface, fmd_ring_get_overwritten (self->ring));
  fm_filemond1_set_buffered_count (iface, n_events);
  fm_filemond1_set_first_seq (iface, n_events > 0 ? fmd_ring_get_first_seq (self->ring) : 0);
}

static gboolean
counters_cb (gpointer user_data)
{
  FmdService *self = user_data;

  self->counters_id = 0;
  fmd_service_update_counters (self);
  return G_SOURCE_REMOVE;
}

/* Counters change with every event: publish them at most every COUNTERS_INTERVAL_MS,
 * and not at all (no wake-ups) while nothing happens. */
static void
ring_appended_cb (FmdRing  *ring,
                  gpointer  user_data)
{
  FmdService *self = user_data;

  if (self->counters_id == 0)
    self->counters_id = g_timeout_add (COUNTERS_INTERVAL_MS, counters_cb, self);
}

/* Watchers follow one shared capture: tell them when it stops or a new one starts, in
 * band, whoever did it. */
static void
tell_watchers (FmdService *self,
               FmdState    state)
{
  gboolean capturing = fmd_state_is_capturing (state);

  if (capturing == self->capturing)
    return;
  self->capturing = capturing;
  fmd_subscribers_capture_changed (self->subscribers, capturing);
  fmd_streams_capture_changed (self->streams,
                               capturing ? FM_CAPTURE_STARTED : FM_CAPTURE_STOPPED);
}

static void
session_changed_cb (FmdSession *session,
                    GParamSpec *pspec,
                    FmdService *self)
{
  FmFilemond1 *iface = FM_FILEMOND1 (self);
  const FmdOptions *options = fmd_session_get_options (session);

  fm_filemond1_set_state (iface, fmd_state_to_string (fmd_session_get_state (session)));
  fm_filemond1_set_backend (iface, fmd_session_get_backend_name (session));
  fm_filemond1_set_last_error (iface, fmd_session_get_last_error (session));
  fm_filemond1_set_progress (iface, fmd_session_get_progress (session));
  fm_filemond1_set_started_at (iface, fmd_session_get_started_at (session));
  if (options != NULL && g_str_equal (pspec->name, "options"))
    fm_filemond1_set_options (iface, fmd_options_to_variant (options));
  if (g_str_equal (pspec->name, "state") || g_str_equal (pspec->name, "available-backends"))
    {
      /* a backend may have become usable or unusable since */
      g_autoptr(GVariant) available = fmd_session_dup_available_backends (session);
      fm_filemond1_set_available_backends (iface, available);
      tell_watchers (self, fmd_session_get_state (session));
    }

  fmd_streams_set_dropped_total (self->streams, fmd_session_get_dropped_count (session));
  fmd_service_update_counters (self);
}

static void
activity_changed_cb (GObject    *object,
                     GParamSpec *pspec,
                     FmdService *self)
{
  update_busy (self);
}

/* --- method handlers (main loop) ----------------------------------------------------- */

static gboolean
handle_start (FmFilemond1           *object,
              GDBusMethodInvocation *invocation,
              GVariant              *arg_options)
{
  FmdService *self = FMD_SERVICE (object);
  g_autoptr(FmdOptions) options = NULL;
  g_autoptr(GError) error = NULL;

  options = fmd_options_new_from_variant (arg_options,
                                          fmd_session_get_registry (self->session), &error);
  if (options == NULL || !fmd_session_start (self->session, options, &error))
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  g_message ("capture started for %s with the %s backend",
             g_dbus_method_invocation_get_sender (invocation),
             fmd_session_get_backend_name (self->session));
  fm_filemond1_complete_start (object, invocation);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_stop (FmFilemond1           *object,
             GDBusMethodInvocation *invocation)
{
  FmdService *self = FMD_SERVICE (object);
  g_autoptr(GError) error = NULL;

  if (!fmd_session_stop (self->session, &error))
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  g_message ("capture stopped by %s", g_dbus_method_invocation_get_sender (invocation));
  fm_filemond1_complete_stop (object, invocation);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* The options of the methods that read the buffer: "since-seq" (t), for Save and
 * OpenStream, and "follow" (b), for OpenStream only (@follow NULL: not accepted). */
static gboolean
parse_read_options (GVariant   *options,
                    const char *method,
                    gboolean   *has_since,
                    guint64    *since_seq,
                    gboolean   *follow,
                    GError    **error)
{
  GVariantIter iter;
  const char *key;
  GVariant *next_value;

  *has_since = FALSE;
  *since_seq = 0;
  if (follow != NULL)
    *follow = TRUE;

  g_variant_iter_init (&iter, options);
  while (g_variant_iter_next (&iter, "{&sv}", &key, &next_value))
    {
      g_autoptr(GVariant) value = next_value;
      gboolean is_follow = follow != NULL && g_str_equal (key, "follow");
      const char *type = is_follow ? "b" : "t";

      if (!is_follow && !g_str_equal (key, "since-seq"))
        {
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "%s: unknown option “%s” (known: since-seq%s)", method, key,
                       follow != NULL ? ", follow" : "");
          return FALSE;
        }
      if (!g_variant_is_of_type (value, G_VARIANT_TYPE (type)))
        {
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "%s: option “%s” must be of type “%s”, not “%s”", method, key, type,
                       g_variant_get_type_string (value));
          return FALSE;
        }
      if (is_follow)
        *follow = g_variant_get_boolean (value);
      else
        {
          *has_since = TRUE;
          *since_seq = g_variant_get_uint64 (value);
        }
    }
  return TRUE;
}

/* The caller's unique name; "" on a peer-to-peer connection (manual tests). */
static const char *
peer_name (GDBusMethodInvocation *invocation)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);

  return sender != NULL ? sender : "";
}

typedef struct {
  FmdService *self;
  GDBusMethodInvocation *invocation;
  char *peer;
  guint32 uid;
} SaveCall;

static void
save_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  SaveCall *call = user_data;
  g_autoptr(GError) error = NULL;
  guint64 written = 0;

  if (fmd_save_finish (result, &written, &error))
    {
      g_debug ("saved %" G_GUINT64_FORMAT " events", written);
      fm_filemond1_complete_save (FM_FILEMOND1 (call->self), call->invocation, NULL, written);
    }
  else
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_error (&error);
          g_set_error_literal (&error, FM_ERROR, FM_ERROR_IO,
                               "the save was interrupted: filemond is shutting down");
        }
      g_message ("save failed: %s", error->message);
      g_dbus_method_invocation_return_gerror (call->invocation, error);
    }

  fmd_save_slots_release (call->self->save_slots, call->peer, call->uid);
  update_busy (call->self);
  g_object_unref (call->self);
  g_free (call->peer);
  g_free (call);
}

static gboolean
handle_save (FmFilemond1           *object,
             GDBusMethodInvocation *invocation,
             GUnixFDList           *fd_list,
             GVariant              *arg_fd,
             const char            *arg_format,
             GVariant              *arg_options)
{
  FmdService *self = FMD_SERVICE (object);
  g_autoptr(GError) error = NULL;
  FmFormat format;
  gboolean has_since;
  guint64 since_seq;
  gint32 handle = g_variant_get_handle (arg_fd);
  const char *sender = peer_name (invocation);
  guint32 uid = fmd_auth_get_caller_uid (invocation);
  SaveCall *call;
  int fd;

  if (!fm_format_from_string (arg_format, &format))
    {
      g_dbus_method_invocation_return_error (invocation, FM_ERROR, FM_ERROR_INVALID_ARGS,
                                             "unknown format “%s” (use jsonl, text or csv)",
                                             arg_format);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  if (!parse_read_options (arg_options, "Save", &has_since, &since_seq, NULL, &error))
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  if (fd_list == NULL || handle < 0 || handle >= g_unix_fd_list_get_length (fd_list))
    {
      g_dbus_method_invocation_return_error (invocation, FM_ERROR, FM_ERROR_INVALID_ARGS,
                                             "no file descriptor was passed with the call "
                                             "(handle %d)", handle);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  fd = g_unix_fd_list_get (fd_list, handle, &error);
  if (fd < 0 || !fmd_save_check_fd (fd, &error))
    {
      if (fd >= 0)
        close (fd);
      g_dbus_method_invocation_return_gerror (invocation, error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (!fmd_save_slots_take (self->save_slots, sender, uid, &error))
    {
      close (fd);
      g_dbus_method_invocation_return_gerror (invocation, error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  call = g_new0 (SaveCall, 1);
  call->self = g_object_ref (self);
  call->invocation = invocation;
  call->peer = g_strdup (sender);
  call->uid = uid;
  update_busy (self);

  fmd_save_async (self->ring, since_seq, fd, format,
                  self->config->save_stall_sec, self->saves_cancellable, save_done_cb, call);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_subscribe (FmFilemond1           *object,
                  GDBusMethodInvocation *invocation,
                  GVariant              *arg_options)
{
  FmdService *self = FMD_SERVICE (object);
  g_autoptr(GError) error = NULL;
  GVariantIter iter;
  const char *key;

  g_variant_iter_init (&iter, arg_options);
  if (g_variant_iter_next (&iter, "{&sv}", &key, NULL))
    {
      g_dbus_method_invocation_return_error (invocation, FM_ERROR, FM_ERROR_INVALID_ARGS,
                                             "Subscribe: unknown option “%s” (it takes none "
                                             "yet)", key);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (!fmd_subscribers_add (self->subscribers, g_dbus_method_invocation_get_sender (invocation),
                            fmd_auth_get_caller_uid (invocation), &error))
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  fmd_service_add_watcher (self, invocation);
  fm_filemond1_complete_subscribe (object, invocation);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_unsubscribe (FmFilemond1           *object,
                    GDBusMethodInvocation *invocation)
{
  FmdService *self = FMD_SERVICE (object);

  fmd_subscribers_remove (self->subscribers, g_dbus_method_invocation_get_sender (invocation));
  fm_filemond1_complete_unsubscribe (object, invocation);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_open_stream (FmFilemond1           *object,
                    GDBusMethodInvocation *invocation,
                    GUnixFDList           *fd_list,
                    GVariant              *arg_options)
{
  FmdService *self = FMD_SERVICE (object);
  g_autoptr(GUnixFDList) out_list = NULL;
  g_autoptr(GError) error = NULL;
  gboolean has_since, follow;
  guint64 since_seq;
  int fd;

  if (!parse_read_options (arg_options, "OpenStream", &has_since, &since_seq, &follow,
                           &error) ||
      (fd = fmd_streams_open (self->streams, peer_name (invocation),
                              fmd_auth_get_caller_uid (invocation), has_since, since_seq,
                              follow, &error)) < 0)
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  g_debug ("stream opened for %s", g_dbus_method_invocation_get_sender (invocation));
  fmd_service_add_watcher (self, invocation);
  out_list = g_unix_fd_list_new_from_array (&fd, 1);
  fm_filemond1_complete_open_stream (object, invocation, out_list, g_variant_new_handle (0));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
fmd_service_iface_init (FmFilemond1Iface *iface)
{
  iface->handle_start = handle_start;
  iface->handle_stop = handle_stop;
  iface->handle_save = handle_save;
  iface->handle_subscribe = handle_subscribe;
  iface->handle_unsubscribe = handle_unsubscribe;
  iface->handle_open_stream = handle_open_stream;
}

/* --- what the daemon reads and does ------------------------------------------------- */

gboolean
fmd_service_is_busy (FmdService *self)
{
  g_return_val_if_fail (FMD_IS_SERVICE (self), FALSE);

  return self->busy;
}

guint
fmd_service_get_n_subscribers (FmdService *self)
{
  g_return_val_if_fail (FMD_IS_SERVICE (self), 0);

  return fmd_subscribers_get_n_subscribers (self->subscribers);
}

guint
fmd_service_get_n_streams (FmdService *self)
{
  g_return_val_if_fail (FMD_IS_SERVICE (self), 0);

  return fmd_streams_get_n_streams (self->streams);
}

void
fmd_service_cancel_saves (FmdService *self)
{
  g_return_if_fail (FMD_IS_SERVICE (self));

  g_cancellable_cancel (self->saves_cancellable);
}

void
fmd_service_close_clients (FmdService *self)
{
  g_return_if_fail (FMD_IS_SERVICE (self));

  fmd_subscribers_flush (self->subscribers);
  fmd_streams_close_all (self->streams);
  fmd_service_update_counters (self);
}

/* --- object ---------------------------------------------------------------------------- */

FmdService *
fmd_service_new (GDBusConnection *connection,
                 const FmdConfig *config,
                 FmdSession      *session,
                 FmdRing         *ring,
                 gboolean         session_bus,
                 GError         **error)
{
  g_autoptr(FmdService) self = NULL;
  g_autoptr(GVariant) available = NULL;
  FmFilemond1 *iface;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), NULL);
  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (FMD_IS_SESSION (session), NULL);
  g_return_val_if_fail (ring != NULL, NULL);

  self = g_object_new (FMD_TYPE_SERVICE, NULL);
  iface = FM_FILEMOND1 (self);
  self->connection = g_object_ref (connection);
  self->config = config;
  self->session_bus = session_bus;

  self->ring = ring;
  self->session = g_object_ref (session);
  self->limits = fmd_limits_new (connection);
  self->subscribers = fmd_subscribers_new (connection, self->limits, self->ring,
                                           config->subscriber_queue_events);
  self->streams = fmd_streams_new (self->ring, config->stream_buffer_bytes);
  self->watchers = fmd_watchers_new (connection, self->limits, FM_OBJECT_PATH);
  self->private_changed = g_hash_table_new (g_str_hash, g_str_equal);
  self->saves_cancellable = g_cancellable_new ();

  available = fmd_session_dup_available_backends (self->session);
  fm_filemond1_set_version (iface, PACKAGE_VERSION);
  fm_filemond1_set_state (iface, fmd_state_to_string (fmd_session_get_state (session)));
  fm_filemond1_set_backend (iface, fmd_session_get_backend_name (session));
  fm_filemond1_set_last_error (iface, fmd_session_get_last_error (session));
  fm_filemond1_set_progress (iface, fmd_session_get_progress (session));
  fm_filemond1_set_available_backends (iface, available);
  fm_filemond1_set_options (iface, g_variant_new ("a{sv}", NULL));
  fm_filemond1_set_buffer_capacity (iface, config->buffer_events);
  fmd_service_update_counters (self);

  g_signal_connect (self, "notify", G_CALLBACK (fmd_service_private_notify_cb), NULL);
  g_signal_connect_object (self->session, "notify", G_CALLBACK (session_changed_cb), self, 0);
  g_signal_connect_object (self->subscribers, "notify::n-subscribers",
                           G_CALLBACK (activity_changed_cb), self, 0);
  g_signal_connect_object (self->streams, "notify::n-streams",
                           G_CALLBACK (activity_changed_cb), self, 0);

  self->ring_watch = fmd_ring_add_watch (self->ring, ring_appended_cb, self);

  if (!g_dbus_interface_skeleton_export (G_DBUS_INTERFACE_SKELETON (self), connection,
                                         FM_OBJECT_PATH, error))
    return NULL;

  return g_steal_pointer (&self);
}

static void
fmd_service_dispose (GObject *object)
{
  FmdService *self = FMD_SERVICE (object);

  g_clear_handle_id (&self->counters_id, g_source_remove);
  g_clear_handle_id (&self->private_changed_id, g_source_remove);

  if (self->connection != NULL &&
      g_dbus_interface_skeleton_has_connection (G_DBUS_INTERFACE_SKELETON (self), self->connection))
    g_dbus_interface_skeleton_unexport (G_DBUS_INTERFACE_SKELETON (self));

  if (self->saves_cancellable != NULL)
    g_cancellable_cancel (self->saves_cancellable);

  /* users of the ring go before it */
  if (self->ring_watch != 0)
    {
      fmd_ring_remove_watch (self->ring, self->ring_watch);
      self->ring_watch = 0;
    }
  g_clear_object (&self->subscribers);
  g_clear_object (&self->streams);
  g_clear_object (&self->watchers);
  g_clear_pointer (&self->private_changed, g_hash_table_unref);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->limits != NULL)
    g_object_run_dispose (G_OBJECT (self->limits));
  g_clear_object (&self->limits);
  g_clear_object (&self->saves_cancellable);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (fmd_service_parent_class)->dispose (object);
}

/* A save in progress holds a reference: its end, after dispose, still counts it out. */
static void
fmd_service_finalize (GObject *object)
{
  FmdService *self = FMD_SERVICE (object);

  fmd_save_slots_free (self->save_slots);

  G_OBJECT_CLASS (fmd_service_parent_class)->finalize (object);
}

static void
fmd_service_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  FmdService *self = FMD_SERVICE (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fmd_service_class_init (FmdServiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GDBusInterfaceSkeletonClass *skeleton_class = G_DBUS_INTERFACE_SKELETON_CLASS (klass);

  object_class->dispose = fmd_service_dispose;
  object_class->finalize = fmd_service_finalize;
  object_class->get_property = fmd_service_get_property;
  skeleton_class->g_authorize_method = fmd_service_authorize_method;
  skeleton_class->get_vtable = fmd_service_properties_vtable;

  /* the skeleton's own properties are the D-Bus ones; this one is the daemon's */
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                                                G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fmd_service_init (FmdService *self)
{
  self->save_slots = fmd_save_slots_new ();
}
