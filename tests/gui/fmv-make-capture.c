/* fmv-make-capture.c: writes N test events as a jsonl capture, for the viewer's Xvfb tests,
 * its measurements and the README screenshot.
 *   fmv-make-capture N FILE */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "fm-format.h"
#include "fmv-test-events.h"

int
main (int argc, char *argv[])
{
  g_autoptr(GString) out = g_string_new (NULL);
  guint64 n;
  FILE *f;

  if (argc != 3 || !g_ascii_string_to_unsigned (argv[1], 10, 0, G_MAXUINT32, &n, NULL))
    {
      g_printerr ("usage: %s N FILE\n", argv[0]);
      return 2;
    }
  f = fopen (argv[2], "we");
  if (f == NULL)
    {
      g_printerr ("%s: cannot create %s: %s\n", argv[0], argv[2], g_strerror (errno));
      return 1;
    }
  for (guint i = 0; i < n; i++)
    {
      FmvTestEvent t;

      fmv_test_event (&t, i);
      fm_format_event (FM_FORMAT_JSONL, &t.event, out);
      if (out->len > 1 << 20 || i + 1 == n)
        {
          if (fwrite (out->str, 1, out->len, f) != out->len)
            {
              g_printerr ("%s: cannot write %s\n", argv[0], argv[2]);
              return 1;
            }
          g_string_truncate (out, 0);
        }
    }
  if (fclose (f) != 0)
    {
      g_printerr ("%s: cannot write %s: %s\n", argv[0], argv[2], g_strerror (errno));
      return 1;
    }
  return 0;
}
