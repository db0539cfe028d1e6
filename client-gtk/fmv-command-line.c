/* fmv-command-line.c: an exec's argv list from the detail text, as shell words; see
 * fmv-command-line.h. The list is read back the way fm-syscalls-detail.c writes it:
 * ["a", "b"], each argument in double quotes with \\, \", \n, \t and \xNN escaped. */
#include "config.h"

#include <string.h>

#include "fm-escape.h"
#include "fmv-command-line.h"

/* The characters Python's shlex.quote leaves bare: none of them means anything to a
 * shell inside a word. */
static gboolean
is_shell_safe (guchar c)
{
  return g_ascii_isalnum (c) || (c != '\0' && strchr ("@%+=:,./-_", c) != NULL);
}

void
fmv_shell_quote_append (GString    *out,
                        const char *arg,
                        gsize       len)
{
  const guchar *p = (const guchar *) arg, *end = p + len;
  gboolean bare = len > 0, printable = TRUE;

  g_return_if_fail (out != NULL);
  g_return_if_fail (arg != NULL || len == 0);

  for (const guchar *q = p; q < end;)
    {
      gboolean hex;

      bare &= is_shell_safe (*q);
      q += fm_escape_next (q, end - q, &hex);
      printable &= !hex;
    }
  if (bare)
    {
      g_string_append_len (out, arg, len);
      return;
    }
  if (printable)
    {
      /* inside '...' only ' itself is special, and it cannot be escaped there */
      g_string_append_c (out, '\'');
      for (const guchar *q = p; q < end; q++)
        if (*q == '\'')
          g_string_append (out, "'\\''");
        else
          g_string_append_c (out, (char) *q);
      g_string_append_c (out, '\'');
      return;
    }

  g_string_append (out, "$'");
  for (const guchar *q = p; q < end;)
    {
      char piece[FM_ESCAPE_HEX_MAX];
      gboolean hex;
      gsize k = fm_escape_next (q, end - q, &hex);

      if (*q == '\n')
        g_string_append (out, "\\n");
      else if (*q == '\t')
        g_string_append (out, "\\t");
      else if (hex)
        g_string_append_len (out, piece, fm_escape_hex (piece, q, k));
      else if (*q == '\\' || *q == '\'')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, (char) *q);
        }
      else
        g_string_append_len (out, (const char *) q, k);
      q += k;
    }
  g_string_append_c (out, '\'');
}

/* One "..." argument at *p, unescaped into @arg; *p moves past its closing quote. */
static gboolean
read_argument (const char **p,
               const char  *end,
               GString     *arg)
{
  const char *q = *p;

  if (q >= end || *q != '"')
    return FALSE;
  for (q++; q < end && *q != '"'; q++)
    {
      int high, low;

      if (*q != '\\')
        {
          g_string_append_c (arg, *q);
          continue;
        }
      if (++q >= end)
        return FALSE;
      switch (*q)
        {
        case '\\':
        case '"':
          g_string_append_c (arg, *q);
          break;
        case 'n':
          g_string_append_c (arg, '\n');
          break;
        case 't':
          g_string_append_c (arg, '\t');
          break;
        case 'x':
          if (end - q < 3 || (high = g_ascii_xdigit_value (q[1])) < 0 || (low = g_ascii_xdigit_value (q[2])) < 0)
            return FALSE;
          g_string_append_c (arg, (char) (high << 4 | low));
          q += 2;
          break;
        default:
          return FALSE;
        }
    }
  if (q >= end)
    return FALSE;
  *p = q + 1;
  return TRUE;
}

/* The list that starts at @p ('['), as shell words into @words; *after gets the end of
 * the list. */
static gboolean
read_list (const char  *p,
           const char  *end,
           GString     *words,
           const char **after)
{
  g_autoptr(GString) arg = g_string_new (NULL);

  p++;
  if (p < end && *p == ']')
    {
      *after = p + 1;
      return TRUE;
    }
  for (;;)
    {
      g_string_truncate (arg, 0);
      if (!read_argument (&p, end, arg))
        return FALSE;
      if (words->len > 0)
        g_string_append_c (words, ' ');
      fmv_shell_quote_append (words, arg->str, arg->len);
      if (p < end && *p == ']')
        {
          *after = p + 1;
          return TRUE;
        }
      if (end - p < 2 || p[0] != ',' || p[1] != ' ')
        return FALSE;
      p += 2;
    }
}

char *
fmv_command_line_from_detail (const char *detail,
                              gsize       len,
                              char      **rest)
{
  const char *end = detail + len;

  g_return_val_if_fail (detail != NULL || len == 0, NULL);

  if (rest != NULL)
    *rest = NULL;
  /* The list is a field of its own: at the start or after a field's ", ". */
  for (const char *p = detail; p < end; p++)
    {
      g_autoptr(GString) words = NULL;
      const char *after = NULL;
      gboolean field_start = p == detail || (p - detail >= 2 && p[-2] == ',' && p[-1] == ' ');

      if (*p != '[' || !field_start)
        continue;
      words = g_string_new (NULL);
      if (!read_list (p, end, words, &after))
        continue;
      if (after != end && (end - after < 2 || after[0] != ',' || after[1] != ' '))
        continue;
      if (rest != NULL)
        {
          gsize before = p == detail ? 0 : (gsize) (p - detail) - 2;

          if (after != end)
            after += 2;
          *rest = g_strdup_printf ("%.*s%s%.*s", (int) before, detail,
                                   before > 0 && after != end ? ", " : "", (int) (end - after), after);
        }
      return g_string_free (g_steal_pointer (&words), FALSE);
    }
  return NULL;
}

char *
fmv_exec_command_line (const FmEvent *exec)
{
  char *words;

  g_return_val_if_fail (exec != NULL, NULL);

  words = fmv_command_line_from_detail (exec->detail, exec->detail_len, NULL);
  return words != NULL ? words : fm_escape_bytes (exec->detail, exec->detail_len);
}
