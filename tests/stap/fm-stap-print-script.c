/* fm-stap-print-script.c: prints the capture script filemond would give stap for the Start
 * options in argv[1] (GVariant text, a{sv}), so that tests can run it through real stap.
 * With --parameters OPTIONS, prints the module parameters of those options instead, one a
 * line (without the daemon's pid). With --command instead, prints the arguments filemond
 * gives stap after its path, one a line, for a build only (-p4), so that tests build
 * exactly the daemon's module. */
#include "config.h"

#include <stdio.h>

#include "filemond-backends.h"
#include "filemond-config.h"
#include "filemond-options.h"
#include "filemond-stap-script.h"

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) asv = NULL;
  g_autoptr(FmdOptions) options = NULL;
  g_autofree char *script = NULL;
  gboolean parameters = argc == 3 && g_str_equal (argv[1], "--parameters");

  if (argc != 2 && !parameters)
    {
      fprintf (stderr, "usage: %s [--parameters] OPTIONS (GVariant text of type a{sv}) | --command\n",
               argv[0]);
      return 2;
    }
  if (g_str_equal (argv[1], "--command"))
    {
      g_autoptr(FmdConfig) config = fmd_config_new_default ();
      g_autoptr(GPtrArray) command = fmd_stap_command_new ("stap", config->stap_buffer_mb, NULL, "-p4");

      for (guint i = 1; i + 1 < command->len; i++)
        puts (g_ptr_array_index (command, i));
      return 0;
    }
  asv = g_variant_parse (G_VARIANT_TYPE_VARDICT, argv[argc - 1], NULL, NULL, &error);
  if (asv != NULL)
    {
      g_autoptr(FmdBackendRegistry) registry = fmd_backends_new_registry ();

      options = fmd_options_new_from_variant (asv, registry, &error);
    }
  if (options == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  if (parameters)
    {
      g_autoptr(GPtrArray) list = fmd_stap_script_parameters (options, 0);

      for (guint i = 0; i < list->len; i++)
        puts (g_ptr_array_index (list, i));
      return 0;
    }
  script = fmd_stap_script_generate (options);
  fputs (script, stdout);
  return 0;
}
