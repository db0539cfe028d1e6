/* filemond-stap-parser.c: reads the lines the capture script prints (see
 * filemond-stap-script.h). Every field is checked: the count, each number's syntax and
 * range, each quoted string's escapes. Buffers are reused from line to line. */
#include "config.h"

#include "filemond-stap-parser.h"

#include <string.h>

#include "fm-error.h"
#include "fm-path.h"
#include "fm-syscalls.h"
#include "filemond-stap-script.h"

enum {
  COL_NR, COL_TIME, COL_DURATION, COL_PID, COL_PPID, COL_TID, COL_UID, COL_RESULT, COL_COMM,
  COL_A0, COL_A5 = COL_A0 + 5, COL_PATH, COL_PATH2, COL_TEXT, COL_BASE, COL_BASE2,
};

G_STATIC_ASSERT (COL_BASE2 + 1 == FMD_STAP_EVENT_FIELDS);

struct _FmdStapParser {
  GString *comm, *path, *path2, *text, *base, *base2;
  GString *full_path, *full_path2, *detail, *notes;
};

FmdStapParser *
fmd_stap_parser_new (void)
{
  FmdStapParser *p = g_new0 (FmdStapParser, 1);

  p->comm = g_string_sized_new (32);
  p->path = g_string_sized_new (256);
  p->path2 = g_string_sized_new (256);
  p->text = g_string_sized_new (256);
  p->base = g_string_sized_new (256);
  p->base2 = g_string_sized_new (256);
  p->full_path = g_string_sized_new (512);
  p->full_path2 = g_string_sized_new (512);
  p->detail = g_string_sized_new (256);
  p->notes = g_string_sized_new (64);
  return p;
}

void
fmd_stap_parser_free (FmdStapParser *p)
{
  if (p == NULL)
    return;
  g_string_free (p->comm, TRUE);
  g_string_free (p->path, TRUE);
  g_string_free (p->path2, TRUE);
  g_string_free (p->text, TRUE);
  g_string_free (p->base, TRUE);
  g_string_free (p->base2, TRUE);
  g_string_free (p->full_path, TRUE);
  g_string_free (p->full_path2, TRUE);
  g_string_free (p->detail, TRUE);
  g_string_free (p->notes, TRUE);
  g_free (p);
}

static gboolean
parse_error (GError **error, guint column, const char *what)
{
  g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "stap output field %u: %s", column + 1, what);
  return FALSE;
}

static gboolean
parse_int (const char *s, gsize len, gint64 *out)
{
  gboolean neg = FALSE;
  guint64 v = 0;
  gsize i = 0;

  if (len > 0 && s[0] == '-')
    {
      neg = TRUE;
      i = 1;
    }
  if (i >= len || len - i > 20)
    return FALSE;
  for (; i < len; i++)
    {
      if (!g_ascii_isdigit (s[i]))
        return FALSE;
      if (v > (G_MAXUINT64 - (guint) (s[i] - '0')) / 10)
        return FALSE;
      v = v * 10 + (guint) (s[i] - '0');
    }
  /* an unsigned argument may use all 64 bits: it comes back through the cast */
  if (neg && v > (guint64) G_MAXINT64 + 1)
    return FALSE;
  *out = neg ? (gint64) (0 - v) : (gint64) v;
  return TRUE;
}

static int
hexval (char c)
{
  return g_ascii_isxdigit (c) ? g_ascii_xdigit_value (c) : -1;
}

/* Where a string of the script was cut to fit its record (filemond-stap-script.h). */
typedef enum {
  CUT_NONE,
  CUT_END,     /* "..." after the closing quote: the beginning was kept */
  CUT_START,   /* "..." before the opening quote: the end was kept (a path's name) */
} Cut;

/* how the script marks a cut (as SystemTap does), whatever the events show */
#define STAP_CUT "..."
#define STAP_CUT_LEN (sizeof STAP_CUT - 1)

/* A SystemTap quoted string (or "-" for none) into @out, and where it was cut into @cut.
 * SystemTap writes \uXXXX and \UXXXXXXXX for UTF-8, \ooo for other bytes and C escapes:
 * decoding them gives back the exact bytes. An unquoted 0x... is an address SystemTap
 * could not read: an empty string. */
static gboolean
decode_quoted (const char *s, gsize len, GString *out, Cut *cut)
{
  gsize i = 1;

  g_string_truncate (out, 0);
  *cut = CUT_NONE;
  if (len == 1 && s[0] == '-')
    return TRUE;
  if (len > STAP_CUT_LEN && memcmp (s, STAP_CUT, STAP_CUT_LEN) == 0 && s[STAP_CUT_LEN] == '"')
    {
      s += STAP_CUT_LEN;
      len -= STAP_CUT_LEN;
      *cut = CUT_START;
    }
  if (len > 2 && s[0] == '0' && s[1] == 'x')
    {
      for (gsize k = 2; k < len; k++)
        if (hexval (s[k]) < 0)
          return FALSE;
      return TRUE;
    }
  if (len < 2 || s[0] != '"')
    return FALSE;
  while (i < len && s[i] != '"')
    {
      char c = s[i];

      if (c != '\\')
        {
          if ((guchar) c < 0x20)
            return FALSE;
          g_string_append_c (out, c);
          i++;
          continue;
        }
      if (++i >= len)
        return FALSE;
      c = s[i++];
      switch (c)
        {
        case 'a': g_string_append_c (out, '\a'); break;
        case 'b': g_string_append_c (out, '\b'); break;
        case 'f': g_string_append_c (out, '\f'); break;
        case 'n': g_string_append_c (out, '\n'); break;
        case 'r': g_string_append_c (out, '\r'); break;
        case 't': g_string_append_c (out, '\t'); break;
        case 'v': g_string_append_c (out, '\v'); break;
        case '"': case '\\': case '\'': g_string_append_c (out, c); break;
        case 'u': case 'U':
          {
            gsize n = c == 'u' ? 4 : 8;
            gunichar u = 0;
            char utf8[8];

            if (i + n > len)
              return FALSE;
            for (gsize k = 0; k < n; k++)
              {
                int h = hexval (s[i + k]);

                if (h < 0)
                  return FALSE;
                u = u * 16 + (gunichar) h;
              }
            i += n;
            if (!g_unichar_validate (u) || u == 0)
              return FALSE;
            g_string_append_len (out, utf8, g_unichar_to_utf8 (u, utf8));
            break;
          }
        default:
          if (c >= '0' && c <= '3' && i + 2 <= len && s[i] >= '0' && s[i] <= '7' &&
              s[i + 1] >= '0' && s[i + 1] <= '7')
            {
              guint b = (guint) (c - '0') * 64 + (guint) (s[i] - '0') * 8 + (guint) (s[i + 1] - '0');

              if (b == 0)
                return FALSE;   /* a C string holds no NUL */
              g_string_append_c (out, (char) b);
              i += 2;
              break;
            }
          return FALSE;
        }
    }
  if (i >= len)
    return FALSE;   /* no closing quote: the line was cut */
  i++;
  if (i == len)
    return TRUE;
  if (*cut != CUT_NONE || len - i != STAP_CUT_LEN || memcmp (s + i, STAP_CUT, STAP_CUT_LEN) != 0)
    return FALSE;
  *cut = CUT_END;
  return TRUE;
}

/* An fd's path: the base the script sent for it, alone. SystemTap's dentry walk names an
 * anonymous inode "ANON_INODE:inotify" where the kernel (/proc/PID/fd, strace, the bpf
 * backend) says "anon_inode:inotify": the kernel's spelling, so both backends agree. */
static void
resolve_fd (GString *out, const GString *base)
{
  static const char stap_anon[] = "ANON_INODE:";

  g_string_truncate (out, 0);
  g_string_append_len (out, base->str, base->len);
  if (g_str_has_prefix (out->str, stap_anon))
    memcpy (out->str, "anon_inode:", strlen (stap_anon));
}

/* @base + "/" + @name for a relative name; @name alone when absolute or without base.
 * Returns whether the start of the path is lost: a name of which the script kept the end
 * has lost its base with it. */
static gboolean
resolve (GString *out, const GString *base, Cut base_cut, const GString *name, Cut name_cut)
{
  g_string_truncate (out, 0);
  if (name->len == 0)
    return FALSE;
  if (name_cut != CUT_START && name->str[0] != '/' && base->len > 0)
    {
      g_string_append_len (out, base->str, base->len);
      if (base->str[base->len - 1] != '/')
        g_string_append_c (out, '/');
    }
  g_string_append_len (out, name->str, name->len);
  return name_cut == CUT_START || (out->len > name->len && base_cut == CUT_START);
}

/* The one place where a path of this backend is cut: by the rule of both backends
 * (fm-path.h) when its start is lost or it is too long, or, for a string the script kept
 * the beginning of (longer than PATH_MAX, which the kernel refuses unread past it), with
 * the mark after what was kept, as the bpf backend shows such a string. Adds the note. */
static void
finish_path (GString *out, gboolean start_lost, Cut end_cut, const char *which, GString *notes)
{
  gboolean cut = fm_path_elide (out, FM_PATH_MAX, start_lost);

  if (end_cut == CUT_END)
    {
      fm_path_mark_end (out, FM_PATH_MAX);
      cut = TRUE;
    }
  if (cut)
    g_string_append_printf (notes, "%s%s truncated", notes->len > 0 ? ", " : "", which);
}

/* A call with a struct and a string shares the text field: the struct's three words, a
 * space, then the string (filemond-stap-script.c). Points each argument at its part. */
static gboolean
split_struct_and_string (const FmSyscall *sc,
                         GString         *text,
                         const char      *strings[FM_SYSCALL_MAX_ARGS])
{
  guint struct_arg = 0, string_arg = 0;
  char *at = text->str;

  if (!fm_syscall_struct_and_string (sc, &struct_arg, &string_arg))
    return TRUE;
  for (guint spaces = 0; spaces < 3; spaces++)
    {
      at = strchr (at, ' ');
      if (at == NULL)
        return FALSE;
      if (spaces < 2)
        at++;
    }
  *at = '\0';
  strings[struct_arg] = text->str;
  strings[string_arg] = at + 1;
  return TRUE;
}

gboolean
fmd_stap_parser_parse_line (FmdStapParser   *p,
                            const char      *line,
                            gsize            len,
                            FmdStapLineKind *kind,
                            FmEvent         *event,
                            GError         **error)
{
  const char *field[FMD_STAP_EVENT_FIELDS];
  gsize flen[FMD_STAP_EVENT_FIELDS];
  gint64 num[COL_A5 + 1];
  const FmSyscall *sc;
  guint64 args[FM_SYSCALL_MAX_ARGS];
  const char *strings[FM_SYSCALL_MAX_ARGS] = { NULL };
  gsize pos, n = 0;
  gboolean has_fd = FALSE, has_fd2 = FALSE, empty_path_flag = FALSE, lost;
  Cut cut[FMD_STAP_EVENT_FIELDS], end_cut;

  g_return_val_if_fail (p != NULL && line != NULL && kind != NULL && event != NULL, FALSE);

  if (len == 1 && line[0] == 'R')
    {
      *kind = FMD_STAP_LINE_READY;
      return TRUE;
    }
  if (len < 2 || line[0] != 'E' || line[1] != '\t')
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_PARSE, "stap output: not a record");
      return FALSE;
    }
  if (memchr (line, '\0', len) != NULL)
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_PARSE, "stap output: NUL in a record");
      return FALSE;
    }

  /* split at tabs: quoted strings hold none (SystemTap escapes them) */
  pos = 2;
  while (n < FMD_STAP_EVENT_FIELDS)
    {
      const char *tab = memchr (line + pos, '\t', len - pos);
      gsize end = tab != NULL ? (gsize) (tab - line) : len;

      field[n] = line + pos;
      flen[n] = end - pos;
      n++;
      if (tab == NULL)
        break;
      pos = end + 1;
    }
  if (n != FMD_STAP_EVENT_FIELDS || pos + flen[n - 1] != len)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                   "stap output: %s fields (expected %d)",
                   n < FMD_STAP_EVENT_FIELDS ? "too few" : "too many", FMD_STAP_EVENT_FIELDS);
      return FALSE;
    }

  for (guint i = 0; i <= COL_A5; i++)
    {
      if (i == COL_COMM)
        continue;
      if (!parse_int (field[i], flen[i], &num[i]))
        return parse_error (error, i + 1, "not a number");
    }
  if (num[COL_NR] < 0 || num[COL_NR] >= FM_SYSCALL_NR_LIMIT ||
      (sc = fm_syscall_by_nr ((guint) num[COL_NR])) == NULL)
    return parse_error (error, COL_NR + 1, "not a traced syscall");
  if (num[COL_TIME] < 0 || num[COL_DURATION] < 0)
    return parse_error (error, COL_TIME + 1, "negative time");
  for (guint i = COL_PID; i <= COL_UID; i++)
    if (num[i] < 0 || num[i] > G_MAXUINT32)
      return parse_error (error, i + 1, "out of range");

  if (!decode_quoted (field[COL_COMM], flen[COL_COMM], p->comm, &cut[COL_COMM]) ||
      !decode_quoted (field[COL_PATH], flen[COL_PATH], p->path, &cut[COL_PATH]) ||
      !decode_quoted (field[COL_PATH2], flen[COL_PATH2], p->path2, &cut[COL_PATH2]) ||
      !decode_quoted (field[COL_TEXT], flen[COL_TEXT], p->text, &cut[COL_TEXT]) ||
      !decode_quoted (field[COL_BASE], flen[COL_BASE], p->base, &cut[COL_BASE]) ||
      !decode_quoted (field[COL_BASE2], flen[COL_BASE2], p->base2, &cut[COL_BASE2]))
    return parse_error (error, COL_COMM + 1, "a string field is malformed");
  /* Only a path keeps its end (a name, an argv or a text cut so would read wrong), and a
   * base always does: the script cuts them so, and a base without its end joined to a
   * name would be a wrong path. */
  if (cut[COL_COMM] == CUT_START || cut[COL_TEXT] == CUT_START
      || cut[COL_BASE] == CUT_END || cut[COL_BASE2] == CUT_END)
    return parse_error (error, COL_COMM + 1, "a string field is cut on the wrong side");
  if (p->comm->len >= FM_COMM_MAX)
    g_string_truncate (p->comm, FM_COMM_MAX - 1);

  for (guint i = 0; i < FM_SYSCALL_MAX_ARGS; i++)
    args[i] = (guint64) num[COL_A0 + i];
  /* the detail takes argv as a list ended by an empty string: the text is one argument */
  g_string_append_c (p->text, '\0');
  for (guint i = 0; i < sc->n_args; i++)
    {
      if (fm_arg_kind_text (sc->args[i]) != FM_ARG_TEXT_NONE)
        strings[i] = p->text->str;
      if (sc->args[i] == FM_ARG_FD)
        has_fd = TRUE;
      if (sc->args[i] == FM_ARG_FD2)
        has_fd2 = TRUE;
      if (sc->args[i] == FM_ARG_AT_FLAGS && (args[i] & 0x1000 /* AT_EMPTY_PATH */) != 0)
        empty_path_flag = TRUE;
    }
  if (!split_struct_and_string (sc, p->text, strings))
    return parse_error (error, COL_TEXT + 1, "the struct's words are missing before the string");

  /* an fd's path is the event's path; otherwise the names resolve against their base */
  if (has_fd || (empty_path_flag && p->path->len == 0 && cut[COL_PATH] == CUT_NONE))
    {
      /* AT_EMPTY_PATH (glibc's fstat): the call works on the dirfd, whose path is the base */
      resolve_fd (p->full_path, p->base);
      lost = cut[COL_BASE] == CUT_START;
      end_cut = CUT_NONE;
    }
  else
    {
      lost = resolve (p->full_path, p->base, cut[COL_BASE], p->path, cut[COL_PATH]);
      end_cut = cut[COL_PATH];
    }
  g_string_truncate (p->notes, 0);
  finish_path (p->full_path, lost, end_cut, "path", p->notes);
  /* a symlink's target has no base (the script sends none): it stays as given */
  if (has_fd2)
    {
      resolve_fd (p->full_path2, p->base2);
      lost = cut[COL_BASE2] == CUT_START;
      end_cut = CUT_NONE;
    }
  else
    {
      lost = resolve (p->full_path2, p->base2, cut[COL_BASE2], p->path2, cut[COL_PATH2]);
      end_cut = cut[COL_PATH2];
    }
  finish_path (p->full_path2, lost, end_cut, "path2", p->notes);

  g_string_truncate (p->detail, 0);
  fm_syscall_format_detail (sc, args, strings, p->detail);
  if (p->notes->len > 0)
    g_string_append_printf (p->detail, "%s%s", p->detail->len > 0 ? ", " : "", p->notes->str);

  memset (event, 0, sizeof *event);
  event->syscall_nr = sc->nr;
  event->time_ns = (guint64) num[COL_TIME];
  event->duration_ns = (guint64) num[COL_DURATION];
  event->pid = (guint32) num[COL_PID];
  event->ppid = (guint32) num[COL_PPID];
  event->tid = (guint32) num[COL_TID];
  event->uid = (guint32) num[COL_UID];
  event->result = num[COL_RESULT];
  fm_event_set_strings (event, p->comm->str, p->full_path->str, p->full_path2->str, p->detail->str);
  *kind = FMD_STAP_LINE_EVENT;
  return TRUE;
}
