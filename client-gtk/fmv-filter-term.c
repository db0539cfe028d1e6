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

char *
fmv_filter_term (FmvTermField   field,
                 const FmEvent *event)
{
  GString *out;
  char name[16];

  g_return_val_if_fail (event != NULL, NULL);

  switch (field)
    {
    case FMV_TERM_NONE:
      return NULL;
    case FMV_TERM_COMM:
      out = g_string_new ("comm=");
      append_value (out, event->comm, event->comm_len);
      return g_string_free (out, FALSE);
    case FMV_TERM_PID:
      return g_strdup_printf ("pid=%u", event->pid);
    case FMV_TERM_PPID:
      return g_strdup_printf ("ppid=%u", event->ppid);
    case FMV_TERM_TID:
      return g_strdup_printf ("tid=%u", event->tid);
    case FMV_TERM_UID:
      return g_strdup_printf ("uid=%u", event->uid);
    case FMV_TERM_SYSCALL:
      return g_strdup_printf ("syscall=%s", fm_syscall_name (event->syscall_nr, name));
    case FMV_TERM_RESULT:
      if (event->result < 0)
        {
          const char *errno_name = event->result >= -G_MAXINT ? fm_errno_name ((int) -event->result) : NULL;

          if (errno_name != NULL)
            return g_strdup_printf ("errno=%s", errno_name);
        }
      return g_strdup_printf ("result=%" G_GINT64_FORMAT, event->result);
    case FMV_TERM_PATH:
      out = g_string_new ("path=");
      append_value (out, event->path, event->path_len);
      return g_string_free (out, FALSE);
    case FMV_TERM_PATH2:
      out = g_string_new ("path2=");
      append_value (out, event->path2, event->path2_len);
      return g_string_free (out, FALSE);
    default:
      g_return_val_if_reached (NULL);
    }
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
