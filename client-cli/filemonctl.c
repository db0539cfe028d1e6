/* filemonctl.c: the command line client of filemond: global options, the subcommand
 * table and dispatch. Each subcommand lives in filemonctl-NAME.c. */
#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "filemonctl-common.h"

typedef struct {
  const char *name;
  FmctlCommandFunc func;
  const char *summary;
} FmctlCommand;

static const FmctlCommand commands[] = {
  { "start", fmctl_cmd_start, "Start a capture (options choose what to capture)" },
  { "stop", fmctl_cmd_stop, "Stop the capture; the buffered events stay readable" },
  { "status", fmctl_cmd_status, "Show the daemon's state, backend, counters and buffer" },
  { "watch", fmctl_cmd_watch, "Print events live, optionally filtered" },
  { "dump", fmctl_cmd_dump, "Print the buffered events, optionally filtered, and exit" },
  { "save", fmctl_cmd_save, "Save the buffered events into a file" },
};

static void
print_help (FILE *out)
{
  fprintf (out,
           "Usage: filemonctl [--no-ask-password] COMMAND [OPTIONS] [ARGS]\n"
           "\n"
           "Shows which files the processes of this machine touch, through filemond.\n"
           "\n"
           "Commands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf (out,
           "\n"
           "Options:\n"
           "  -h, --help           Show this help\n"
           "  --version            Show the version\n"
           "  --no-ask-password    Never ask for a password (no polkit agent)\n"
           "\n"
           "'filemonctl COMMAND --help' describes a command; filemonctl(1) has the details.\n"
           "Exit status: 0 ok, 1 error, 2 usage, 3 not authorized, 4 filemond not reachable.\n");
}

int
main (int argc, char **argv)
{
  int i;
  int rc;

  setlocale (LC_ALL, "");
  /* A reader that goes away (`filemonctl watch | head`) shows up as EPIPE, which the
   * commands turn into a quiet exit, instead of a death by signal. */
  signal (SIGPIPE, SIG_IGN);

  for (i = 1; i < argc && argv[i][0] == '-'; i++)
    {
      if (g_str_equal (argv[i], "-h") || g_str_equal (argv[i], "--help"))
        {
          print_help (stdout);
          return FMCTL_EXIT_OK;
        }
      else if (g_str_equal (argv[i], "--version"))
        {
          printf ("filemonctl %s\n", PACKAGE_VERSION);
          return FMCTL_EXIT_OK;
        }
      else if (g_str_equal (argv[i], "--no-ask-password"))
        fmctl_globals.no_ask_password = TRUE;
      else
        return fmctl_usage_error (NULL, "unknown option %s", argv[i]);
    }
  if (i >= argc)
    {
      print_help (stderr);
      return FMCTL_EXIT_USAGE;
    }
  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    if (g_str_equal (argv[i], commands[c].name))
      {
        g_autofree char *prgname = g_strdup_printf ("filemonctl %s", commands[c].name);

        /* GOptionContext's --help shows "Usage: filemonctl watch [OPTION…] [FILTER]" */
        g_set_prgname (prgname);
        rc = commands[c].func (argc - i, argv + i);
        fmctl_agent_unregister ();
        return rc;
      }
  return fmctl_usage_error (NULL, "unknown command '%s'", argv[i]);
}
