/* fm-filter-private.h: the compiled form of a filter, a tree of nodes, shared by the three
 * files of the filter language (see fm-filter.h), and the few functions they call in one
 * another:
 *
 *   fm-filter.c          the parser: tokens, quoted values, words, /regex/, and, or, not,
 *                        parentheses; fm_filter_new() and the node tree's lifetime
 *   fm-filter-compare.c  one comparison, field <op> value: the value read by the field's
 *                        kind (text, glob, regex, errno, user, time, duration, number)
 *   fm-filter-match.c    evaluation, fm_filter_match(), which allocates nothing
 *   fm-filter-memo.c     verdicts on interned strings remembered (fm-filter-memo.h)
 *   fm-filter-build.c    filters made from parts rather than text (fm-filter-build.h)
 *   fm-filter-kernel.c   the part of a filter a capture backend applies (fm-filter-kernel.h)
 *
 * Not installed and not for other code: the tree's shape is free to change. */
#pragma once

#include <glib.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "fm-compact-event.h"
#include "fm-filter.h"

G_BEGIN_DECLS

/* What a node compares: a field of the event (FmFieldId, fm-event-fields.h), or this. */
typedef guint Field;
#define F_TIME_OF_DAY FM_N_FIELDS   /* time compared with HH:MM[:SS[.frac]]: ns since local midnight */

typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MATCH } Op;

typedef enum {
  N_AND, N_OR, N_NOT, N_TRUE,
  N_NUM,       /* numeric field <op> value */
  N_ERRNO,     /* errno = / != value */
  N_STR,       /* string field = / != exact text */
  N_GLOB,      /* string field = / != glob (bytes; see fm_filter_glob_match) */
  N_IN_SET,    /* numeric field (uid, pid, syscall number) = / != one of a set: the uids
                * of the users a user glob names, found at compile time, or a list
                * given as such */
  N_BELOW,     /* path or path2 is text or below it, by whole components */
  N_REGEX,     /* string field ~ regex, or /regex/ anywhere (field = -1) */
  N_WORD,      /* bare word: substring anywhere */
} NodeKind;

/* The bound on one regex match (fm-filter-compare.c): PCRE2's match limit, and for a
 * pattern whose cost that limit does not bound, a budget of automatic callouts. Mutable
 * while matching, like the match data. */
typedef struct {
  pcre2_match_context *context;
  gboolean counted;          /* compiled with PCRE2_AUTO_CALLOUT: every item costs one of
                              * callouts_left */
  guint32 callouts_left;
  guint64 n_undecided;       /* matches the bound ended, since the filter was made */
} RegexBound;

/* A verdict of the filter language: a ~ comparison that its bound ended is unknown, and
 * and, or and not follow three-valued logic (fm-filter.h). */
typedef enum { V_NO, V_YES, V_UNKNOWN } Verdict;

/* Items a regex that the match limit cannot bound may try in one match (fm-filter-compare.c). */
#define FM_FILTER_REGEX_CALLOUT_BUDGET 20000

typedef struct _Node Node;
struct _Node {
  gint ref_count;       /* a filter's remainder (fm-filter-kernel.c) shares its conjuncts */
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
  GArray *set;          /* N_IN_SET: guint32, sorted, no duplicates */
  pcre2_code *re;
  pcre2_match_data *md; /* made with the code: matching then allocates nothing, but a
                         * filter is not for several threads at once */
  RegexBound *bound;    /* N_REGEX: what keeps one match's cost bounded (fm-filter-compare.c) */
  Node **kids;          /* N_AND, N_OR: n-ary, so a long chain is flat, not a deep tree */
  guint n_kids;
};

struct _FmFilter {
  gint ref_count;
  Node *root;
};

/* A memo's shadow of one node (fm-filter-memo.c): the tree is shared and immutable, so
 * what a memo learns lives beside it, node for node. */
typedef struct _MemoNode MemoNode;
struct _MemoNode {
  guint8 *verdicts;     /* by string id: 0 not known yet, 1 no, 2 yes; NULL when the node
                         * tests no interned string */
  guint8 *by_syscall;   /* the same by syscall number, for tests of the syscall's name */
  gboolean digits;      /* a bare word or /regex/ that may match a string of digits (the
                         * pid, a result >= 0); FALSE spares testing them in every row */
  MemoNode *kids;       /* one per kid of the node */
};

/* What an evaluation reads: the event, and with a memo, the ids of its strings. */
typedef struct {
  const FmEvent *event;
  const FmCompactEvent *ids;   /* NULL: no memo */
  guint32 n_ids;               /* ids below this have a verdict in the memo */
} MatchContext;

typedef struct {
  const char *text;
  const char *p;
  int depth;
  GError **error;
} Parser;

/* fm-filter.c */
Node *fm_filter_node_new (NodeKind kind);
/* A filter holding @root (NULL: to be set), one reference. */
FmFilter *fm_filter_new_from_node (Node *root);
Node *fm_filter_node_ref (Node *n);
/* The nodes of @terms (at least one, taken) as one n-ary @kind (N_AND, N_OR) node; a
 * single term is itself. */
Node *fm_filter_node_chain (NodeKind kind, GPtrArray *terms);
void fm_filter_node_free (Node *n);
Node *fm_filter_fail_at (Parser *ps, const char *at, const char *format, ...) G_GNUC_PRINTF (3, 4);
void fm_filter_skip_space (Parser *ps);
char *fm_filter_parse_value (Parser *ps, gsize *len_out);

/* fm-filter-compare.c */
Node *fm_filter_parse_comparison (Parser *ps, const FmFieldInfo *field);
gboolean fm_filter_has_upper (const char *s, gsize len, gboolean regex);
Node *fm_filter_compile_regex (Parser *ps, const char *at, Node *n, const char *pattern, gsize len);
void fm_filter_regex_bound_free (RegexBound *bound);
/* Orders guint32s, for g_array_sort() of the sorted sets (N_IN_SET). */
gint fm_filter_compare_u32 (gconstpointer a, gconstpointer b);

/* fm-filter-match.c */
gboolean fm_filter_glob_match (const char *pat, gsize pat_len, const char *s, gsize len);
/* Whether the subtree @n matches @event; an unknown verdict is a match. */
gboolean fm_filter_node_match (const Node *n, const FmEvent *event);
/* Whether the subtree @n matches the context's event, through the memo nodes @m (NULL:
 * none); an unknown verdict is a match. */
gboolean fm_filter_node_match_memo (const Node *n, const MemoNode *m, const MatchContext *c);
/* Whether node @n tests the text of a field alone, its interned strings (comm, path,
 * path2, detail) or the syscall's name, so that its verdicts on them can be remembered. */
gboolean fm_filter_node_tests_strings (const Node *n);
gboolean fm_filter_node_tests_syscall_name (const Node *n);
/* Whether a bare word or /regex/ @n may match a string of decimal digits. */
gboolean fm_filter_node_may_match_digits (const Node *n);
/* Whether @path is @prefix or below it by whole components (prefix "/etc" takes "/etc"
 * and "/etc/passwd", not "/etcetera"). */
gboolean fm_filter_path_below (const char *prefix, gsize prefix_len, const char *path,
                               gsize path_len);

G_END_DECLS
