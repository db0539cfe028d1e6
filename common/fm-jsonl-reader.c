/* fm-jsonl-reader.c: the jsonl reader of fm-format.h, which reads back what fm-format.c
 * writes (doc/formats.md). Apart from the writers because it shares no code with them,
 * only the format: a strict JSON parser of one line into an FmEvent view whose strings are
 * decoded into the reader's scratch buffer, so that a line allocates nothing once that
 * buffer has grown.
 *
 * Strings: the lone surrogates \udc80..\udcff are the bytes 0x80..0xff that were not
 * valid UTF-8 when written (Python's "surrogateescape"; valid UTF-8 never encodes a lone
 * surrogate, so the mapping is unambiguous); any other lone surrogate and NUL are errors.
 * Every field is required but errno (derived from result); integers are range-checked per
 * field, strings against what an FmEvent holds; unknown keys are skipped, duplicates
 * refused. An error names the column and, inside a value, the key. */
#include "fm-format.h"

#include <string.h>

#include "fm-error.h"
#include "fm-syscalls.h"

/* The keys are those of FM_EVENT_FIELDS (fm-event-fields.h); a field's TYPE says how its
 * value is read. The largest value of an integer type (result is signed: its magnitude). */
static guint64
integer_max (FmFieldType type)
{
  switch (type)
    {
    case FM_FIELD_TYPE_U32: return G_MAXUINT32;
    case FM_FIELD_TYPE_I64: return G_MAXINT64;
    default: return G_MAXUINT64;
    }
}

G_STATIC_ASSERT (FM_N_FIELDS <= 32);   /* the keys seen are bits of a guint32 */

struct _FmJsonlReader {
  GByteArray *scratch;   /* the decoded strings of the current line, NUL-terminated */
};

FmJsonlReader *
fm_jsonl_reader_new (void)
{
  FmJsonlReader *reader = g_new0 (FmJsonlReader, 1);

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

/* The length of each field's key (0: it has none), known at compile time: every line
 * looks up every key. */
#define KEY_LEN_KEYED(key) sizeof (key) - 1
#define KEY_LEN_U64 KEY_LEN_KEYED
#define KEY_LEN_U32 KEY_LEN_KEYED
#define KEY_LEN_I64 KEY_LEN_KEYED
#define KEY_LEN_SYSCALL KEY_LEN_KEYED
#define KEY_LEN_BYTES KEY_LEN_KEYED
#define KEY_LEN_UTF8 KEY_LEN_KEYED
#define KEY_LEN_ERRNO KEY_LEN_KEYED
#define KEY_LEN_USER(key) 0
#define KEY_LEN(id, m, type, limit, key, ...) [FM_FIELD_##id] = KEY_LEN_##type (key),

static const gsize key_lens[FM_N_FIELDS] = { FM_EVENT_FIELDS (KEY_LEN) };

/* The known key of @len bytes at @key, or -1. */
static int
key_index (const guint8 *key, gsize len)
{
  for (int i = 0; i < FM_N_FIELDS; i++)
    if (key_lens[i] == len && len > 0 && memcmp (key, fm_event_fields[i].key, len) == 0)
      return i;
  return -1;
}

/* The value of the known key @k, as its field's type says. */
static gboolean
json_field (Json *j, const FmFieldInfo *field, guint *offset, gsize *len, gint64 *num)
{
  const char *value_at = j->p;

  switch (field->type)
    {
    case FM_FIELD_TYPE_BYTES:
    case FM_FIELD_TYPE_UTF8:
    case FM_FIELD_TYPE_SYSCALL:
      if (!json_string (j, offset, len))
        return FALSE;
      if (*len > field->limit)
        {
          j->p = value_at;
          return json_fail (j, "string longer than its limit");
        }
      return TRUE;
    case FM_FIELD_TYPE_ERRNO:
      /* derived from result, so only its type is checked: a name or null */
      if (j->p < j->end && *j->p == '"')
        {
          guint keep = j->scratch->len, off;
          gsize n;

          if (!json_string (j, &off, &n))
            return FALSE;
          g_byte_array_set_size (j->scratch, keep);
          return TRUE;
        }
      if ((gsize) (j->end - j->p) >= 4 && memcmp (j->p, "null", 4) == 0)
        {
          j->p += 4;
          return TRUE;
        }
      return json_fail (j, "expected a string or null");
    case FM_FIELD_TYPE_U64:
    case FM_FIELD_TYPE_U32:
    case FM_FIELD_TYPE_I64:
      return json_integer (j, num, field->type == FM_FIELD_TYPE_I64, integer_max (field->type));
    case FM_FIELD_TYPE_USER:
      break;
    }
  g_return_val_if_reached (FALSE);
}

/* "syscall_N" names a syscall the table does not know; anything else must be in it. */
static gboolean
syscall_from_name (const char *name, guint16 *nr, GError **error)
{
  const FmSyscall *sc = fm_syscall_by_name (name);

  if (sc != NULL)
    *nr = sc->nr;
  else if (g_str_has_prefix (name, "syscall_") && g_ascii_isdigit (name[8]) &&
           strspn (name + 8, "0123456789") == strlen (name + 8) &&
           g_ascii_strtoull (name + 8, NULL, 10) <= G_MAXUINT16)
    *nr = (guint16) g_ascii_strtoull (name + 8, NULL, 10);
  else
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "column 1: “syscall”: unknown syscall “%s”", name);
      return FALSE;
    }
  return TRUE;
}

/* The event from the values read: FM_EVENT_FIELDS expanded. */
#define STRING_AT(id) ((const char *) reader->scratch->data + offsets[FM_FIELD_##id])
#define ASSIGN_NUMBER(id, m, ctype) event->m = (ctype) nums[FM_FIELD_##id];
#define ASSIGN_U64(id, m) ASSIGN_NUMBER (id, m, guint64)
#define ASSIGN_U32(id, m) ASSIGN_NUMBER (id, m, guint32)
#define ASSIGN_I64(id, m) ASSIGN_NUMBER (id, m, gint64)
#define ASSIGN_SYSCALL(id, m) \
  if (!syscall_from_name (STRING_AT (id), &event->m, error)) \
    return FALSE;
#define ASSIGN_BYTES(id, m) \
  event->m = STRING_AT (id); \
  event->m##_len = (guint16) lens[FM_FIELD_##id];
#define ASSIGN_UTF8(id, m) \
  if (!g_utf8_validate (STRING_AT (id), lens[FM_FIELD_##id], NULL)) \
    { \
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "column 1: “%s”: not valid UTF-8", \
                   fm_event_fields[FM_FIELD_##id].key); \
      return FALSE; \
    } \
  ASSIGN_BYTES (id, m)
#define ASSIGN_ERRNO(id, m)
#define ASSIGN_USER(id, m)
#define ASSIGN(id, m, type, ...) ASSIGN_##type (id, m)

gboolean
fm_jsonl_reader_parse_line (FmJsonlReader *reader,
                            const char    *line,
                            gsize          len,
                            FmEvent       *event,
                            GError       **error)
{
  Json j = { line, line, line + len, reader->scratch, NULL, error };
  guint offsets[FM_N_FIELDS] = { 0 };
  gsize lens[FM_N_FIELDS] = { 0 };
  gint64 nums[FM_N_FIELDS] = { 0 };
  guint32 seen = 0;

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
      int k;

      json_ws (&j);
      if (!json_string (&j, &key_off, &key_len))
        return FALSE;
      k = key_index (reader->scratch->data + key_off, key_len);
      g_byte_array_set_size (reader->scratch, key_off);
      json_ws (&j);
      if (j.p >= j.end || *j.p != ':')
        return json_fail (&j, "expected : after the key");
      j.p++;
      json_ws (&j);
      j.key = k >= 0 ? fm_event_fields[k].key : NULL;
      if (k < 0)
        {
          if (!json_skip (&j, 0))
            return FALSE;
        }
      else if (seen & (1u << k))
        return json_fail (&j, "duplicate key");
      else if (!json_field (&j, &fm_event_fields[k], &offsets[k], &lens[k], &nums[k]))
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
  /* every stored field is required; errno is derived from result */
  for (int i = 0; i < FM_N_FIELDS; i++)
    if (fm_field_is_stored (&fm_event_fields[i]) && !(seen & (1u << i)))
      {
        g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "column %u: missing key “%s”",
                     (guint) len + 1, fm_event_fields[i].key);
        return FALSE;
      }

  memset (event, 0, sizeof *event);
  FM_EVENT_FIELDS (ASSIGN)
  return TRUE;
}
