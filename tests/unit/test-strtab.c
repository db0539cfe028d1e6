/* test-strtab.c: the interned string table and the compact event made with it. */
#include <string.h>

#include "fm-compact-event.h"
#include "fm-stream.h"
#include "fm-strtab.h"

static void
assert_string (FmStrtab   *table,
               guint32     id,
               const char *want,
               gsize       want_len)
{
  guint16 len;
  const char *got = fm_strtab_get (table, id, &len);

  g_assert_cmpmem (got, len, want, want_len);
  g_assert_cmpint (got[len], ==, '\0');
}

static void
test_empty_is_id_zero (void)
{
  g_autoptr(FmStrtab) table = fm_strtab_new ();
  gsize empty_memory = fm_strtab_get_memory (table);
  guint32 id = 99;

  g_assert_true (fm_strtab_intern (table, "", 0, &id));
  g_assert_cmpuint (id, ==, FM_STRTAB_EMPTY);
  assert_string (table, id, "", 0);
  fm_strtab_release (table, id);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 0);
  g_assert_cmpuint (fm_strtab_get_memory (table), ==, empty_memory);
}

static void
test_refcount_to_zero (void)
{
  g_autoptr(FmStrtab) table = fm_strtab_new ();
  gsize empty_memory = fm_strtab_get_memory (table);
  gsize held_memory;
  guint32 a, b, c;

  g_assert_true (fm_strtab_intern (table, "/etc/passwd", 11, &a));
  g_assert_true (fm_strtab_intern (table, "/etc/passwdXX", 11, &b));
  g_assert_true (fm_strtab_intern (table, "/etc/shadow", 11, &c));
  g_assert_cmpuint (a, ==, b);
  g_assert_cmpuint (a, !=, c);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 2);
  held_memory = fm_strtab_get_memory (table);
  g_assert_cmpuint (held_memory, >, empty_memory);

  fm_strtab_release (table, a);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 2);
  assert_string (table, b, "/etc/passwd", 11);
  fm_strtab_release (table, b);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 1);
  assert_string (table, c, "/etc/shadow", 11);
  fm_strtab_release (table, c);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 0);
  /* the entries are gone; the id page they had stays, and the free list of ids */
  g_assert_cmpuint (fm_strtab_get_memory (table), <, held_memory);
  g_assert_cmpuint (fm_strtab_get_memory (table), <=,
                    empty_memory + FM_STRTAB_PAGE_IDS * sizeof (gpointer) + 64);
}

static void
test_released_ids_are_reused (void)
{
  g_autoptr(FmStrtab) table = fm_strtab_new ();
  guint32 a, b, again;

  g_assert_true (fm_strtab_intern (table, "one", 3, &a));
  g_assert_true (fm_strtab_intern (table, "two", 3, &b));
  fm_strtab_release (table, a);
  g_assert_true (fm_strtab_intern (table, "three", 5, &again));
  g_assert_cmpuint (again, ==, a);
  assert_string (table, again, "three", 5);
  assert_string (table, b, "two", 3);
  /* the old content is gone from the index: it gets an id of its own */
  g_assert_true (fm_strtab_intern (table, "one", 3, &a));
  g_assert_cmpuint (a, !=, again);
  g_assert_cmpuint (a, !=, b);
}

static void
assert_joined (FmStrtab   *table,
               guint32     id,
               guint32     want_parent,
               const char *want_tail)
{
  guint32 parent;
  guint16 len;
  const char *tail;

  g_assert_true (fm_strtab_is_joined (table, id));
  tail = fm_strtab_get_piece (table, id, &parent, &len);
  g_assert_cmpuint (parent, ==, want_parent);
  g_assert_cmpmem (tail, len, want_tail, strlen (want_tail));
  g_assert_cmpint (tail[len], ==, '\0');
}

/* A joined string is found again by its parent and tail, is never a plain string of the
 * same bytes, holds its parent while it lives, and takes it along when it goes. */
static void
test_joined_strings (void)
{
  g_autoptr(FmStrtab) table = fm_strtab_new ();
  g_autofree char *long_tail = g_strnfill (FM_STRTAB_MAX_LEN, 'x');
  guint32 ids[5], dir, other_dir, a, b, c, plain, again, refused = 99;
  char raw[4 + 7];
  gsize released_memory;

  /* five ids used and released: what the table takes once the five below are gone */
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_assert_true (fm_strtab_intern (table, long_tail, i + 1, &ids[i]));
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    fm_strtab_release (table, ids[i]);
  released_memory = fm_strtab_get_memory (table);

  g_assert_true (fm_strtab_intern (table, "/etc", 4, &dir));
  g_assert_true (fm_strtab_intern (table, "/usr", 4, &other_dir));
  g_assert_false (fm_strtab_is_joined (table, dir));
  g_assert_false (fm_strtab_is_joined (table, FM_STRTAB_EMPTY));
  g_assert_true (fm_strtab_intern_joined (table, dir, "/passwd", 7, &a));
  g_assert_true (fm_strtab_intern_joined (table, dir, "/passwd", 7, &b));
  g_assert_true (fm_strtab_intern_joined (table, other_dir, "/passwd", 7, &c));
  g_assert_cmpuint (a, ==, b);
  g_assert_cmpuint (a, !=, c);
  assert_joined (table, a, dir, "/passwd");
  assert_joined (table, c, other_dir, "/passwd");
  /* the bytes a joined entry keeps, interned as a plain string, are another string */
  memcpy (raw, &dir, 4);
  memcpy (raw + 4, "/passwd", 7);
  g_assert_true (fm_strtab_intern (table, raw, sizeof raw, &plain));
  g_assert_cmpuint (plain, !=, a);
  g_assert_false (fm_strtab_is_joined (table, plain));
  fm_strtab_release (table, plain);
  /* too long with its parent: refused, nothing taken */
  g_assert_false (fm_strtab_intern_joined (table, dir, long_tail, FM_STRTAB_MAX_LEN - 3, &refused));
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 4);
  /* a hint of another parent, or another tail, is only a hint */
  g_assert_true (fm_strtab_intern_joined_like (table, dir, "/passwd", 7, c, &again));
  g_assert_cmpuint (again, ==, a);
  fm_strtab_release (table, again);
  g_assert_true (fm_strtab_intern_joined_like (table, dir, "/group", 6, a, &again));
  assert_joined (table, again, dir, "/group");
  fm_strtab_release (table, again);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 4);

  /* the joined strings hold their parents: the caller's references can go first */
  fm_strtab_release (table, dir);
  fm_strtab_release (table, other_dir);
  assert_string (table, dir, "/etc", 4);
  g_assert_true (fm_strtab_intern_joined_like (table, other_dir, "/passwd", 7, c, &again));
  g_assert_cmpuint (again, ==, c);
  fm_strtab_release (table, c);
  assert_joined (table, c, other_dir, "/passwd");
  fm_strtab_release (table, c);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 2);
  fm_strtab_release (table, a);
  assert_joined (table, b, dir, "/passwd");
  fm_strtab_release (table, b);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 0);
  g_assert_cmpuint (fm_strtab_get_memory (table), ==, released_memory);
}

static gsize
path_of (guint i, char buf[64])
{
  return g_snprintf (buf, 64, "/usr/share/doc/%u/changelog.gz", i);
}

/* Enough strings to grow the index many times and to fill several id pages; half are
 * released in an order unrelated to the hashes, so deletions shift entries back across
 * runs of the index; every string still held must then be found by content, at its id. */
static void
test_many_distinct_strings (void)
{
  const guint n = 300000;
  g_autoptr(FmStrtab) table = fm_strtab_new ();
  g_autofree guint32 *ids = g_new (guint32, n);
  g_autofree gboolean *released = g_new0 (gboolean, n);
  char buf[64];

  for (guint i = 0; i < n; i++)
    g_assert_true (fm_strtab_intern (table, buf, path_of (i, buf), &ids[i]));
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, n);

  /* 7919 is prime to n: i -> i * 7919 % n visits each index once */
  for (guint i = 0; i < n / 2; i++)
    {
      guint k = (guint) (((guint64) i * 7919u) % n);

      fm_strtab_release (table, ids[k]);
      released[k] = TRUE;
    }
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, n - n / 2);

  for (guint i = 0; i < n; i++)
    {
      gsize len = path_of (i, buf);
      guint32 id;

      g_assert_true (fm_strtab_intern (table, buf, len, &id));
      if (!released[i])
        {
          g_assert_cmpuint (id, ==, ids[i]);
          assert_string (table, id, buf, len);
        }
    }
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, n);
}

/* Strings at the fields' limits, and over them: the compact event clamps them as the
 * stream's encoder does, and its record is the encoder's, byte for byte. */
static void
test_compact_event_at_the_limits (void)
{
  g_autoptr(FmStrtab) table = fm_strtab_new ();
  g_autofree char *path = g_malloc (FM_PATH_MAX + 11);
  g_autofree char *detail = g_malloc (FM_DETAIL_MAX + 11);
  FmEvent event = { 0 };
  FmEvent view;
  FmCompactEvent compact;
  g_autofree guint8 *want = g_malloc (FM_RECORD_MAX_SIZE);
  g_autofree guint8 *got = g_malloc (FM_RECORD_MAX_SIZE);
  gsize want_len, got_len;

  memset (path, 'p', FM_PATH_MAX + 10);
  path[0] = '/';
  path[FM_PATH_MAX + 10] = '\0';
  memset (detail, 'd', FM_DETAIL_MAX + 10);
  detail[FM_DETAIL_MAX + 10] = '\0';

  for (guint over = 0; over <= 10; over += 10)
    {
      event.seq = 7;
      event.time_ns = G_MAXUINT64;
      event.duration_ns = 12345;
      event.pid = G_MAXUINT32;
      event.result = G_MININT64;
      event.syscall_nr = 316;
      event.comm = "0123456789abcdefXYZ";
      event.comm_len = FM_COMM_MAX - 1 + over;
      event.path = path;
      event.path_len = FM_PATH_MAX + over;
      event.path2 = path;
      event.path2_len = FM_PATH_MAX;
      event.detail = detail;
      event.detail_len = FM_DETAIL_MAX + over;

      g_assert_true (fm_compact_event_intern (&compact, &event, table, NULL));
      /* path and path2 are one string */
      g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 3);
      fm_compact_event_view (&compact, event.seq, table, &view);
      g_assert_cmpuint (view.comm_len, ==, FM_COMM_MAX - 1);
      g_assert_cmpuint (view.path_len, ==, FM_PATH_MAX);
      g_assert_cmpuint (view.detail_len, ==, FM_DETAIL_MAX);

      want_len = fm_record_encode_event (&event, want);
      got_len = fm_record_encode_event (&view, got);
      g_assert_cmpmem (got, got_len, want, want_len);

      fm_compact_event_release (&compact, table);
      g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 0);
    }
}

/* A hint that matches gives its ids (one more reference each); one that does not changes
 * nothing but the cost. */
static void
test_compact_event_like_the_one_before (void)
{
  g_autoptr(FmStrtab) table = fm_strtab_new ();
  FmEvent event = { .pid = 1 };
  FmCompactEvent first, same, other;

  fm_event_set_strings (&event, "make", "/usr/include/stdio.h", NULL, "O_RDONLY");
  g_assert_true (fm_compact_event_intern (&first, &event, table, NULL));
  g_assert_true (fm_compact_event_intern (&same, &event, table, &first));
  g_assert_cmpuint (same.comm_id, ==, first.comm_id);
  g_assert_cmpuint (same.path_id, ==, first.path_id);
  g_assert_cmpuint (same.detail_id, ==, first.detail_id);
  fm_event_set_strings (&event, "cc1", "/usr/include/stdio.h", NULL, "O_RDONLY");
  g_assert_true (fm_compact_event_intern (&other, &event, table, &first));
  g_assert_cmpuint (other.comm_id, !=, first.comm_id);
  g_assert_cmpuint (other.path_id, ==, first.path_id);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 4);

  fm_compact_event_release (&first, table);
  fm_compact_event_release (&same, table);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 3);
  fm_compact_event_release (&other, table);
  g_assert_cmpuint (fm_strtab_get_n_strings (table), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/strtab/empty-string-is-id-zero", test_empty_is_id_zero);
  g_test_add_func ("/strtab/refcount/string-goes-with-the-last-reference", test_refcount_to_zero);
  g_test_add_func ("/strtab/ids/released-ids-are-reused", test_released_ids_are_reused);
  g_test_add_func ("/strtab/joined/parent-and-tail", test_joined_strings);
  g_test_add_func ("/strtab/index/many-distinct-strings", test_many_distinct_strings);
  g_test_add_func ("/strtab/compact-event/limits-clamped-as-the-encoder-does", test_compact_event_at_the_limits);
  g_test_add_func ("/strtab/compact-event/like-the-one-before", test_compact_event_like_the_one_before);

  return g_test_run ();
}
