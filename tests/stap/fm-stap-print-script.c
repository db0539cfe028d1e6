/* fm-stap-print-script.c: prints the capture script filemond would give stap for the Start
 * options in argv[1] (GVariant text, a{sv}), so that tests can run it through real stap. */
#include "config.h"

#include <stdio.h>

#include "filemond-options.h"
#include "filemond-stap-script.h"

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) asv = NULL;
  g_autoptr(FmdOptions) options = NULL;
  g_autofree char *script = NULL;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s OPTIONS (GVariant text of type a{sv})\n", argv[0]);
      return 2;
    }
  asv = g_variant_parse (G_VARIANT_TYPE_VARDICT, argv[1], NULL, NULL, &error);
  if (asv != NULL)
    options = fmd_options_new_from_variant (asv, &error);
  if (options == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  script = fmd_stap_script_generate (options);
  fputs (script, stdout);
  return 0;
}
