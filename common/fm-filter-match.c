/* fm-filter-match.c: evaluation of a compiled filter (fm-filter-private.h) against an
 * event, fm_filter_match(). It runs for every event watched, dumped or refiltered (the
 * viewer refilters whole captures), so it allocates nothing: field values are read in
 * place or written into stack buffers, and regexes match with the match data made when
 * they were compiled.
 *
 * Verdicts are three-valued: a regex match that its bound ended (fm-filter-compare.c) is
 * unknown, not a guess. and, or and not follow Kleene's logic, so that a filter whose
 * other parts decide stays exact (false and unknown is false, true or unknown true), and
 * a filter that stays unknown keeps the event: a capture loses nothing to a bound. */
#define _GNU_SOURCE   /* memmem */
#include "fm-filter-private.h"

#include <string.h>

#include "fm-syscalls.h"

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

static Verdict
regex_verdict (const Node *n, const char *s, gsize len)
{
  RegexBound *bound = n->bound;
  int rc;

  bound->callouts_left = FM_FILTER_REGEX_CALLOUT_BUDGET;
  rc = pcre2_match (n->re, (PCRE2_SPTR) s, len, 0, 0, n->md, bound->context);
  if (rc >= 0)
    return V_YES;
  if (rc == PCRE2_ERROR_NOMATCH)
    return V_NO;
  /* the match, depth or heap limit, or the callouts' budget */
  bound->n_undecided++;
  return V_UNKNOWN;
}

/* The text of a field, FM_EVENT_FIELDS expanded: strings as they are, the syscall and
 * errno by name. */
#define TEXT_OF_BYTES(id, m) case FM_FIELD_##id: *len = e->m##_len; return e->m;
#define TEXT_OF_UTF8(id, m) TEXT_OF_BYTES (id, m)
#define TEXT_OF_SYSCALL(id, m) \
  case FM_FIELD_##id: \
    { \
      const char *name = fm_syscall_name (e->m, name_buf); \
\
      *len = strlen (name); \
      return name; \
    }
#define TEXT_OF_ERRNO(id, m) \
  case FM_FIELD_##id: \
    { \
      const char *name = e->result < 0 && e->result > -G_MAXINT ? \
                         fm_errno_name ((int) -e->result) : NULL; \
\
      *len = name != NULL ? strlen (name) : 0; \
      return name != NULL ? name : ""; \
    }
#define TEXT_OF_U64(id, m)
#define TEXT_OF_U32(id, m)
#define TEXT_OF_I64(id, m)
#define TEXT_OF_USER(id, m)
#define TEXT_OF(id, m, type, ...) TEXT_OF_##type (id, m)

static const char *
field_text (const FmEvent *e, Field field, gsize *len, char name_buf[16])
{
  switch (field)
    {
    FM_EVENT_FIELDS (TEXT_OF)
    default:
      *len = 0;
      return "";
    }
}

/* Whether a bare word or /regex/ looks into the field: those with a text. */
static gboolean
is_text (const FmFieldInfo *field)
{
  return field->type == FM_FIELD_TYPE_BYTES || field->type == FM_FIELD_TYPE_UTF8 ||
         field->type == FM_FIELD_TYPE_SYSCALL || field->type == FM_FIELD_TYPE_ERRNO;
}

#define NS_PER_DAY (G_GINT64_CONSTANT (86400) * 1000000000)

#define NUMBER_OF_U64(id, m) case FM_FIELD_##id: return (gint64) e->m;
#define NUMBER_OF_U32(id, m) case FM_FIELD_##id: return e->m;
#define NUMBER_OF_I64(id, m) case FM_FIELD_##id: return e->m;
#define NUMBER_OF_SYSCALL(id, m) case FM_FIELD_##id: return e->m;   /* N_IN_SET: by number */
#define NUMBER_OF_BYTES(id, m)
#define NUMBER_OF_UTF8(id, m)
#define NUMBER_OF_ERRNO(id, m)
#define NUMBER_OF_USER(id, m)
#define NUMBER_OF(id, m, type, ...) NUMBER_OF_##type (id, m)

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
    FM_EVENT_FIELDS (NUMBER_OF)
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
gboolean
fm_filter_glob_match (const char *pat, gsize pat_len, const char *s, gsize len)
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
in_set (const GArray *set, gint64 value)
{
  guint lo = 0, hi = set->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      gint64 v = g_array_index (set, guint32, mid);

      if (v == value)
        return TRUE;
      if (v < value)
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

/* The id of the event's string in @field, when it has one (an interned string field and
 * a memo's context). */
#define ID_OF_BYTES(id, m) case FM_FIELD_##id: *out = ids->m##_id; return TRUE;
#define ID_OF_UTF8(id, m) ID_OF_BYTES (id, m)
#define ID_OF_U64(id, m)
#define ID_OF_U32(id, m)
#define ID_OF_I64(id, m)
#define ID_OF_SYSCALL(id, m)
#define ID_OF_ERRNO(id, m)
#define ID_OF_USER(id, m)
#define ID_OF(id, m, type, ...) ID_OF_##type (id, m)

static gboolean
string_id (const FmCompactEvent *ids, Field field, guint32 *out)
{
  switch (field)
    {
    FM_EVENT_FIELDS (ID_OF)
    default:
      return FALSE;
    }
}

static gboolean
is_type (Field field, FmFieldType type)
{
  return field < FM_N_FIELDS && fm_event_fields[field].type == type;
}

static gboolean
tests_field (const Node *n, FmFieldType type)
{
  switch (n->kind)
    {
    case N_STR:
    case N_GLOB:
      return is_type (n->field, type);
    case N_REGEX:
      return n->anywhere || is_type (n->field, type);
    case N_BELOW:
      return type == FM_FIELD_TYPE_BYTES;
    case N_WORD:
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
fm_filter_node_tests_strings (const Node *n)
{
  return tests_field (n, FM_FIELD_TYPE_BYTES) || tests_field (n, FM_FIELD_TYPE_UTF8);
}

static gboolean
reads_paths (const Node *n)
{
  switch (n->kind)
    {
    case N_STR:
    case N_GLOB:
      return n->field == FM_FIELD_PATH || n->field == FM_FIELD_PATH2;
    case N_REGEX:
      return n->anywhere || n->field == FM_FIELD_PATH || n->field == FM_FIELD_PATH2;
    case N_BELOW:
    case N_WORD:
      return TRUE;
    default:
      break;
    }
  for (guint i = 0; i < n->n_kids; i++)
    if (reads_paths (n->kids[i]))
      return TRUE;
  return FALSE;
}

gboolean
fm_filter_reads_paths (const FmFilter *filter)
{
  g_return_val_if_fail (filter != NULL, TRUE);

  return reads_paths (filter->root);
}

gboolean
fm_filter_node_tests_syscall_name (const Node *n)
{
  return tests_field (n, FM_FIELD_TYPE_SYSCALL);
}

/* A character of a number as shown: decimal, or an address's hex ("0x7f3a2c000000"). */
static gboolean
is_numeral (guint32 c)
{
  return c < 128 && (g_ascii_isxdigit ((char) c) || c == 'x' || c == 'X');
}

gboolean
fm_filter_node_may_match_digits (const Node *n)
{
  uint32_t type = 0, unit = 0;

  if (n->kind == N_WORD)
    {
      for (gsize i = 0; i < n->text_len; i++)
        if (!is_numeral ((guchar) n->text[i]))
          return FALSE;
      return TRUE;
    }
  if (n->kind != N_REGEX || !n->anywhere)
    return FALSE;
  /* A code unit every match starts with, or holds: no digit, no match of digits. */
  if (pcre2_pattern_info (n->re, PCRE2_INFO_FIRSTCODETYPE, &type) == 0 && type == 1 &&
      pcre2_pattern_info (n->re, PCRE2_INFO_FIRSTCODEUNIT, &unit) == 0 && !is_numeral (unit))
    return FALSE;
  if (pcre2_pattern_info (n->re, PCRE2_INFO_LASTCODETYPE, &type) == 0 && type == 1 &&
      pcre2_pattern_info (n->re, PCRE2_INFO_LASTCODEUNIT, &unit) == 0 && !is_numeral (unit))
    return FALSE;
  return TRUE;
}

/* What text node @n says of one string, its negation aside: what a memo remembers. */
static Verdict
string_verdict (const Node *n, const char *s, gsize len)
{
  switch (n->kind)
    {
    case N_STR:
      return len == n->text_len && memcmp (s, n->text, len) == 0;
    case N_GLOB:
      return fm_filter_glob_match (n->text, n->text_len, s, len);
    case N_BELOW:
      return fm_filter_path_below (n->text, n->text_len, s, len);
    case N_REGEX:
      return regex_verdict (n, s, len);
    case N_WORD:
      return contains (s, len, n->text, n->text_len, n->caseless);
    default:
      g_assert_not_reached ();
    }
}

/* Where the memo node @m keeps its verdict on the text of @field in the context's event,
 * or NULL: no memo, a text no memo keeps (the errno's name), or a string interned after
 * the memo was made. */
static guint8 *
memo_slot (const MemoNode *m, const MatchContext *c, Field field)
{
  guint32 id;

  if (m == NULL)
    return NULL;
  if (string_id (c->ids, field, &id))
    return m->verdicts != NULL && id < c->n_ids ? &m->verdicts[id] : NULL;
  if (field == FM_FIELD_SYSCALL)
    return m->by_syscall != NULL && c->event->syscall_nr < FM_SYSCALL_NR_LIMIT ?
           &m->by_syscall[c->event->syscall_nr] : NULL;
  return NULL;
}

/* string_verdict on the text of @field, decided once per string where the memo node @m
 * keeps it: the text is not even read then. An unknown verdict is not kept: the next
 * event with the string tries again. */
static Verdict
field_test (const Node *n, const MemoNode *m, const MatchContext *c, Field field)
{
  guint8 *slot = memo_slot (m, c, field);
  char name_buf[16];
  const char *s;
  gsize len;
  Verdict verdict;

  if (slot != NULL && *slot != 0)
    return *slot == 2 ? V_YES : V_NO;
  s = field_text (c->event, field, &len, name_buf);
  verdict = string_verdict (n, s, len);
  if (slot != NULL && verdict != V_UNKNOWN)
    *slot = 1 + verdict;
  return verdict;
}

/* Kleene's or of two verdicts. */
static Verdict
either (Verdict a, Verdict b)
{
  return a == V_YES || b == V_YES ? V_YES : MAX (a, b);
}

/* not, and != on a text: unknown stays unknown. */
static Verdict
negated (Verdict v, gboolean negate)
{
  return negate && v != V_UNKNOWN ? !v : v;
}

/* The result as shown (fm_result_format) without its printf, which took most of a bare
 * word's time once the strings' verdicts were remembered. */
static const char *
result_text (const FmEvent *e, char buf[32], gsize *len)
{
  gint64 result = e->result;
  const char *name = result < 0 && result >= -G_MAXINT ? fm_errno_name ((int) -result) : NULL;
  const FmSyscall *sc;
  const char *s;

  sc = result >= 0 ? fm_syscall_by_nr (e->syscall_nr) : NULL;
  if (result >= 0 && (sc == NULL || (sc->traits & FM_TRAIT_RESULT_ADDRESS) == 0))
    return format_u64 ((guint64) result, buf, len);
  if (name == NULL)
    {
      s = fm_result_format (e->syscall_nr, result, buf);
      *len = strlen (s);
      return s;
    }
  *len = MIN (strlen (name), 30) + 1;
  buf[0] = '-';
  memcpy (buf + 1, name, *len - 1);
  buf[*len] = '\0';
  return buf;
}

static Verdict
anywhere (const Node *n, const MemoNode *m, const MatchContext *c)
{
  gboolean digits = m == NULL || m->digits;
  Verdict v = V_NO;
  char num_buf[32];
  const char *s;
  gsize len;

  for (guint i = 0; i < FM_N_FIELDS && v != V_YES; i++)
    if (is_text (&fm_event_fields[i]))
      v = either (v, field_test (n, m, c, i));
  /* the result as shown ("3", "-ENOENT") and the pid */
  if (v != V_YES && (digits || c->event->result < 0))
    {
      s = result_text (c->event, num_buf, &len);
      v = either (v, string_verdict (n, s, len));
    }
  if (v == V_YES || !digits)
    return v;
  s = format_u64 (c->event->pid, num_buf, &len);
  return either (v, n->kind == N_REGEX ? regex_verdict (n, s, len) :
                    (Verdict) contains (s, len, n->text, n->text_len, FALSE));
}

gboolean
fm_filter_path_below (const char *prefix, gsize prefix_len, const char *path, gsize path_len)
{
  if (prefix_len == 1)   /* "/" */
    return path_len > 0 && path[0] == '/';
  if (path_len < prefix_len || memcmp (path, prefix, prefix_len) != 0)
    return FALSE;
  return path_len == prefix_len || path[prefix_len] == '/';
}

/* What @n says of the context's event; @m is its memo node, or NULL. */
static Verdict
eval (const Node *n, const MemoNode *m, const MatchContext *c)
{
  const FmEvent *e = c->event;
  Verdict verdict;

#define KID(i) n->kids[i], m != NULL ? &m->kids[i] : NULL, c
  switch (n->kind)
    {
    case N_TRUE:
      return V_YES;
    case N_AND:
      verdict = V_YES;
      for (guint i = 0; i < n->n_kids; i++)
        {
          Verdict kid = eval (KID (i));

          if (kid == V_NO)
            return V_NO;
          verdict = MAX (verdict, kid);
        }
      return verdict;
    case N_OR:
      verdict = V_NO;
      for (guint i = 0; i < n->n_kids && verdict != V_YES; i++)
        verdict = either (verdict, eval (KID (i)));
      return verdict;
    case N_NOT:
      return negated (eval (KID (0)), TRUE);
#undef KID
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
    case N_GLOB:
      return negated (field_test (n, m, c, n->field), n->negate);
    case N_IN_SET:
      return in_set (n->set, field_number (e, n)) != n->negate;
    case N_BELOW:
      return field_test (n, m, c, FM_FIELD_PATH) || field_test (n, m, c, FM_FIELD_PATH2);
    case N_REGEX:
      if (n->anywhere)
        return anywhere (n, m, c);
      return field_test (n, m, c, n->field);
    case N_WORD:
      return anywhere (n, m, c);
    }
  return V_NO;
}

gboolean
fm_filter_node_match (const Node *n, const FmEvent *event)
{
  MatchContext c = { .event = event };

  return eval (n, NULL, &c) != V_NO;
}

gboolean
fm_filter_node_match_memo (const Node *n, const MemoNode *m, const MatchContext *c)
{
  return eval (n, m, c) != V_NO;
}

static guint64
count_undecided (const Node *n)
{
  guint64 count = n->bound != NULL ? n->bound->n_undecided : 0;

  for (guint i = 0; i < n->n_kids; i++)
    count += count_undecided (n->kids[i]);
  return count;
}

guint64
fm_filter_get_n_undecided (const FmFilter *filter)
{
  g_return_val_if_fail (filter != NULL, 0);

  return count_undecided (filter->root);
}

gboolean
fm_filter_match (const FmFilter *filter, const FmEvent *event)
{
  g_return_val_if_fail (filter != NULL && event != NULL, FALSE);
  return fm_filter_node_match (filter->root, event);
}
