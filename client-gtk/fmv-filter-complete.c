/* fmv-filter-complete.c: see fmv-filter-complete.h. */
#include "config.h"

#include "fmv-filter-complete.h"

#include <string.h>

#include "fm-event-fields.h"
#include "fm-syscalls.h"

/* errno numbers fm_errno_name may know: the C library's and the kernel's own (512..) */
#define ERRNO_SCAN_LIMIT 1024

static gboolean
is_word_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static gboolean
has_prefix_caseless (const char *s,
                     const char *prefix,
                     gsize       len)
{
  return g_ascii_strncasecmp (s, prefix, len) == 0 && strlen (s) >= len;
}

/* The field whose value is typed when @op_end (just past "=" or "!=") follows its name. */
static const FmFieldInfo *
field_before (const char *text,
              const char *op_end)
{
  const char *end = op_end - 1;   /* the '=' */
  const char *start;

  if (end > text && end[-1] == '!')
    end--;
  start = end;
  while (start > text && is_word_char (start[-1]))
    start--;
  for (guint i = 0; i < FM_N_FIELDS; i++)
    if (strlen (fm_event_fields[i].filter_name) == (gsize) (end - start)
        && strncmp (fm_event_fields[i].filter_name, start, end - start) == 0)
      return &fm_event_fields[i];
  return NULL;
}

static void
add_values (GPtrArray          *words,
            const FmFieldInfo  *field,
            const char         *prefix,
            gsize               len)
{
  if (field->filter_kind == FM_FILTER_KIND_SYSCALL)
    {
      guint n;
      const FmSyscall *all = fm_syscalls_all (&n);

      for (guint i = 0; i < n; i++)
        if (has_prefix_caseless (all[i].name, prefix, len))
          g_ptr_array_add (words, g_strdup (all[i].name));
    }
  else if (field->filter_kind == FM_FILTER_KIND_ERRNO)
    {
      for (int e = 1; e < ERRNO_SCAN_LIMIT; e++)
        {
          const char *name = fm_errno_name (e);

          if (name != NULL && has_prefix_caseless (name, prefix, len))
            g_ptr_array_add (words, g_strdup (name));
        }
    }
}

static gsize
common_prefix_len (GPtrArray *words)
{
  const char *first = g_ptr_array_index (words, 0);
  gsize len = strlen (first);

  for (guint i = 1; i < words->len; i++)
    {
      const char *w = g_ptr_array_index (words, i);
      gsize j = 0;

      while (j < len && w[j] == first[j])
        j++;
      len = j;
    }
  return len;
}

static int
compare_words (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

FmvCompletion *
fmv_filter_complete (const char *text,
                     gsize       cursor)
{
  g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  const char *end = text + MIN (cursor, strlen (text));
  const char *start = end;
  const char *suffix = " ";
  g_autoptr(GString) completed = NULL;
  const char *first;
  FmvCompletion *completion;
  gsize typed;
  gsize lcp;

  while (start > text && is_word_char (start[-1]))
    start--;

  if (start > text && start[-1] == '=')
    {
      const FmFieldInfo *field = field_before (text, start);

      if (field != NULL)
        add_values (words, field, start, end - start);
    }
  else if (start == text || start[-1] == ' ' || start[-1] == '(')
    {
      /* a field name: completed with the operator the field is used with */
      for (guint i = 0; i < FM_N_FIELDS; i++)
        if (has_prefix_caseless (fm_event_fields[i].completion, start, end - start))
          g_ptr_array_add (words, g_strdup (fm_event_fields[i].completion));
      suffix = "";
    }
  if (words->len == 0)
    return NULL;

  g_ptr_array_sort (words, compare_words);
  first = g_ptr_array_index (words, 0);
  typed = end - start;
  completed = g_string_new_len (text, start - text);
  if (words->len == 1)
    g_string_append_printf (completed, "%s%s", first, suffix);
  else if ((lcp = common_prefix_len (words)) > typed)
    g_string_append_len (completed, first, lcp);   /* in the candidates' case: eac -> EAC */
  else
    g_string_append_len (completed, start, typed);

  completion = g_new0 (FmvCompletion, 1);
  completion->word_start = start - text;
  completion->suffix = suffix;
  completion->cursor = completed->len;
  g_string_append (completed, end);
  completion->text = g_string_free (g_steal_pointer (&completed), FALSE);
  if (words->len > 1)
    completion->words = g_steal_pointer (&words);
  return completion;
}

void
fmv_completion_free (FmvCompletion *completion)
{
  if (completion == NULL)
    return;
  g_free (completion->text);
  g_clear_pointer (&completion->words, g_ptr_array_unref);
  g_free (completion);
}
