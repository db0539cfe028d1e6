/* fm-escape.h: which bytes of a name filemon shows as \xNN, in one place for every text
 * form that writes names (text lines, csv, the detail decoder, filemonctl's messages).
 *
 * A name is bytes: what is not valid UTF-8 cannot be shown as is, and control characters
 * (C0, DEL, C1) and the bidirectional overrides and isolates would act on the terminal
 * or reorder what is shown around them. Those become \xNN, one per byte; each form then
 * adds its own quoting (\\, \", "", \n...). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Unicode controls that reach a terminal as such: C1 (U+0080..U+009F, e.g. U+009B is a
 * CSI) and the bidirectional overrides and isolates. */
gboolean fm_unichar_is_hostile (gunichar u);

/* Length of the valid UTF-8 sequence at @p (at most @len bytes, @len >= 1), or 0 when the
 * byte at @p does not start one. ASCII is the fast path. */
static inline gsize
fm_utf8_char_len (const guchar *p, gsize len)
{
  gunichar c;
  gsize n;

  if (p[0] < 0x80)
    return 1;
  if (p[0] >= 0xc2 && p[0] <= 0xdf)
    n = 2;
  else if (p[0] >= 0xe0 && p[0] <= 0xef)
    n = 3;
  else if (p[0] >= 0xf0 && p[0] <= 0xf4)
    n = 4;
  else
    return 0;
  if (n > len)
    return 0;
  c = g_utf8_get_char_validated ((const char *) p, (gssize) n);
  return (c == (gunichar) -1 || c == (gunichar) -2) ? 0 : n;
}

/* The character at @p (at most @len bytes, @len >= 1): returns its length in bytes (1 for
 * a byte that is not UTF-8) and sets @hex when it is shown as \xNN bytes (not UTF-8, C0,
 * DEL, C1, bidi controls). */
static inline gsize
fm_escape_next (const guchar *p, gsize len, gboolean *hex)
{
  gsize n = fm_utf8_char_len (p, len);

  if (n == 0)
    {
      *hex = TRUE;
      return 1;
    }
  *hex = p[0] < 0x20 || p[0] == 0x7f
         || (n > 1 && fm_unichar_is_hostile (g_utf8_get_char ((const char *) p)));
  return n;
}

/* The largest output of fm_escape_hex, for a whole UTF-8 character. */
#define FM_ESCAPE_HEX_MAX (4 * 4)

/* Writes the @n bytes at @p as \xNN each into @out (4 × @n characters, no NUL);
 * returns 4 × @n. */
gsize fm_escape_hex (char *out, const guchar *p, gsize n);

/* @text with what fm_escape_next escapes as \xNN and everything else as is: for text a
 * program prints that it did not write itself (a daemon's LastError quoting a backend). */
char *fm_escape_text (const char *text);
/* The same for @len bytes that may hold NULs or no terminator (a name as an event has it). */
char *fm_escape_bytes (const char *bytes,
                       gsize       len);

G_END_DECLS
