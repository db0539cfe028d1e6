/* fm-filter-build.c: filters made from parts (fm-filter-build.h), as node trees of the
 * same shape the parser makes (fm-filter-private.h). */
#include "config.h"

#include "fm-filter-build.h"

#include <string.h>

#include "fm-filter-private.h"

/* One node, or an n-ary or of @terms when there are several. */
static FmFilter *
any_of (GPtrArray *terms)
{
  g_assert (terms->len > 0);
  return fm_filter_new_from_node (fm_filter_node_chain (N_OR, terms));
}

static Node *
text_node (NodeKind kind, FmFieldId field, const char *text)
{
  Node *n = fm_filter_node_new (kind);

  n->field = field;
  n->text = g_strdup (text);
  n->text_len = strlen (text);
  return n;
}

FmFilter *
fm_filter_new_any_text (FmFieldId field, const char *const *values)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();

  g_return_val_if_fail (field == FM_FIELD_COMM, NULL);
  g_return_val_if_fail (values != NULL && values[0] != NULL, NULL);

  for (gsize i = 0; values[i] != NULL; i++)
    g_ptr_array_add (terms, text_node (N_STR, field, values[i]));
  return any_of (terms);
}

FmFilter *
fm_filter_new_any_number (FmFieldId field, const guint32 *values, gsize n_values)
{
  Node *n;

  g_return_val_if_fail (field == FM_FIELD_PID || field == FM_FIELD_UID ||
                        field == FM_FIELD_SYSCALL, NULL);
  g_return_val_if_fail (values != NULL && n_values > 0, NULL);

  n = fm_filter_node_new (N_IN_SET);
  n->field = field;
  n->set = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_values);
  g_array_append_vals (n->set, values, n_values);
  g_array_sort (n->set, fm_filter_compare_u32);
  /* the lookup is a binary search: duplicates are harmless, but keep the set a set */
  for (guint i = 1; i < n->set->len;)
    if (g_array_index (n->set, guint32, i) == g_array_index (n->set, guint32, i - 1))
      g_array_remove_index (n->set, i);
    else
      i++;
  return fm_filter_new_from_node (n);
}

FmFilter *
fm_filter_new_failed (void)
{
  Node *n = fm_filter_node_new (N_NUM);

  n->field = FM_FIELD_RESULT;
  n->op = OP_LT;
  n->num = 0;
  return fm_filter_new_from_node (n);
}

FmFilter *
fm_filter_new_below (const char *const *prefixes)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();

  g_return_val_if_fail (prefixes != NULL && prefixes[0] != NULL, NULL);

  for (gsize i = 0; prefixes[i] != NULL; i++)
    g_ptr_array_add (terms, text_node (N_BELOW, FM_FIELD_PATH, prefixes[i]));
  return any_of (terms);
}

FmFilter *
fm_filter_new_and (FmFilter *a, FmFilter *b)
{
  Node *n;

  if (a == NULL)
    return b;
  if (b == NULL)
    return a;

  /* the nodes are moved, so they must not be shared */
  g_return_val_if_fail (a->ref_count == 1 && b->ref_count == 1, NULL);

  n = fm_filter_node_new (N_AND);
  n->n_kids = 2;
  n->kids = g_new (Node *, 2);
  n->kids[0] = g_steal_pointer (&a->root);
  n->kids[1] = g_steal_pointer (&b->root);
  fm_filter_free (a);
  fm_filter_free (b);
  return fm_filter_new_from_node (n);
}
