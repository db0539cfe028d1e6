/* test-codec.c: the GVariant form of events carried by the Events signal: every field and
 * every byte survives the round trip, a syscall the table does not know travels as
 * "syscall_N", and a malformed element is refused with FM_ERROR_PARSE, never half-read. */
#include <string.h>

#include "fm-codec.h"
#include "fm-error.h"
#include "fm-syscalls.h"

static FmEvent
sample_event (void)
{
  FmEvent e = { .seq = 12, .time_ns = G_GUINT64_CONSTANT (1764851696789012345),
                .duration_ns = 1500, .pid = 812, .ppid = 1, .tid = 813, .uid = 1000,
                .result = -13 };

  e.syscall_nr = fm_syscall_by_name ("openat")->nr;
  fm_event_set_strings (&e, "sshd", "/etc/shadow", "", "O_RDONLY|O_CLOEXEC");
  return e;
}

static void
assert_round_trip (const FmEvent *e)
{
  g_autoptr(GVariant) v = g_variant_ref_sink (fm_event_to_variant (e));
  g_autoptr(GVariant) wire = NULL;
  g_autoptr(GError) error = NULL;
  FmEvent back;

  g_assert_true (g_variant_is_of_type (v, FM_EVENT_VARIANT_TYPE));
  g_assert_true (fm_event_from_variant (v, &back, &error));
  g_assert_no_error (error);
  g_assert_true (fm_event_equal (e, &back));
  g_assert_cmpint (back.comm[back.comm_len], ==, '\0');
  g_assert_cmpint (back.path[back.path_len], ==, '\0');
  g_assert_cmpint (back.path2[back.path2_len], ==, '\0');
  g_assert_cmpint (back.detail[back.detail_len], ==, '\0');

  /* as a receiver sees it: serialised, then read back from untrusted bytes */
  {
    g_autoptr(GBytes) bytes = g_variant_get_data_as_bytes (v);

    wire = g_variant_ref_sink (g_variant_new_from_bytes (FM_EVENT_VARIANT_TYPE, bytes, FALSE));
  }
  g_clear_error (&error);
  g_assert_true (fm_event_from_variant (wire, &back, &error));
  g_assert_no_error (error);
  g_assert_true (fm_event_equal (e, &back));
}

static void
test_round_trip (void)
{
  FmEvent e = sample_event ();

  assert_round_trip (&e);
  fm_event_set_strings (&e, NULL, NULL, NULL, NULL);
  assert_round_trip (&e);
  e.seq = e.time_ns = e.duration_ns = G_MAXUINT64;
  e.pid = e.ppid = e.tid = e.uid = G_MAXUINT32;
  e.result = G_MININT64;
  assert_round_trip (&e);
  e.result = G_MAXINT64;
  fm_event_set_strings (&e, "mv", "/a", "/b", "RENAME_NOREPLACE \"q\"\t\xc3\xa9");
  assert_round_trip (&e);
}

static void
test_round_trip_non_utf8 (void)
{
  FmEvent e = sample_event ();
  char every[256];

  fm_event_set_strings (&e, "\xff\xfe" "c\x80", "/tmp/caf\xe9/\xc0\xaf", "\xed\xa0\x80\x01\x1b",
                        "O_RDONLY");
  assert_round_trip (&e);

  for (int i = 1; i <= 0xff; i++)
    every[i - 1] = (char) i;
  every[255] = '\0';
  fm_event_set_strings (&e, every + 240, every, every + 100, "x");
  assert_round_trip (&e);
}

static void
test_round_trip_clamped_views (void)
{
  g_autofree char *path = g_malloc (FM_PATH_MAX + 10);
  FmEvent e = sample_event ();

  /* views cut at the limits do not end with a NUL where their length ends: the codec
   * must copy exactly the length, never read on to the NUL */
  memset (path, 'p', FM_PATH_MAX + 9);
  path[0] = '/';
  path[FM_PATH_MAX + 9] = '\0';
  fm_event_set_strings (&e, "0123456789abcdefghij", path, path, NULL);
  g_assert_cmpuint (e.path_len, ==, FM_PATH_MAX);
  g_assert_cmpuint (e.comm_len, ==, FM_COMM_MAX - 1);
  assert_round_trip (&e);
}

/* The index of @id's child in an event's tuple: the stored fields before it. */
static gsize
child_of (FmFieldId id)
{
  gsize n = 0;

  for (guint i = 0; i < id; i++)
    n += fm_field_is_stored (&fm_event_fields[i]);
  return n;
}

static void
test_unknown_syscall_number (void)
{
  g_autoptr(GVariant) v = NULL;
  g_autoptr(GError) error = NULL;
  const char *name = NULL;
  FmEvent e = sample_event ();
  FmEvent back;

  g_assert_null (fm_syscall_by_nr (999));
  e.syscall_nr = 999;
  v = g_variant_ref_sink (fm_event_to_variant (&e));
  g_variant_get_child (v, child_of (FM_FIELD_SYSCALL), "&s", &name);
  g_assert_cmpstr (name, ==, "syscall_999");
  g_assert_true (fm_event_from_variant (v, &back, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (back.syscall_nr, ==, 999);
  g_assert_true (fm_event_equal (&e, &back));

  /* every syscall of the table travels by its name */
  {
    guint n = 0;
    const FmSyscall *all = fm_syscalls_all (&n);

    for (guint i = 0; i < n; i++)
      {
        g_autoptr(GVariant) one = NULL;

        e.syscall_nr = all[i].nr;
        one = g_variant_ref_sink (fm_event_to_variant (&e));
        g_variant_get_child (one, child_of (FM_FIELD_SYSCALL), "&s", &name);
        g_assert_cmpstr (name, ==, all[i].name);
        assert_round_trip (&e);
      }
  }
}

static void
test_batch (void)
{
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (FM_BATCH_VARIANT_TYPE);
  g_autoptr(GVariant) batch = NULL;
  GVariantIter iter;
  GVariant *child;
  guint i = 0;

  for (guint k = 0; k < 100; k++)
    {
      FmEvent e = sample_event ();

      e.seq = k;
      g_variant_builder_add_value (&builder, fm_event_to_variant (&e));
    }
  batch = g_variant_ref_sink (g_variant_builder_end (&builder));
  g_assert_true (g_variant_is_of_type (batch, FM_BATCH_VARIANT_TYPE));
  g_variant_iter_init (&iter, batch);
  while ((child = g_variant_iter_next_value (&iter)) != NULL)
    {
      g_autoptr(GVariant) owned = child;
      g_autoptr(GError) error = NULL;
      FmEvent back;

      g_assert_true (fm_event_from_variant (owned, &back, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (back.seq, ==, i);
      i++;
    }
  g_assert_cmpuint (i, ==, 100);
}

/* Events that repeat some fields of the one before and change others, with truncated
 * views (no NUL at their length) and views holding a NUL among them: the batch builder
 * shares children between events, also across batches, and each element must still be
 * exactly what fm_event_to_variant makes of its event. */
static void
test_batch_builder_same_as_one_by_one (void)
{
  static const char truncated[] = "/etc/passwdXYZ";
  static const char nul_inside[] = "/etc\0passwd";
  static const char nul_inside_truncated[] = "/etc\0\0X";
  static const char nul_inside_ended[] = "/etc\0\0";
  g_autoptr(FmBatchBuilder) builder = fm_batch_builder_new ();
  FmEvent events[12];
  guint n = 0;

  events[n++] = sample_event ();
  events[n] = events[n - 1];                      /* all but seq and time repeated */
  events[n].time_ns++;
  n++;
  events[n] = events[n - 1];                      /* another process, file and result */
  events[n].pid = events[n].tid = 4242;
  events[n].result = 3;
  events[n].path = "/etc/shadow";
  events[n].path_len = 11;
  n++;
  events[n] = events[n - 1];                      /* /etc/passwd as a truncated view */
  events[n].path = truncated;
  events[n].path_len = 11;
  n++;
  events[n] = sample_event ();                    /* and as a C string: the same child */
  n++;
  events[n] = events[n - 1];                      /* a NUL inside, the view ending with one */
  events[n].path = nul_inside;
  events[n].path_len = sizeof nul_inside - 1;
  n++;
  events[n] = events[n - 1];
  n++;
  events[n] = events[n - 1];                      /* what that child holds, as a C string */
  events[n].path = "/etc";
  events[n].path_len = 4;
  n++;
  events[n] = events[n - 1];                      /* a NUL inside a truncated view */
  events[n].path = nul_inside_truncated;
  events[n].path_len = 6;
  n++;
  events[n] = events[n - 1];                      /* the same bytes, ending with a NUL */
  events[n].path = nul_inside_ended;
  n++;
  events[n] = events[n - 1];                      /* comm, syscall, detail, path2 change */
  events[n].syscall_nr = 999;
  fm_event_set_strings (&events[n], "bash", "/tmp/a", "/tmp/b", "O_WRONLY|O_CREAT, 0644");
  n++;
  events[n] = events[n - 1];
  events[n].uid = 0;
  events[n].comm_len = 2;                         /* "ba", truncated */
  n++;
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (events));

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(GVariant) batch = NULL;

      for (guint k = 0; k < n; k++)
        {
          events[k].seq = round * n + k;
          fm_batch_builder_add (builder, &events[k]);
        }
      batch = g_variant_ref_sink (fm_batch_builder_end (builder));
      g_assert_true (g_variant_is_of_type (batch, FM_BATCH_VARIANT_TYPE));
      g_assert_cmpuint (g_variant_n_children (batch), ==, n);
      for (guint k = 0; k < n; k++)
        {
          g_autoptr(GVariant) got = g_variant_get_child_value (batch, k);
          g_autoptr(GVariant) want = g_variant_ref_sink (fm_event_to_variant (&events[k]));

          if (!g_variant_equal (got, want))
            {
              g_autofree char *got_text = g_variant_print (got, FALSE);
              g_autofree char *want_text = g_variant_print (want, FALSE);

              g_error ("element %u: got %s, want %s", k, got_text, want_text);
            }
        }
    }
  /* an empty batch is an empty array */
  {
    g_autoptr(GVariant) empty = g_variant_ref_sink (fm_batch_builder_end (builder));

    g_assert_true (g_variant_is_of_type (empty, FM_BATCH_VARIANT_TYPE));
    g_assert_cmpuint (g_variant_n_children (empty), ==, 0);
  }
}

/* What the builder is for: a value the previous event had is that event's child, not a
 * copy, while what changed is new. */
static void
test_batch_builder_shares_repeated_children (void)
{
  g_autoptr(FmBatchBuilder) builder = fm_batch_builder_new ();
  g_autoptr(GVariant) batch = NULL;
  g_autoptr(GVariant) first = NULL;
  g_autoptr(GVariant) second = NULL;
  FmEvent e = sample_event ();

  fm_batch_builder_add (builder, &e);
  e.seq++;
  fm_batch_builder_add (builder, &e);
  batch = g_variant_ref_sink (fm_batch_builder_end (builder));
  first = g_variant_get_child_value (batch, 0);
  second = g_variant_get_child_value (batch, 1);
  for (guint i = 0; i < g_variant_n_children (first); i++)
    {
      g_autoptr(GVariant) a = g_variant_get_child_value (first, i);
      g_autoptr(GVariant) b = g_variant_get_child_value (second, i);

      if (i == 0)
        g_assert_true (a != b);   /* seq */
      else
        g_assert_true (a == b);
    }
}

/* ---- malformed elements ----------------------------------------------------------- */

static GVariant *
bytes_child (const char *data, gsize len)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data, len, 1);
}

/* An element built by hand: comm, path and path2 are given with their exact bytes (so a
 * missing or extra NUL can be expressed). */
typedef struct {
  const char *comm;
  gsize comm_len;
  const char *syscall;
  const char *path;
  gsize path_len;
  const char *path2;
  gsize path2_len;
  const char *detail;
} Parts;

static GVariant *
element (const Parts *p)
{
  GVariant *children[13] = {
    g_variant_new_uint64 (1), g_variant_new_uint64 (2), g_variant_new_uint64 (3),
    g_variant_new_uint32 (4), g_variant_new_uint32 (5), g_variant_new_uint32 (6),
    g_variant_new_uint32 (7),
    bytes_child (p->comm, p->comm_len),
    g_variant_new_string (p->syscall),
    g_variant_new_int64 (-2),
    bytes_child (p->path, p->path_len),
    bytes_child (p->path2, p->path2_len),
    g_variant_new_string (p->detail),
  };

  return g_variant_ref_sink (g_variant_new_tuple (children, G_N_ELEMENTS (children)));
}

static const Parts good = { "cat", 4, "openat", "/etc/passwd", 12, "", 1, "O_RDONLY" };

static void
assert_refused (GVariant *v, const char *says)
{
  g_autoptr(GError) error = NULL;
  FmEvent e;

  g_assert_false (fm_event_from_variant (v, &e, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  if (strstr (error->message, says) == NULL)
    g_error ("wanted “%s” in: %s", says, error->message);
}

static void
test_hand_built_good_element (void)
{
  g_autoptr(GVariant) v = element (&good);
  g_autoptr(GVariant) empty_ay = NULL;
  g_autoptr(GError) error = NULL;
  Parts p = good;
  FmEvent e;

  g_assert_true (fm_event_from_variant (v, &e, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (e.comm, e.comm_len, "cat", 3);
  g_assert_cmpmem (e.path, e.path_len, "/etc/passwd", 11);
  g_assert_cmpuint (e.path2_len, ==, 0);
  g_assert_cmpint (e.result, ==, -2);
  g_assert_cmpuint (e.syscall_nr, ==, fm_syscall_by_name ("openat")->nr);

  /* an empty "ay" (no NUL at all) is an empty string, as GLib's bytestring reader says */
  p.path2 = "";
  p.path2_len = 0;
  empty_ay = element (&p);
  g_assert_true (fm_event_from_variant (empty_ay, &e, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (e.path2_len, ==, 0);
}

static void
test_malformed_refused (void)
{
  g_autofree char *long_path = g_malloc (FM_PATH_MAX + 2);
  g_autofree char *long_detail = g_malloc (FM_DETAIL_MAX + 2);

  memset (long_path, 'p', FM_PATH_MAX + 1);
  long_path[FM_PATH_MAX + 1] = '\0';
  memset (long_detail, 'd', FM_DETAIL_MAX + 1);
  long_detail[FM_DETAIL_MAX + 1] = '\0';

  /* wrong types */
  {
    g_autoptr(GVariant) v = g_variant_ref_sink (g_variant_new ("(s)", "openat"));

    assert_refused (v, "not of type");
  }
  {
    /* path as "s" instead of "ay": the type before the D-Bus API used bytestrings */
    g_autoptr(GVariant) v = g_variant_ref_sink (
      g_variant_new ("(tttuuuu^aysxs^ays)", (guint64) 1, (guint64) 2, (guint64) 3,
                     (guint32) 4, (guint32) 5, (guint32) 6, (guint32) 7, "c", "openat",
                     (gint64) 0, "/p", "/q", "O_RDONLY"));

    assert_refused (v, "not of type");
  }
  {
    g_autoptr(GVariant) v = g_variant_ref_sink (g_variant_new_string ("x"));

    assert_refused (v, "not of type");
  }

  {
    static const struct {
      const char *name;
      Parts parts;
      const char *says;
    } cases[] = {
      { "comm without its NUL", { "cat", 3, "openat", "/p", 3, "", 1, "" }, "bad comm" },
      { "path without its NUL", { "cat", 4, "openat", "/p", 2, "", 1, "" }, "bad path" },
      { "path2 without its NUL", { "cat", 4, "openat", "/p", 3, "/q", 2, "" }, "bad path2" },
      { "path with a NUL inside", { "cat", 4, "openat", "/p\0q", 5, "", 1, "" }, "bad path" },
      { "comm of 16 bytes", { "0123456789abcdef", 17, "openat", "/p", 3, "", 1, "" }, "bad comm" },
      { "unknown syscall name", { "cat", 4, "nosuchcall", "/p", 3, "", 1, "" }, "unknown syscall" },
      { "empty syscall name", { "cat", 4, "", "/p", 3, "", 1, "" }, "unknown syscall" },
      { "syscall_ without a number", { "cat", 4, "syscall_", "/p", 3, "", 1, "" }, "unknown syscall" },
      { "syscall_ with letters", { "cat", 4, "syscall_12a", "/p", 3, "", 1, "" }, "unknown syscall" },
      { "syscall_ with a sign", { "cat", 4, "syscall_-1", "/p", 3, "", 1, "" }, "unknown syscall" },
      { "syscall_ above 16 bits", { "cat", 4, "syscall_65536", "/p", 3, "", 1, "" }, "unknown syscall" },
      { "syscall name in capitals", { "cat", 4, "OPENAT", "/p", 3, "", 1, "" }, "unknown syscall" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autoptr(GVariant) v = element (&cases[i].parts);

        g_test_message ("%s", cases[i].name);
        assert_refused (v, cases[i].says);
      }
  }
  {
    Parts p = good;
    g_autoptr(GVariant) v = NULL;

    p.path = long_path;
    p.path_len = FM_PATH_MAX + 2;   /* 4097 bytes and the NUL */
    v = element (&p);
    assert_refused (v, "bad path");
  }
  {
    Parts p = good;
    g_autoptr(GVariant) v = NULL;

    p.path2 = long_path;
    p.path2_len = FM_PATH_MAX + 2;
    v = element (&p);
    assert_refused (v, "bad path2");
  }
  {
    Parts p = good;
    g_autoptr(GVariant) v = NULL;

    p.detail = long_detail;
    v = element (&p);
    assert_refused (v, "detail too long");
  }
  {
    /* the limits themselves are fine */
    Parts p = good;
    g_autoptr(GVariant) v = NULL;
    g_autoptr(GError) error = NULL;
    FmEvent e;

    long_path[FM_PATH_MAX] = '\0';
    long_detail[FM_DETAIL_MAX] = '\0';
    p.path = long_path;
    p.path_len = FM_PATH_MAX + 1;
    p.detail = long_detail;
    v = element (&p);
    g_assert_true (fm_event_from_variant (v, &e, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (e.path_len, ==, FM_PATH_MAX);
    g_assert_cmpuint (e.detail_len, ==, FM_DETAIL_MAX);
  }
}

/* Random bytes read as an element (as GLib reads a message it does not trust): decoded
 * or refused, never a crash, and a decoded view is always within its limits. */
static void
test_random_bytes (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);
  FmEvent sample = sample_event ();
  g_autoptr(GVariant) model = g_variant_ref_sink (fm_event_to_variant (&sample));
  gsize model_size = g_variant_get_size (model);
  g_autofree guint8 *buf = g_malloc (model_size + 64);

  for (guint round = 0; round < 20000; round++)
    {
      g_autoptr(GVariant) v = NULL;
      g_autoptr(GError) error = NULL;
      gsize len = (gsize) g_rand_int_range (rand, 0, (gint32) model_size + 64);
      FmEvent e;

      /* half the time a mutated good element, which gets past GVariant's framing */
      if (round % 2 == 0 && len <= model_size)
        {
          memcpy (buf, g_variant_get_data (model), model_size);
          len = model_size;
          for (int k = 0; k < 4; k++)
            buf[g_rand_int_range (rand, 0, (gint32) len)] = (guint8) g_rand_int (rand);
        }
      else
        for (gsize k = 0; k < len; k++)
          buf[k] = (guint8) g_rand_int (rand);
      v = g_variant_ref_sink (g_variant_new_from_data (FM_EVENT_VARIANT_TYPE, buf, len, FALSE,
                                                       NULL, NULL));
      if (fm_event_from_variant (v, &e, &error))
        {
          g_assert_no_error (error);
          g_assert_cmpuint (e.comm_len, <, FM_COMM_MAX);
          g_assert_cmpuint (e.path_len, <=, FM_PATH_MAX);
          g_assert_cmpuint (e.path2_len, <=, FM_PATH_MAX);
          g_assert_cmpuint (e.detail_len, <=, FM_DETAIL_MAX);
          g_assert_cmpint (e.comm[e.comm_len], ==, '\0');
          g_assert_cmpint (e.path[e.path_len], ==, '\0');
          g_assert_cmpint (e.path2[e.path2_len], ==, '\0');
          g_assert_null (memchr (e.path, '\0', e.path_len));
          g_assert_true (g_utf8_validate (e.detail, e.detail_len, NULL));
        }
      else
        g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/codec/round-trip/every-field", test_round_trip);
  g_test_add_func ("/codec/round-trip/non-utf8-bytes-in-comm-path-path2", test_round_trip_non_utf8);
  g_test_add_func ("/codec/round-trip/views-clamped-at-the-limits", test_round_trip_clamped_views);
  g_test_add_func ("/codec/syscall/unknown-number-travels-as-syscall-N", test_unknown_syscall_number);
  g_test_add_func ("/codec/batch/elements-in-order", test_batch);
  g_test_add_func ("/codec/batch-builder/same-as-one-by-one", test_batch_builder_same_as_one_by_one);
  g_test_add_func ("/codec/batch-builder/shares-repeated-children", test_batch_builder_shares_repeated_children);
  g_test_add_func ("/codec/malformed/hand-built-good-element-is-read", test_hand_built_good_element);
  g_test_add_func ("/codec/malformed/is-refused", test_malformed_refused);
  g_test_add_func ("/codec/malformed/random-bytes-never-crash", test_random_bytes);

  return g_test_run ();
}
