/* filemonctl-stop.c: `filemonctl stop`: ends the capture; the buffer stays readable. */
#include "filemonctl-common.h"

int
fmctl_cmd_stop (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  g_option_context_set_summary (context, "Stops the capture. The buffered events stay "
                                "readable with dump, save and watch --since.");
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
  return FMCTL_EXIT_OK;
}
