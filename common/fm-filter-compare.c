/* fm-filter-compare.c: one comparison of the filter language, field <op> value, read into
 * a node once the parser (fm-filter.c) has seen a field name and an operator. Each kind of
 * field reads its value its own way: text as an exact string or a glob, ~ as a regex, errno
 * as a name or number, user as a name, glob or uid, time as a time of day or ns since the
 * epoch, duration with a unit. What can be worked out ahead (the uids a user glob names,
 * the UTC offset of a time of day, the compiled regex) is done here, so that matching
 * (fm-filter-match.c) is cheap and allocates nothing.
 *
 * Regular expressions use PCRE2 directly, with match data allocated at compile time:
 * GRegex (the same engine and syntax) allocates a match context on every call. A filter
 * is therefore not for concurrent use from several threads; each thread compiles its own.
 *
 * The cost of one match is bounded, so that no filter stalls what evaluates it
 * (filemond evaluates a member's filter on every event of a capture). PCRE2's match
 * limit (REGEX_MATCH_LIMIT) counts the backtracking of ordinary items only: the work
 * inside assertions or backreferences is unbounded under any match limit, with the JIT
 * and without. A pattern holding more than literals, classes, groups, alternatives and
 * quantifiers is therefore compiled with automatic callouts, and every item tried costs
 * one of FM_FILTER_REGEX_CALLOUT_BUDGET. pcre2_dfa_match (no backtracking) cannot stand
 * in: it rejects PCRE2_MATCH_INVALID_UTF (names that are not UTF-8) and is slow on
 * nested lookaheads itself. The measurements are in bench/README.md ("Figures behind
 * the code"). A match its bound ends has no answer: fm-filter-match.c makes it unknown. */
#include "fm-filter-private.h"

#include <errno.h>
#include <pwd.h>
#include <string.h>
#include <time.h>

#include "fm-syscalls.h"

/* Whether the text asks for case-sensitive matching. In a regex, the letter after a
 * backslash is syntax (\S, \D, \W), not text. */
gboolean
fm_filter_has_upper (const char *s, gsize len, gboolean regex)
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

#define REGEX_MATCH_LIMIT 10000
#define REGEX_DEPTH_LIMIT 1000      /* the interpreter's, where there is no JIT */
#define REGEX_HEAP_LIMIT_KIB 4096   /* likewise */

static int
count_callout (pcre2_callout_block *block, void *data)
{
  RegexBound *bound = data;

  if (bound->callouts_left == 0)
    return PCRE2_ERROR_MATCHLIMIT;
  bound->callouts_left--;
  return 0;
}

void
fm_filter_regex_bound_free (RegexBound *bound)
{
  pcre2_match_context_free (bound->context);
  g_free (bound);
}

/* Whether the item at @item is one whose backtracking the match limit counts: a literal,
 * a class, an escape that is not a backreference or subroutine call, a group (capturing,
 * non-capturing, named, branch reset, with options). Assertions, atomic groups,
 * conditions, recursion, callouts and verbs are not. */
static gboolean
item_is_plain (const char *item, gsize len)
{
  if (len >= 2 && item[0] == '\\')
    return !(g_ascii_isdigit (item[1]) || item[1] == 'g' || item[1] == 'k');
  if (len < 2 || item[0] != '(')
    return TRUE;
  if (item[1] == '*')
    return FALSE;
  if (item[1] != '?')
    return TRUE;
  if (len >= 3 && (item[2] == ':' || item[2] == '|' || item[2] == '\''))
    return TRUE;
  if (len >= 4 && item[2] == '<')
    return item[3] != '=' && item[3] != '!';
  if (len >= 4 && item[2] == 'P' && item[3] == '<')
    return TRUE;
  for (gsize i = 2; i < len; i++)
    if (item[i] == ')' || item[i] == ':')
      return i > 2;
    else if (strchr ("imnsxJU-^", item[i]) == NULL)
      return FALSE;
  return FALSE;
}

typedef struct {
  const char *pattern;
  gsize len;
  gboolean plain;
} PlainScan;

static int
scan_item (pcre2_callout_enumerate_block *block, void *data)
{
  PlainScan *scan = data;
  gsize at = MIN (block->pattern_position, scan->len);

  if (!item_is_plain (scan->pattern + at, scan->len - at))
    scan->plain = FALSE;
  return scan->plain ? 0 : 1;
}

Node *
fm_filter_compile_regex (Parser *ps, const char *at, Node *n, const char *pattern, gsize len)
{
  PlainScan scan = { pattern, len, TRUE };
  int errcode;
  PCRE2_SIZE erroffset;
  /* A pattern holding a byte that is not UTF-8 (from \xNN) is matched byte by byte:
   * PCRE2 refuses such a pattern in UTF mode, and a name that is not UTF-8 is what it
   * is looking for. */
  guint32 options = g_utf8_validate (pattern, len, NULL) ? PCRE2_UTF | PCRE2_MATCH_INVALID_UTF : 0;

  n->caseless = !fm_filter_has_upper (pattern, len, TRUE);
  if (n->caseless)
    options |= PCRE2_CASELESS;
  /* compiled with a callout before each item first, to see the items */
  n->re = pcre2_compile ((PCRE2_SPTR) pattern, len, options | PCRE2_AUTO_CALLOUT, &errcode,
                         &erroffset, NULL);
  if (n->re == NULL)
    {
      PCRE2_UCHAR msg[256];

      pcre2_get_error_message (errcode, msg, sizeof msg);
      fm_filter_node_free (n);
      return fm_filter_fail_at (ps, at, "invalid regular expression: %s (at offset %zu)",
                                (const char *) msg, (gsize) erroffset);
    }
  n->bound = g_new0 (RegexBound, 1);
  n->bound->context = pcre2_match_context_create (NULL);
  pcre2_set_match_limit (n->bound->context, REGEX_MATCH_LIMIT);
  pcre2_set_depth_limit (n->bound->context, REGEX_DEPTH_LIMIT);
  pcre2_set_heap_limit (n->bound->context, REGEX_HEAP_LIMIT_KIB);
  pcre2_callout_enumerate (n->re, scan_item, &scan);
  if (scan.plain)
    {
      pcre2_code_free (n->re);
      n->re = pcre2_compile ((PCRE2_SPTR) pattern, len, options, &errcode, &erroffset, NULL);
      g_assert (n->re != NULL);
    }
  else
    {
      n->bound->counted = TRUE;
      pcre2_set_callout (n->bound->context, count_callout, n->bound);
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

gint
fm_filter_compare_u32 (gconstpointer a, gconstpointer b)
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
    if (fm_filter_glob_match (glob, glob_len, found->pw_name, strlen (found->pw_name)))
      {
        guint32 uid = found->pw_uid;

        g_array_append_val (uids, uid);
      }
  endpwent ();
  g_array_sort (uids, fm_filter_compare_u32);
  return uids;
}

Node *
fm_filter_parse_comparison (Parser *ps, const FmFieldInfo *field)
{
  FmFilterKind kind = field->filter_kind;
  /* compared as numbers; errno takes a name or number but ~ on its name too */
  gboolean numeric = kind != FM_FILTER_KIND_TEXT && kind != FM_FILTER_KIND_SYSCALL &&
                     kind != FM_FILTER_KIND_ERRNO;
  const char *op_at;
  Op op;
  g_autofree char *value = NULL;
  gsize value_len = 0;
  const char *value_at;
  Node *n;

  fm_filter_skip_space (ps);
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
    return fm_filter_fail_at (ps, op_at,
                              "expected an operator (= != < <= > >= ~) after the field name");

  fm_filter_skip_space (ps);
  value_at = ps->p;
  value = fm_filter_parse_value (ps, &value_len);
  if (value == NULL)
    return NULL;

  /* \x00 in a quoted value: a name, number or time read as a C string would stop at the
   * NUL and quietly mean something shorter (syscall='open\x00x' as open) */
  if (kind != FM_FILTER_KIND_TEXT && op != OP_MATCH &&
      memchr (value, '\0', value_len) != NULL)
    return fm_filter_fail_at (ps, value_at, "a NUL byte (\\x00) cannot be part of this value");

  n = fm_filter_node_new (N_NUM);
  n->field = field->id;
  n->op = op;

  if (op == OP_MATCH && numeric)
    {
      fm_filter_node_free (n);
      return fm_filter_fail_at (ps, op_at,
                                "~ compares text; this field is a number (use = != < <= > >=)");
    }
  if (op == OP_MATCH || kind == FM_FILTER_KIND_TEXT || kind == FM_FILTER_KIND_SYSCALL)
    {
      if (op == OP_MATCH)
        return fm_filter_compile_regex (ps, value_at, n, value, value_len);
      if (op != OP_EQ && op != OP_NE)
        {
          fm_filter_node_free (n);
          return fm_filter_fail_at (ps, op_at, "expected = != or ~ for a text field");
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
          if (kind == FM_FILTER_KIND_SYSCALL && fm_syscall_by_name (value) == NULL &&
              !g_str_has_prefix (value, "syscall_"))
            {
              fm_filter_node_free (n);
              return fm_filter_fail_at (ps, value_at, "unknown syscall “%s”", value);
            }
          n->kind = N_STR;
          n->text = g_steal_pointer (&value);
          n->text_len = value_len;
        }
      return n;
    }

  switch (kind)
    {
    case FM_FILTER_KIND_ERRNO:
      {
        gint64 number = -1;
        int e = g_ascii_isdigit (value[0]) ?
                (parse_integer (value, &number) && number < 4096 ? (int) number : -1) :
                fm_errno_from_name (value);

        if (e <= 0 || (op != OP_EQ && op != OP_NE))
          {
            fm_filter_node_free (n);
            return fm_filter_fail_at (ps, e <= 0 ? value_at : op_at, e <= 0 ?
                                      "expected an errno name (EACCES) or number" :
                                      "errno compares with = or !=");
          }
        n->kind = N_ERRNO;
        n->negate = op == OP_NE;
        n->num = -e;
        return n;
      }
    case FM_FILTER_KIND_USER:
      {
        struct passwd pw, *found = NULL;
        char buf[16384];

        if (parse_integer (value, &n->num))
          {
            n->field = FM_FIELD_UID;
            return n;
          }
        if (memchr (value, '*', value_len) != NULL || memchr (value, '?', value_len) != NULL)
          {
            if (op != OP_EQ && op != OP_NE)
              {
                fm_filter_node_free (n);
                return fm_filter_fail_at (ps, op_at, "a user name pattern compares with = or !=");
              }
            n->kind = N_IN_SET;
            n->field = FM_FIELD_UID;
            n->negate = op == OP_NE;
            n->set = users_matching (value, value_len);
            return n;
          }
        if (getpwnam_r (value, &pw, buf, sizeof buf, &found) != 0 || found == NULL)
          {
            fm_filter_node_free (n);
            return fm_filter_fail_at (ps, value_at, "unknown user “%s”", value);
          }
        n->field = FM_FIELD_UID;
        n->num = found->pw_uid;
        return n;
      }
    case FM_FILTER_KIND_TIME:
      if (!parse_time (value, n))
        {
          fm_filter_node_free (n);
          return fm_filter_fail_at (ps, value_at,
                                    "expected a time: HH:MM[:SS[.frac]] or ns since the epoch");
        }
      return n;
    case FM_FILTER_KIND_DURATION:
      if (!parse_duration (value, &n->num))
        {
          fm_filter_node_free (n);
          return fm_filter_fail_at (ps, value_at,
                                    "expected a duration such as 1500, 20us, 1.5ms or 2s");
        }
      return n;
    case FM_FILTER_KIND_RESULT:
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
          fm_filter_node_free (n);
          return fm_filter_fail_at (ps, value_at, "expected a number");
        }
      return n;
    }
}
