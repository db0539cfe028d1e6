/* filemond-conf-gen.c: run at build time, writes TEMPLATE to standard output with the keys
 * of filemond.conf put in from the parser's own table (filemond-config.c), so that
 * filemond.conf(5) documents exactly the keys, defaults and ranges filemond accepts:
 *
 *   @CONFIG_KEYS_MAN@   per group a .SS heading, per key a .TP entry: name, default,
 *                       range and help
 *
 * With --keys instead of a template: "[Group] Key" one a line (for tests). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "filemond-backends.h"
#include "filemond-config.h"
#include "fm-roff.h"

static char *
keys_man (FmdBackendRegistry *registry)
{
  GString *out = g_string_new (NULL);
  const char *group = NULL;
  FmdConfigKey info;

  for (guint i = 0; fmd_config_key_info (i, registry, &info); i++)
    {
      if (g_strcmp0 (group, info.group) != 0)
        {
          g_string_append_printf (out, ".SS [%s]\n", info.group);
          group = info.group;
        }
      g_string_append_printf (out, ".TP\n.BI %s= %s\n", info.key, info.value_kind);
      fm_roff_append (out, info.help);
      g_string_append (out, "\n.br\nDefault: ");
      fm_roff_append (out, info.default_value);
      if (info.range != NULL)
        {
          g_string_append (out, g_str_equal (info.value_kind, "NUMBER") ||
                                g_str_equal (info.value_kind, "SIZE") ? "; range: " : "; one of: ");
          fm_roff_append (out, info.range);
        }
      g_string_append (out, ".\n");
      fmd_config_key_clear (&info);
    }
  /* the template's line ends after the placeholder */
  g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *template = NULL, *man = NULL;
  g_auto(GStrv) parts = NULL;
  g_autofree char *result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdBackendRegistry) registry = fmd_backends_new_registry ();

  if (argc == 2 && strcmp (argv[1], "--keys") == 0)
    {
      FmdConfigKey info;

      for (guint i = 0; fmd_config_key_info (i, registry, &info); i++)
        {
          printf ("[%s] %s\n", info.group, info.key);
          fmd_config_key_clear (&info);
        }
      return fflush (stdout) == 0 ? 0 : 1;
    }
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s TEMPLATE | --keys\n", argv[0]);
      return 2;
    }
  if (!g_file_get_contents (argv[1], &template, NULL, &error))
    {
      fprintf (stderr, "%s: %s\n", argv[0], error->message);
      return 1;
    }
  man = keys_man (registry);
  parts = g_strsplit (template, "@CONFIG_KEYS_MAN@", -1);
  result = g_strjoinv (man, parts);
  fputs (result, stdout);
  return fflush (stdout) == 0 ? 0 : 1;
}
