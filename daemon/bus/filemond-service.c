/* filemond-service.c: the D-Bus object; see filemond-service.h.
 *
 * Authorization lives in one place, g_authorize_method, with a method -> polkit action
 * table and default deny. Because that vfunc is overridden (and the skeleton does not
 * handle invocations in a thread), GIO runs it in a worker thread and dispatches the
 * handler back on the main loop only when it returned TRUE: handlers stay
 * single-threaded and never run for a refused caller.
 *
 * Properties are authorized there too: the skeleton's vtable is replaced by one without
 * a get_property function, so that GDBus hands Get and GetAll to method_call, through
 * the same worker-thread check, and the handler here answers them with what the caller
 * may read (filemond-auth.h). The private properties' changes go to the watchers alone
 * (filemond-watchers.h); the skeleton broadcasts only the public ones.
 */
#include "config.h"

#include "filemond-service.h"

#include <gio/gunixfdlist.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "filemond-auth.h"
#include "filemond-limits.h"
#include "filemond-options.h"
#include "filemond-quota.h"
#include "filemond-save.h"
#include "filemond-stream.h"
#include "filemond-subscribers.h"
#include "filemond-watchers.h"
#include "fm-error.h"
#include "fm-format.h"
#include "fm-names.h"

/* PropertiesChanged for the counters at most this often. */
#define COUNTERS_INTERVAL_MS 250
#define STATUS_INTERVAL_SEC 2
/* A save holds a thread, a descriptor and a snapshot of the ring until its reader has
 * it all (or took nothing for SaveStallSec): bound how many, in all, per user (the last
 * few are root's: filemond-quota.h) and per connection, so that no caller can take every
 * slot. */
#define MAX_SAVES 16
#define MAX_SAVES_PER_UID 4
#define MAX_SAVES_ROOT_RESERVE 4
#define MAX_SAVES_PER_PEER 2

struct _FmdService {
  FmFilemond1Skeleton parent_instance;

  GDBusConnection *connection;
  const FmdConfig *config;
  gboolean session_bus;

  FmdLimits *limits;
  FmdRing *ring;
  FmdSession *session;
  FmdSubscribers *subscribers;
  FmdStreams *streams;
  FmdWatchers *watchers;
  GHashTable *private_changed;  /* D-Bus names of private properties changed since sent */
  guint private_changed_id;

  GCancellable *saves_cancellable;
  GHashTable *saves_by_peer;   /* unique name -> number of its saves in progress */
  FmdQuota *saves_quota;

  guint ring_watch;
  guint counters_id;
  guint status_id;
  guint watchdog_id;
  guint idle_id;
  gboolean shutting_down;
  gboolean capturing;       /* what watchers were last told */
};

enum {
  SIGNAL_IDLE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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

/* --- properties: who reads what ------------------------------------------------------ */

static const GDBusInterfaceVTable *
skeleton_vtable (FmdService *self)
{
  return G_DBUS_INTERFACE_SKELETON_CLASS (fmd_service_parent_class)->get_vtable (G_DBUS_INTERFACE_SKELETON (self));
}

/* A new reference (the skeleton's function may return a floating one or not). */
static GVariant *
property_value (FmdService *self,
                const char *name)
{
  return g_variant_take_ref (skeleton_vtable (self)->get_property (self->connection, NULL,
                                                                   FM_OBJECT_PATH, FM_INTERFACE,
                                                                   name, NULL, self));
}

/* The caller, allowed to subscribe, follows the private properties from now on. */
static void
add_watcher (FmdService            *self,
             GDBusMethodInvocation *invocation)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  guint32 uid;

  /* one that follows them already asked polkit nothing this time */
  if (sender != NULL && fmd_auth_lookup_caller_uid (invocation, &uid))
    fmd_watchers_add (self->watchers, sender, uid);
}

/* Get and GetAll, once fmd_authorize_properties() let them through. */
static void
handle_properties (FmdService            *self,
                   GDBusMethodInvocation *invocation)
{
  FmdPropertyAccess access = fmd_properties_access (invocation);
  GDBusInterfaceInfo *info = fm_filemond1_interface_info ();
  GVariantBuilder all;

  if (access == FMD_PROPERTIES_ALL)
    add_watcher (self, invocation);

  if (g_str_equal (g_dbus_method_invocation_get_method_name (invocation), "Get"))
    {
      const GDBusPropertyInfo *property = g_dbus_method_invocation_get_property_info (invocation);
      g_autoptr(GVariant) value = NULL;

      /* the authorization answered a refused Get of a private property itself */
      g_assert (property != NULL);
      g_assert (access == FMD_PROPERTIES_ALL || !fmd_property_is_private (property));
      value = property_value (self, property->name);
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(v)", value));
      return;
    }

  g_variant_builder_init (&all, G_VARIANT_TYPE_VARDICT);
  for (guint i = 0; info->properties[i] != NULL; i++)
    if (access == FMD_PROPERTIES_ALL || !fmd_property_is_private (info->properties[i]))
      {
        g_autoptr(GVariant) value = property_value (self, info->properties[i]->name);

        g_variant_builder_add (&all, "{sv}", info->properties[i]->name, value);
      }
  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(a{sv})", &all));
}

static void
service_method_call (GDBusConnection       *connection,
                     const char            *sender,
                     const char            *object_path,
                     const char            *interface_name,
                     const char            *method_name,
                     GVariant              *parameters,
                     GDBusMethodInvocation *invocation,
                     gpointer               user_data)
{
  FmdService *self = FMD_SERVICE (user_data);

  if (fmd_is_properties_call (invocation))
    handle_properties (self, invocation);
  else
    skeleton_vtable (self)->method_call (connection, sender, object_path, interface_name,
                                         method_name, parameters, invocation, user_data);
}

/* No get_property or set_property: GDBus then routes Get and GetAll to method_call, past
 * the authorization, and refuses Set itself (every property is read-only). */
static GDBusInterfaceVTable *
fmd_service_get_vtable (GDBusInterfaceSkeleton *skeleton)
{
  static GDBusInterfaceVTable vtable = { service_method_call, NULL, NULL, { NULL } };

  return &vtable;
}

static gboolean
send_private_changed_cb (gpointer user_data)
{
  FmdService *self = user_data;
  GVariantBuilder changed;
  GHashTableIter iter;
  gpointer name;

  self->private_changed_id = 0;
  g_variant_builder_init (&changed, G_VARIANT_TYPE_VARDICT);
  g_hash_table_iter_init (&iter, self->private_changed);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      g_autoptr(GVariant) value = property_value (self, name);

      g_variant_builder_add (&changed, "{sv}", (const char *) name, value);
    }
  g_hash_table_remove_all (self->private_changed);
  fmd_watchers_send_changed (self->watchers, FM_INTERFACE, g_variant_builder_end (&changed));
  return G_SOURCE_REMOVE;
}

/* The skeleton broadcasts the changes of the public properties; those of the private
 * ones, which it leaves out, are sent to the watchers, gathered in the same way: one
 * signal for all the changes of one main loop iteration. */
static void
property_notify_cb (FmdService *self,
                    GParamSpec *pspec)
{
  const GDBusPropertyInfo *info;

  info = g_dbus_interface_info_lookup_property (fm_filemond1_interface_info (),
                                                g_param_spec_get_nick (pspec));
  if (info == NULL || !fmd_property_is_private (info))
    return;
  /* the names are the interface info's, static */
  g_hash_table_add (self->private_changed, info->name);
  /* at the skeleton's priority: a busy capture keeps default-priority sources ready and
   * would starve an idle one */
  if (self->private_changed_id == 0)
    self->private_changed_id = g_idle_add_full (G_PRIORITY_DEFAULT, send_private_changed_cb,
                                                self, NULL);
}

/* --- properties and idle tracking ---------------------------------------------------- */

static gboolean
is_idle (FmdService *self)
{
  FmdState state = fmd_session_get_state (self->session);

  return (state == FMD_STATE_IDLE || state == FMD_STATE_FAILED) &&
         fmd_subscribers_get_n_subscribers (self->subscribers) == 0 &&
         fmd_streams_get_n_streams (self->streams) == 0 &&
         fmd_quota_get_n_taken (self->saves_quota) == 0;
}

static gboolean
idle_timeout_cb (gpointer user_data)
{
  FmdService *self = user_data;

  self->idle_id = 0;
  g_message ("nothing happened for %u s; exiting", self->config->idle_timeout_sec);
  g_signal_emit (self, signals[SIGNAL_IDLE], 0);
  return G_SOURCE_REMOVE;
}

static void
update_idle (FmdService *self)
{
  if (self->shutting_down || self->config->idle_timeout_sec == 0 || !is_idle (self))
    {
      g_clear_handle_id (&self->idle_id, g_source_remove);
      return;
    }

  if (self->idle_id == 0)
    self->idle_id = g_timeout_add_seconds (self->config->idle_timeout_sec,
                                           idle_timeout_cb, self);
}

static void
update_counters (FmdService *self)
{
  FmFilemond1 *iface = FM_FILEMOND1 (self);
  guint64 n_events = fmd_ring_get_n_events (self->ring);

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
  update_counters (self);
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

static gboolean
status_cb (gpointer user_data)
{
  FmdService *self = user_data;
  FmdState state = fmd_session_get_state (self->session);

  /* a capture whose filter drops every call appends nothing to the ring */
  update_counters (self);

  sd_notifyf (0, "STATUS=%s%s%s: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT
              " dropped, %" G_GUINT64_FORMAT " buffered, %u subscribers, %u streams",
              fmd_state_to_string (state),
              state != FMD_STATE_IDLE ? " " : "",
              state != FMD_STATE_IDLE ? fmd_session_get_backend_name (self->session) : "",
              fmd_session_get_event_count (self->session),
              fmd_session_get_dropped_count (self->session),
              fmd_ring_get_n_events (self->ring),
              fmd_subscribers_get_n_subscribers (self->subscribers),
              fmd_streams_get_n_streams (self->streams));
  return G_SOURCE_CONTINUE;
}

static gboolean
watchdog_cb (gpointer user_data)
{
  sd_notify (0, "WATCHDOG=1");
  return G_SOURCE_CONTINUE;
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
      status_cb (self);
      tell_watchers (self, fmd_session_get_state (session));
    }

  fmd_streams_set_dropped_total (self->streams, fmd_session_get_dropped_count (session));
  update_counters (self);
  update_idle (self);
}

static void
activity_changed_cb (GObject    *object,
                     GParamSpec *pspec,
                     FmdService *self)
{
  update_idle (self);
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

  options = fmd_options_new_from_variant (arg_options, &error);
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

static guint
peer_saves (FmdService *self,
            const char *peer)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->saves_by_peer, peer));
}

static void
count_save (FmdService *self,
            const char *peer,
            int         delta)
{
  guint n = peer_saves (self, peer) + delta;

  if (n == 0)
    g_hash_table_remove (self->saves_by_peer, peer);
  else
    g_hash_table_insert (self->saves_by_peer, g_strdup (peer), GUINT_TO_POINTER (n));
}

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

  count_save (call->self, call->peer, -1);
  fmd_quota_release (call->self->saves_quota, call->uid);
  update_idle (call->self);
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

  if (peer_saves (self, sender) >= MAX_SAVES_PER_PEER)
    {
      close (fd);
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR,
                                             G_DBUS_ERROR_LIMITS_EXCEEDED,
                                             "this connection has %d saves in progress "
                                             "already, the most one may; try again when one "
                                             "has finished", MAX_SAVES_PER_PEER);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  if (!fmd_quota_take (self->saves_quota, uid, &error))
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
  count_save (self, sender, +1);
  update_idle (self);

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
  add_watcher (self, invocation);
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
  add_watcher (self, invocation);
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

/* --- shutdown ------------------------------------------------------------------------ */

static void
shutdown_finish_now (GTask *task)
{
  FmdService *self = g_task_get_source_object (task);

  g_signal_handlers_disconnect_by_data (self->session, task);
  if (g_task_get_completed (task) || g_task_had_error (task))
    return;

  fmd_subscribers_flush (self->subscribers);
  fmd_streams_close_all (self->streams);
  update_counters (self);
  g_task_return_boolean (task, TRUE);
}

static void
shutdown_state_cb (FmdSession *session,
                   GParamSpec *pspec,
                   GTask      *task)
{
  FmdState state = fmd_session_get_state (session);

  if (state == FMD_STATE_IDLE || state == FMD_STATE_FAILED)
    shutdown_finish_now (task);
}

static gboolean
shutdown_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;

  if (!g_task_get_completed (task))
    {
      g_warning ("the capture backend did not stop in time; exiting anyway");
      shutdown_finish_now (task);
    }
  return G_SOURCE_REMOVE;
}

void
fmd_service_shutdown_async (FmdService          *self,
                            guint                timeout_sec,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);
  g_autoptr(GError) error = NULL;
  FmdState state;

  g_return_if_fail (FMD_IS_SERVICE (self));

  self->shutting_down = TRUE;
  update_idle (self);
  g_cancellable_cancel (self->saves_cancellable);

  state = fmd_session_get_state (self->session);
  if (state == FMD_STATE_IDLE || state == FMD_STATE_FAILED)
    {
      shutdown_finish_now (task);
      return;
    }

  g_signal_connect_object (self->session, "notify::state", G_CALLBACK (shutdown_state_cb),
                           task, 0);
  g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, timeout_sec, shutdown_timeout_cb,
                              g_object_ref (task), g_object_unref);

  if (fmd_state_is_capturing (state) && !fmd_session_stop (self->session, &error))
    g_warning ("cannot stop the capture: %s", error->message);
}

gboolean
fmd_service_shutdown_finish (FmdService    *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- object ---------------------------------------------------------------------------- */

FmdSession *
fmd_service_get_session (FmdService *self)
{
  g_return_val_if_fail (FMD_IS_SERVICE (self), NULL);

  return self->session;
}

FmdRing *
fmd_service_get_ring (FmdService *self)
{
  g_return_val_if_fail (FMD_IS_SERVICE (self), NULL);

  return self->ring;
}

FmdService *
fmd_service_new (GDBusConnection *connection,
                 const FmdConfig *config,
                 gboolean         session_bus,
                 GError         **error)
{
  g_autoptr(FmdService) self = NULL;
  g_autoptr(GVariant) available = NULL;
  FmFilemond1 *iface;
  guint64 watchdog_usec = 0;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), NULL);
  g_return_val_if_fail (config != NULL, NULL);

  self = g_object_new (FMD_TYPE_SERVICE, NULL);
  iface = FM_FILEMOND1 (self);
  self->connection = g_object_ref (connection);
  self->config = config;
  self->session_bus = session_bus;

  self->ring = fmd_ring_new (config->buffer_events, config->buffer_bytes);
  self->session = fmd_session_new (config, self->ring);
  self->limits = fmd_limits_new (connection);
  self->subscribers = fmd_subscribers_new (connection, self->limits, self->ring,
                                           config->subscriber_queue_events);
  self->streams = fmd_streams_new (self->ring, config->stream_buffer_bytes);
  self->watchers = fmd_watchers_new (connection, self->limits, FM_OBJECT_PATH);
  self->private_changed = g_hash_table_new (g_str_hash, g_str_equal);
  self->saves_cancellable = g_cancellable_new ();

  available = fmd_session_dup_available_backends (self->session);
  fm_filemond1_set_version (iface, PACKAGE_VERSION);
  fm_filemond1_set_state (iface, fmd_state_to_string (FMD_STATE_IDLE));
  fm_filemond1_set_backend (iface, "");
  fm_filemond1_set_last_error (iface, "");
  fm_filemond1_set_progress (iface, "");
  fm_filemond1_set_available_backends (iface, available);
  fm_filemond1_set_options (iface, g_variant_new ("a{sv}", NULL));
  fm_filemond1_set_buffer_capacity (iface, config->buffer_events);
  update_counters (self);

  g_signal_connect (self, "notify", G_CALLBACK (property_notify_cb), NULL);
  g_signal_connect_object (self->session, "notify", G_CALLBACK (session_changed_cb), self, 0);
  g_signal_connect_object (self->subscribers, "notify::n-subscribers",
                           G_CALLBACK (activity_changed_cb), self, 0);
  g_signal_connect_object (self->streams, "notify::n-streams",
                           G_CALLBACK (activity_changed_cb), self, 0);

  self->ring_watch = fmd_ring_add_watch (self->ring, ring_appended_cb, self);
  if (g_getenv ("NOTIFY_SOCKET") != NULL)
    self->status_id = g_timeout_add_seconds (STATUS_INTERVAL_SEC, status_cb, self);
  if (sd_watchdog_enabled (0, &watchdog_usec) > 0 && watchdog_usec > 0)
    self->watchdog_id = g_timeout_add (MAX (watchdog_usec / 2000, 1), watchdog_cb, self);

  if (!g_dbus_interface_skeleton_export (G_DBUS_INTERFACE_SKELETON (self), connection,
                                         FM_OBJECT_PATH, error))
    return NULL;

  update_idle (self);
  return g_steal_pointer (&self);
}

static void
fmd_service_dispose (GObject *object)
{
  FmdService *self = FMD_SERVICE (object);

  g_clear_handle_id (&self->counters_id, g_source_remove);
  g_clear_handle_id (&self->status_id, g_source_remove);
  g_clear_handle_id (&self->watchdog_id, g_source_remove);
  g_clear_handle_id (&self->idle_id, g_source_remove);
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
  g_clear_object (&self->session);
  g_clear_pointer (&self->ring, fmd_ring_free);
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

  g_hash_table_unref (self->saves_by_peer);
  fmd_quota_free (self->saves_quota);

  G_OBJECT_CLASS (fmd_service_parent_class)->finalize (object);
}

static void
fmd_service_class_init (FmdServiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GDBusInterfaceSkeletonClass *skeleton_class = G_DBUS_INTERFACE_SKELETON_CLASS (klass);

  object_class->dispose = fmd_service_dispose;
  object_class->finalize = fmd_service_finalize;
  skeleton_class->g_authorize_method = fmd_service_authorize_method;
  skeleton_class->get_vtable = fmd_service_get_vtable;

  signals[SIGNAL_IDLE] = g_signal_new ("idle", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
fmd_service_init (FmdService *self)
{
  self->saves_by_peer = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->saves_quota = fmd_quota_new ("saves", MAX_SAVES, MAX_SAVES_PER_UID,
                                     MAX_SAVES_ROOT_RESERVE);
}
