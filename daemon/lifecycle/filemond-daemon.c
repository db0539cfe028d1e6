/* filemond-daemon.c: filemond's lifecycle; see filemond-daemon.h. */
#include "config.h"

#include "filemond-daemon.h"

#include <glib-unix.h>
#include <signal.h>
#include <systemd/sd-daemon.h>

#define STATUS_INTERVAL_SEC 2
/* How long the exit waits for the backend to be gone; systemd's own stop timeout is
 * longer, so the daemon, not SIGKILL, cleans up. */
#define SHUTDOWN_TIMEOUT_SEC 10

struct _FmdDaemon {
  GObject parent_instance;

  const FmdConfig *config;
  FmdRing *ring;
  FmdSession *session;
  FmdService *service;
  GMainLoop *loop;

  guint status_id;
  guint watchdog_id;
  guint idle_id;
  guint shutdown_timeout_id;
  gulong shutdown_state_id;
  gboolean shutting_down;
  gboolean done;
  int exit_status;
};

G_DEFINE_FINAL_TYPE (FmdDaemon, fmd_daemon, G_TYPE_OBJECT)

/* --- systemd ------------------------------------------------------------------------- */

static gboolean
status_cb (gpointer user_data)
{
  FmdDaemon *self = user_data;
  FmdState state = fmd_session_get_state (self->session);
  guint n_subscribers = 0, n_streams = 0;

  if (self->service != NULL)
    {
      /* a capture whose filter drops every call appends nothing to the ring, and so
       * never triggers the counters' own update */
      fmd_service_update_counters (self->service);
      n_subscribers = fmd_service_get_n_subscribers (self->service);
      n_streams = fmd_service_get_n_streams (self->service);
    }

  sd_notifyf (0, "STATUS=%s%s%s: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT
              " dropped, %" G_GUINT64_FORMAT " buffered, %u subscribers, %u streams",
              fmd_state_to_string (state),
              state != FMD_STATE_IDLE ? " " : "",
              state != FMD_STATE_IDLE ? fmd_session_get_backend_name (self->session) : "",
              fmd_session_get_event_count (self->session),
              fmd_session_get_dropped_count (self->session),
              fmd_ring_get_n_events (self->ring),
              n_subscribers, n_streams);
  return G_SOURCE_CONTINUE;
}

static gboolean
watchdog_cb (gpointer user_data)
{
  sd_notify (0, "WATCHDOG=1");
  return G_SOURCE_CONTINUE;
}

void
fmd_daemon_ready (FmdDaemon  *self,
                  const char *name)
{
  g_return_if_fail (FMD_IS_DAEMON (self));

  g_message ("filemond %s ready as %s", PACKAGE_VERSION, name);
  sd_notify (0, "READY=1\nSTATUS=idle");
}

/* --- idle exit ----------------------------------------------------------------------- */

static gboolean
is_idle (FmdDaemon *self)
{
  FmdState state = fmd_session_get_state (self->session);

  return (state == FMD_STATE_IDLE || state == FMD_STATE_FAILED) &&
         (self->service == NULL || !fmd_service_is_busy (self->service));
}

static gboolean
idle_timeout_cb (gpointer user_data)
{
  FmdDaemon *self = user_data;

  self->idle_id = 0;
  g_message ("nothing happened for %u s; exiting", self->config->idle_timeout_sec);
  fmd_daemon_quit (self, 0, "idle");
  return G_SOURCE_REMOVE;
}

static void
update_idle (FmdDaemon *self)
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
session_changed_cb (FmdSession *session,
                    GParamSpec *pspec,
                    FmdDaemon  *self)
{
  if (g_str_equal (pspec->name, "state") || g_str_equal (pspec->name, "available-backends"))
    status_cb (self);
  update_idle (self);
}

static void
service_busy_cb (FmdService *service,
                 GParamSpec *pspec,
                 FmdDaemon  *self)
{
  update_idle (self);
}

/* --- exit ---------------------------------------------------------------------------- */

static void
finish_quit (FmdDaemon *self)
{
  if (self->done)
    return;
  self->done = TRUE;
  g_clear_signal_handler (&self->shutdown_state_id, self->session);
  g_clear_handle_id (&self->shutdown_timeout_id, g_source_remove);

  if (self->service != NULL)
    fmd_service_close_clients (self->service);
  if (self->loop != NULL)
    g_main_loop_quit (self->loop);
}

static gboolean
is_stopped (FmdDaemon *self)
{
  FmdState state = fmd_session_get_state (self->session);

  return state == FMD_STATE_IDLE || state == FMD_STATE_FAILED;
}

static void
shutdown_state_cb (FmdSession *session,
                   GParamSpec *pspec,
                   FmdDaemon  *self)
{
  if (is_stopped (self))
    finish_quit (self);
}

static gboolean
shutdown_timeout_cb (gpointer user_data)
{
  FmdDaemon *self = user_data;

  self->shutdown_timeout_id = 0;
  g_warning ("the capture backend did not stop in time; exiting anyway");
  finish_quit (self);
  return G_SOURCE_REMOVE;
}

void
fmd_daemon_quit (FmdDaemon  *self,
                 int         exit_status,
                 const char *why)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (FMD_IS_DAEMON (self));

  if (self->shutting_down)
    return;

  self->shutting_down = TRUE;
  self->exit_status = exit_status;
  g_message ("shutting down: %s", why);
  sd_notify (0, "STOPPING=1");

  update_idle (self);
  if (self->service != NULL)
    fmd_service_cancel_saves (self->service);

  if (is_stopped (self))
    {
      finish_quit (self);
      return;
    }

  self->shutdown_state_id = g_signal_connect (self->session, "notify::state",
                                              G_CALLBACK (shutdown_state_cb), self);
  self->shutdown_timeout_id = g_timeout_add_seconds (SHUTDOWN_TIMEOUT_SEC,
                                                     shutdown_timeout_cb, self);

  if (fmd_state_is_capturing (fmd_session_get_state (self->session)) &&
      !fmd_session_stop (self->session, &error))
    g_warning ("cannot stop the capture: %s", error->message);
}

static gboolean
sigterm_cb (gpointer user_data)
{
  fmd_daemon_quit (user_data, 0, "SIGTERM");
  return G_SOURCE_CONTINUE;
}

static gboolean
sigint_cb (gpointer user_data)
{
  fmd_daemon_quit (user_data, 0, "SIGINT");
  return G_SOURCE_CONTINUE;
}

static gboolean
late_signal_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

int
fmd_daemon_run (FmdDaemon *self)
{
  g_autoptr(GMainLoop) loop = NULL;
  guint sigterm_id, sigint_id;

  g_return_val_if_fail (FMD_IS_DAEMON (self), 1);
  g_return_val_if_fail (self->loop == NULL, 1);

  if (self->done)
    return self->exit_status;

  loop = g_main_loop_new (NULL, FALSE);
  self->loop = loop;
  sigterm_id = g_unix_signal_add (SIGTERM, sigterm_cb, self);
  sigint_id = g_unix_signal_add (SIGINT, sigint_cb, self);

  g_main_loop_run (loop);

  /* Shutdown is under way: a second SIGTERM (a harness's or an impatient admin's) must
   * not kill the process with the default action while it frees what it holds. GLib
   * restores that action when the last source of a signal goes, so the no-op sources
   * come first and stay until exit. */
  g_unix_signal_add (SIGTERM, late_signal_cb, NULL);
  g_unix_signal_add (SIGINT, late_signal_cb, NULL);
  g_source_remove (sigterm_id);
  g_source_remove (sigint_id);
  self->loop = NULL;
  return self->exit_status;
}

/* --- object -------------------------------------------------------------------------- */

FmdSession *
fmd_daemon_get_session (FmdDaemon *self)
{
  g_return_val_if_fail (FMD_IS_DAEMON (self), NULL);

  return self->session;
}

FmdRing *
fmd_daemon_get_ring (FmdDaemon *self)
{
  g_return_val_if_fail (FMD_IS_DAEMON (self), NULL);

  return self->ring;
}

void
fmd_daemon_set_service (FmdDaemon  *self,
                        FmdService *service)
{
  g_return_if_fail (FMD_IS_DAEMON (self));
  g_return_if_fail (FMD_IS_SERVICE (service));
  g_return_if_fail (self->service == NULL);

  self->service = g_object_ref (service);
  g_signal_connect_object (service, "notify::busy", G_CALLBACK (service_busy_cb), self, 0);
  update_idle (self);
}

FmdDaemon *
fmd_daemon_new (const FmdConfig    *config,
                FmdBackendRegistry *registry)
{
  FmdDaemon *self;
  guint64 watchdog_usec = 0;

  g_return_val_if_fail (config != NULL, NULL);

  self = g_object_new (FMD_TYPE_DAEMON, NULL);
  self->config = config;
  self->ring = fmd_ring_new (config->buffer_events, config->buffer_bytes);
  self->session = fmd_session_new (config, registry, self->ring);
  g_signal_connect_object (self->session, "notify", G_CALLBACK (session_changed_cb), self, 0);

  if (g_getenv ("NOTIFY_SOCKET") != NULL)
    self->status_id = g_timeout_add_seconds (STATUS_INTERVAL_SEC, status_cb, self);
  if (sd_watchdog_enabled (0, &watchdog_usec) > 0 && watchdog_usec > 0)
    self->watchdog_id = g_timeout_add (MAX (watchdog_usec / 2000, 1), watchdog_cb, self);

  update_idle (self);
  return self;
}

static void
fmd_daemon_dispose (GObject *object)
{
  FmdDaemon *self = FMD_DAEMON (object);

  g_clear_handle_id (&self->status_id, g_source_remove);
  g_clear_handle_id (&self->watchdog_id, g_source_remove);
  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_clear_handle_id (&self->shutdown_timeout_id, g_source_remove);
  if (self->session != NULL)
    g_clear_signal_handler (&self->shutdown_state_id, self->session);

  /* the service and the session use the ring: they go first. A save that was still
   * writing when the main loop ended keeps the service, and its snapshot reads the
   * ring: then the process is exiting, and the ring and the session stay with it. */
  if (self->service != NULL)
    {
      FmdService *service = self->service;

      g_signal_handlers_disconnect_by_data (service, self);
      g_object_add_weak_pointer (G_OBJECT (service), (gpointer *) &service);
      g_clear_object (&self->service);
      if (service != NULL)
        {
          g_object_remove_weak_pointer (G_OBJECT (service), (gpointer *) &service);
          self->session = NULL;
          self->ring = NULL;
        }
    }
  g_clear_object (&self->session);
  g_clear_pointer (&self->ring, fmd_ring_free);

  G_OBJECT_CLASS (fmd_daemon_parent_class)->dispose (object);
}

static void
fmd_daemon_class_init (FmdDaemonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fmd_daemon_dispose;
}

static void
fmd_daemon_init (FmdDaemon *self)
{
}
