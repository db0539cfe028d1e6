/* test-log.c: filemond's log writer (daemon/core/filemond-log.c) selects debug and info
 * messages by their whole log domain, as G_MESSAGES_DEBUG names them, and says on each
 * line which domain spoke. tests/bus (check_log_domains) proves the daemon's parts log
 * under those domains. */
#include <string.h>

#include <glib.h>

#include "filemond-log.h"

/* In the child: the writer installed, one debug message in each domain, and a notice
 * and an info message in the bus's; the parent reads what reached stderr. */
static void
log_from_every_domain (gboolean verbose)
{
  g_unsetenv ("JOURNAL_STREAM");
  fmd_log_init (verbose);
  g_log ("filemond", G_LOG_LEVEL_DEBUG, "core speaks");
  g_log ("filemond-bus", G_LOG_LEVEL_DEBUG, "bus speaks");
  g_log ("filemond-stap", G_LOG_LEVEL_DEBUG, "stap speaks");
  g_log ("filemond-bpf", G_LOG_LEVEL_DEBUG, "bpf speaks");
  g_log ("filemon-common", G_LOG_LEVEL_DEBUG, "common speaks");
  g_log ("filemond-bus", G_LOG_LEVEL_INFO, "bus informs");
  g_log ("filemond-bus", G_LOG_LEVEL_MESSAGE, "bus notes");
}

typedef struct {
  const char *debug;     /* G_MESSAGES_DEBUG, or NULL for unset */
  gboolean verbose;
  const char *shown;     /* the domains whose debug messages are logged, by first word */
} Case;

static const Case cases[] = {
  { "filemond-bpf", FALSE, "bpf" },
  { "filemond", FALSE, "core" },
  { "filemond-stap filemond-bus", FALSE, "stap bus" },
  { "filemond-stap,filemond", FALSE, "core stap" },
  { "all", FALSE, "core bus stap bpf common" },
  { NULL, FALSE, "" },
  { NULL, TRUE, "core bus stap bpf common" },
  { "filemond-bpf", TRUE, "core bus stap bpf common" },
};

static void
test_debug_domains (gconstpointer data)
{
  const Case *c = data;
  g_auto(GStrv) shown = g_strsplit (c->shown, " ", -1);
  const char *const all[] = { "core", "bus", "stap", "bpf", "common" };
  const char *const domains[] = { "filemond", "filemond-bus", "filemond-stap", "filemond-bpf",
                                  "filemon-common" };

  if (g_test_subprocess ())
    {
      /* the writer reads G_MESSAGES_DEBUG when it is installed */
      if (c->debug != NULL)
        g_setenv ("G_MESSAGES_DEBUG", c->debug, TRUE);
      else
        g_unsetenv ("G_MESSAGES_DEBUG");
      log_from_every_domain (c->verbose);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDOUT);
  g_test_trap_assert_passed ();

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      g_autofree char *line = g_strdup_printf ("*filemond: debug %s: %s speaks\n*",
                                               domains[i], all[i]);

      if (g_strv_contains ((const char *const *) shown, all[i]))
        g_test_trap_assert_stderr (line);
      else
        g_test_trap_assert_stderr_unmatched (line);
    }
  /* info goes with debug; a notice always goes out */
  if (g_strv_contains ((const char *const *) shown, "bus"))
    g_test_trap_assert_stderr ("*filemond: info filemond-bus: bus informs\n*");
  else
    g_test_trap_assert_stderr_unmatched ("*bus informs*");
  g_test_trap_assert_stderr ("*filemond: notice filemond-bus: bus notes\n*");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/log/debug-domains/%s%s",
                                               cases[i].debug != NULL ? cases[i].debug : "unset",
                                               cases[i].verbose ? "/verbose" : "/quiet");

      g_strdelimit (path + strlen ("/log/debug-domains/"), " ,", '+');
      g_test_add_data_func (path, &cases[i], test_debug_domains);
    }
  return g_test_run ();
}
