/* fmv-filter-term.c: filter text built from an event's values, for "filter on this value".
 * The terms are plain filter language (the one filemonctl reads), so what the button adds
 * to the entry is what a user could have typed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fm-syscalls.h"
#include "fmv-filter-term.h"

/* A value as the filter language reads it: bare when it is a simple word, else in single
 * quotes with \ and ' escaped. Bytes that are not UTF-8 are written as \xNN. */
static void
append_value (GString    *out,
              const char *value,
              gsize       len)
{
  gboolean bare = len > 0;

  for (gsize i = 0; i < len && bare; i++)
    bare = g_ascii_isalnum (value[i]) || strchr ("_./-+:@", value[i]) != NULL;
  /* Words of the language itself would not read as a value. */
  if (bare && (g_ascii_strncasecmp (value, "and", len) == 0 || g_ascii_strncasecmp (value, "or", len) == 0 ||
               g_ascii_strncasecmp (value, "not", len) == 0))
    bare = FALSE;
  if (bare)
    {
      g_string_append_len (out, value, len);
      return;
    }

  g_string_append_c (out, '\'');
  for (const char *p = value, *end = value + len; p < end;)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guint) (guint8) *p);
          p++;
          continue;
        }
      if (c == '\'' || c == '\\')
        g_string_append_c (out, '\\');
      g_string_append_unichar (out, c);
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '\'');
}

static char *
text_term (const char *name,
           const char *value,
           gsize       len)
{
  GString *out = g_string_new (name);

  g_string_append_c (out, '=');
  append_value (out, value, len);
  return g_string_free (out, FALSE);
}

/* A result as the filter reads one: a failure by its errno's name where it has one. */
static char *
result_term (const char *name,
             gint64      result)
{
  const char *errno_name = result < 0 && result >= -G_MAXINT ? fm_errno_name ((int) -result) : NULL;

  if (errno_name != NULL)
    return g_strdup_printf ("%s=%s", fm_event_fields[FM_FIELD_ERRNO].filter_name, errno_name);
  return g_strdup_printf ("%s=%" G_GINT64_FORMAT, name, result);
}

#define TERM_U64(m, kind) return g_strdup_printf ("%s=%" G_GUINT64_FORMAT, name, (guint64) event->m);
#define TERM_U32(m, kind) return g_strdup_printf ("%s=%u", name, (guint) event->m);
#define TERM_I64(m, kind) \
  return kind == FM_FILTER_KIND_RESULT ? result_term (name, event->m) \
                                       : g_strdup_printf ("%s=%" G_GINT64_FORMAT, name, (gint64) event->m);
#define TERM_SYSCALL(m, kind) return g_strdup_printf ("%s=%s", name, fm_syscall_name (event->m, syscall));
#define TERM_BYTES(m, kind) return text_term (name, event->m, event->m##_len);
#define TERM_UTF8(m, kind) TERM_BYTES (m, kind)
/* the derived fields by what they are derived from: a user name is not unique to a uid */
#define TERM_ERRNO(m, kind) return result_term (fm_event_fields[FM_FIELD_RESULT].filter_name, event->result);
#define TERM_USER(m, kind) \
  return g_strdup_printf ("%s=%u", fm_event_fields[FM_FIELD_UID].filter_name, (guint) event->uid);
#define TERM_CASE(id, m, type, limit, key, filter, kind, ...) \
  case FM_FIELD_##id: TERM_##type (m, FM_FILTER_KIND_##kind)

char *
fmv_filter_term (FmFieldId      field,
                 const FmEvent *event)
{
  const char *name;
  char syscall[FM_SYSCALL_NAME_MAX];

  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (field < FM_N_FIELDS, NULL);

  name = fm_event_fields[field].filter_name;
  switch (field)
    {
      FM_EVENT_FIELDS (TERM_CASE)
    case FM_N_FIELDS:
    default:
      break;
    }
  g_return_val_if_reached (NULL);
}

gboolean
fmv_filter_term_offered (FmFieldId field)
{
  g_return_val_if_fail (field < FM_N_FIELDS, FALSE);

  /* the sequence number and the decoded flags by what they are, times and durations by
   * their kind: the row menu offers the events before or after one instead */
  if (field == FM_FIELD_SEQ || field == FM_FIELD_DETAIL)
    return FALSE;
  return fm_event_fields[field].filter_kind != FM_FILTER_KIND_TIME &&
         fm_event_fields[field].filter_kind != FM_FILTER_KIND_DURATION;
}

#define MIN_RANGE 3

char *
fmv_filter_pid_set (const guint32 *pids,
                    guint          n,
                    gboolean       exclude)
{
  g_autoptr(GString) set = g_string_new (NULL);
  guint n_terms = 0;

  g_return_val_if_fail (pids != NULL && n > 0, NULL);

  for (guint i = 0; i < n; n_terms++)
    {
      guint run = 1;

      while (i + run < n && pids[i + run] == pids[i] + run)
        run++;
      if (n_terms > 0)
        g_string_append (set, " or ");
      if (run >= MIN_RANGE)
        {
          g_string_append_printf (set, "(pid>=%u and pid<=%u)", pids[i], pids[i + run - 1]);
          i += run;
        }
      else
        g_string_append_printf (set, "pid=%u", pids[i++]);
    }
  /* one term is already a unit (pid=7, or a range in its parentheses) */
  if (n_terms == 1)
    return exclude ? g_strdup_printf ("not %s", set->str) : g_string_free (g_steal_pointer (&set), FALSE);
  return g_strdup_printf (exclude ? "not (%s)" : "(%s)", set->str);
}

/* Whether @text has an "or" outside parentheses and quotes: joined with "and" as it is,
 * the new term would bind to the last alternative only. In any case, or "||"; an "or"
 * between slashes in a bare /regex/ or path only adds parentheses. */
static gboolean
is_or_boundary (char c)
{
  return g_ascii_isspace (c) || c == '(' || c == ')' || c == '/';
}

static gboolean
has_top_level_or (const char *text)
{
  int depth = 0;
  char quote = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (quote != 0)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          else if (*p == quote)
            quote = 0;
          continue;
        }
      if (*p == '\'' || *p == '"')
        quote = *p;
      else if (*p == '(')
        depth++;
      else if (*p == ')')
        depth--;
      else if (depth == 0 && (strncmp (p, "||", 2) == 0 ||
                              (g_ascii_strncasecmp (p, "or", 2) == 0 && (p == text || is_or_boundary (p[-1])) &&
                               (p[2] == '\0' || is_or_boundary (p[2])))))
        return TRUE;
    }
  return FALSE;
}

char *
fmv_filter_and (const char *current,
                const char *term)
{
  g_autofree char *stripped = g_strstrip (g_strdup (current ? current : ""));

  g_return_val_if_fail (term != NULL, NULL);

  if (*stripped == '\0')
    return g_strdup (term);
  if (has_top_level_or (stripped))
    return g_strdup_printf ("(%s) and %s", stripped, term);
  return g_strdup_printf ("%s and %s", stripped, term);
}

gboolean
fmv_filter_error_column (const GError *error,
                         guint        *column)
{
  const char *p;

  g_return_val_if_fail (column != NULL, FALSE);

  if (error == NULL || error->message == NULL)
    return FALSE;
  p = strstr (error->message, "column ");
  if (p == NULL)
    return FALSE;
  *column = (guint) strtoul (p + strlen ("column "), NULL, 10);
  return *column > 0;
}
