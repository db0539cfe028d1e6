/* fm-filter.c: the filter language (see fm-filter.h): a recursive-descent parser that
 * compiles the text once into a tree, and an evaluator that allocates nothing.
 *
 * Regular expressions use PCRE2 directly, with match data allocated at compile time:
 * GRegex (the same engine and syntax) allocates a match context on every call. A filter
 * is therefore not for concurrent use from several threads; each thread compiles its own. */
#define _GNU_SOURCE   /* memmem */
#include "config.h"

#include "fm-filter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <pcre2.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fm-error.h"
#include "fm-syscalls.h"

static gboolean glob_match (const char *pat, gsize pat_len, const char *s, gsize len);

/* Deeper nesting than this is refused rather than recursed into. */
#define MAX_DEPTH 200

typedef enum {
  F_COMM, F_PID, F_PPID, F_TID, F_UID, F_USER, F_SYSCALL, F_RESULT, F_ERRNO,
  F_PATH, F_PATH2, F_DETAIL, F_TIME, F_DURATION, F_SEQ,
  F_TIME_OF_DAY,   /* time compared with HH:MM[:SS[.frac]]: ns since local midnight */
} Field;

static const struct {
  const char *name;
  Field field;
  gboolean numeric;
} fields[] = {
  { "comm", F_COMM, FALSE }, { "pid", F_PID, TRUE }, { "ppid", F_PPID, TRUE },
  { "tid", F_TID, TRUE }, { "uid", F_UID, TRUE }, { "user", F_USER, TRUE },
  { "syscall", F_SYSCALL, FALSE }, { "result", F_RESULT, TRUE }, { "errno", F_ERRNO, TRUE },
  { "path", F_PATH, FALSE }, { "path2", F_PATH2, FALSE }, { "detail", F_DETAIL, FALSE },
  { "time", F_TIME, TRUE }, { "duration", F_DURATION, TRUE }, { "seq", F_SEQ, TRUE },
};

typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MATCH } Op;

typedef enum {
  N_AND, N_OR, N_NOT, N_TRUE,
  N_NUM,       /* numeric field <op> value */
  N_ERRNO,     /* errno = / != value */
  N_STR,       /* string field = / != exact text */
  N_GLOB,      /* string field = / != glob (bytes; see glob_match) */
  N_UIDS,      /* user = / != glob: the uids of the matching users, found at compile time */
  N_REGEX,     /* string field ~ regex, or /regex/ anywhere (field = -1) */
  N_WORD,      /* bare word: substring anywhere */
} NodeKind;

typedef struct _Node Node;
struct _Node {
  NodeKind kind;
  Field field;
  gboolean anywhere;
  gboolean negate;      /* != */
  gboolean caseless;
  Op op;
  gint64 num;
  gint64 span;          /* numbers: the value names [num, num + span), e.g. a whole second */
  gint64 utc_offset;    /* F_TIME_OF_DAY: seconds east of UTC, when compiled */
  char *text;
  gsize text_len;
  GArray *uids;         /* N_UIDS: guint32, sorted */
  pcre2_code *re;
  pcre2_match_data *md;
  Node **kids;          /* N_AND, N_OR: n-ary, so a long chain is flat, not a deep tree */
  guint n_kids;
};

struct _FmFilter {
  Node *root;
};

typedef struct {
  const char *text;
  const char *p;
  int depth;
  GError **error;
} Parser;

static void
node_free (Node *n)
{
  if (n == NULL)
    return;
  for (guint i = 0; i < n->n_kids; i++)
    node_free (n->kids[i]);
  g_free (n->kids);
  g_free (n->text);
  g_clear_pointer (&n->uids, g_array_unref);
  if (n->md != NULL)
    pcre2_match_data_free (n->md);
  if (n->re != NULL)
    pcre2_code_free (n->re);
  g_free (n);
}

void
fm_filter_free (FmFilter *filter)
{
  if (filter == NULL)
    return;
  node_free (filter->root);
  g_free (filter);
}

static Node *
node_new (NodeKind kind)
{
  Node *n = g_new0 (Node, 1);

  n->kind = kind;
  n->span = 1;
  return n;
}

/* The column, counted in characters from 1, of @at in the text. */
static guint
column_of (Parser *ps, const char *at)
{
  return (guint) g_utf8_strlen (ps->text, at - ps->text) + 1;
}

static Node *
fail_at (Parser *ps, const char *at, const char *format, ...) G_GNUC_PRINTF (3, 4);

static Node *
fail_at (Parser *ps, const char *at, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  if (ps->error != NULL && *ps->error != NULL)
    return NULL;   /* keep the first, innermost error */
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (ps->error, FM_ERROR, FM_ERROR_PARSE, "column %u: %s", column_of (ps, at), msg);
  return NULL;
}

guint
fm_filter_error_column (const GError *error)
{
  if (error == NULL || !g_error_matches (error, FM_ERROR, FM_ERROR_PARSE) ||
      !g_str_has_prefix (error->message, "column "))
    return 0;
  return (guint) strtoul (error->message + strlen ("column "), NULL, 10);
}

static void
skip_space (Parser *ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    ps->p++;
}

static gboolean
is_word_char (char c)
{
  return c != '\0' && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '(' &&
         c != ')' && c != '=' && c != '!' && c != '<' && c != '>' && c != '~' &&
         c != '"' && c != '\'';
}

/* A value: a quoted string ('...' or "..."; \\ and \<quote> escape themselves, \xNN is a
 * byte, \n and \t are newline and tab, any other backslash stays) or a run of characters
 * up to white space or a parenthesis. Newly allocated; may hold a NUL via \x00, so the
 * length is returned too. */
static char *
parse_value (Parser *ps, gsize *len_out)
{
  const char *start = ps->p;
  GString *out;

  if (*ps->p == '\'' || *ps->p == '"')
    {
      char quote = *ps->p++;

      out = g_string_new (NULL);
      while (*ps->p != quote)
        {
          if (*ps->p == '\0')
            {
              g_string_free (out, TRUE);
              fail_at (ps, start, "expected a closing %c for this quote", quote);
              return NULL;
            }
          if (*ps->p == '\\' && (ps->p[1] == quote || ps->p[1] == '\\'))
            ps->p++;
          else if (*ps->p == '\\' && ps->p[1] == 'x' && g_ascii_isxdigit (ps->p[2]) &&
                   g_ascii_isxdigit (ps->p[3]))
            {
              /* \xNN: a byte, for names that are not UTF-8 */
              g_string_append_c (out, (char) (g_ascii_xdigit_value (ps->p[2]) * 16 +
                                              g_ascii_xdigit_value (ps->p[3])));
              ps->p += 4;
              continue;
            }
          else if (*ps->p == '\\' && (ps->p[1] == 'n' || ps->p[1] == 't'))
            {
              g_string_append_c (out, ps->p[1] == 'n' ? '\n' : '\t');
              ps->p += 2;
              continue;
            }
          g_string_append_c (out, *ps->p++);
        }
      ps->p++;
      *len_out = out->len;
      return g_string_free (out, FALSE);
    }
  while (*ps->p != '\0' && *ps->p != ' ' && *ps->p != '\t' && *ps->p != '\n' &&
         *ps->p != ')' && *ps->p != '(')
    ps->p++;
  if (ps->p == start)
    {
      fail_at (ps, start, "expected a value");
      return NULL;
    }
  *len_out = ps->p - start;
  return g_strndup (start, ps->p - start);
}

/* Whether the text asks for case-sensitive matching. In a regex, the letter after a
 * backslash is syntax (\S, \D, \W), not text. */
static gboolean
has_upper (const char *s, gsize len, gboolean regex)
{
  for (gsize i = 0; i < len; i++)
    {
      if (regex && s[i] == '\\')
        i++;
      else if (g_ascii_isupper (s[i]))
        return TRUE;
    }
  return FALSE;
}

static Node *
compile_regex (Parser *ps, const char *at, Node *n, const char *pattern, gsize len)
{
  int errcode;
  PCRE2_SIZE erroffset;
  /* A pattern holding a byte that is not UTF-8 (from \xNN) is matched byte by byte:
   * PCRE2 refuses such a pattern in UTF mode, and a name that is not UTF-8 is what it
   * is looking for. */
  guint32 options = g_utf8_validate (pattern, len, NULL) ? PCRE2_UTF | PCRE2_MATCH_INVALID_UTF : 0;

  n->caseless = !has_upper (pattern, len, TRUE);
  if (n->caseless)
    options |= PCRE2_CASELESS;
  n->re = pcre2_compile ((PCRE2_SPTR) pattern, len, options, &errcode, &erroffset, NULL);
  if (n->re == NULL)
    {
      PCRE2_UCHAR msg[256];

      pcre2_get_error_message (errcode, msg, sizeof msg);
      node_free (n);
      return fail_at (ps, at, "invalid regular expression: %s (at offset %zu)",
                      (const char *) msg, (gsize) erroffset);
    }
  /* JIT where the CPU and build allow it; the interpreter otherwise */
  (void) pcre2_jit_compile (n->re, PCRE2_JIT_COMPLETE);
  n->md = pcre2_match_data_create_from_pattern (n->re, NULL);
  n->kind = N_REGEX;
  return n;
}

/* A number with an optional fraction and unit (ns, us, ms, s; default ns) -> ns. */
static gboolean
parse_duration (const char *v, gint64 *out)
{
  char *end;
  double x;
  double scale = 1;

  /* digits first: strtod alone would take "inf", "nan" and hex floats */
  if (!g_ascii_isdigit (v[0]))
    return FALSE;
  x = g_ascii_strtod (v, &end);
  if (g_str_equal (end, "") || g_str_equal (end, "ns"))
    scale = 1;
  else if (g_str_equal (end, "us"))
    scale = 1e3;
  else if (g_str_equal (end, "ms"))
    scale = 1e6;
  else if (g_str_equal (end, "s"))
    scale = 1e9;
  else
    return FALSE;
  x *= scale;
  if (!(x >= 0 && x < 9.2e18))
    return FALSE;
  *out = (gint64) (x + 0.5);
  return TRUE;
}

/* Up to @max_digits digits at *p -> *out; FALSE when there are none. */
static gboolean
take_digits (const char **p, int max_digits, int *out)
{
  int v = 0, n = 0;

  while (g_ascii_isdigit (**p) && n < max_digits)
    v = v * 10 + (*(*p)++ - '0'), n++;
  *out = v;
  return n > 0;
}

/* ns since the epoch, or HH:MM[:SS[.frac]], a local time of day whatever the date (a
 * capture may span midnight, a saved one is from another day). *span gets the length
 * of what the text names (a minute, a second, a millisecond...), so that
 * time=12:00:05 is that whole second and time<=12:00:05 includes it. The UTC offset is
 * the one in force at compile time, so that matching needs no time zone lookup. */
static gboolean
parse_time (const char *v, Node *n)
{
  const char *p = v;
  int h, m, sec = 0;
  gint64 frac = 0, frac_span = 1000000000;
  time_t now = time (NULL);
  struct tm tm;

  if (strchr (v, ':') == NULL)
    {
      char *end;
      guint64 ns;

      if (!g_ascii_isdigit (v[0]))
        return FALSE;
      errno = 0;
      ns = g_ascii_strtoull (v, &end, 10);
      if (*end != '\0' || errno == ERANGE || ns > G_MAXINT64)
        return FALSE;
      n->num = (gint64) ns;
      return TRUE;
    }
  if (!take_digits (&p, 2, &h) || *p++ != ':' || !take_digits (&p, 2, &m) || h > 23 || m > 59)
    return FALSE;
  n->span = G_GINT64_CONSTANT (60000000000);
  if (*p == ':')
    {
      p++;
      if (!take_digits (&p, 2, &sec) || sec > 60)
        return FALSE;
      n->span = 1000000000;
      if (*p == '.')
        {
          p++;
          if (!g_ascii_isdigit (*p))
            return FALSE;
          for (; g_ascii_isdigit (*p); p++)
            if (frac_span > 1)
              {
                frac_span /= 10;
                frac += (*p - '0') * frac_span;
              }
          n->span = frac_span;
        }
    }
  if (*p != '\0' || localtime_r (&now, &tm) == NULL)
    return FALSE;
  n->field = F_TIME_OF_DAY;
  n->utc_offset = tm.tm_gmtoff;
  n->num = ((gint64) h * 3600 + m * 60 + sec) * 1000000000 + frac;
  return TRUE;
}

static gboolean
parse_integer (const char *v, gint64 *out)
{
  char *end;
  gint64 x;

  if (!g_ascii_isdigit (v[0]) && !((v[0] == '-' || v[0] == '+') && g_ascii_isdigit (v[1])))
    return FALSE;
  errno = 0;
  x = g_ascii_strtoll (v, &end, 10);
  if (*end != '\0' || errno == ERANGE)
    return FALSE;
  *out = x;
  return TRUE;
}

static int
compare_uid (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* user=GLOB: every user in the password database whose name matches, as uids. Read at
 * compile time so that matching is a lookup in a small sorted array. */
static GArray *
users_matching (const char *glob, gsize glob_len)
{
  GArray *uids = g_array_new (FALSE, FALSE, sizeof (guint32));
  struct passwd pw, *found;
  char buf[16384];

  setpwent ();
  while (getpwent_r (&pw, buf, sizeof buf, &found) == 0 && found != NULL)
    if (glob_match (glob, glob_len, found->pw_name, strlen (found->pw_name)))
      {
        guint32 uid = found->pw_uid;

        g_array_append_val (uids, uid);
      }
  endpwent ();
  g_array_sort (uids, compare_uid);
  return uids;
}

static Node *
parse_comparison (Parser *ps, const char *field_at, Field field, gboolean numeric)
{
  const char *op_at;
  Op op;
  g_autofree char *value = NULL;
  gsize value_len = 0;
  const char *value_at;
  Node *n;

  skip_space (ps);
  op_at = ps->p;
  if (ps->p[0] == '!' && ps->p[1] == '=')
    op = OP_NE, ps->p += 2;
  else if (ps->p[0] == '<' && ps->p[1] == '=')
    op = OP_LE, ps->p += 2;
  else if (ps->p[0] == '>' && ps->p[1] == '=')
    op = OP_GE, ps->p += 2;
  else if (ps->p[0] == '=')
    op = OP_EQ, ps->p += 1 + (ps->p[1] == '=');
  else if (ps->p[0] == '<')
    op = OP_LT, ps->p++;
  else if (ps->p[0] == '>')
    op = OP_GT, ps->p++;
  else if (ps->p[0] == '~')
    op = OP_MATCH, ps->p++;
  else
    return fail_at (ps, op_at, "expected an operator (= != < <= > >= ~) after the field name");

  skip_space (ps);
  value_at = ps->p;
  value = parse_value (ps, &value_len);
  if (value == NULL)
    return NULL;

  /* \x00 in a quoted value: a name, number or time read as a C string would stop at the
   * NUL and quietly mean something shorter (syscall='open\x00x' as open) */
  if ((numeric || field == F_SYSCALL) && op != OP_MATCH &&
      memchr (value, '\0', value_len) != NULL)
    return fail_at (ps, value_at, "a NUL byte (\\x00) cannot be part of this value");

  n = node_new (N_NUM);
  n->field = field;
  n->op = op;

  if (op == OP_MATCH && field != F_ERRNO && numeric)
    {
      node_free (n);
      return fail_at (ps, op_at, "~ compares text; this field is a number (use = != < <= > >=)");
    }
  if (op == OP_MATCH || (!numeric && field != F_ERRNO))
    {
      if (op == OP_MATCH)
        return compile_regex (ps, value_at, n, value, value_len);
      if (op != OP_EQ && op != OP_NE)
        {
          node_free (n);
          return fail_at (ps, op_at, "expected = != or ~ for a text field");
        }
      n->negate = op == OP_NE;
      if (memchr (value, '*', value_len) != NULL || memchr (value, '?', value_len) != NULL)
        {
          n->kind = N_GLOB;
          n->text = g_steal_pointer (&value);
          n->text_len = value_len;
        }
      else
        {
          if (field == F_SYSCALL && fm_syscall_by_name (value) == NULL &&
              !g_str_has_prefix (value, "syscall_"))
            {
              node_free (n);
              return fail_at (ps, value_at, "unknown syscall “%s”", value);
            }
          n->kind = N_STR;
          n->text = g_steal_pointer (&value);
          n->text_len = value_len;
        }
      return n;
    }

  switch (field)
    {
    case F_ERRNO:
      {
        gint64 number = -1;
        int e = g_ascii_isdigit (value[0]) ?
                (parse_integer (value, &number) && number < 4096 ? (int) number : -1) :
                fm_errno_from_name (value);

        if (e <= 0 || (op != OP_EQ && op != OP_NE))
          {
            node_free (n);
            return fail_at (ps, e <= 0 ? value_at : op_at, e <= 0 ?
                            "expected an errno name (EACCES) or number" :
                            "errno compares with = or !=");
          }
        n->kind = N_ERRNO;
        n->negate = op == OP_NE;
        n->num = -e;
        return n;
      }
    case F_USER:
      {
        struct passwd pw, *found = NULL;
        char buf[16384];

        if (parse_integer (value, &n->num))
          {
            n->field = F_UID;
            return n;
          }
        if (memchr (value, '*', value_len) != NULL || memchr (value, '?', value_len) != NULL)
          {
            if (op != OP_EQ && op != OP_NE)
              {
                node_free (n);
                return fail_at (ps, op_at, "a user name pattern compares with = or !=");
              }
            n->kind = N_UIDS;
            n->negate = op == OP_NE;
            n->uids = users_matching (value, value_len);
            return n;
          }
        if (getpwnam_r (value, &pw, buf, sizeof buf, &found) != 0 || found == NULL)
          {
            node_free (n);
            return fail_at (ps, value_at, "unknown user “%s”", value);
          }
        n->field = F_UID;
        n->num = found->pw_uid;
        return n;
      }
    case F_TIME:
      if (!parse_time (value, n))
        {
          node_free (n);
          return fail_at (ps, value_at, "expected a time: HH:MM[:SS[.frac]] or ns since the epoch");
        }
      return n;
    case F_DURATION:
      if (!parse_duration (value, &n->num))
        {
          node_free (n);
          return fail_at (ps, value_at, "expected a duration such as 1500, 20us, 1.5ms or 2s");
        }
      return n;
    case F_RESULT:
      /* result=-ENOENT reads naturally too */
      if (value[0] == '-' && g_ascii_isupper (value[1]) && fm_errno_from_name (value + 1) > 0)
        {
          n->num = -fm_errno_from_name (value + 1);
          return n;
        }
      G_GNUC_FALLTHROUGH;
    default:
      if (!parse_integer (value, &n->num))
        {
          node_free (n);
          return fail_at (ps, value_at, "expected a number");
        }
      return n;
    }
}

static Node *parse_or (Parser *ps);

static Node *
parse_primary (Parser *ps)
{
  const char *start;

  skip_space (ps);
  start = ps->p;
  if (*ps->p == '\0')
    return fail_at (ps, start, "expected a field comparison, a word, /regex/ or (");
  if (*ps->p == '(')
    {
      Node *inner;

      if (++ps->depth > MAX_DEPTH)
        return fail_at (ps, start, "parentheses nested deeper than %d", MAX_DEPTH);
      ps->p++;
      inner = parse_or (ps);
      if (inner == NULL)
        return NULL;
      skip_space (ps);
      if (*ps->p != ')')
        {
          node_free (inner);
          return fail_at (ps, ps->p, "expected ) to close the ( at column %u", column_of (ps, start));
        }
      ps->p++;
      ps->depth--;
      return inner;
    }
  /* inside parentheses a ) here closes them too early, as in "()" or "(a or )" */
  if (*ps->p == ')' && ps->depth > 0)
    return fail_at (ps, start, "expected a field comparison, a word, /regex/ or ( before )");
  if (*ps->p == ')')
    return fail_at (ps, start, "unexpected ): no ( to close");
  if (*ps->p == '/')
    {
      /* /regex/ anywhere; a backslash escapes the slash */
      GString *re = g_string_new (NULL);
      Node *n;

      ps->p++;
      while (*ps->p != '/')
        {
          if (*ps->p == '\0')
            {
              g_string_free (re, TRUE);
              return fail_at (ps, start, "expected a closing / for this regular expression");
            }
          if (ps->p[0] == '\\' && ps->p[1] == '/')
            ps->p++;
          g_string_append_c (re, *ps->p++);
        }
      ps->p++;
      n = node_new (N_REGEX);
      n->anywhere = TRUE;
      n = compile_regex (ps, start + 1, n, re->str, re->len);
      g_string_free (re, TRUE);
      return n;
    }
  if (*ps->p == '\'' || *ps->p == '"')
    {
      gsize len;
      char *text = parse_value (ps, &len);
      Node *n;

      if (text == NULL)
        return NULL;
      n = node_new (N_WORD);
      n->text = text;
      n->text_len = len;
      n->caseless = !has_upper (text, len, FALSE);
      return n;
    }
  if (*ps->p == '=' || *ps->p == '!' || *ps->p == '<' || *ps->p == '>' || *ps->p == '~')
    return fail_at (ps, start, "expected a field name before the operator");

  while (is_word_char (*ps->p))
    ps->p++;
  {
    gsize len = ps->p - start;
    const char *after = ps->p;

    skip_space (ps);
    if (*ps->p == '=' || *ps->p == '<' || *ps->p == '>' || *ps->p == '~' ||
        (ps->p[0] == '!' && ps->p[1] == '='))
      {
        for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
          if (strlen (fields[i].name) == len && strncmp (fields[i].name, start, len) == 0)
            return parse_comparison (ps, start, fields[i].field, fields[i].numeric);
        return fail_at (ps, start, "unknown field “%.*s”; expected comm, pid, ppid, tid, uid, "
                        "user, syscall, result, errno, path, path2, detail, time, duration or seq",
                        (int) len, start);
      }
    ps->p = after;
    if (len == 6 && strncmp (start, "failed", 6) == 0)
      {
        Node *n = node_new (N_NUM);

        n->field = F_RESULT;
        n->op = OP_LT;
        n->num = 0;
        return n;
      }
    {
      Node *n = node_new (N_WORD);

      n->text = g_strndup (start, len);
      n->text_len = len;
      n->caseless = !has_upper (n->text, len, FALSE);
      return n;
    }
  }
}

static gboolean
at_keyword (Parser *ps, const char *kw)
{
  gsize len = strlen (kw);

  return strncmp (ps->p, kw, len) == 0 && !is_word_char (ps->p[len]) &&
         ps->p[len] != '=' && ps->p[len] != '!' && ps->p[len] != '<' && ps->p[len] != '>' &&
         ps->p[len] != '~';
}

static Node *
parse_not (Parser *ps)
{
  const char *start;

  skip_space (ps);
  start = ps->p;
  if (at_keyword (ps, "not"))
    {
      Node *n, *inner;

      if (++ps->depth > MAX_DEPTH)
        return fail_at (ps, start, "“not” nested deeper than %d", MAX_DEPTH);
      ps->p += 3;
      inner = parse_not (ps);
      if (inner == NULL)
        return NULL;
      ps->depth--;
      n = node_new (N_NOT);
      n->kids = g_new (Node *, 1);
      n->kids[0] = inner;
      n->n_kids = 1;
      return n;
    }
  return parse_primary (ps);
}

/* The terms of an and/or chain as one n-ary node (one term is itself). */
static Node *
chain (NodeKind kind, GPtrArray *terms)
{
  Node *n;

  if (terms->len == 1)
    return g_ptr_array_steal_index (terms, 0);
  n = node_new (kind);
  n->n_kids = terms->len;
  n->kids = (Node **) g_ptr_array_steal (terms, NULL);
  return n;
}

static void
free_terms (GPtrArray *terms)
{
  for (guint i = 0; i < terms->len; i++)
    node_free (g_ptr_array_index (terms, i));
  g_ptr_array_free (terms, TRUE);
}

/* and: explicit, or implied between two terms ("passwd failed") */
static Node *
parse_and (Parser *ps)
{
  GPtrArray *terms = g_ptr_array_new ();
  Node *n;

  for (;;)
    {
      Node *term = parse_not (ps);

      if (term == NULL)
        {
          free_terms (terms);
          return NULL;
        }
      g_ptr_array_add (terms, term);
      skip_space (ps);
      if (*ps->p == '\0' || *ps->p == ')' || at_keyword (ps, "or"))
        break;
      if (at_keyword (ps, "and"))
        ps->p += 3;
    }
  n = chain (N_AND, terms);
  g_ptr_array_free (terms, TRUE);
  return n;
}

static Node *
parse_or (Parser *ps)
{
  GPtrArray *terms = g_ptr_array_new ();
  Node *n;

  for (;;)
    {
      Node *term = parse_and (ps);

      if (term == NULL)
        {
          free_terms (terms);
          return NULL;
        }
      g_ptr_array_add (terms, term);
      skip_space (ps);
      if (!at_keyword (ps, "or"))
        break;
      ps->p += 2;
    }
  n = chain (N_OR, terms);
  g_ptr_array_free (terms, TRUE);
  return n;
}

FmFilter *
fm_filter_new (const char *text, GError **error)
{
  Parser ps = { text, text, 0, error };
  g_autoptr(FmFilter) filter = g_new0 (FmFilter, 1);

  g_return_val_if_fail (text != NULL, NULL);

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_PARSE, "column 1: the filter is not valid UTF-8");
      return NULL;
    }
  skip_space (&ps);
  if (*ps.p == '\0')
    {
      filter->root = node_new (N_TRUE);
      return g_steal_pointer (&filter);
    }
  filter->root = parse_or (&ps);
  if (filter->root == NULL)
    return NULL;
  skip_space (&ps);
  if (*ps.p != '\0')
    {
      fail_at (&ps, ps.p, *ps.p == ')' ? "unexpected ): no ( to close" :
               "expected “and”, “or” or the end of the filter");
      return NULL;
    }
  return g_steal_pointer (&filter);
}

/* ---- evaluation: no allocation ---------------------------------------------------- */

static gboolean
contains (const char *hay, gsize hay_len, const char *needle, gsize needle_len, gboolean caseless)
{
  if (needle_len == 0)
    return TRUE;
  if (needle_len > hay_len)
    return FALSE;
  if (!caseless)
    return memmem (hay, hay_len, needle, needle_len) != NULL;
  for (gsize i = 0; i + needle_len <= hay_len; i++)
    if (g_ascii_tolower (hay[i]) == needle[0] &&
        g_ascii_strncasecmp (hay + i, needle, needle_len) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
regex_matches (const Node *n, const char *s, gsize len)
{
  return pcre2_match (n->re, (PCRE2_SPTR) s, len, 0, 0, n->md, NULL) >= 0;
}

static const char *
field_text (const FmEvent *e, Field field, gsize *len, char name_buf[16])
{
  switch (field)
    {
    case F_COMM: *len = e->comm_len; return e->comm;
    case F_PATH: *len = e->path_len; return e->path;
    case F_PATH2: *len = e->path2_len; return e->path2;
    case F_DETAIL: *len = e->detail_len; return e->detail;
    case F_SYSCALL:
      {
        const char *name = fm_syscall_name (e->syscall_nr, name_buf);

        *len = strlen (name);
        return name;
      }
    case F_ERRNO:
      {
        const char *name = e->result < 0 && e->result > -G_MAXINT ?
                           fm_errno_name ((int) -e->result) : NULL;

        *len = name != NULL ? strlen (name) : 0;
        return name != NULL ? name : "";
      }
    default:
      *len = 0;
      return "";
    }
}

#define NS_PER_DAY (G_GINT64_CONSTANT (86400) * 1000000000)

static gint64
field_number (const FmEvent *e, const Node *n)
{
  switch (n->field)
    {
    case F_TIME_OF_DAY:
      {
        gint64 offset = n->utc_offset * 1000000000 % NS_PER_DAY + NS_PER_DAY;

        return (gint64) ((e->time_ns % NS_PER_DAY + (guint64) offset) % NS_PER_DAY);
      }
    case F_PID: return e->pid;
    case F_PPID: return e->ppid;
    case F_TID: return e->tid;
    case F_UID: return e->uid;
    case F_RESULT: return e->result;
    case F_TIME: return (gint64) e->time_ns;
    case F_DURATION: return (gint64) e->duration_ns;
    case F_SEQ: return (gint64) e->seq;
    default: return 0;
    }
}

/* The length of the character at @s (a UTF-8 sequence, or 1 for a byte that is not one),
 * so that ? in a glob is one character even in a name that is not UTF-8. */
static gsize
char_len (const char *s, gsize len)
{
  guchar c = (guchar) s[0];
  gsize n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : 1;

  if (n > len)
    return 1;
  for (gsize i = 1; i < n; i++)
    if (((guchar) s[i] & 0xc0) != 0x80)
      return 1;
  return n;
}

/* Glob (* any run, ? one character) over byte strings with lengths. GPatternSpec would
 * need NUL-terminated text and allocates a reversed copy for some patterns on every
 * match; this does neither. Backtracking to the last * only keeps it O(len * pat_len). */
static gboolean
glob_match (const char *pat, gsize pat_len, const char *s, gsize len)
{
  gsize p = 0, i = 0, star_p = G_MAXSIZE, star_i = 0;

  while (i < len)
    {
      if (p < pat_len && pat[p] == '*')
        {
          star_p = ++p;
          star_i = i;
        }
      else if (p < pat_len && pat[p] == '?')
        {
          i += char_len (s + i, len - i);
          p++;
        }
      else if (p < pat_len && pat[p] == s[i])
        p++, i++;
      else if (star_p != G_MAXSIZE)
        {
          p = star_p;
          i = star_i += char_len (s + star_i, len - star_i);
        }
      else
        return FALSE;
    }
  while (p < pat_len && pat[p] == '*')
    p++;
  return p == pat_len;
}

static gboolean
uid_in (const GArray *uids, guint32 uid)
{
  guint lo = 0, hi = uids->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint32 v = g_array_index (uids, guint32, mid);

      if (v == uid)
        return TRUE;
      if (v < uid)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

/* Decimal digits of @v into @buf (24 bytes); returns where they start. */
static const char *
format_u64 (guint64 v, char buf[24], gsize *len)
{
  int i = 23;

  buf[23] = '\0';
  do
    buf[--i] = (char) ('0' + v % 10);
  while ((v /= 10) != 0);
  *len = (gsize) (23 - i);
  return buf + i;
}

static gboolean
anywhere (const Node *n, const FmEvent *e)
{
  static const Field text_fields[] = { F_COMM, F_SYSCALL, F_PATH, F_PATH2, F_DETAIL, F_ERRNO };
  char name_buf[16], num_buf[24], result_buf[32];
  const char *s;
  gsize len;

  for (gsize i = 0; i < G_N_ELEMENTS (text_fields); i++)
    {
      s = field_text (e, text_fields[i], &len, name_buf);
      if (n->kind == N_REGEX ? regex_matches (n, s, len) :
          contains (s, len, n->text, n->text_len, n->caseless))
        return TRUE;
    }
  /* the result as shown ("3", "-ENOENT") and the pid */
  s = fm_result_format (e->result, result_buf);
  len = strlen (s);
  if (n->kind == N_REGEX ? regex_matches (n, s, len) :
      contains (s, len, n->text, n->text_len, n->caseless))
    return TRUE;
  s = format_u64 (e->pid, num_buf, &len);
  return n->kind == N_REGEX ? regex_matches (n, s, len) :
         contains (s, len, n->text, n->text_len, FALSE);
}

static gboolean
eval (const Node *n, const FmEvent *e)
{
  char name_buf[16];
  const char *s;
  gsize len;

  switch (n->kind)
    {
    case N_TRUE:
      return TRUE;
    case N_AND:
      for (guint i = 0; i < n->n_kids; i++)
        if (!eval (n->kids[i], e))
          return FALSE;
      return TRUE;
    case N_OR:
      for (guint i = 0; i < n->n_kids; i++)
        if (eval (n->kids[i], e))
          return TRUE;
      return FALSE;
    case N_NOT:
      return !eval (n->kids[0], e);
    case N_NUM:
      {
        gint64 v = field_number (e, n);

        switch (n->op)
          {
          /* [num, num + span): span is 1 but for times given to the second or minute;
           * the difference is taken unsigned, where it cannot overflow */
          case OP_EQ: return v >= n->num && (guint64) v - (guint64) n->num < (guint64) n->span;
          case OP_NE: return !(v >= n->num && (guint64) v - (guint64) n->num < (guint64) n->span);
          case OP_LT: return v < n->num;
          case OP_LE: return v < n->num || (guint64) v - (guint64) n->num < (guint64) n->span;
          case OP_GT: return v >= n->num && (guint64) v - (guint64) n->num >= (guint64) n->span;
          case OP_GE: return v >= n->num;
          case OP_MATCH: return FALSE;
          }
        return FALSE;
      }
    case N_ERRNO:
      return (e->result == n->num) != n->negate;
    case N_STR:
      s = field_text (e, n->field, &len, name_buf);
      return (len == n->text_len && memcmp (s, n->text, len) == 0) != n->negate;
    case N_GLOB:
      s = field_text (e, n->field, &len, name_buf);
      return glob_match (n->text, n->text_len, s, len) != n->negate;
    case N_UIDS:
      return uid_in (n->uids, e->uid) != n->negate;
    case N_REGEX:
      if (n->anywhere)
        return anywhere (n, e);
      s = field_text (e, n->field, &len, name_buf);
      return regex_matches (n, s, len);
    case N_WORD:
      return anywhere (n, e);
    }
  return FALSE;
}

gboolean
fm_filter_match (const FmFilter *filter, const FmEvent *event)
{
  g_return_val_if_fail (filter != NULL && event != NULL, FALSE);
  return eval (filter->root, event);
}
