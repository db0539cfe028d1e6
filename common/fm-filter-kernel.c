/* fm-filter-kernel.c: a filter's kernel part (fm-filter-kernel.h).
 *
 * Each node of the tree gives a box: per trait a set, or "any". With the negations pushed
 * down to the comparisons (not (a and b) is (not a) or (not b)), an and is the
 * intersection of its terms' boxes and an or the smallest box holding all of theirs (per
 * trait the union; a term that can match nothing adds nothing). A comparison restricts
 * its own trait when it names values there (pid=1, comm=sshd, failed, path=/etc/pa??wd) and
 * leaves every trait free otherwise (pid>1, comm=ssh*, path~x, a word). Comparisons on
 * the syscall or on errno's text are decided by evaluating them on sample events, so
 * globs, regexes and != come out exact.
 *
 * The remainder is what the session still evaluates: a top-level conjunct that one
 * exactly applied trait decides alone is true of every event the source delivers, since
 * the kernel part's set for that trait is the meet of those conjuncts' sets and never
 * wider than any of them.
 */
#include "config.h"

#include "fm-filter-kernel.h"

#include <string.h>

#include "fm-filter-private.h"
#include "fm-syscalls.h"

typedef FmFilterKernel Box;

static Box *
box_any (void)
{
  return g_new0 (Box, 1);
}

static Box *
box_nothing (void)
{
  Box *b = box_any ();

  b->matches_nothing = TRUE;
  return b;
}

void
fm_filter_kernel_free (FmFilterKernel *kernel)
{
  if (kernel == NULL)
    return;
  g_clear_pointer (&kernel->syscalls, g_array_unref);
  g_clear_pointer (&kernel->pids, g_array_unref);
  g_clear_pointer (&kernel->uids, g_array_unref);
  g_clear_pointer (&kernel->comms, g_ptr_array_unref);
  g_clear_pointer (&kernel->path_prefixes, g_ptr_array_unref);
  g_free (kernel);
}

static GArray *
one_id (guint32 id)
{
  GArray *set = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_array_append_val (set, id);
  return set;
}

static GPtrArray *
one_text (const char *text)
{
  GPtrArray *set = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (set, g_strdup (text));
  return set;
}

/* --- sets: NULL is "any"; each operation takes both sets ------------------------------ */

/* Sorted sets of numbers, merged in one pass. */
static GArray *
ids_combine (GArray *a, GArray *b, gboolean intersect)
{
  g_autoptr(GArray) x = a;
  g_autoptr(GArray) y = b;
  GArray *out;
  guint i = 0, j = 0;

  if (x == NULL || y == NULL)
    {
      GArray **other = x == NULL ? &y : &x;

      return intersect ? g_steal_pointer (other) : NULL;
    }

  out = g_array_new (FALSE, FALSE, sizeof (guint32));
  while (i < x->len || j < y->len)
    {
      guint32 u = i < x->len ? g_array_index (x, guint32, i) : G_MAXUINT32;
      guint32 v = j < y->len ? g_array_index (y, guint32, j) : G_MAXUINT32;
      gboolean both = i < x->len && j < y->len && u == v;
      guint32 least = (j >= y->len || (i < x->len && u <= v)) ? u : v;

      if (both || !intersect)
        g_array_append_val (out, least);
      if (i < x->len && u == least)
        i++;
      if (j < y->len && v == least)
        j++;
    }
  if (out->len > FM_FILTER_KERNEL_MAX_IDS)
    g_clear_pointer (&out, g_array_unref);
  return out;
}

static gboolean
has_text (GPtrArray *set, const char *text)
{
  return g_ptr_array_find_with_equal_func (set, text, g_str_equal, NULL);
}

static GPtrArray *
texts_combine (GPtrArray *a, GPtrArray *b, gboolean intersect, guint max)
{
  g_autoptr(GPtrArray) x = a;
  g_autoptr(GPtrArray) y = b;
  GPtrArray *out;

  if (x == NULL || y == NULL)
    {
      GPtrArray **other = x == NULL ? &y : &x;

      return intersect ? g_steal_pointer (other) : NULL;
    }

  out = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < x->len; i++)
    if (!intersect || has_text (y, x->pdata[i]))
      g_ptr_array_add (out, g_strdup (x->pdata[i]));
  for (guint i = 0; !intersect && i < y->len; i++)
    if (!has_text (x, y->pdata[i]))
      g_ptr_array_add (out, g_strdup (y->pdata[i]));
  if (out->len > max)
    g_clear_pointer (&out, g_ptr_array_unref);
  return out;
}

/* Whether every path below one of @a is below one of @b. */
static gboolean
prefixes_within (GPtrArray *a, GPtrArray *b)
{
  for (guint i = 0; i < a->len; i++)
    {
      gboolean inside = FALSE;

      for (guint j = 0; j < b->len && !inside; j++)
        inside = fm_filter_path_below (b->pdata[j], strlen (b->pdata[j]), a->pdata[i],
                                       strlen (a->pdata[i]));
      if (!inside)
        return FALSE;
    }
  return TRUE;
}

/* Both: an event passes a set of prefixes by path OR path2, so two sets do not meet
 * prefix by prefix (path below /a and path2 below /b passes {/a} and {/b}, not {}). When
 * one set is within the other it is the meeting; otherwise either one holds it. */
static GPtrArray *
prefixes_meet (GPtrArray *a, GPtrArray *b)
{
  if (a == NULL || b == NULL || prefixes_within (a, b))
    {
      g_clear_pointer (a == NULL ? &a : &b, g_ptr_array_unref);
      return a != NULL ? a : b;
    }
  g_ptr_array_unref (a);
  return b;
}

/* --- boxes ---------------------------------------------------------------------------- */

/* A box with an empty set on some trait holds no event: say so, so that an or of it and
 * another box is that other box, not one widened by the empty box's free traits. */
static Box *
box_normalize (Box *b)
{
  if ((b->syscalls != NULL && b->syscalls->len == 0) ||
      (b->pids != NULL && b->pids->len == 0) ||
      (b->uids != NULL && b->uids->len == 0) ||
      (b->comms != NULL && b->comms->len == 0))
    {
      fm_filter_kernel_free (b);
      return box_nothing ();
    }
  return b;
}

static Box *
box_meet (Box *a, Box *b)
{
  if (a->matches_nothing || b->matches_nothing)
    {
      fm_filter_kernel_free (a);
      fm_filter_kernel_free (b);
      return box_nothing ();
    }
  a->syscalls = ids_combine (a->syscalls, g_steal_pointer (&b->syscalls), TRUE);
  a->pids = ids_combine (a->pids, g_steal_pointer (&b->pids), TRUE);
  a->uids = ids_combine (a->uids, g_steal_pointer (&b->uids), TRUE);
  a->comms = texts_combine (a->comms, g_steal_pointer (&b->comms), TRUE, G_MAXUINT);
  a->failed_only = a->failed_only || b->failed_only;
  a->path_prefixes = prefixes_meet (a->path_prefixes, g_steal_pointer (&b->path_prefixes));
  fm_filter_kernel_free (b);
  return box_normalize (a);
}

static Box *
box_join (Box *a, Box *b)
{
  if (a->matches_nothing || b->matches_nothing)
    {
      Box *keep = a->matches_nothing ? b : a;

      fm_filter_kernel_free (keep == a ? b : a);
      return keep;
    }
  a->syscalls = ids_combine (a->syscalls, g_steal_pointer (&b->syscalls), FALSE);
  a->pids = ids_combine (a->pids, g_steal_pointer (&b->pids), FALSE);
  a->uids = ids_combine (a->uids, g_steal_pointer (&b->uids), FALSE);
  a->comms = texts_combine (a->comms, g_steal_pointer (&b->comms), FALSE,
                            FM_FILTER_KERNEL_MAX_COMMS);
  a->failed_only = a->failed_only && b->failed_only;
  a->path_prefixes = texts_combine (a->path_prefixes, g_steal_pointer (&b->path_prefixes),
                                    FALSE, FM_FILTER_KERNEL_MAX_PREFIXES);
  fm_filter_kernel_free (b);
  return a;
}

/* --- comparisons ---------------------------------------------------------------------- */

/* An event of syscall @syscall_nr that succeeded, every other field empty. */
static const FmEvent *
sample_event (FmEvent *e, guint16 syscall_nr)
{
  memset (e, 0, sizeof *e);
  e->comm = e->path = e->path2 = e->detail = "";
  e->syscall_nr = syscall_nr;
  return e;
}

/* The syscalls of the table for which the comparison @n holds (or, @negated, fails). */
static Box *
syscall_box (const Node *n, gboolean negated)
{
  guint n_all = 0;
  const FmSyscall *all = fm_syscalls_all (&n_all);
  Box *b = box_any ();
  FmEvent e;

  b->syscalls = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < n_all; i++)
    if (fm_filter_node_match (n, sample_event (&e, all[i].nr)) != negated)
      {
        guint32 nr = all[i].nr;

        g_array_append_val (b->syscalls, nr);
      }
  g_array_sort (b->syscalls, fm_filter_compare_u32);
  return b;
}

/* The op that holds exactly when @op fails, for a span of 1 (N_NUM). */
static Op
negate_op (Op op)
{
  switch (op)
    {
    case OP_EQ: return OP_NE;
    case OP_NE: return OP_EQ;
    case OP_LT: return OP_GE;
    case OP_LE: return OP_GT;
    case OP_GT: return OP_LE;
    case OP_GE: return OP_LT;
    case OP_MATCH: default: return OP_MATCH;
    }
}

static Box *
number_box (const Node *n, gboolean negated)
{
  Op op = n->op;
  Box *b;

  if (n->span != 1 || op == OP_MATCH)
    return box_any ();
  if (negated)
    op = negate_op (op);

  if (n->field == FM_FIELD_RESULT)
    {
      b = box_any ();
      b->failed_only = (op == OP_LT && n->num <= 0) || (op == OP_LE && n->num < 0) ||
                       (op == OP_EQ && n->num < 0);
      return b;
    }
  if ((n->field != FM_FIELD_PID && n->field != FM_FIELD_UID) || op != OP_EQ)
    return box_any ();
  /* no process has pid 0 or a uid of -1 (chown's "unchanged"); such a value is not one
   * the kernel side takes, so it restricts nothing rather than everything */
  if (n->num < (n->field == FM_FIELD_PID ? 1 : 0) || n->num >= G_MAXUINT32)
    return box_any ();
  b = box_any ();
  if (n->field == FM_FIELD_PID)
    b->pids = one_id ((guint32) n->num);
  else
    b->uids = one_id ((guint32) n->num);
  return b;
}

static Box *
set_box (const Node *n, gboolean negated)
{
  Box *b;

  if (negated != n->negate || n->set->len > FM_FILTER_KERNEL_MAX_IDS)
    return box_any ();
  for (guint i = 0; i < n->set->len; i++)
    if (g_array_index (n->set, guint32, i) == G_MAXUINT32 ||
        (n->field == FM_FIELD_PID && g_array_index (n->set, guint32, i) == 0))
      return box_any ();
  if (n->set->len == 0)
    return box_nothing ();
  b = box_any ();
  if (n->field == FM_FIELD_PID)
    b->pids = g_array_copy (n->set);
  else
    b->uids = g_array_copy (n->set);
  return b;
}

static Box *
comm_box (const Node *n, gboolean negated)
{
  Box *b;

  /* a glob or regex stays in user space: the kernel compares names exactly */
  /* the sets are carried as D-Bus strings (the Options property): bytes that are not
   * UTF-8 (comm='\xff') stay in user space too */
  if (n->kind != N_STR || negated != n->negate || n->text_len == 0 ||
      !g_utf8_validate (n->text, n->text_len, NULL))
    return box_any ();
  if (n->text_len > FM_COMM_MAX - 1)
    return box_nothing ();   /* longer than any process name */
  b = box_any ();
  b->comms = one_text (n->text);
  return b;
}

/* A path a comparison on path or path2 implies: "/etc/passwd" for path=/etc/passwd, the
 * directory before the first wildcard for a glob ("/etc" for /etc/x?.conf, "/" for /etc?),
 * NULL when it implies none or one that is not canonical (it would not mean the same). */
static char *
implied_prefix (const Node *n)
{
  g_autofree char *literal = NULL;
  g_autofree char *canonical = NULL;

  if (!g_utf8_validate (n->text, n->text_len, NULL))
    return NULL;   /* a NUL inside, or bytes a D-Bus string cannot carry */
  switch (n->kind)
    {
    case N_STR:
    case N_BELOW:
      literal = g_strndup (n->text, n->text_len);
      break;
    case N_GLOB:
      {
        gsize len = strcspn (n->text, "*?");

        while (len > 0 && n->text[len - 1] != '/')
          len--;
        if (len == 0)
          return NULL;
        literal = g_strndup (n->text, len == 1 ? 1 : len - 1);
        break;
      }
    default:
      return NULL;
    }
  canonical = fm_path_prefix_canonical (literal);
  if (canonical == NULL || !g_str_equal (canonical, literal))
    return NULL;
  return g_steal_pointer (&canonical);
}

static Box *
path_box (const Node *n, gboolean negated)
{
  g_autofree char *prefix = NULL;
  Box *b;

  if (negated != n->negate)
    return box_any ();
  prefix = implied_prefix (n);
  if (prefix == NULL)
    return box_any ();
  b = box_any ();
  b->path_prefixes = one_text (prefix);
  return b;
}

static Box *
extract_node (const Node *n, gboolean negated);

static Box *
extract (const Node *n, gboolean negated)
{
  return box_normalize (extract_node (n, negated));
}

static Box *
extract_node (const Node *n, gboolean negated)
{
  switch (n->kind)
    {
    case N_TRUE:
      return negated ? box_nothing () : box_any ();
    case N_AND:
    case N_OR:
      {
        /* with the negation pushed in, not (a and b) is (not a) or (not b) */
        gboolean meet = (n->kind == N_AND) != negated;
        Box *b = extract (n->kids[0], negated);

        for (guint i = 1; i < n->n_kids; i++)
          {
            Box *kid = extract (n->kids[i], negated);

            b = meet ? box_meet (b, kid) : box_join (b, kid);
          }
        return b;
      }
    case N_NOT:
      return extract (n->kids[0], !negated);
    case N_NUM:
      return number_box (n, negated);
    case N_ERRNO:
      {
        /* errno=E is result=-E, a failure; errno!=E takes successes too */
        Box *b = box_any ();

        b->failed_only = negated == n->negate && n->num < 0;
        return b;
      }
    case N_IN_SET:
      return n->field == FM_FIELD_SYSCALL ? syscall_box (n, negated) : set_box (n, negated);
    case N_BELOW:
      return path_box (n, negated);
    case N_STR:
    case N_GLOB:
    case N_REGEX:
      if (n->anywhere)
        return box_any ();
      if (n->field == FM_FIELD_SYSCALL)
        return syscall_box (n, negated);
      if (n->field == FM_FIELD_ERRNO)
        {
          /* a call that succeeded has no errno, "": if that fails the comparison, only
           * failed calls pass it */
          Box *b = box_any ();
          FmEvent e;

          b->failed_only = fm_filter_node_match (n, sample_event (&e, 0)) == negated;
          return b;
        }
      if (n->field == FM_FIELD_COMM)
        return comm_box (n, negated);
      if (n->field == FM_FIELD_PATH || n->field == FM_FIELD_PATH2)
        return path_box (n, negated);
      return box_any ();
    case N_WORD:
    default:
      return box_any ();
    }
}

FmFilterKernel *
fm_filter_kernel_part (const FmFilter *filter)
{
  g_return_val_if_fail (filter != NULL, NULL);

  return extract (filter->root, FALSE);
}

/* --- the remainder --------------------------------------------------------------------- */

static gboolean
box_restricts (const Box *b, FmFilterTraits t)
{
  if (b->matches_nothing)
    return FALSE;
  switch (t)
    {
    case FM_FILTER_TRAIT_SYSCALL: return b->syscalls != NULL;
    case FM_FILTER_TRAIT_PID: return b->pids != NULL;
    case FM_FILTER_TRAIT_UID: return b->uids != NULL;
    case FM_FILTER_TRAIT_FAILED: return b->failed_only;
    default: return FALSE;
    }
}

/* The one trait that decides @n (negated: its negation) when @n's box holds exactly the
 * events it matches, at every node below it too: a set past the maps' size, a value the
 * kernel side cannot take (pid=0) or a comparison it cannot express (pid!=1) leaves the
 * trait free, and an and or an or of such a free term and an exact one is not exact. A
 * comparison of the result is exact only as result < 0: result=-2 also restricts to
 * failed calls, but to fewer of them. 0 when no trait decides @n exactly. */
static FmFilterTraits
exact_trait (const Node *n, gboolean negated)
{
  FmFilterTraits t = 0;

  switch (n->kind)
    {
    case N_NOT:
      return exact_trait (n->kids[0], !negated);
    case N_AND:
    case N_OR:
      t = exact_trait (n->kids[0], negated);
      for (guint i = 1; i < n->n_kids && t != 0; i++)
        if (exact_trait (n->kids[i], negated) != t)
          t = 0;
      break;
    case N_NUM:
      if (n->field == FM_FIELD_RESULT)
        {
          Op op = negated ? negate_op (n->op) : n->op;

          return n->span == 1 && ((op == OP_LT && n->num == 0) || (op == OP_LE && n->num == -1))
                 ? FM_FILTER_TRAIT_FAILED : 0;
        }
      /* fall through */
    case N_IN_SET:
      t = n->field == FM_FIELD_PID ? FM_FILTER_TRAIT_PID
        : n->field == FM_FIELD_UID ? FM_FILTER_TRAIT_UID
        : n->field == FM_FIELD_SYSCALL ? FM_FILTER_TRAIT_SYSCALL : 0;
      break;
    case N_STR:
    case N_GLOB:
    case N_REGEX:
      t = !n->anywhere && n->field == FM_FIELD_SYSCALL ? FM_FILTER_TRAIT_SYSCALL : 0;
      break;
    default:
      return 0;
    }
  if (t != 0)
    {
      g_autoptr(FmFilterKernel) b = extract (n, negated);

      if (!box_restricts (b, t))
        t = 0;
    }
  return t;
}

/* Whether the conjunct @n is true of every event a source delivers that applies the
 * kernel part, the @exact traits exactly. */
static gboolean
applied_at_source (const Node *n, FmFilterTraits exact)
{
  return (exact_trait (n, FALSE) & exact) != 0;
}

/* The conjuncts of @n not applied at the source, shared, into @kept. */
static void
keep_conjuncts (Node *n, FmFilterTraits exact, GPtrArray *kept)
{
  if (n->kind == N_AND)
    {
      for (guint i = 0; i < n->n_kids; i++)
        keep_conjuncts (n->kids[i], exact, kept);
      return;
    }
  if (n->kind != N_TRUE && !applied_at_source (n, exact))
    g_ptr_array_add (kept, fm_filter_node_ref (n));
}

FmFilter *
fm_filter_kernel_remainder (const FmFilter *filter, FmFilterTraits exact)
{
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();

  g_return_val_if_fail (filter != NULL, NULL);

  keep_conjuncts (filter->root, exact, kept);
  if (kept->len == 0)
    return NULL;
  return fm_filter_new_from_node (fm_filter_node_chain (N_AND, kept));
}

char *
fm_path_prefix_canonical (const char *path)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (path != NULL, NULL);

  if (path[0] != '/')
    return NULL;

  parts = g_strsplit (path, "/", -1);
  for (gsize i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '\0' || g_str_equal (parts[i], "."))
        continue;
      if (g_str_equal (parts[i], ".."))
        return NULL;
      g_string_append_c (out, '/');
      g_string_append (out, parts[i]);
    }

  if (out->len == 0)
    g_string_append_c (out, '/');
  return g_string_free (g_steal_pointer (&out), FALSE);
}
