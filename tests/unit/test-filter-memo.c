/* test-filter-memo.c: a filter's memo of verdicts per interned string (fm-filter-memo.h)
 * gives exactly what the plain evaluation gives, event by event, for words, globs,
 * regexes, exact compares and path prefixes, case-insensitive or not, negated, combined,
 * on every text field; with strings that repeat, strings interned after the memo was made,
 * and ids released and given to other strings before a new memo is made. */
#include <string.h>

#include "fm-compact-event.h"
#include "fm-filter-build.h"
#include "fm-filter-memo.h"
#include "fm-strtab.h"

#define N_EVENTS 3000
#define CAPACITY (2 * N_EVENTS)

static const char *const filters[] = {
  "shadow", "Shadow", "SHADOW", "etc", "o_creat", "O_CREAT", "not shadow",
  "passwd or shadow", "shadow and not passwd", "/sh(adow)?/", "/^-E/", "/SHADOW/",
  "/\\.new$/", "comm=sshd", "comm!=sshd", "comm=*Man*", "comm=shadow?", "comm~^s",
  "comm~'^[a-z]+$'", "path=/etc/*", "path!=*.so.?", "path=/etc/shadow", "path~'^/etc/'",
  "path~shadow", "path~'\\.so\\.[0-9]$'", "path2~new$", "path2=*.new", "path2!=*.new",
  "detail~O_CREAT", "detail~o_creat", "detail='O_RDONLY|O_CLOEXEC'", "detail=*0644",
  "syscall=open*", "syscall=read", "syscall!=close", "syscall~^re", "eacces",
  "enoent or 1234", "result<0 and shadow", "(comm=bash or comm=sshd) and not path~passwd",
  "errno=EACCES and shadow", "42", "-2", "/^4/", "/[0-9]{4}/", "/655/", "/^(0|3)$/", "7f3a", "0x7f3a2c001000", "/^0x/", "not (etc or comm=Xorg) and (path=*.txt or detail~count)",
};

static const char *const comms[] = { "sshd", "Xorg", "NetworkManager", "bash", "shadowd", "a\xff\x62" };
static const char *const dirs[] = { "/etc", "/ETC", "/usr/lib", "/home/alice/Shadow files", "/tmp/x\xff", "/etcetera" };
static const char *const files[] = { "shadow", "passwd", "libc.so.6", "libglib-2.0.so.0", "SHADOW.bak", "notes.txt" };
static const char *const details[] = { "", "O_RDONLY|O_CLOEXEC", "O_WRONLY|O_CREAT, 0644", "fd=3 count=4096" };
static const guint16 syscalls[] = { 257, 0, 316, 3, 87, 59, 9 };   /* openat read renameat2 close unlink execve mmap */
static const gint64 results[] = { -2, -13, -1, 0, 3, 4096, -9999, 0x7f3a2c001000 };
static const guint32 pids[] = { 1, 42, 1234, 65534 };

typedef struct {
  FmStrtab *table;
  FmCompactEvent events[CAPACITY];
  guint64 seqs[CAPACITY];
  gboolean held[CAPACITY];
  GRand *rand;
  guint fresh;               /* strings made so far that no event named before */
} Capture;

#define PICK(c, array) array[g_rand_int_range ((c)->rand, 0, G_N_ELEMENTS (array))]

/* Interns an event into slot @i: strings from the pools, which repeat, or, when @fresh,
 * a path no event named before. */
static void
make_event (Capture  *c,
            guint     i,
            gboolean  fresh)
{
  char path[256], path2[300];
  FmEvent e = { 0 };

  if (fresh)
    g_snprintf (path, sizeof path, "%s/new-%u/%s", PICK (c, dirs), c->fresh++, PICK (c, files));
  else
    g_snprintf (path, sizeof path, "%s/%s", PICK (c, dirs), PICK (c, files));
  e.syscall_nr = PICK (c, syscalls);
  path2[0] = '\0';
  if (e.syscall_nr == 316)
    g_snprintf (path2, sizeof path2, "%s.new", path);
  e.seq = i + 1;
  e.result = PICK (c, results);
  e.pid = e.tid = PICK (c, pids);
  e.uid = g_rand_boolean (c->rand) ? 0 : 1000;
  fm_event_set_strings (&e, PICK (c, comms), path, path2, PICK (c, details));
  g_assert_true (fm_compact_event_intern (&c->events[i], &e, c->table, NULL));
  c->seqs[i] = e.seq;
  c->held[i] = TRUE;
}

static void
release_event (Capture *c,
               guint    i)
{
  fm_compact_event_release (&c->events[i], c->table);
  c->held[i] = FALSE;
}

static void
capture_init (Capture *c)
{
  memset (c, 0, sizeof *c);
  c->table = fm_strtab_new ();
  c->rand = g_rand_new_with_seed (18);
  for (guint i = 0; i < N_EVENTS; i++)
    make_event (c, i, i % 5 == 0);
}

static void
capture_clear (Capture *c)
{
  for (guint i = 0; i < CAPACITY; i++)
    if (c->held[i])
      release_event (c, i);
  g_clear_pointer (&c->table, fm_strtab_unref);
  g_clear_pointer (&c->rand, g_rand_free);
}

/* Every held event through @memo and through fm_filter_match: the same verdicts. Returns
 * how many matched. */
static guint
assert_same_verdicts (Capture      *c,
                      FmFilter     *filter,
                      FmFilterMemo *memo,
                      const char   *name)
{
  guint matched = 0;

  for (guint i = 0; i < CAPACITY; i++)
    {
      FmEvent e;
      gboolean plain, memoized;

      if (!c->held[i])
        continue;
      fm_compact_event_view (&c->events[i], c->seqs[i], c->table, &e);
      plain = fm_filter_match (filter, &e);
      memoized = fm_filter_memo_match (memo, &e, &c->events[i]);
      if (plain != memoized)
        g_error ("%s: event %u (comm %s, path %s, path2 %s, detail %s): %d plain, %d memoized",
                 name, i, e.comm, e.path, e.path2, e.detail, plain, memoized);
      matched += plain;
    }
  return matched;
}

/* The filters of the list, and a few made from parts (path prefixes, a set of names). */
static GPtrArray *
all_filters (void)
{
  static const char *const below[] = { "/etc", NULL };
  static const char *const names[] = { "bash", "Xorg", NULL };
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) fm_filter_free);

  for (gsize i = 0; i < G_N_ELEMENTS (filters); i++)
    {
      g_autoptr(GError) error = NULL;
      FmFilter *filter = fm_filter_new (filters[i], &error);

      g_assert_no_error (error);
      g_ptr_array_add (all, filter);
    }
  g_ptr_array_add (all, fm_filter_new_below (below));
  g_ptr_array_add (all, fm_filter_new_and (fm_filter_new_below (below),
                                           fm_filter_new_any_text (FM_FIELD_COMM, names)));
  return all;
}

static const char *
filter_name (guint i)
{
  return i < G_N_ELEMENTS (filters) ? filters[i] : i == G_N_ELEMENTS (filters) ? "below /etc" :
         "below /etc and comm one of bash, Xorg";
}

/* One memo per filter over events whose strings repeat, read twice: first deciding, then
 * remembering. Every filter takes some events and leaves others, so both verdicts are
 * checked. */
static void
test_same_as_plain (void)
{
  Capture c;
  g_autoptr(GPtrArray) all = all_filters ();

  capture_init (&c);
  for (guint f = 0; f < all->len; f++)
    {
      g_autoptr(FmFilterMemo) memo = fm_filter_memo_new (all->pdata[f],
                                                         fm_strtab_get_id_bound (c.table));
      guint first, second;

      g_assert_nonnull (memo);
      first = assert_same_verdicts (&c, all->pdata[f], memo, filter_name (f));
      second = assert_same_verdicts (&c, all->pdata[f], memo, filter_name (f));
      g_assert_cmpuint (first, ==, second);
      if (first == 0 || first == N_EVENTS)
        g_error ("%s takes %u of %u events: the test events do not test it", filter_name (f),
                 first, N_EVENTS);
    }
  capture_clear (&c);
}

/* Strings interned after the memo was made (ids past its bound, as rows appended while a
 * refilter runs) are tested without it, and right. */
static void
test_strings_added_after (void)
{
  Capture c;
  g_autoptr(GPtrArray) all = all_filters ();
  g_autoptr(GPtrArray) memos = g_ptr_array_new_with_free_func ((GDestroyNotify) fm_filter_memo_free);
  guint32 bound;

  capture_init (&c);
  bound = fm_strtab_get_id_bound (c.table);
  for (guint f = 0; f < all->len; f++)
    {
      g_ptr_array_add (memos, fm_filter_memo_new (all->pdata[f], bound));
      assert_same_verdicts (&c, all->pdata[f], memos->pdata[f], filter_name (f));
    }
  for (guint i = N_EVENTS; i < CAPACITY; i++)
    make_event (&c, i, i % 2 == 0);
  g_assert_cmpuint (fm_strtab_get_id_bound (c.table), >, bound);
  for (guint f = 0; f < all->len; f++)
    assert_same_verdicts (&c, all->pdata[f], memos->pdata[f], filter_name (f));
  capture_clear (&c);
}

/* The oldest events go (a history depth), the strings only they named with them, and new
 * events take their ids for other strings: a memo made after that (one per refilter, as
 * the viewer makes them) is right for old and new. */
static void
test_ids_released_and_reused (void)
{
  Capture c;
  g_autoptr(GPtrArray) all = all_filters ();
  guint32 bound;
  guint reused = 0;

  capture_init (&c);
  bound = fm_strtab_get_id_bound (c.table);
  for (guint i = 0; i < N_EVENTS / 2; i++)
    release_event (&c, i);
  for (guint i = 0; i < N_EVENTS / 2; i++)
    {
      make_event (&c, i, TRUE);
      reused += c.events[i].path_id < bound;
    }
  /* the fresh paths took the ids of the paths that went */
  g_assert_cmpuint (reused, >, N_EVENTS / 20);
  for (guint f = 0; f < all->len; f++)
    {
      g_autoptr(FmFilterMemo) memo = fm_filter_memo_new (all->pdata[f],
                                                         fm_strtab_get_id_bound (c.table));

      assert_same_verdicts (&c, all->pdata[f], memo, filter_name (f));
    }
  capture_clear (&c);
}

/* A filter of numbers alone has nothing to remember. */
static void
test_numbers_only_need_no_memo (void)
{
  g_autoptr(FmFilter) numbers = fm_filter_new ("result<0 and pid=42 and not errno=ENOENT", NULL);
  g_autoptr(FmFilter) word = fm_filter_new ("result<0 and shadow", NULL);
  g_autoptr(FmFilterMemo) none = fm_filter_memo_new (numbers, 100);
  g_autoptr(FmFilterMemo) memo = fm_filter_memo_new (word, 100);

  g_assert_null (none);
  g_assert_nonnull (memo);
  /* a byte per id for the word, beside the syscall names' table */
  g_assert_cmpuint (fm_filter_memo_get_size (memo), >=, 100);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/filter/memo/same-verdicts-as-each-row", test_same_as_plain);
  g_test_add_func ("/filter/memo/strings-added-after-are-tested-plainly", test_strings_added_after);
  g_test_add_func ("/filter/memo/ids-released-and-reused-by-new-strings", test_ids_released_and_reused);
  g_test_add_func ("/filter/memo/numbers-only-need-no-memo", test_numbers_only_need_no_memo);
  return g_test_run ();
}
