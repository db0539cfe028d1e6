/* filemond-main.c: filemond's entry point: options and config, then the process
 * (lifecycle/filemond-daemon.c) and its face on the bus (bus/) wired together. Everything
 * else lives in the daemon library. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <sys/resource.h>

#include "filemond-backends.h"
#include "filemond-bus-name.h"
#include "filemond-config.h"
#include "filemond-daemon.h"
#include "filemond-log.h"
#include "filemond-options.h"
#include "filemond-service.h"
#include "filemond-stap-build.h"
#include "fm-names.h"

static void
bus_name_acquired_cb (FmdBusName *bus_name,
                      const char *name,
                      FmdDaemon  *daemon)
{
  fmd_daemon_ready (daemon, name);
}

static void
bus_name_lost_cb (FmdBusName *bus_name,
                  const char *why,
                  int         exit_status,
                  FmdDaemon  *daemon)
{
  fmd_daemon_quit (daemon, exit_status, why);
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
parse_options (const char          *text,
               FmdBackendRegistry  *registry,
               GError             **error)
{
  g_autoptr(GVariant) asv = g_variant_parse (G_VARIANT_TYPE_VARDICT, text, NULL, NULL, error);

  if (asv == NULL)
    return NULL;
  return fmd_options_new_from_variant (asv, registry, error);
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
  g_autoptr(FmdBackendRegistry) registry = NULL;
  g_autoptr(FmdConfig) config = NULL;
  g_autoptr(GDBusConnection) connection = NULL;
  g_autoptr(FmdDaemon) daemon = NULL;
  g_autoptr(FmdService) service = NULL;
  g_autoptr(FmdBusName) bus_name = NULL;
  int exit_status;

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

  registry = fmd_backends_new_registry ();
  config = fmd_config_load (config_path != NULL ? config_path : fmd_config_default_path (),
                            registry, &error);
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

      if (options_text != NULL && (options = parse_options (options_text, registry, &error)) == NULL)
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

  connection = fmd_bus_connect (session, &error);
  if (connection == NULL)
    {
      g_printerr ("filemond: cannot connect to the %s bus: %s\n", session ? "session" : "system",
                  error->message);
      return 1;
    }

  daemon = fmd_daemon_new (config, registry);
  service = fmd_service_new (connection, config, fmd_daemon_get_session (daemon),
                             fmd_daemon_get_ring (daemon), session, &error);
  if (service == NULL)
    {
      g_printerr ("filemond: cannot export %s: %s\n", FM_OBJECT_PATH, error->message);
      return 1;
    }
  fmd_daemon_set_service (daemon, service);

  bus_name = fmd_bus_name_new (connection, replace);
  g_signal_connect_object (bus_name, "acquired", G_CALLBACK (bus_name_acquired_cb), daemon, 0);
  g_signal_connect_object (bus_name, "lost", G_CALLBACK (bus_name_lost_cb), daemon, 0);

  exit_status = fmd_daemon_run (daemon);

  g_clear_object (&service);
  g_clear_object (&daemon);
  fmd_bus_name_release (bus_name);
  /* the backend types release what they kept between captures (bpf's loaded program) */
  g_clear_object (&registry);

  return exit_status;
}
