/* fm-format.c: the save formats (text, jsonl, csv) and the jsonl reader. doc/formats.md
 * is the reference; the rules in short:
 *
 * jsonl  one object per line, every field. Strings that are valid UTF-8 are JSON strings
 *        with the usual escapes (control characters as \u00XX). A byte that is not part
 *        of valid UTF-8 (0x80..0xff) is written as the lone surrogate \udcXX, as Python's
 *        "surrogateescape" does: valid UTF-8 never encodes a lone surrogate, so the reader
 *        maps them back to the bytes unambiguously and any file name survives.
 * text   strace-like lines for people: strings C-escaped (\n, \t, \", \\, \xNN for
 *        control characters, C1 controls and invalid bytes), so nothing in a file name can
 *        split a line or reach a terminal as an escape sequence.
 * csv    RFC 4180 (CRLF, quotes doubled, fields with , " CR or LF quoted), with a header
 *        line. Invalid UTF-8 bytes are written as \xNN and backslashes doubled, so the
 *        file is valid UTF-8 and the names are recoverable.
 *
 * The writers append to a GString and allocate nothing per event once it has grown. */
#include "fm-format.h"

#include <string.h>
#include <time.h>

#include "fm-error.h"
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

#define CSV_COLUMNS "seq,time_ns,duration_ns,pid,ppid,tid,uid,comm,syscall,result,errno,path,path2,detail"

const char *
fm_format_header (FmFormat format)
{
  return format == FM_FORMAT_CSV ? CSV_COLUMNS "\r\n" : NULL;
}

/* Length of the valid UTF-8 sequence at @p (at most @len bytes), or 0 when the byte at
 * @p does not start one. ASCII is the fast path. */
static inline gsize
utf8_seq_len (const guchar *p, gsize len)
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
    g_string_append_len (out, (const char *) run, p - run);
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
        case '"': g_string_append (out, "\\\""); p++; continue;
        case '\\': g_string_append (out, "\\\\"); p++; continue;
        case '\n': g_string_append (out, "\\n"); p++; continue;
        case '\t': g_string_append (out, "\\t"); p++; continue;
        case '\r': g_string_append (out, "\\r"); p++; continue;
        default: break;
        }
      if (*p < 0x20 || *p == 0x7f)
        {
          g_string_append (out, "\\u00");
          g_string_append_c (out, hex[*p >> 4]);
          g_string_append_c (out, hex[*p & 15]);
          p++;
          continue;
        }
      n = utf8_seq_len (p, end - p);
      if (n == 0)
        {
          g_string_append (out, "\\udc");
          g_string_append_c (out, hex[*p >> 4]);
          g_string_append_c (out, hex[*p & 15]);
          p++;
          continue;
        }
      g_string_append_len (out, (const char *) p, n);
      p += n;
    }
  g_string_append_c (out, '"');
}

typedef enum {
  ESC_TEXT,         /* a quoted string in a text line: \\ \" \n \t \xNN */
  ESC_TEXT_DETAIL,  /* detail in a text line: already C-quoted by the decoder, so only
                     * controls and invalid bytes are mapped (no doubled backslashes) */
  ESC_CSV,          /* inside a csv field: "" for quotes, CR LF TAB kept, \\ and \xNN */
} Escape;

/* C-style escaping for text and the csv variant, which keeps CR, LF and TAB (csv quotes
 * the field instead) and doubles quotes the RFC 4180 way. */
static void
append_c_escaped (GString *out, const char *s, gsize len, Escape mode)
{
  const guchar *p = (const guchar *) s, *end = p + len;
  gboolean csv = mode == ESC_CSV;

  while (p < end)
    {
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
          g_string_append (out, "\\\\");
          p++;
          continue;
        }
      if (*p == '"')
        {
          g_string_append (out, csv ? "\"\"" : "\\\"");
          p++;
          continue;
        }
      if (csv && (*p == '\n' || *p == '\r' || *p == '\t'))
        {
          g_string_append_c (out, (char) *p);
          p++;
          continue;
        }
      n = utf8_seq_len (p, end - p);
      /* C0, DEL, C1 (U+0080..U+009F: terminal controls too) and invalid bytes */
      if (n == 0 || *p < 0x20 || *p == 0x7f || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0))
        {
          gsize k = (n == 0) ? 1 : n;

          if (!csv && *p == '\n')
            g_string_append (out, "\\n");
          else if (!csv && *p == '\t')
            g_string_append (out, "\\t");
          else
            for (gsize i = 0; i < k; i++)
              {
                g_string_append (out, "\\x");
                g_string_append_c (out, hex[p[i] >> 4]);
                g_string_append_c (out, hex[p[i] & 15]);
              }
          p += k;
          continue;
        }
      g_string_append_len (out, (const char *) p, n);
      p += n;
    }
}

static void
append_u64 (GString *out, guint64 v)
{
  char buf[24];
  int i = sizeof buf;

  do
    buf[--i] = (char) ('0' + v % 10);
  while ((v /= 10) != 0);
  g_string_append_len (out, buf + i, sizeof buf - i);
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

static void
format_jsonl (const FmEvent *e, GString *out)
{
  char name_buf[16];
  const char *err = e->result < 0 && e->result > -G_MAXINT ? fm_errno_name ((int) -e->result) : NULL;

  g_string_append (out, "{\"seq\":");
  append_u64 (out, e->seq);
  g_string_append (out, ",\"time_ns\":");
  append_u64 (out, e->time_ns);
  g_string_append (out, ",\"duration_ns\":");
  append_u64 (out, e->duration_ns);
  g_string_append (out, ",\"pid\":");
  append_u64 (out, e->pid);
  g_string_append (out, ",\"ppid\":");
  append_u64 (out, e->ppid);
  g_string_append (out, ",\"tid\":");
  append_u64 (out, e->tid);
  g_string_append (out, ",\"uid\":");
  append_u64 (out, e->uid);
  g_string_append (out, ",\"comm\":");
  append_json_string (out, e->comm, e->comm_len);
  g_string_append (out, ",\"syscall\":\"");
  g_string_append (out, fm_syscall_name (e->syscall_nr, name_buf));
  g_string_append (out, "\",\"result\":");
  append_i64 (out, e->result);
  if (err != NULL)
    {
      g_string_append (out, ",\"errno\":\"");
      g_string_append (out, err);
      g_string_append (out, "\"");
    }
  else
    g_string_append (out, ",\"errno\":null");
  g_string_append (out, ",\"path\":");
  append_json_string (out, e->path, e->path_len);
  g_string_append (out, ",\"path2\":");
  append_json_string (out, e->path2, e->path2_len);
  g_string_append (out, ",\"detail\":");
  append_json_string (out, e->detail, e->detail_len);
  g_string_append (out, "}\n");
}

/* @v with leading zeros to @width digits (v < 10^width). */
static void
append_u64_padded (GString *out, guint64 v, int width)
{
  char buf[24];

  g_assert (width > 0 && width < (int) sizeof buf);
  for (int i = width - 1; i >= 0; i--, v /= 10)
    buf[i] = (char) ('0' + v % 10);
  g_string_append_len (out, buf, width);
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
  g_string_append_len (out, cached, 8);
  g_string_append_c (out, '.');
  append_u64_padded (out, usec, 6);
}

static void
format_text (const FmEvent *e, GString *out)
{
  char name_buf[16], result_buf[32];
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
  g_string_append (out, fm_syscall_name (e->syscall_nr, name_buf));
  g_string_append_c (out, '(');
  if (e->path_len > 0)
    {
      g_string_append_c (out, '"');
      append_c_escaped (out, e->path, e->path_len, ESC_TEXT);
      g_string_append_c (out, '"');
    }
  if (e->path2_len > 0)
    {
      g_string_append (out, e->path_len > 0 ? ", \"" : "\"");
      append_c_escaped (out, e->path2, e->path2_len, ESC_TEXT);
      g_string_append_c (out, '"');
    }
  if (e->detail_len > 0)
    {
      if (e->path_len > 0 || e->path2_len > 0)
        g_string_append (out, ", ");
      append_c_escaped (out, e->detail, e->detail_len, ESC_TEXT_DETAIL);
    }
  g_string_append (out, ") = ");
  g_string_append (out, fm_result_format (e->result, result_buf));
  if (e->duration_ns > 0)
    {
      g_string_append (out, " <");
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
    if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
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

static void
format_csv (const FmEvent *e, GString *out)
{
  char name_buf[16];
  const char *err = e->result < 0 && e->result > -G_MAXINT ? fm_errno_name ((int) -e->result) : NULL;

  append_u64 (out, e->seq);
  g_string_append_c (out, ',');
  append_u64 (out, e->time_ns);
  g_string_append_c (out, ',');
  append_u64 (out, e->duration_ns);
  g_string_append_c (out, ',');
  append_u64 (out, e->pid);
  g_string_append_c (out, ',');
  append_u64 (out, e->ppid);
  g_string_append_c (out, ',');
  append_u64 (out, e->tid);
  g_string_append_c (out, ',');
  append_u64 (out, e->uid);
  g_string_append_c (out, ',');
  append_csv_field (out, e->comm, e->comm_len);
  g_string_append_c (out, ',');
  g_string_append (out, fm_syscall_name (e->syscall_nr, name_buf));
  g_string_append_c (out, ',');
  append_i64 (out, e->result);
  g_string_append_c (out, ',');
  if (err != NULL)
    g_string_append (out, err);
  g_string_append_c (out, ',');
  append_csv_field (out, e->path, e->path_len);
  g_string_append_c (out, ',');
  append_csv_field (out, e->path2, e->path2_len);
  g_string_append_c (out, ',');
  append_csv_field (out, e->detail, e->detail_len);
  g_string_append (out, "\r\n");
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

/* ---- jsonl reader ------------------------------------------------------------------- */

enum {
  K_SEQ, K_TIME, K_DURATION, K_PID, K_PPID, K_TID, K_UID, K_COMM, K_SYSCALL, K_RESULT,
  K_ERRNO, K_PATH, K_PATH2, K_DETAIL, N_KEYS
};

static const char *const keys[N_KEYS] = {
  "seq", "time_ns", "duration_ns", "pid", "ppid", "tid", "uid", "comm", "syscall", "result",
  "errno", "path", "path2", "detail",
};

static const gsize key_lens[N_KEYS] = { 3, 7, 11, 3, 4, 3, 3, 4, 7, 6, 5, 4, 5, 6 };

/* The largest value of each integer key (result is signed: it is its magnitude). */
static const guint64 key_max[N_KEYS] = {
  [K_SEQ] = G_MAXUINT64, [K_TIME] = G_MAXUINT64, [K_DURATION] = G_MAXUINT64,
  [K_PID] = G_MAXUINT32, [K_PPID] = G_MAXUINT32, [K_TID] = G_MAXUINT32, [K_UID] = G_MAXUINT32,
  [K_RESULT] = G_MAXINT64,
};

/* The longest value of each string key, in bytes: what an FmEvent can hold. */
static const gsize key_limits[N_KEYS] = {
  [K_COMM] = FM_COMM_MAX - 1, [K_SYSCALL] = 15, [K_PATH] = FM_PATH_MAX,
  [K_PATH2] = FM_PATH_MAX, [K_DETAIL] = FM_DETAIL_MAX,
};

struct _FmJsonlReader {
  GByteArray *scratch;   /* the decoded strings of the current line, NUL-terminated */
};

FmJsonlReader *
fm_jsonl_reader_new (void)
{
  FmJsonlReader *reader = g_new0 (FmJsonlReader, 1);

  for (int i = 0; i < N_KEYS; i++)
    g_assert (strlen (keys[i]) == key_lens[i]);

  reader->scratch = g_byte_array_new ();
  return reader;
}

void
fm_jsonl_reader_free (FmJsonlReader *reader)
{
  if (reader == NULL)
    return;
  g_byte_array_unref (reader->scratch);
  g_free (reader);
}

typedef struct {
  const char *start, *p, *end;
  GByteArray *scratch;
  const char *key;       /* the known key whose value is being read, for messages */
  GError **error;
} Json;

/* "column N: what", or "column N: “key”: what" inside a known key's value, so that a
 * bad line says both where and which field. */
static gboolean
json_fail (Json *j, const char *what)
{
  if (j->key != NULL)
    g_set_error (j->error, FM_ERROR, FM_ERROR_PARSE, "column %u: “%s”: %s",
                 (guint) (j->p - j->start) + 1, j->key, what);
  else
    g_set_error (j->error, FM_ERROR, FM_ERROR_PARSE, "column %u: %s",
                 (guint) (j->p - j->start) + 1, what);
  return FALSE;
}

static void
json_ws (Json *j)
{
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n'))
    j->p++;
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
json_hex4 (Json *j, guint *out)
{
  guint v = 0;

  if (j->end - j->p < 4)
    return json_fail (j, "truncated \\u escape");
  for (int i = 0; i < 4; i++)
    {
      int h = hex_value (j->p[i]);

      if (h < 0)
        return json_fail (j, "bad \\u escape");
      v = v * 16 + (guint) h;
    }
  j->p += 4;
  *out = v;
  return TRUE;
}

/* A JSON string into the scratch buffer; *offset gets where it starts there. Lone
 * surrogates U+DC80..U+DCFF are the bytes 0x80..0xff (see the top of this file). */
static gboolean
json_string (Json *j, guint *offset, gsize *len)
{
  guint start;

  if (j->p >= j->end || *j->p != '"')
    return json_fail (j, "expected a string");
  j->p++;
  start = j->scratch->len;
  for (;;)
    {
      const char *run = j->p;

      while (j->p < j->end && *j->p != '"' && *j->p != '\\' && (guchar) *j->p >= 0x20)
        j->p++;
      if (j->p > run)
        g_byte_array_append (j->scratch, (const guint8 *) run, j->p - run);
      if (j->p >= j->end)
        return json_fail (j, "unterminated string");
      if (*j->p == '"')
        {
          j->p++;
          break;
        }
      if ((guchar) *j->p < 0x20)
        return json_fail (j, "control character in a string");
      /* a backslash escape */
      j->p++;
      if (j->p >= j->end)
        return json_fail (j, "truncated escape");
      {
        char c = *j->p++;
        guint8 b;
        guint u, lo;
        char utf8[8];

        switch (c)
          {
          case '"': case '\\': case '/': b = (guint8) c; g_byte_array_append (j->scratch, &b, 1); continue;
          case 'b': b = '\b'; g_byte_array_append (j->scratch, &b, 1); continue;
          case 'f': b = '\f'; g_byte_array_append (j->scratch, &b, 1); continue;
          case 'n': b = '\n'; g_byte_array_append (j->scratch, &b, 1); continue;
          case 'r': b = '\r'; g_byte_array_append (j->scratch, &b, 1); continue;
          case 't': b = '\t'; g_byte_array_append (j->scratch, &b, 1); continue;
          case 'u': break;
          default:
            j->p--;
            return json_fail (j, "unknown escape");
          }
        if (!json_hex4 (j, &u))
          return FALSE;
        if (u >= 0xdc80 && u <= 0xdcff)
          {
            b = (guint8) (u - 0xdc00);
            g_byte_array_append (j->scratch, &b, 1);
            continue;
          }
        if (u >= 0xd800 && u <= 0xdbff)
          {
            if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u')
              return json_fail (j, "high surrogate without its low half");
            j->p += 2;
            if (!json_hex4 (j, &lo))
              return FALSE;
            if (lo < 0xdc00 || lo > 0xdfff)
              return json_fail (j, "bad low surrogate");
            u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
          }
        else if (u >= 0xdc00 && u <= 0xdfff)
          return json_fail (j, "lone low surrogate outside U+DC80..U+DCFF");
        if (u == 0)
          return json_fail (j, "NUL in a string");
        g_byte_array_append (j->scratch, (const guint8 *) utf8, g_unichar_to_utf8 (u, utf8));
      }
    }
  *len = j->scratch->len - start;
  g_byte_array_append (j->scratch, (const guint8 *) "", 1);
  *offset = start;
  if (memchr (j->scratch->data + start, '\0', *len) != NULL)
    return json_fail (j, "NUL in a string");
  return TRUE;
}

/* An integer in [-(max+1), max] when @allow_negative, else [0, max]; @max is
 * G_MAXUINT64 for the u64 fields, whose values above G_MAXINT64 come back through the
 * cast. Fractions and exponents are a type error: every field is an integer. */
static gboolean
json_integer (Json *j, gint64 *out, gboolean allow_negative, guint64 max)
{
  const char *start = j->p;
  gboolean neg = FALSE;
  guint64 v = 0;

  if (j->p < j->end && *j->p == '-')
    {
      if (!allow_negative)
        return json_fail (j, "expected a non-negative integer");
      neg = TRUE;
      j->p++;
    }
  if (j->p >= j->end || !g_ascii_isdigit (*j->p))
    {
      j->p = start;
      return json_fail (j, "expected an integer");
    }
  while (j->p < j->end && g_ascii_isdigit (*j->p))
    {
      guint d = (guint) (*j->p - '0');

      if (v > (G_MAXUINT64 - d) / 10)
        {
          j->p = start;
          return json_fail (j, "integer out of range");
        }
      v = v * 10 + d;
      j->p++;
    }
  if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E'))
    {
      j->p = start;
      return json_fail (j, "expected an integer, not a fraction");
    }
  if (neg ? v > max + 1 : v > max)
    {
      j->p = start;
      return json_fail (j, "integer out of range");
    }
  *out = neg ? (gint64) (0 - v) : (gint64) v;
  return TRUE;
}

/* Skips any JSON value (for keys the reader does not know). */
static gboolean
json_skip (Json *j, int depth)
{
  guint off;
  gsize len;

  json_ws (j);
  if (j->p >= j->end)
    return json_fail (j, "expected a value");
  if (depth > 64)
    return json_fail (j, "nested too deeply");
  switch (*j->p)
    {
    case '"':
      {
        guint keep = j->scratch->len;
        gboolean ok = json_string (j, &off, &len);

        g_byte_array_set_size (j->scratch, keep);
        return ok;
      }
    case '{': case '[':
      {
        char close = *j->p == '{' ? '}' : ']';

        j->p++;
        json_ws (j);
        if (j->p < j->end && *j->p == close)
          {
            j->p++;
            return TRUE;
          }
        for (;;)
          {
            if (close == '}')
              {
                guint keep = j->scratch->len;

                json_ws (j);
                if (!json_string (j, &off, &len))
                  return FALSE;
                g_byte_array_set_size (j->scratch, keep);
                json_ws (j);
                if (j->p >= j->end || *j->p != ':')
                  return json_fail (j, "expected :");
                j->p++;
              }
            if (!json_skip (j, depth + 1))
              return FALSE;
            json_ws (j);
            if (j->p < j->end && *j->p == ',')
              {
                j->p++;
                continue;
              }
            if (j->p < j->end && *j->p == close)
              {
                j->p++;
                return TRUE;
              }
            return json_fail (j, "expected , or the end of the container");
          }
      }
    case 't': case 'f': case 'n':
      {
        static const char *const literals[] = { "true", "false", "null" };

        for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
          {
            gsize n = strlen (literals[i]);

            if ((gsize) (j->end - j->p) >= n && memcmp (j->p, literals[i], n) == 0)
              {
                j->p += n;
                return TRUE;
              }
          }
        return json_fail (j, "expected a value");
      }
    default:
      {
        /* a number: -? digits (. digits)? ([eE] [+-]? digits)? */
        const char *start = j->p;

        if (j->p < j->end && *j->p == '-')
          j->p++;
        if (j->p >= j->end || !g_ascii_isdigit (*j->p))
          {
            j->p = start;
            return json_fail (j, "expected a value");
          }
        while (j->p < j->end && g_ascii_isdigit (*j->p))
          j->p++;
        if (j->p < j->end && *j->p == '.')
          {
            j->p++;
            if (j->p >= j->end || !g_ascii_isdigit (*j->p))
              return json_fail (j, "expected a digit after the decimal point");
            while (j->p < j->end && g_ascii_isdigit (*j->p))
              j->p++;
          }
        if (j->p < j->end && (*j->p == 'e' || *j->p == 'E'))
          {
            j->p++;
            if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
              j->p++;
            if (j->p >= j->end || !g_ascii_isdigit (*j->p))
              return json_fail (j, "expected a digit in the exponent");
            while (j->p < j->end && g_ascii_isdigit (*j->p))
              j->p++;
          }
        return TRUE;
      }
    }
}

gboolean
fm_jsonl_reader_parse_line (FmJsonlReader *reader,
                            const char    *line,
                            gsize          len,
                            FmEvent       *event,
                            GError       **error)
{
  Json j = { line, line, line + len, reader->scratch, NULL, error };
  guint offsets[N_KEYS] = { 0 };
  gsize lens[N_KEYS] = { 0 };
  gint64 nums[N_KEYS] = { 0 };
  guint seen = 0;

  g_return_val_if_fail (reader != NULL && line != NULL && event != NULL, FALSE);

  g_byte_array_set_size (reader->scratch, 0);
  json_ws (&j);
  if (j.p >= j.end || *j.p != '{')
    return json_fail (&j, "expected { at the start of an event");
  j.p++;
  json_ws (&j);
  if (j.p < j.end && *j.p == '}')
    return json_fail (&j, "empty object: no event fields");
  for (;;)
    {
      guint key_off;
      gsize key_len;
      int k = -1;

      json_ws (&j);
      if (!json_string (&j, &key_off, &key_len))
        return FALSE;
      for (int i = 0; i < N_KEYS && k < 0; i++)
        if (key_lens[i] == key_len &&
            memcmp (reader->scratch->data + key_off, keys[i], key_len) == 0)
          k = i;
      g_byte_array_set_size (reader->scratch, key_off);
      json_ws (&j);
      if (j.p >= j.end || *j.p != ':')
        return json_fail (&j, "expected : after the key");
      j.p++;
      json_ws (&j);
      j.key = k >= 0 ? keys[k] : NULL;
      if (k < 0)
        {
          if (!json_skip (&j, 0))
            return FALSE;
        }
      else if (seen & (1u << k))
        return json_fail (&j, "duplicate key");
      else if (k == K_COMM || k == K_SYSCALL || k == K_PATH || k == K_PATH2 || k == K_DETAIL)
        {
          const char *value_at = j.p;

          if (!json_string (&j, &offsets[k], &lens[k]))
            return FALSE;
          if (lens[k] > key_limits[k])
            {
              j.p = value_at;
              return json_fail (&j, "string longer than its limit");
            }
        }
      else if (k == K_ERRNO)
        {
          /* derived from result, so only its type is checked: a name or null */
          if (j.p < j.end && *j.p == '"')
            {
              guint keep = reader->scratch->len, off;
              gsize n;

              if (!json_string (&j, &off, &n))
                return FALSE;
              g_byte_array_set_size (reader->scratch, keep);
            }
          else if ((gsize) (j.end - j.p) >= 4 && memcmp (j.p, "null", 4) == 0)
            j.p += 4;
          else
            return json_fail (&j, "expected a string or null");
        }
      else if (!json_integer (&j, &nums[k], k == K_RESULT, key_max[k]))
        return FALSE;
      j.key = NULL;
      if (k >= 0)
        seen |= 1u << k;
      json_ws (&j);
      if (j.p < j.end && *j.p == ',')
        {
          j.p++;
          continue;
        }
      if (j.p < j.end && *j.p == '}')
        {
          j.p++;
          break;
        }
      return json_fail (&j, "expected , or }");
    }
  json_ws (&j);
  if (j.p != j.end)
    return json_fail (&j, "text after the end of the object");
  for (int i = 0; i < N_KEYS; i++)
    if (i != K_ERRNO && !(seen & (1u << i)))
      {
        g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "column %u: missing key “%s”",
                     (guint) len + 1, keys[i]);
        return FALSE;
      }

  memset (event, 0, sizeof *event);
  event->seq = (guint64) nums[K_SEQ];
  event->time_ns = (guint64) nums[K_TIME];
  event->duration_ns = (guint64) nums[K_DURATION];
  event->pid = (guint32) nums[K_PID];
  event->ppid = (guint32) nums[K_PPID];
  event->tid = (guint32) nums[K_TID];
  event->uid = (guint32) nums[K_UID];
  event->result = nums[K_RESULT];
  if (!g_utf8_validate ((const char *) reader->scratch->data + offsets[K_DETAIL], lens[K_DETAIL], NULL))
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_PARSE, "column 1: “detail”: not valid UTF-8");
      return FALSE;
    }
  {
    const char *name = (const char *) reader->scratch->data + offsets[K_SYSCALL];
    const FmSyscall *sc = fm_syscall_by_name (name);

    if (sc != NULL)
      event->syscall_nr = sc->nr;
    else if (g_str_has_prefix (name, "syscall_") && g_ascii_isdigit (name[8]) &&
             strspn (name + 8, "0123456789") == strlen (name + 8) &&
             g_ascii_strtoull (name + 8, NULL, 10) <= G_MAXUINT16)
      event->syscall_nr = (guint16) g_ascii_strtoull (name + 8, NULL, 10);
    else
      {
        g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "column 1: “syscall”: unknown syscall “%s”", name);
        return FALSE;
      }
  }
  event->comm = (const char *) reader->scratch->data + offsets[K_COMM];
  event->comm_len = (guint16) lens[K_COMM];
  event->path = (const char *) reader->scratch->data + offsets[K_PATH];
  event->path_len = (guint16) lens[K_PATH];
  event->path2 = (const char *) reader->scratch->data + offsets[K_PATH2];
  event->path2_len = (guint16) lens[K_PATH2];
  event->detail = (const char *) reader->scratch->data + offsets[K_DETAIL];
  event->detail_len = (guint16) lens[K_DETAIL];
  return TRUE;
}
