/* fmv-live.c: the viewer's connection to filemond.
 *
 * The daemon's name is watched on the system bus; each time an owner appears, a proxy is
 * made and OpenStream is called. The first stream asks for since-seq 0, so the view opens
 * with everything the daemon has buffered; a stream to the same daemon that broke resumes
 * at the next sequence number, and a new daemon (another owner) starts from 0 again. The
 * socket is read 256 KiB at a time at idle priority, so redraws and input go first and a
 * flood of events costs throughput (the daemon counts what this reader missed and says so
 * in gap records), never responsiveness.
 *
 * The system bus connection is the viewer's own, not g_bus_get()'s shared one: that one
 * exits the process when the bus goes (exit-on-close), and a viewer holding a capture
 * nobody saved died with status 143 when a test bus or the system's dbus-daemon ended.
 * This one says the bus is gone, keeps the events, and connects again when a bus runs.
 */
#include "config.h"

#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <unistd.h>

#include "fm-error.h"
#include "fm-names.h"
#include "fm-stream.h"
#include "fmv-gaps.h"
#include "fmv-live-private.h"

#define READ_SIZE (256 * 1024)
#define RETRY_MIN_MS 250
#define RETRY_MAX_MS 5000
#define GAPS_PRUNE_AT 1024

struct _FmvLive
{
  GObject parent_instance;

  FmvStore *store;
  FmvLiveStatus status;
  char *message;

  GDBusConnection *bus;
  gboolean bus_pending;
  gboolean bus_lost;        /* a bus was there and went: say so until one is back */
  guint bus_retry_source;
  GCancellable *bus_cancellable;
  guint bus_retry_ms;
  guint watch_id;
  char *owner;
  char *stream_owner;       /* the daemon next_seq counts for */
  FmFilemond1 *proxy;
  GCancellable *cancellable; /* everything tied to the current owner */

  GInputStream *stream;
  FmStreamDecoder *decoder;
  guint8 *buffer;
  guint n_appended;

  guint64 next_seq;
  guint64 replay_from;      /* the buffered events this stream replays: [from, end) */
  guint64 replay_end;
  guint64 received;
  guint64 missed;
  FmvGaps *gaps;            /* where the missed ones were, for what Save wrote */
  guint64 stream_dropped;
  guint retry_source;
  guint retry_ms;
};

enum {
  PROP_0,
  PROP_STATUS,
  PROP_MESSAGE,
  PROP_STATE,
  PROP_BACKEND,
  PROP_DROPPED,
  PROP_MISSED,
  PROP_RECEIVED,
  N_PROPS
};

enum {
  SIGNAL_APPENDED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (FmvLive, fmv_live, G_TYPE_OBJECT)

static void open_stream (FmvLive *self);
static void connect_bus (FmvLive *self);

/* What the window says while no bus answers after one was there; the events it holds
 * stay, and saying so is the point when there are some. */
static const char *
bus_gone_text (FmvLive *self)
{
  if (self->store != NULL && fmv_store_get_n_rows (self->store) > fmv_store_get_first_row (self->store))
    return "The system bus is gone. The viewer keeps every event it holds (save them with "
           "Save All Events) and connects again when a system bus runs.";
  return "The system bus is gone. The viewer connects again when a system bus runs.";
}

static void
set_status (FmvLive       *self,
            FmvLiveStatus  status,
            const char    *message)
{
  if (self->status != status)
    {
      self->status = status;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }
  if (g_strcmp0 (self->message, message) != 0)
    {
      g_free (self->message);
      self->message = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
    }
}

static void
close_stream (FmvLive *self)
{
  g_clear_object (&self->stream);
  g_clear_pointer (&self->decoder, fm_stream_decoder_free);
}

/* Forgets the current daemon: its proxy, stream and pending calls. */
static void
drop_daemon (FmvLive *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->retry_source, g_source_remove);
  close_stream (self);
  if (self->proxy != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->proxy, self);
      g_clear_object (&self->proxy);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BACKEND]);
    }
}

static gboolean
retry_cb (gpointer data)
{
  FmvLive *self = data;

  self->retry_source = 0;
  open_stream (self);
  return G_SOURCE_REMOVE;
}

/* Calls @func after *@ms doubled (within RETRY_MIN_MS..RETRY_MAX_MS), once. */
static void
schedule_backoff (FmvLive     *self,
                  guint       *source,
                  guint       *ms,
                  GSourceFunc  func)
{
  g_clear_handle_id (source, g_source_remove);
  *ms = CLAMP (*ms * 2, RETRY_MIN_MS, RETRY_MAX_MS);
  *source = g_timeout_add (*ms, func, self);
}

static void
schedule_retry (FmvLive *self)
{
  schedule_backoff (self, &self->retry_source, &self->retry_ms, retry_cb);
}

/* ---- the stream ------------------------------------------------------------------------- */

static gboolean
on_event (const FmEvent *event,
          gpointer       user_data)
{
  FmvLive *self = user_data;

  if (!fmv_store_append (self->store, event, NULL))
    return FALSE;
  self->next_seq = event->seq + 1;
  self->received++;
  self->n_appended++;
  return TRUE;
}

static void
on_gap (guint64  first_seq,
        guint64  count,
        gpointer user_data)
{
  FmvLive *self = user_data;

  self->missed += count;
  fmv_gaps_add (self->gaps, first_seq, count);
  /* bounded by the store: a run below its oldest row can never be inside a save */
  if (fmv_gaps_get_n_runs (self->gaps) >= GAPS_PRUNE_AT && fmv_store_get_n_rows (self->store) > 0)
    {
      FmvStoreEvent oldest;

      if (fmv_store_get_event_if_held (self->store, fmv_store_get_first_row (self->store), &oldest))
        fmv_gaps_forget_before (self->gaps, oldest.event.seq);
    }
  self->next_seq = MAX (self->next_seq, first_seq + count);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MISSED]);
}

static void
on_dropped (guint64  total,
            gpointer user_data)
{
  FmvLive *self = user_data;

  self->stream_dropped = total;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DROPPED]);
}

static const FmStreamCallbacks stream_callbacks = {
  .event = on_event,
  .gap = on_gap,
  .dropped = on_dropped,
};

static void read_next (FmvLive *self);

static void
read_ready_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(FmvLive) self = user_data;
  g_autoptr(GError) error = NULL;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);
  if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (G_INPUT_STREAM (source) != self->stream)
    return;

  if (n > 0)
    {
      gboolean ok;

      self->n_appended = 0;
      ok = fm_stream_decoder_feed (self->decoder, self->buffer, n, &error);
      if (self->n_appended > 0)
        {
          g_debug ("%u events appended, %" G_GUINT64_FORMAT " received in all",
                   self->n_appended, self->received);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECEIVED]);
          g_signal_emit (self, signals[SIGNAL_APPENDED], 0);
        }
      if (ok)
        {
          self->retry_ms = 0;
          read_next (self);
          return;
        }
      if (error == NULL)
        g_set_error (&error, FM_ERROR, FM_ERROR_FAILED, "the viewer cannot hold more events; clear it");
    }

  close_stream (self);
  if (n == 0)
    set_status (self, FMV_LIVE_CONNECTING, "filemond closed the event stream; reconnecting…");
  else
    {
      g_autofree char *message = g_strdup_printf ("The event stream broke (%s); reconnecting…", error->message);

      set_status (self, FMV_LIVE_FAILED, message);
    }
  schedule_retry (self);
}

static void
read_next (FmvLive *self)
{
  g_input_stream_read_async (self->stream, self->buffer, READ_SIZE, G_PRIORITY_DEFAULT_IDLE,
                             self->cancellable, read_ready_cb, g_object_ref (self));
}

static void
open_stream_ready_cb (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(FmvLive) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GUnixFDList) fd_list = NULL;
  g_autoptr(GVariant) reply = NULL;
  gint32 handle;
  int fd;

  reply = g_dbus_proxy_call_with_unix_fd_list_finish (G_DBUS_PROXY (source), &fd_list, result, &error);
  if (reply == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (reply == NULL)
    {
      g_autofree char *message = NULL;

      g_dbus_error_strip_remote_error (error);
      /* the daemon's own words name the polkit action: for administrators, in its log */
      if (g_error_matches (error, FM_ERROR, FM_ERROR_NOT_AUTHORIZED))
        {
          g_debug ("OpenStream refused: %s", error->message);
          set_status (self, FMV_LIVE_REFUSED, "Your account may not watch file activity.");
          return;
        }
      if (g_error_matches (error, FM_ERROR, FM_ERROR_AUTHORIZATION_UNAVAILABLE))
        {
          g_debug ("OpenStream refused: %s", error->message);
          set_status (self, FMV_LIVE_NO_AUTHORITY, FMV_LIVE_POLKIT_DOWN_TEXT);
          schedule_retry (self);
          return;
        }
      message = g_strdup_printf ("Cannot open the event stream: %s", error->message);
      set_status (self, FMV_LIVE_FAILED, message);
      schedule_retry (self);
      return;
    }

  g_variant_get (reply, "(h)", &handle);
  fd = fd_list ? g_unix_fd_list_get (fd_list, handle, &error) : -1;
  if (fd < 0)
    {
      set_status (self, FMV_LIVE_FAILED, "filemond answered OpenStream without a file descriptor");
      schedule_retry (self);
      return;
    }
  /* Non-blocking, so the pollable read path never parks the main loop in read(). */
  if (!g_unix_set_fd_nonblocking (fd, TRUE, &error))
    {
      close (fd);
      set_status (self, FMV_LIVE_FAILED, error->message);
      schedule_retry (self);
      return;
    }

  close_stream (self);
  self->stream = g_unix_input_stream_new (fd, TRUE);
  self->decoder = fm_stream_decoder_new (&stream_callbacks, self);
  g_free (self->stream_owner);
  self->stream_owner = g_strdup (self->owner);
  g_debug ("event stream open from %s, since-seq %" G_GUINT64_FORMAT, self->owner, self->next_seq);
  set_status (self, FMV_LIVE_CONNECTED, NULL);
  read_next (self);
}

static void
open_stream (FmvLive *self)
{
  GVariantBuilder options;
  guint64 since = 0;

  if (self->proxy == NULL)
    return;

  /* Same daemon: resume. Another one (a restart) numbers from 1 again: take all of it. */
  if (g_strcmp0 (self->stream_owner, self->owner) == 0)
    since = self->next_seq;
  else
    {
      self->next_seq = 0;
      /* its numbers start again: the old daemon's gaps would count against them */
      fmv_gaps_clear (self->gaps);
    }

  /* What the daemon buffered when its proxy read its properties: the stream replays
   * those first (and any newer, which then count as live). */
  self->replay_end = fm_filemond1_get_first_seq (self->proxy) + fm_filemond1_get_buffered_count (self->proxy);
  self->replay_from = MAX (since, fm_filemond1_get_first_seq (self->proxy));
  if (fm_filemond1_get_buffered_count (self->proxy) == 0 || self->replay_from >= self->replay_end)
    self->replay_from = self->replay_end = 0;

  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "since-seq", g_variant_new_uint64 (since));
  g_dbus_proxy_call_with_unix_fd_list (G_DBUS_PROXY (self->proxy), "OpenStream",
                                       g_variant_new ("(a{sv})", &options),
                                       G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION,
                                       G_MAXINT, NULL, self->cancellable,
                                       open_stream_ready_cb, g_object_ref (self));
}

/* ---- the daemon's name and properties --------------------------------------------------- */

static void
properties_changed_cb (GDBusProxy *proxy,
                       GVariant   *changed,
                       GStrv       invalidated,
                       FmvLive    *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BACKEND]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DROPPED]);
}

static void
proxy_ready_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(FmvLive) self = user_data;
  g_autoptr(GError) error = NULL;
  FmFilemond1 *proxy;

  proxy = fm_filemond1_proxy_new_finish (result, &error);
  if (proxy == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          set_status (self, FMV_LIVE_FAILED, error->message);
          schedule_retry (self);
        }
      return;
    }
  self->proxy = proxy;
  g_signal_connect (proxy, "g-properties-changed", G_CALLBACK (properties_changed_cb), self);
  properties_changed_cb (G_DBUS_PROXY (proxy), NULL, NULL, self);
  open_stream (self);
}

static void
name_appeared_cb (GDBusConnection *connection,
                  const char      *name,
                  const char      *owner,
                  gpointer         user_data)
{
  FmvLive *self = user_data;

  g_debug ("filemond appeared as %s", owner);
  drop_daemon (self);
  g_free (self->owner);
  self->owner = g_strdup (owner);
  self->retry_ms = 0;
  self->cancellable = g_cancellable_new ();
  set_status (self, FMV_LIVE_CONNECTING, "Connecting to filemond…");
  fm_filemond1_proxy_new (connection, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START,
                          FM_BUS_NAME, FM_OBJECT_PATH, self->cancellable,
                          proxy_ready_cb, g_object_ref (self));
}

static void
name_vanished_cb (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  FmvLive *self = user_data;
  gboolean was_there = self->owner != NULL || self->stream_owner != NULL;

  g_debug ("filemond is not on the bus");
  drop_daemon (self);
  g_clear_pointer (&self->owner, g_free);
  if (connection == NULL || self->bus == NULL || g_dbus_connection_is_closed (self->bus))
    set_status (self, FMV_LIVE_NO_BUS, bus_gone_text (self));
  else if (was_there)
    set_status (self, FMV_LIVE_ABSENT, "filemond stopped. The viewer reconnects when it runs "
                "again; an administrator can start it with “systemctl start filemond”.");
  else
    set_status (self, FMV_LIVE_ABSENT, "filemond is not running. An administrator can start "
                "it with “systemctl start filemond”; the viewer connects when it runs.");
}

static gboolean
bus_retry_cb (gpointer data)
{
  FmvLive *self = data;

  self->bus_retry_source = 0;
  connect_bus (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_bus_retry (FmvLive *self)
{
  schedule_backoff (self, &self->bus_retry_source, &self->bus_retry_ms, bus_retry_cb);
}

/* The bus went (its daemon ended): forget everything on it, keep the store. */
static void
bus_closed_cb (GDBusConnection *connection,
               gboolean         remote_peer_vanished,
               GError          *error,
               FmvLive         *self)
{
  g_debug ("the system bus connection closed (%s)", error ? error->message : "no error");
  if (self->watch_id != 0)
    {
      g_bus_unwatch_name (self->watch_id);
      self->watch_id = 0;
    }
  drop_daemon (self);
  g_clear_pointer (&self->owner, g_free);
  /* A new bus numbers its unique names from :1.0 again, so the next filemond may have the
   * old one's name; it is another daemon all the same (filemond exits with its bus), and
   * resuming at our next_seq would skip its first events. */
  g_clear_pointer (&self->stream_owner, g_free);
  g_signal_handlers_disconnect_by_data (connection, self);
  g_clear_object (&self->bus);
  self->bus_lost = TRUE;
  self->bus_retry_ms = 0;
  set_status (self, FMV_LIVE_NO_BUS, bus_gone_text (self));
  schedule_bus_retry (self);
}

static void
bus_ready_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(FmvLive) self = user_data;
  g_autoptr(GError) error = NULL;
  GDBusConnection *bus;

  bus = g_dbus_connection_new_for_address_finish (result, &error);
  if (bus == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->bus_pending = FALSE;
  g_clear_object (&self->bus_cancellable);
  if (bus == NULL)
    {
      g_autofree char *message = NULL;

      g_debug ("no system bus: %s", error->message);
      if (self->bus_lost)
        message = g_strdup (bus_gone_text (self));
      else
        message = g_strdup_printf ("There is no system bus to reach filemond on (%s).", error->message);
      set_status (self, FMV_LIVE_NO_BUS, message);
      schedule_bus_retry (self);
      return;
    }
  g_debug ("connected to the system bus");
  self->bus = bus;
  self->bus_lost = FALSE;
  self->bus_retry_ms = 0;
  /* Already FALSE for a connection of our own; said here because it is the point. */
  g_dbus_connection_set_exit_on_close (self->bus, FALSE);
  g_signal_connect (self->bus, "closed", G_CALLBACK (bus_closed_cb), self);
  set_status (self, FMV_LIVE_CONNECTING, "Looking for filemond…");
  /* AUTO_START: where filemond is D-Bus activatable, opening the viewer starts it, as the
   * first call of any client would. */
  self->watch_id = g_bus_watch_name_on_connection (self->bus, FM_BUS_NAME,
                                                   G_BUS_NAME_WATCHER_FLAGS_AUTO_START,
                                                   name_appeared_cb, name_vanished_cb,
                                                   self, NULL);
}

static void
connect_bus (FmvLive *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;

  g_clear_handle_id (&self->bus_retry_source, g_source_remove);
  if (self->bus != NULL || self->bus_pending)
    return;
  /* $DBUS_SYSTEM_BUS_ADDRESS or the well-known socket: no I/O here. */
  address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  if (address == NULL)
    {
      set_status (self, FMV_LIVE_NO_BUS, error->message);
      return;
    }
  self->bus_pending = TRUE;
  self->bus_cancellable = g_cancellable_new ();
  if (!self->bus_lost)
    set_status (self, FMV_LIVE_CONNECTING, "Connecting to the system bus…");
  g_dbus_connection_new_for_address (address,
                                     G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                     G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                     NULL, self->bus_cancellable, bus_ready_cb, g_object_ref (self));
}

void
fmv_live_connect (FmvLive *self)
{
  g_return_if_fail (FMV_IS_LIVE (self));

  if (self->bus == NULL)
    {
      connect_bus (self);
      return;
    }
  if (self->proxy != NULL && self->stream == NULL)
    {
      g_clear_handle_id (&self->retry_source, g_source_remove);
      set_status (self, FMV_LIVE_CONNECTING, "Connecting to filemond…");
      open_stream (self);
    }
}

/* ---- accessors -------------------------------------------------------------------------- */

FmFilemond1 *
fmv_live_get_proxy (FmvLive *self)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), NULL);

  return self->proxy;
}

void
fmv_live_set_store (FmvLive  *self,
                    FmvStore *store)
{
  g_return_if_fail (FMV_IS_LIVE (self));
  g_return_if_fail (FMV_IS_STORE (store));

  g_set_object (&self->store, store);
  /* what went missing before the Clear is not in anything the new store can save */
  fmv_gaps_forget_before (self->gaps, self->next_seq);
}

FmvLiveStatus
fmv_live_get_status (FmvLive *self)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), FMV_LIVE_CONNECTING);

  return self->status;
}

const char *
fmv_live_get_message (FmvLive *self)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), NULL);

  return self->message;
}

const char *
fmv_live_get_state (FmvLive *self)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), NULL);

  return self->proxy ? fm_filemond1_get_state (self->proxy) : NULL;
}

const char *
fmv_live_get_backend (FmvLive *self)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), NULL);

  return self->proxy ? fm_filemond1_get_backend (self->proxy) : NULL;
}

GVariant *
fmv_live_get_available_backends (FmvLive *self)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), NULL);

  return self->proxy ? fm_filemond1_get_available_backends (self->proxy) : NULL;
}

guint64
fmv_live_get_dropped (FmvLive *self)
{
  guint64 property;

  g_return_val_if_fail (FMV_IS_LIVE (self), 0);

  /* The property is throttled; the stream's drop records may be newer. */
  property = self->proxy ? fm_filemond1_get_dropped_count (self->proxy) : 0;
  return MAX (property, self->stream_dropped);
}

guint64
fmv_live_get_missed (FmvLive *self)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), 0);

  return self->missed;
}

guint64
fmv_live_count_missed_within (FmvLive *self,
                              guint64  first_seq,
                              guint64  last_seq)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), 0);

  return fmv_gaps_count_within (self->gaps, first_seq, last_seq);
}

gboolean
fmv_live_get_replay_progress (FmvLive *self,
                              guint64 *done,
                              guint64 *total)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), FALSE);

  *done = *total = 0;
  if (self->stream == NULL || self->next_seq >= self->replay_end)
    return FALSE;
  *done = MAX (self->next_seq, self->replay_from) - self->replay_from;
  *total = self->replay_end - self->replay_from;
  return TRUE;
}

guint64
fmv_live_get_received (FmvLive *self)
{
  g_return_val_if_fail (FMV_IS_LIVE (self), 0);

  return self->received;
}

/* ---- GObject ---------------------------------------------------------------------------- */

static void
fmv_live_dispose (GObject *object)
{
  FmvLive *self = FMV_LIVE (object);

  if (self->watch_id != 0)
    {
      g_bus_unwatch_name (self->watch_id);
      self->watch_id = 0;
    }
  drop_daemon (self);
  g_clear_handle_id (&self->bus_retry_source, g_source_remove);
  g_cancellable_cancel (self->bus_cancellable);
  g_clear_object (&self->bus_cancellable);
  if (self->bus != NULL)
    g_signal_handlers_disconnect_by_data (self->bus, self);
  g_clear_object (&self->bus);

  G_OBJECT_CLASS (fmv_live_parent_class)->dispose (object);
}

static void
fmv_live_finalize (GObject *object)
{
  FmvLive *self = FMV_LIVE (object);

  g_clear_object (&self->store);
  g_free (self->message);
  g_free (self->owner);
  g_free (self->stream_owner);
  g_free (self->buffer);
  fmv_gaps_free (self->gaps);

  G_OBJECT_CLASS (fmv_live_parent_class)->finalize (object);
}

static void
fmv_live_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  FmvLive *self = FMV_LIVE (object);

  switch (prop_id)
    {
    case PROP_STATUS:
      g_value_set_int (value, self->status);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_STATE:
      g_value_set_string (value, fmv_live_get_state (self));
      break;
    case PROP_BACKEND:
      g_value_set_string (value, fmv_live_get_backend (self));
      break;
    case PROP_DROPPED:
      g_value_set_uint64 (value, fmv_live_get_dropped (self));
      break;
    case PROP_MISSED:
      g_value_set_uint64 (value, self->missed);
      break;
    case PROP_RECEIVED:
      g_value_set_uint64 (value, self->received);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fmv_live_class_init (FmvLiveClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = fmv_live_dispose;
  object_class->finalize = fmv_live_finalize;
  object_class->get_property = fmv_live_get_property;

  properties[PROP_STATUS] = g_param_spec_int ("status", NULL, NULL, FMV_LIVE_CONNECTING,
                                              FMV_LIVE_CONNECTED, FMV_LIVE_CONNECTING, flags);
  properties[PROP_MESSAGE] = g_param_spec_string ("message", NULL, NULL, NULL, flags);
  properties[PROP_STATE] = g_param_spec_string ("state", NULL, NULL, NULL, flags);
  properties[PROP_BACKEND] = g_param_spec_string ("backend", NULL, NULL, NULL, flags);
  properties[PROP_DROPPED] = g_param_spec_uint64 ("dropped", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_MISSED] = g_param_spec_uint64 ("missed", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_RECEIVED] = g_param_spec_uint64 ("received", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_APPENDED] = g_signal_new ("appended", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 0);

  /* Registers the D-Bus error names, so NotAuthorized arrives as FM_ERROR_NOT_AUTHORIZED. */
  (void) fm_error_quark ();
}

static void
fmv_live_init (FmvLive *self)
{
  self->buffer = g_malloc (READ_SIZE);
  self->gaps = fmv_gaps_new ();
  self->status = FMV_LIVE_CONNECTING;
}

FmvLive *
fmv_live_new (FmvStore *store)
{
  FmvLive *self;

  g_return_val_if_fail (FMV_IS_STORE (store), NULL);

  self = g_object_new (FMV_TYPE_LIVE, NULL);
  self->store = g_object_ref (store);
  return self;
}
