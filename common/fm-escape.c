/* fm-escape.c: names' unsafe bytes as \xNN; see fm-escape.h. */
#include "fm-escape.h"

#include <string.h>

gboolean
fm_unichar_is_hostile (gunichar u)
{
  return (u >= 0x80 && u < 0xa0) || u == 0x061c || u == 0x200e || u == 0x200f
         || (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069);
}

gsize
fm_escape_hex (char *out, const guchar *p, gsize n)
{
  static const char hex[] = "0123456789abcdef";

  for (gsize i = 0; i < n; i++)
    {
      out[4 * i] = '\\';
      out[4 * i + 1] = 'x';
      out[4 * i + 2] = hex[p[i] >> 4];
      out[4 * i + 3] = hex[p[i] & 15];
    }
  return 4 * n;
}

char *
fm_escape_text (const char *text)
{
  return fm_escape_bytes (text, strlen (text));
}

char *
fm_escape_bytes (const char *bytes,
                 gsize       len)
{
  const guchar *p = (const guchar *) bytes, *end = p + len;
  GString *out = g_string_sized_new (len);

  while (p < end)
    {
      gboolean hex;
      gsize n = fm_escape_next (p, end - p, &hex);

      if (hex)
        {
          char buf[FM_ESCAPE_HEX_MAX];

          g_string_append_len (out, buf, fm_escape_hex (buf, p, n));
        }
      else
        g_string_append_len (out, (const char *) p, n);
      p += n;
    }
  return g_string_free (out, FALSE);
}
