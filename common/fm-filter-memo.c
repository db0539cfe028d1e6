/* fm-filter-memo.c: a filter's verdicts on interned strings; see fm-filter-memo.h.
 *
 * The memo is a shadow of the filter's tree (MemoNode, fm-filter-private.h) walked in
 * step with it by the evaluator (fm-filter-match.c), rather than a table keyed by node:
 * a lookup per text test of every row would cost what the memo saves on short strings.
 * A verdict table is one byte per id, zeroed by calloc: a large one is a fresh mapping,
 * and only the pages of the ids that come are touched.
 */
#include "config.h"

#include "fm-filter-memo.h"
#include "fm-filter-private.h"

struct _FmFilterMemo {
  FmFilter *filter;
  guint32 n_ids;
  MemoNode root;
  gsize size;
};

/* Whether the subtree @n holds a test a memo would remember. */
static gboolean
tests_text (const Node *n)
{
  if (fm_filter_node_tests_strings (n) || fm_filter_node_tests_syscall_name (n))
    return TRUE;
  for (guint i = 0; i < n->n_kids; i++)
    if (tests_text (n->kids[i]))
      return TRUE;
  return FALSE;
}

static void
shadow_init (FmFilterMemo *memo,
             MemoNode     *m,
             const Node   *n)
{
  if (fm_filter_node_tests_strings (n))
    {
      m->verdicts = g_new0 (guint8, MAX (memo->n_ids, 1));
      memo->size += memo->n_ids;
    }
  m->digits = fm_filter_node_may_match_digits (n);
  if (fm_filter_node_tests_syscall_name (n))
    {
      m->by_syscall = g_new0 (guint8, FM_SYSCALL_NR_LIMIT);
      memo->size += FM_SYSCALL_NR_LIMIT;
    }
  if (n->n_kids == 0)
    return;
  m->kids = g_new0 (MemoNode, n->n_kids);
  memo->size += n->n_kids * sizeof (MemoNode);
  for (guint i = 0; i < n->n_kids; i++)
    shadow_init (memo, &m->kids[i], n->kids[i]);
}

static void
shadow_clear (MemoNode   *m,
              const Node *n)
{
  g_free (m->verdicts);
  g_free (m->by_syscall);
  if (m->kids == NULL)
    return;
  for (guint i = 0; i < n->n_kids; i++)
    shadow_clear (&m->kids[i], n->kids[i]);
  g_free (m->kids);
}

FmFilterMemo *
fm_filter_memo_new (FmFilter *filter,
                    guint32   n_ids)
{
  FmFilterMemo *memo;

  g_return_val_if_fail (filter != NULL, NULL);

  if (!tests_text (filter->root))
    return NULL;
  memo = g_new0 (FmFilterMemo, 1);
  memo->filter = fm_filter_ref (filter);
  memo->n_ids = n_ids;
  memo->size = sizeof *memo;
  shadow_init (memo, &memo->root, filter->root);
  return memo;
}

void
fm_filter_memo_free (FmFilterMemo *memo)
{
  if (memo == NULL)
    return;
  shadow_clear (&memo->root, memo->filter->root);
  fm_filter_free (memo->filter);
  g_free (memo);
}

gboolean
fm_filter_memo_match (FmFilterMemo         *memo,
                      const FmEvent        *event,
                      const FmCompactEvent *ids)
{
  MatchContext c = { .event = event, .ids = ids, .n_ids = memo != NULL ? memo->n_ids : 0 };

  g_return_val_if_fail (memo != NULL && event != NULL && ids != NULL, FALSE);
  return fm_filter_node_match_memo (memo->filter->root, &memo->root, &c);
}

gsize
fm_filter_memo_get_size (FmFilterMemo *memo)
{
  g_return_val_if_fail (memo != NULL, 0);

  return memo->size;
}
