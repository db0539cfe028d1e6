/* fm-roff.c: roff text for the generated man pages; see fm-roff.h. */
#include "fm-roff.h"

void
fm_roff_append (GString    *out,
                const char *text)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL);

  if (*text == '.' || *text == '\'')
    g_string_append (out, "\\&");
  for (const char *s = text; *s != '\0'; s++)
    {
      if (*s == '-')
        g_string_append (out, "\\-");
      else if (*s == '\\')
        g_string_append (out, "\\e");
      else
        g_string_append_c (out, *s);
    }
}
