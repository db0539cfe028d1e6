/* filemonctl-stop.c: `filemonctl stop`: ends the capture and waits until it has ended; the
 * buffer stays readable.
 *
 * Stop returns once the backend was told to stop; the capture has ended when State leaves
 * "stopping": at once for bpf, a few seconds for SystemTap while its module unloads (and
 * at most filemond's kill timeout, after which it kills stap). Waiting makes
 * `filemonctl stop && filemonctl start ...` work: a Start while the last capture is still
 * stopping is refused. */
#include "filemonctl-common.h"

static int
wait_until_stopped (FmFilemond1 *proxy)
{
  static const char * const stopping[] = { "stopping", NULL };
  g_autofree char *state = NULL;
  g_autoptr(GError) error = NULL;

  state = fmctl_wait_state (proxy, "stop", "end", stopping, NULL, NULL, &error);
  if (state == NULL)
    {
      g_prefix_error (&error, "the capture was told to stop, but its state cannot be read: ");
      return fmctl_error_exit ("stop", error);
    }
  return FMCTL_EXIT_OK;
}

int
fmctl_cmd_stop (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  gboolean no_wait = FALSE;
  const GOptionEntry entries[] = {
    { "no-wait", 0, 0, G_OPTION_ARG_NONE, &no_wait,
      "Return once the backend was told to stop, without waiting for the capture to end", NULL },
    { NULL }
  };

  g_option_context_set_summary (context, "Stops the capture and waits until it has ended. "
                                "The buffered events stay readable with dump, save and "
                                "watch --since.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!fmctl_parse_options (context, "stop", &argc, &argv))
    return FMCTL_EXIT_USAGE;
  if (argc > 1)
    return fmctl_usage_error ("stop", "unexpected argument '%s'", argv[1]);

  proxy = fmctl_connect (&error);
  if (proxy == NULL)
    return fmctl_error_exit ("stop", error);
  reply = fmctl_call (proxy, "Stop", NULL, G_VARIANT_TYPE_UNIT, NULL, NULL, &error);
  if (reply == NULL)
    return fmctl_error_exit ("stop", error);
  if (no_wait)
    return FMCTL_EXIT_OK;
  return wait_until_stopped (proxy);
}
