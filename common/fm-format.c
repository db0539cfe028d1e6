/* fm-format.c: the save formats' writers (text, jsonl, csv); fm-jsonl-reader.c reads jsonl
 * back. doc/formats.md is the reference; the rules in short:
 *
 * jsonl  one object per line, every field. Strings that are valid UTF-8 are JSON strings
 *        with the usual escapes (control characters as \u00XX, C1 and bidi controls as
 *        \uXXXX too). A byte that is not part
 *        of valid UTF-8 (0x80..0xff) is written as the lone surrogate \udcXX, as Python's
 *        "surrogateescape" does: valid UTF-8 never encodes a lone surrogate, so the reader
 *        maps them back to the bytes unambiguously and any file name survives.
 * text   strace-like lines for people: strings C-escaped (\n, \t, \", \\, \xNN for
 *        control characters, C1 and bidi controls and invalid bytes), so nothing in a file
 *        name can split a line, reach a terminal as an escape sequence or reorder a line.
 * csv    RFC 4180 (CRLF, quotes doubled, fields with , or " quoted), with a header line.
 *        The escapes of text (CR as \r) and backslashes doubled: every record is one
 *        line, the file is valid UTF-8 and the names are recoverable.
 *
 * The writers append to a GString and allocate nothing per event once it has grown. */
#include "fm-format.h"

#include <string.h>
#include <time.h>

#include "fm-escape.h"
#include "fm-syscalls.h"

gboolean
fm_format_from_string (const char *name, FmFormat *format)
{
  static const char *const names[] = { "text", "jsonl", "csv" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (name, names[i]) == 0)
      {
        *format = (FmFormat) i;
        return TRUE;
      }
  return FALSE;
}

const char *
fm_format_to_string (FmFormat format)
{
  switch (format)
    {
    case FM_FORMAT_TEXT: return "text";
    case FM_FORMAT_JSONL: return "jsonl";
    case FM_FORMAT_CSV: return "csv";
    }
  g_return_val_if_reached ("text");
}

/* The jsonl keys and csv columns: the fields of FM_EVENT_FIELDS (fm-event-fields.h) that
 * have a key, in table order. */
#define CSV_COLUMN_KEYED(key) "," key
#define CSV_COLUMN_U64 CSV_COLUMN_KEYED
#define CSV_COLUMN_U32 CSV_COLUMN_KEYED
#define CSV_COLUMN_I64 CSV_COLUMN_KEYED
#define CSV_COLUMN_SYSCALL CSV_COLUMN_KEYED
#define CSV_COLUMN_BYTES CSV_COLUMN_KEYED
#define CSV_COLUMN_UTF8 CSV_COLUMN_KEYED
#define CSV_COLUMN_ERRNO CSV_COLUMN_KEYED
#define CSV_COLUMN_USER(key)
#define CSV_COLUMN(id, m, type, limit, key, ...) CSV_COLUMN_##type (key)

const char *
fm_format_header (FmFormat format)
{
  /* past the first column's comma */
  return format == FM_FORMAT_CSV ? (FM_EVENT_FIELDS (CSV_COLUMN) "\r\n") + 1 : NULL;
}

/* GString appends with GLib 2.76's inline fast path (2.74, Debian 12's, calls
 * g_string_insert_len for each, the bulk of a dump's instructions): a copy while
 * the string has room, the full call only to grow it. */
static inline void
put_len (GString *out, const char *s, gsize n)
{
  if (G_LIKELY (out->len + n < out->allocated_len))
    {
      memcpy (out->str + out->len, s, n);
      out->len += n;
      out->str[out->len] = '\0';
    }
  else
    g_string_append_len (out, s, n);
}

static inline void
put_str (GString *out, const char *s)
{
  put_len (out, s, strlen (s));
}

#define PUT_LIT(out, lit) put_len ((out), "" lit, sizeof (lit) - 1)

static const char hex[] = "0123456789abcdef";

/* Copies the run of printable ASCII other than '"' and '\\' at @p at once (what no
 * escaping form changes); returns where it stops. */
static const guchar *
append_plain_run (GString *out, const guchar *p, const guchar *end)
{
  const guchar *run = p;

  while (p < end && *p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
    p++;
  if (p > run)
    put_len (out, (const char *) run, p - run);
  return p;
}

static void
append_json_string (GString *out, const char *s, gsize len)
{
  const guchar *p = (const guchar *) s, *end = p + len;

  g_string_append_c (out, '"');
  while (p < end)
    {
      gsize n;

      p = append_plain_run (out, p, end);
      if (p >= end)
        break;
      switch (*p)
        {
        case '"': PUT_LIT (out, "\\\""); p++; continue;
        case '\\': PUT_LIT (out, "\\\\"); p++; continue;
        case '\n': PUT_LIT (out, "\\n"); p++; continue;
        case '\t': PUT_LIT (out, "\\t"); p++; continue;
        case '\r': PUT_LIT (out, "\\r"); p++; continue;
        default: break;
        }
      if (*p < 0x20 || *p == 0x7f)
        {
          PUT_LIT (out, "\\u00");
          g_string_append_c (out, hex[*p >> 4]);
          g_string_append_c (out, hex[*p & 15]);
          p++;
          continue;
        }
      n = fm_utf8_char_len (p, end - p);
      if (n == 0)
        {
          PUT_LIT (out, "\\udc");
          g_string_append_c (out, hex[*p >> 4]);
          g_string_append_c (out, hex[*p & 15]);
          p++;
          continue;
        }
      if (n > 1 && fm_unichar_is_hostile (g_utf8_get_char ((const char *) p)))
        {
          /* the same character, but not one a terminal showing the line acts on */
          g_string_append_printf (out, "\\u%04x", g_utf8_get_char ((const char *) p));
          p += n;
          continue;
        }
      put_len (out, (const char *) p, n);
      p += n;
    }
  g_string_append_c (out, '"');
}

typedef enum {
  ESC_TEXT,         /* a quoted string in a text line: \\ \" \n \t \xNN */
  ESC_TEXT_DETAIL,  /* detail in a text line: already C-quoted by the decoder, so only
                     * controls and invalid bytes are mapped (no doubled backslashes) */
  ESC_CSV,          /* inside a csv field: "" for quotes, \\r \\n \\t, \\\\ and \\xNN */
} Escape;

/* C-style escaping for text and the csv variant, which doubles quotes the RFC 4180 way.
 * CR and LF are escaped in csv too: a quoted field may hold them, but most tools that read
 * csv line by line would let a file name forge a record. */
static void
append_c_escaped (GString *out, const char *s, gsize len, Escape mode)
{
  const guchar *p = (const guchar *) s, *end = p + len;
  gboolean csv = mode == ESC_CSV;

  while (p < end)
    {
      gboolean escape;
      gsize n;

      p = append_plain_run (out, p, end);
      if (p >= end)
        break;
      if (mode == ESC_TEXT_DETAIL && (*p == '\\' || *p == '"'))
        {
          g_string_append_c (out, (char) *p);
          p++;
          continue;
        }
      if (*p == '\\')
        {
          PUT_LIT (out, "\\\\");
          p++;
          continue;
        }
      if (*p == '"')
        {
          put_str (out, csv ? "\"\"" : "\\\"");
          p++;
          continue;
        }
      n = fm_escape_next (p, end - p, &escape);
      if (escape)
        {
          char buf[FM_ESCAPE_HEX_MAX];

          if (*p == '\n')
            PUT_LIT (out, "\\n");
          else if (*p == '\t')
            PUT_LIT (out, "\\t");
          else if (csv && *p == '\r')
            PUT_LIT (out, "\\r");
          else
            put_len (out, buf, fm_escape_hex (buf, p, n));
          p += n;
          continue;
        }
      put_len (out, (const char *) p, n);
      p += n;
    }
}

/* Two digits a division: a time in ns has 19. */
static const char digit_pairs[] =
  "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
  "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

static void
append_u64 (GString *out, guint64 v)
{
  char buf[24];
  int i = sizeof buf;

  for (; v >= 100; v /= 100)
    {
      i -= 2;
      memcpy (buf + i, digit_pairs + 2 * (v % 100), 2);
    }
  if (v >= 10)
    {
      i -= 2;
      memcpy (buf + i, digit_pairs + 2 * v, 2);
    }
  else
    buf[--i] = (char) ('0' + v);
  put_len (out, buf + i, sizeof buf - i);
}

static void
append_i64 (GString *out, gint64 v)
{
  if (v < 0)
    {
      g_string_append_c (out, '-');
      append_u64 (out, (guint64) 0 - (guint64) v);
    }
  else
    append_u64 (out, (guint64) v);
}

/* The errno name of a failed call's result; NULL when it has none. */
static const char *
errno_name (const FmEvent *e)
{
  return e->result < 0 && e->result > -G_MAXINT ? fm_errno_name ((int) -e->result) : NULL;
}

/* One field's value in a jsonl object or a csv record, then its separator: the writers
 * below are FM_EVENT_FIELDS expanded with these. */
#define JSONL_U64(m) append_u64 (out, e->m);
#define JSONL_U32(m) append_u64 (out, e->m);
#define JSONL_I64(m) append_i64 (out, e->m);
#define JSONL_SYSCALL(m) \
  g_string_append_c (out, '"'); \
  put_str (out, fm_syscall_name (e->m, name_buf)); \
  g_string_append_c (out, '"');
#define JSONL_BYTES(m) append_json_string (out, e->m, e->m##_len);
#define JSONL_UTF8(m) append_json_string (out, e->m, e->m##_len);
#define JSONL_ERRNO(m) \
  if (errno_name (e) != NULL) \
    { \
      g_string_append_c (out, '"'); \
      put_str (out, errno_name (e)); \
      g_string_append_c (out, '"'); \
    } \
  else \
    PUT_LIT (out, "null");
#define JSONL_KEYED(key, value) PUT_LIT (out, "\"" key "\":"); value g_string_append_c (out, ',');
#define JSONL_FIELD_U64(m, key) JSONL_KEYED (key, JSONL_U64 (m))
#define JSONL_FIELD_U32(m, key) JSONL_KEYED (key, JSONL_U32 (m))
#define JSONL_FIELD_I64(m, key) JSONL_KEYED (key, JSONL_I64 (m))
#define JSONL_FIELD_SYSCALL(m, key) JSONL_KEYED (key, JSONL_SYSCALL (m))
#define JSONL_FIELD_BYTES(m, key) JSONL_KEYED (key, JSONL_BYTES (m))
#define JSONL_FIELD_UTF8(m, key) JSONL_KEYED (key, JSONL_UTF8 (m))
#define JSONL_FIELD_ERRNO(m, key) JSONL_KEYED (key, JSONL_ERRNO (m))
#define JSONL_FIELD_USER(m, key)
#define JSONL_FIELD(id, m, type, limit, key, ...) JSONL_FIELD_##type (m, key)

static void
format_jsonl (const FmEvent *e, GString *out)
{
  char name_buf[16];

  g_string_append_c (out, '{');
  FM_EVENT_FIELDS (JSONL_FIELD)
  /* the last field's comma closes the object */
  out->str[out->len - 1] = '}';
  g_string_append_c (out, '\n');
}

/* @v with leading zeros to @width digits (v < 10^width). */
static void
append_u64_padded (GString *out, guint64 v, int width)
{
  char buf[24];

  g_assert (width > 0 && width < (int) sizeof buf);
  for (int i = width - 1; i >= 0; i--, v /= 10)
    buf[i] = (char) ('0' + v % 10);
  put_len (out, buf, width);
}

/* The time of day, local, cached per second: localtime_r is the costliest part of a line. */
static void
append_time_of_day (GString *out, guint64 time_ns)
{
  static __thread time_t cached_sec = -1;
  static __thread char cached[16];
  time_t sec = (time_t) (time_ns / G_GUINT64_CONSTANT (1000000000));
  guint usec = (guint) (time_ns % G_GUINT64_CONSTANT (1000000000) / 1000);

  if (sec != cached_sec)
    {
      struct tm tm;

      if (localtime_r (&sec, &tm) == NULL)
        memset (&tm, 0, sizeof tm);
      g_snprintf (cached, sizeof cached, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
      cached_sec = sec;
    }
  put_len (out, cached, 8);
  g_string_append_c (out, '.');
  append_u64_padded (out, usec, 6);
}

/* A quoted path of a text line, after ", " unless @first; whether the next is still first. */
static gboolean
append_text_path (GString *out, const char *path, gsize len, gboolean first)
{
  if (len == 0)
    return first;
  put_str (out, first ? "\"" : ", \"");
  append_c_escaped (out, path, len, ESC_TEXT);
  g_string_append_c (out, '"');
  return FALSE;
}

static void
format_text (const FmEvent *e, GString *out)
{
  char name_buf[16], result_buf[32];
  const FmSyscall *sc;
  gboolean first;
  gsize col;

  append_time_of_day (out, e->time_ns);
  g_string_append_c (out, ' ');
  col = out->len;
  append_c_escaped (out, e->comm, e->comm_len, ESC_TEXT);
  g_string_append_c (out, '[');
  append_u64 (out, e->pid);
  g_string_append_c (out, ']');
  /* align the calls like strace -f output: comm[pid] padded to 24 columns */
  while (out->len - col < 24)
    g_string_append_c (out, ' ');
  g_string_append_c (out, ' ');
  put_str (out, fm_syscall_name (e->syscall_nr, name_buf));
  g_string_append_c (out, '(');
  /* in the man page's order: symlink(target, linkpath), mount(source, target),
   * sendfile(out, in), though the event's path is the link, the mount point, the source */
  sc = fm_syscall_by_nr (e->syscall_nr);
  if (sc != NULL && fm_syscall_path2_first (sc))
    {
      first = append_text_path (out, e->path2, e->path2_len, TRUE);
      append_text_path (out, e->path, e->path_len, first);
    }
  else
    {
      first = append_text_path (out, e->path, e->path_len, TRUE);
      append_text_path (out, e->path2, e->path2_len, first);
    }
  if (e->detail_len > 0)
    {
      if (e->path_len > 0 || e->path2_len > 0)
        PUT_LIT (out, ", ");
      append_c_escaped (out, e->detail, e->detail_len, ESC_TEXT_DETAIL);
    }
  PUT_LIT (out, ") = ");
  put_str (out, fm_result_format (e->syscall_nr, e->result, result_buf));
  if (e->duration_ns > 0)
    {
      PUT_LIT (out, " <");
      append_u64 (out, e->duration_ns / 1000000000);
      g_string_append_c (out, '.');
      append_u64_padded (out, e->duration_ns / 1000 % 1000000, 6);
      g_string_append_c (out, '>');
    }
  g_string_append_c (out, '\n');
}

static void
append_csv_field (GString *out, const char *s, gsize len)
{
  gboolean quote = FALSE;

  for (gsize i = 0; i < len; i++)
    if (s[i] == ',' || s[i] == '"')
      {
        quote = TRUE;
        break;
      }
  if (quote)
    g_string_append_c (out, '"');
  append_c_escaped (out, s, len, ESC_CSV);
  if (quote)
    g_string_append_c (out, '"');
}

#define CSV_U64(m) append_u64 (out, e->m); g_string_append_c (out, ',');
#define CSV_U32(m) append_u64 (out, e->m); g_string_append_c (out, ',');
#define CSV_I64(m) append_i64 (out, e->m); g_string_append_c (out, ',');
#define CSV_SYSCALL(m) put_str (out, fm_syscall_name (e->m, name_buf)); g_string_append_c (out, ',');
#define CSV_BYTES(m) append_csv_field (out, e->m, e->m##_len); g_string_append_c (out, ',');
#define CSV_UTF8(m) append_csv_field (out, e->m, e->m##_len); g_string_append_c (out, ',');
#define CSV_ERRNO(m) \
  if (errno_name (e) != NULL) \
    put_str (out, errno_name (e)); \
  g_string_append_c (out, ',');
#define CSV_USER(m)
#define CSV_FIELD(id, m, type, ...) CSV_##type (m)

static void
format_csv (const FmEvent *e, GString *out)
{
  char name_buf[16];

  FM_EVENT_FIELDS (CSV_FIELD)
  /* the last field's comma becomes the record's end */
  g_string_truncate (out, out->len - 1);
  PUT_LIT (out, "\r\n");
}

void
fm_format_event (FmFormat format, const FmEvent *event, GString *out)
{
  g_return_if_fail (event != NULL && out != NULL);

  switch (format)
    {
    case FM_FORMAT_TEXT:
      format_text (event, out);
      return;
    case FM_FORMAT_JSONL:
      format_jsonl (event, out);
      return;
    case FM_FORMAT_CSV:
      format_csv (event, out);
      return;
    }
  g_return_if_reached ();
}
