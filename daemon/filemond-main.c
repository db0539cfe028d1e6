/* filemond-main.c: filemond's entry point: options, config, bus name, signals. Everything
 * else lives in the daemon library (filemond-service.c and below). */
#include "config.h"

#include <errno.h>
#include <glib-unix.h>
#include <locale.h>
#include <signal.h>
#include <sys/resource.h>
#include <systemd/sd-daemon.h>

#include "filemond-backend.h"
#include "filemond-config.h"
#include "filemond-log.h"
#include "filemond-options.h"
#include "filemond-service.h"
#include "filemond-stap-build.h"
#include "fm-error.h"
#include "fm-names.h"

/* How long SIGTERM waits for the backend to be gone; systemd's own stop timeout is
 * longer, so the daemon, not SIGKILL, cleans up. */
#define SHUTDOWN_TIMEOUT_SEC 10

typedef struct {
  GMainLoop *loop;
  FmdService *service;
  guint owner_id;
  gboolean name_acquired;
  gboolean shutting_down;
  int exit_status;
} Daemon;

static void
shutdown_done_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Daemon *daemon = user_data;
  g_autoptr(GError) error = NULL;

  if (!fmd_service_shutdown_finish (FMD_SERVICE (source), result, &error))
    g_warning ("shutdown: %s", error->message);
  g_main_loop_quit (daemon->loop);
}

static void
begin_shutdown (Daemon     *daemon,
                int         exit_status,
                const char *why)
{
  if (daemon->shutting_down)
    return;

  daemon->shutting_down = TRUE;
  daemon->exit_status = exit_status;
  g_message ("shutting down: %s", why);
  sd_notify (0, "STOPPING=1");

  if (daemon->service == NULL)
    {
      g_main_loop_quit (daemon->loop);
      return;
    }
  fmd_service_shutdown_async (daemon->service, SHUTDOWN_TIMEOUT_SEC, shutdown_done_cb, daemon);
}

static gboolean
sigterm_cb (gpointer user_data)
{
  begin_shutdown (user_data, 0, "SIGTERM");
  return G_SOURCE_CONTINUE;
}

static gboolean
sigint_cb (gpointer user_data)
{
  begin_shutdown (user_data, 0, "SIGINT");
  return G_SOURCE_CONTINUE;
}

static void
idle_cb (FmdService *service,
         Daemon     *daemon)
{
  begin_shutdown (daemon, 0, "idle");
}

static void
name_acquired_cb (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  Daemon *daemon = user_data;

  daemon->name_acquired = TRUE;
  g_message ("filemond %s ready as %s", PACKAGE_VERSION, name);
  sd_notify (0, "READY=1\nSTATUS=idle");
}

static void
name_lost_cb (GDBusConnection *connection,
              const char      *name,
              gpointer         user_data)
{
  Daemon *daemon = user_data;

  if (connection == NULL)
    begin_shutdown (daemon, 1, "the connection to the bus is gone");
  else if (daemon->name_acquired)
    begin_shutdown (daemon, 0, "another filemond replaced this one");
  else
    {
      g_warning ("cannot own the bus name %s: another filemond runs (start with --replace "
                 "to take over) or the bus policy does not allow it", name);
      begin_shutdown (daemon, 1, "no bus name");
    }
}

static void
connection_closed_cb (GDBusConnection *connection,
                      gboolean         remote_peer_vanished,
                      GError          *error,
                      gpointer         user_data)
{
  begin_shutdown (user_data, 1, "the connection to the bus closed");
}

/* systemd gives a soft limit of 1024 and a high hard one (the unit's LimitNOFILE): take
 * the hard one. filemond's own bounds (filemond-limits.h, the stream, save and
 * subscriber caps) keep it far below either. */
static void
raise_fd_limit (void)
{
  struct rlimit limit;

  if (getrlimit (RLIMIT_NOFILE, &limit) < 0 || limit.rlim_cur >= limit.rlim_max)
    return;
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit (RLIMIT_NOFILE, &limit) < 0)
    g_debug ("cannot raise RLIMIT_NOFILE: %s", g_strerror (errno));
}

/* Start's options from their GVariant text, as Start would take them. */
static FmdOptions *
parse_options (const char  *text,
               GError     **error)
{
  g_autoptr(GVariant) asv = g_variant_parse (G_VARIANT_TYPE_VARDICT, text, NULL, NULL, error);

  if (asv == NULL)
    return NULL;
  return fmd_options_new_from_variant (asv, error);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *config_path = NULL;
  gboolean replace = FALSE;
  gboolean verbose = FALSE;
  gboolean session = FALSE;
  gboolean version = FALSE;
  gboolean precompile = FALSE;
  g_autofree char *kernel_release = NULL;
  g_autofree char *options_text = NULL;
  GOptionEntry entries[] = {
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path,
      "Read the configuration from FILE (default " FILEMON_SYSCONFDIR "/" FM_CONFIG_FILE ")",
      "FILE" },
    { "replace", 'r', 0, G_OPTION_ARG_NONE, &replace,
      "Take over the bus name from a running filemond", NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Log debug messages", NULL },
    { "session", 0, 0, G_OPTION_ARG_NONE, &session,
      "Use the session bus instead of the system bus (for manual tests)", NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
    { "precompile", 0, 0, G_OPTION_ARG_NONE, &precompile,
      "Build the stap module of a capture (see --options) into the cache, and exit "
      "(for a package's postinst or an image build)", NULL },
    { "kernel-release", 0, 0, G_OPTION_ARG_STRING, &kernel_release,
      "With --precompile: build for this kernel instead of the running one", "RELEASE" },
    { "options", 0, 0, G_OPTION_ARG_STRING, &options_text,
      "With --precompile: the capture's Start options, as GVariant text; only the "
      "syscalls they trace change the module (e.g. \"{'syscalls': <['openat']>}\"); "
      "default: all of them", "A{SV}" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdConfig) config = NULL;
  g_autoptr(GDBusConnection) connection = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  Daemon daemon = { 0 };

  setlocale (LC_ALL, "");

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, "The filemon capture daemon: it captures file "
                                "syscalls and publishes them as " FM_BUS_NAME ".");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("filemond: %s\n", error->message);
      return 2;
    }
  if (argc > 1)
    {
      g_printerr ("filemond: unexpected argument “%s”\n", argv[1]);
      return 2;
    }
  if (version)
    {
      g_print ("filemond %s\n", PACKAGE_VERSION);
      return 0;
    }

  fmd_log_init (verbose);
  raise_fd_limit ();
  /* a reader that closes its pipe or stream is an EPIPE to handle, not a reason to die */
  signal (SIGPIPE, SIG_IGN);

  config = fmd_config_load (config_path != NULL ? config_path : fmd_config_default_path (),
                            &error);
  if (config == NULL)
    {
      g_printerr ("filemond: bad configuration: %s\n", error->message);
      return 1;
    }

  if (options_text != NULL && !precompile)
    {
      g_printerr ("filemond: --options is for --precompile\n");
      return 2;
    }
  if (precompile)
    {
      g_autoptr(FmdOptions) options = NULL;

      if (options_text != NULL && (options = parse_options (options_text, &error)) == NULL)
        {
          g_printerr ("filemond: --options: %s\n", error->message);
          return 2;
        }
      if (!fmd_stap_precompile (config, options, kernel_release, &error))
        {
          g_printerr ("filemond: --precompile: %s\n", error->message);
          return 1;
        }
      return 0;
    }

  /* registers the D-Bus names of the errors before any reply carries one */
  (void) fm_error_quark ();

  connection = g_bus_get_sync (session ? G_BUS_TYPE_SESSION : G_BUS_TYPE_SYSTEM, NULL, &error);
  if (connection == NULL)
    {
      g_printerr ("filemond: cannot connect to the %s bus: %s\n", session ? "session" : "system",
                  error->message);
      return 1;
    }
  g_dbus_connection_set_exit_on_close (connection, FALSE);

  loop = g_main_loop_new (NULL, FALSE);
  daemon.loop = loop;

  daemon.service = fmd_service_new (connection, config, session, &error);
  if (daemon.service == NULL)
    {
      g_printerr ("filemond: cannot export %s: %s\n", FM_OBJECT_PATH, error->message);
      return 1;
    }

  g_signal_connect (daemon.service, "idle", G_CALLBACK (idle_cb), &daemon);
  g_signal_connect (connection, "closed", G_CALLBACK (connection_closed_cb), &daemon);
  g_unix_signal_add (SIGTERM, sigterm_cb, &daemon);
  g_unix_signal_add (SIGINT, sigint_cb, &daemon);

  daemon.owner_id = g_bus_own_name_on_connection (connection, FM_BUS_NAME,
                                                  G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT |
                                                  (replace ? G_BUS_NAME_OWNER_FLAGS_REPLACE : 0),
                                                  name_acquired_cb, name_lost_cb, &daemon, NULL);

  g_main_loop_run (loop);

  g_bus_unown_name (daemon.owner_id);
  g_clear_object (&daemon.service);
  fmd_backend_types_shutdown ();
  if (!g_dbus_connection_is_closed (connection) &&
      !g_dbus_connection_flush_sync (connection, NULL, &error))
    g_debug ("cannot flush the bus connection: %s", error->message);

  return daemon.exit_status;
}
