/* filemonctl-fields-gen.c: run at build time, writes TEMPLATE to standard output with the
 * filter's fields put in from the field table (fm-event-fields.h), so that the man page
 * and the shell completion, which are static files, list exactly the fields the filter
 * knows:
 *
 *   @FILTER_FIELDS_MAN@        one roff .TP entry per field: its name and help
 *   @FILTER_FIELDS_COMPLETION@ the completion words, e.g. "seq> time> ... detail~"
 *
 * With --names instead of a template: the filter's field names, one a line (for tests). */
#include <stdio.h>
#include <string.h>

#include "fm-event-fields.h"
#include "fm-roff.h"

static char *
fields_man (void)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < FM_N_FIELDS; i++)
    {
      g_string_append_printf (out, ".TP\n.B %s\n", fm_event_fields[i].filter_name);
      fm_roff_append (out, fm_event_fields[i].help);
      g_string_append (out, "\n");
    }
  /* the template's line ends after the placeholder */
  g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

static char *
fields_completion (void)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < FM_N_FIELDS; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "", fm_event_fields[i].completion);
  return g_string_free (out, FALSE);
}

static char *
replace (const char *text, const char *placeholder, const char *value)
{
  g_auto(GStrv) parts = g_strsplit (text, placeholder, -1);

  return g_strjoinv (value, parts);
}

int
main (int argc, char **argv)
{
  g_autofree char *template = NULL, *man = NULL, *completion = NULL, *step = NULL;
  g_autofree char *result = NULL;
  g_autoptr(GError) error = NULL;

  if (argc == 2 && strcmp (argv[1], "--names") == 0)
    {
      for (guint i = 0; i < FM_N_FIELDS; i++)
        printf ("%s\n", fm_event_fields[i].filter_name);
      return fflush (stdout) == 0 ? 0 : 1;
    }
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s TEMPLATE | --names\n", argv[0]);
      return 2;
    }
  if (!g_file_get_contents (argv[1], &template, NULL, &error))
    {
      fprintf (stderr, "%s: %s\n", argv[0], error->message);
      return 1;
    }
  man = fields_man ();
  completion = fields_completion ();
  step = replace (template, "@FILTER_FIELDS_MAN@", man);
  result = replace (step, "@FILTER_FIELDS_COMPLETION@", completion);
  fputs (result, stdout);
  return fflush (stdout) == 0 ? 0 : 1;
}
