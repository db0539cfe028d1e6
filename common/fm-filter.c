/* fm-filter.c: the filter language's parser (see fm-filter.h): recursive descent over the
 * text, compiled once into a tree of nodes (fm-filter-private.h). This file reads the
 * tokens (white space, words, quoted values), /regex/, parentheses and and/or/not, and
 * owns the tree's lifetime; a field comparison (field <op> value) is read by
 * fm-filter-compare.c, and the tree is evaluated by fm-filter-match.c. */
#include "config.h"

#include "fm-filter-private.h"

#include <stdlib.h>
#include <string.h>

#include "fm-error.h"

/* Deeper nesting than this is refused rather than recursed into. */
#define MAX_DEPTH 200

Node *
fm_filter_node_ref (Node *n)
{
  g_atomic_int_inc (&n->ref_count);
  return n;
}

void
fm_filter_node_free (Node *n)
{
  if (n == NULL || !g_atomic_int_dec_and_test (&n->ref_count))
    return;
  for (guint i = 0; i < n->n_kids; i++)
    fm_filter_node_free (n->kids[i]);
  g_free (n->kids);
  g_free (n->text);
  g_clear_pointer (&n->set, g_array_unref);
  if (n->md != NULL)
    pcre2_match_data_free (n->md);
  g_clear_pointer (&n->bound, fm_filter_regex_bound_free);
  if (n->re != NULL)
    pcre2_code_free (n->re);
  g_free (n);
}

FmFilter *
fm_filter_ref (FmFilter *filter)
{
  g_return_val_if_fail (filter != NULL, NULL);
  g_atomic_int_inc (&filter->ref_count);
  return filter;
}

void
fm_filter_free (FmFilter *filter)
{
  if (filter == NULL || !g_atomic_int_dec_and_test (&filter->ref_count))
    return;
  fm_filter_node_free (filter->root);
  g_free (filter);
}

Node *
fm_filter_node_new (NodeKind kind)
{
  Node *n = g_new0 (Node, 1);

  n->ref_count = 1;
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

Node *
fm_filter_fail_at (Parser *ps, const char *at, const char *format, ...)
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

void
fm_filter_skip_space (Parser *ps)
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
char *
fm_filter_parse_value (Parser *ps, gsize *len_out)
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
              fm_filter_fail_at (ps, start, "expected a closing %c for this quote", quote);
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
      fm_filter_fail_at (ps, start, "expected a value");
      return NULL;
    }
  *len_out = ps->p - start;
  return g_strndup (start, ps->p - start);
}

static Node *parse_or (Parser *ps);

static Node *
parse_primary (Parser *ps)
{
  const char *start;

  fm_filter_skip_space (ps);
  start = ps->p;
  if (*ps->p == '\0')
    return fm_filter_fail_at (ps, start, "expected a field comparison, a word, /regex/ or (");
  if (*ps->p == '(')
    {
      Node *inner;

      if (++ps->depth > MAX_DEPTH)
        return fm_filter_fail_at (ps, start, "parentheses nested deeper than %d", MAX_DEPTH);
      ps->p++;
      inner = parse_or (ps);
      if (inner == NULL)
        return NULL;
      fm_filter_skip_space (ps);
      if (*ps->p != ')')
        {
          fm_filter_node_free (inner);
          return fm_filter_fail_at (ps, ps->p, "expected ) to close the ( at column %u",
                                    column_of (ps, start));
        }
      ps->p++;
      ps->depth--;
      return inner;
    }
  /* inside parentheses a ) here closes them too early, as in "()" or "(a or )" */
  if (*ps->p == ')' && ps->depth > 0)
    return fm_filter_fail_at (ps, start, "expected a field comparison, a word, /regex/ or ( before )");
  if (*ps->p == ')')
    return fm_filter_fail_at (ps, start, "unexpected ): no ( to close");
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
              return fm_filter_fail_at (ps, start, "expected a closing / for this regular expression");
            }
          if (ps->p[0] == '\\' && ps->p[1] == '/')
            ps->p++;
          g_string_append_c (re, *ps->p++);
        }
      ps->p++;
      n = fm_filter_node_new (N_REGEX);
      n->anywhere = TRUE;
      n = fm_filter_compile_regex (ps, start + 1, n, re->str, re->len);
      g_string_free (re, TRUE);
      return n;
    }
  if (*ps->p == '\'' || *ps->p == '"')
    {
      gsize len;
      char *text = fm_filter_parse_value (ps, &len);
      Node *n;

      if (text == NULL)
        return NULL;
      n = fm_filter_node_new (N_WORD);
      n->text = text;
      n->text_len = len;
      n->caseless = !fm_filter_has_upper (text, len, FALSE);
      return n;
    }
  if (*ps->p == '=' || *ps->p == '!' || *ps->p == '<' || *ps->p == '>' || *ps->p == '~')
    return fm_filter_fail_at (ps, start, "expected a field name before the operator");

  while (is_word_char (*ps->p))
    ps->p++;
  {
    gsize len = ps->p - start;
    const char *after = ps->p;

    fm_filter_skip_space (ps);
    if (*ps->p == '=' || *ps->p == '<' || *ps->p == '>' || *ps->p == '~' ||
        (ps->p[0] == '!' && ps->p[1] == '='))
      {
        g_autofree char *names = NULL;

        for (guint i = 0; i < FM_N_FIELDS; i++)
          {
            const FmFieldInfo *field = &fm_event_fields[i];

            if (strlen (field->filter_name) == len && strncmp (field->filter_name, start, len) == 0)
              return fm_filter_parse_comparison (ps, field);
          }
        names = fm_field_filter_names (", ", " or ");
        return fm_filter_fail_at (ps, start, "unknown field “%.*s”; expected %s", (int) len, start,
                                  names);
      }
    ps->p = after;
    if (len == 6 && strncmp (start, "failed", 6) == 0)
      {
        Node *n = fm_filter_node_new (N_NUM);

        n->field = FM_FIELD_RESULT;
        n->op = OP_LT;
        n->num = 0;
        return n;
      }
    {
      Node *n = fm_filter_node_new (N_WORD);

      n->text = g_strndup (start, len);
      n->text_len = len;
      n->caseless = !fm_filter_has_upper (n->text, len, FALSE);
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

  fm_filter_skip_space (ps);
  start = ps->p;
  if (at_keyword (ps, "not"))
    {
      Node *n, *inner;

      if (++ps->depth > MAX_DEPTH)
        return fm_filter_fail_at (ps, start, "“not” nested deeper than %d", MAX_DEPTH);
      ps->p += 3;
      inner = parse_not (ps);
      if (inner == NULL)
        return NULL;
      ps->depth--;
      n = fm_filter_node_new (N_NOT);
      n->kids = g_new (Node *, 1);
      n->kids[0] = inner;
      n->n_kids = 1;
      return n;
    }
  return parse_primary (ps);
}

Node *
fm_filter_node_chain (NodeKind kind, GPtrArray *terms)
{
  Node *n;

  if (terms->len == 1)
    return g_ptr_array_steal_index (terms, 0);
  n = fm_filter_node_new (kind);
  n->n_kids = terms->len;
  n->kids = (Node **) g_ptr_array_steal (terms, NULL);
  return n;
}

static void
free_terms (GPtrArray *terms)
{
  for (guint i = 0; i < terms->len; i++)
    fm_filter_node_free (g_ptr_array_index (terms, i));
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
      fm_filter_skip_space (ps);
      if (*ps->p == '\0' || *ps->p == ')' || at_keyword (ps, "or"))
        break;
      if (at_keyword (ps, "and"))
        ps->p += 3;
    }
  n = fm_filter_node_chain (N_AND, terms);
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
      fm_filter_skip_space (ps);
      if (!at_keyword (ps, "or"))
        break;
      ps->p += 2;
    }
  n = fm_filter_node_chain (N_OR, terms);
  g_ptr_array_free (terms, TRUE);
  return n;
}

FmFilter *
fm_filter_new_from_node (Node *root)
{
  FmFilter *filter = g_new0 (FmFilter, 1);

  filter->ref_count = 1;
  filter->root = root;
  return filter;
}

FmFilter *
fm_filter_new (const char *text, GError **error)
{
  Parser ps = { text, text, 0, error };
  g_autoptr(FmFilter) filter = fm_filter_new_from_node (NULL);

  g_return_val_if_fail (text != NULL, NULL);

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_PARSE, "column 1: the filter is not valid UTF-8");
      return NULL;
    }
  fm_filter_skip_space (&ps);
  if (*ps.p == '\0')
    {
      filter->root = fm_filter_node_new (N_TRUE);
      return g_steal_pointer (&filter);
    }
  filter->root = parse_or (&ps);
  if (filter->root == NULL)
    return NULL;
  fm_filter_skip_space (&ps);
  if (*ps.p != '\0')
    {
      fm_filter_fail_at (&ps, ps.p, *ps.p == ')' ? "unexpected ): no ( to close" :
                         "expected “and”, “or” or the end of the filter");
      return NULL;
    }
  return g_steal_pointer (&filter);
}
