/* test-ring.c: the daemon's ring buffer: sequence numbers, both capacities (the string
 * table counted in the bytes), overwrite counting, lookups, the stream records it encodes
 * (byte for byte the encoder's of the events appended), snapshots and the strings they
 * keep. */
#include <string.h>

#include "filemond-ring.h"
#include "fm-stream.h"
#include "test-daemon-util.h"

static guint64
append_n (FmdRing *ring,
          guint    from,
          guint    n)
{
  char path[128];
  guint64 seq = 0;

  for (guint i = from; i < from + n; i++)
    {
      FmEvent event = test_event (i, path);
      seq = fmd_ring_append (ring, &event);
    }
  return seq;
}

/* The record of @seq decodes to event number seq - 1 (events are numbered from 0). */
static void
assert_record (FmdRing *ring,
               guint64  seq)
{
  FmEvent got;
  FmEvent want;
  char path[128];

  g_assert_true (fmd_ring_lookup (ring, seq, &got));
  want = test_event (seq - 1, path);
  want.seq = seq;
  g_assert_true (fm_event_equal (&got, &want));
}

static void
test_append_numbers_from_one (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100, 1024 * 1024);

  g_assert_cmpuint (fmd_ring_get_first_seq (ring), ==, 1);
  g_assert_cmpuint (fmd_ring_get_next_seq (ring), ==, 1);
  g_assert_cmpuint (fmd_ring_get_n_events (ring), ==, 0);

  g_assert_cmpuint (append_n (ring, 0, 1), ==, 1);
  g_assert_cmpuint (append_n (ring, 1, 9), ==, 10);
  g_assert_cmpuint (fmd_ring_get_n_events (ring), ==, 10);
  g_assert_cmpuint (fmd_ring_get_overwritten (ring), ==, 0);
  for (guint64 seq = 1; seq <= 10; seq++)
    assert_record (ring, seq);
}

static void
test_event_capacity_overwrites_oldest (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (1000, 64 * 1024 * 1024);

  append_n (ring, 0, 2500);

  g_assert_cmpuint (fmd_ring_get_n_events (ring), ==, 1000);
  g_assert_cmpuint (fmd_ring_get_overwritten (ring), ==, 1500);
  g_assert_cmpuint (fmd_ring_get_first_seq (ring), ==, 1501);
  g_assert_cmpuint (fmd_ring_get_next_seq (ring), ==, 2501);
  for (guint64 seq = 1501; seq <= 2500; seq++)
    assert_record (ring, seq);
}

static void
test_byte_capacity_bounds_memory (void)
{
  const guint64 max_bytes = 256 * 1024;
  g_autoptr(FmdRing) ring = fmd_ring_new (1000000, max_bytes);
  char path[128];

  /* every path distinct: the string table takes most of the bytes */
  for (guint i = 0; i < 20000; i++)
    {
      FmEvent event = test_event (i, path);

      fmd_ring_append (ring, &event);
      g_assert_cmpuint (fmd_ring_get_memory (ring), <=, max_bytes);
    }

  /* everything appended is either buffered or counted as overwritten */
  g_assert_cmpuint (fmd_ring_get_n_events (ring) + fmd_ring_get_overwritten (ring), ==, 20000);
  g_assert_cmpuint (fmd_ring_get_overwritten (ring), >, 0);
  /* and what is buffered is the newest, contiguous, and its byte count adds up */
  g_assert_cmpuint (fmd_ring_get_next_seq (ring), ==, 20001);
  for (guint64 seq = fmd_ring_get_first_seq (ring); seq <= 20000; seq++)
    assert_record (ring, seq);
  /* the overwritten events' strings went with them: one path each, plus comm and detail */
  g_assert_cmpuint (fmd_ring_get_n_strings (ring), ==, fmd_ring_get_n_events (ring) + 2);
  /* overwriting frees strings an event at a time, chunks of records a chunk at a time:
   * never more than half the buffer goes unused */
  g_assert_cmpuint (fmd_ring_get_memory (ring), >=, max_bytes / 2);
}

static void
test_repeated_strings_are_stored_once (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (1000, 64 * 1024 * 1024);
  char path[128];

  for (guint i = 0; i < 5000; i++)
    {
      FmEvent event = test_event (i % 10, path);

      fmd_ring_append (ring, &event);
    }
  g_assert_cmpuint (fmd_ring_get_n_strings (ring), ==, 10 + 2);

  /* once the last event naming a string is overwritten, the string goes */
  for (guint i = 0; i < 1000; i++)
    {
      FmEvent event = test_event (3, path);

      fmd_ring_append (ring, &event);
    }
  g_assert_cmpuint (fmd_ring_get_n_strings (ring), ==, 1 + 2);
  for (guint64 seq = 5001; seq <= 6000; seq++)
    {
      FmEvent got;

      g_assert_true (fmd_ring_lookup (ring, seq, &got));
      g_assert_cmpmem (got.path, got.path_len, path, strlen (path));
    }
}

static void
test_lookup_outside_is_absent (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (10, 1024 * 1024);
  FmEvent event;
  guint8 out[FM_RECORD_MAX_SIZE];
  gsize len;

  g_assert_false (fmd_ring_lookup (ring, 0, &event));
  g_assert_false (fmd_ring_lookup (ring, 1, &event));
  append_n (ring, 0, 15);
  g_assert_false (fmd_ring_lookup (ring, 5, &event));
  g_assert_true (fmd_ring_lookup (ring, 6, &event));
  g_assert_true (fmd_ring_lookup (ring, 15, &event));
  g_assert_false (fmd_ring_lookup (ring, 16, &event));
  g_assert_cmpuint (fmd_ring_encode_run (ring, 16, 1, out, sizeof out, &len), ==, 0);
  g_assert_cmpuint (fmd_ring_encode_run (ring, 5, 1, out, sizeof out, &len), ==, 0);
}

/* The records a stream gets are byte for byte those the encoder makes of the events
 * appended, whatever the buffer size cuts them into. */
static void
test_encode_run_is_the_encoders_bytes (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100000, 4 * 1024 * 1024);
  g_autoptr(GByteArray) want = g_byte_array_new ();
  g_autoptr(GByteArray) got = g_byte_array_new ();
  g_autofree guint8 *out = g_malloc (FM_RECORD_MAX_SIZE + 1000);
  char path[128];
  char long_path[FM_PATH_MAX + 100];
  guint64 seq = 1;

  memset (long_path, 'p', sizeof long_path - 1);
  long_path[0] = '/';
  long_path[sizeof long_path - 1] = '\0';
  for (guint i = 0; i < 5000; i++)
    {
      FmEvent event = test_event (i, path);

      /* strings at and over their limits are clamped as the encoder clamps them */
      if (i % 1000 == 999)
        fm_event_set_strings (&event, "a-comm-longer-than-15", long_path, long_path, "O_RDONLY");
      event.seq = fmd_ring_append (ring, &event);
      fm_record_append_event (want, &event);
    }

  while (seq < fmd_ring_get_next_seq (ring))
    {
      gsize len;
      guint64 n = fmd_ring_encode_run (ring, seq, G_MAXUINT64, out,
                                       FM_RECORD_MAX_SIZE + 1000, &len);

      g_assert_cmpuint (n, >, 0);
      g_byte_array_append (got, out, len);
      seq += n;
    }
  g_assert_cmpuint (seq, ==, 5001);
  g_assert_cmpmem (got->data, got->len, want->data, want->len);

  /* a run stops at max_records, or where the next record would not fit */
  {
    gsize len;
    guint64 n;

    g_assert_cmpuint (fmd_ring_encode_run (ring, 10, 3, out, FM_RECORD_MAX_SIZE, &len), ==, 3);
    n = fmd_ring_encode_run (ring, 1, G_MAXUINT64, out, FM_RECORD_MAX_SIZE, &len);
    g_assert_cmpuint (n, >, 0);
    g_assert_cmpuint (n, <, 5000);
    g_assert_cmpuint (len, <=, FM_RECORD_MAX_SIZE);
    g_assert_cmpmem (out, len, want->data, len);
  }
}

static void
test_snapshot_survives_overwrite (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (1000, 1024 * 1024);
  g_autoptr(FmdRingSnapshot) snap = NULL;
  FmEvent got;
  guint64 expected;

  append_n (ring, 0, 1500);
  snap = fmd_ring_snapshot (ring, 700, NULL, NULL, NULL);
  g_assert_cmpuint (fmd_ring_snapshot_get_first_seq (snap), ==, 700);
  g_assert_cmpuint (fmd_ring_snapshot_get_n_events (snap), ==, 801);

  /* the ring moves on and overwrites everything the snapshot holds */
  append_n (ring, 1500, 30000);
  g_assert_cmpuint (fmd_ring_get_first_seq (ring), >, 1500);

  /* its events' strings are kept for it */
  g_assert_cmpuint (fmd_ring_get_n_strings (ring), >, 1000 + 801);

  expected = 700;
  while (fmd_ring_snapshot_next (snap, &got))
    {
      FmEvent want;
      char path[128];

      want = test_event (expected - 1, path);
      want.seq = expected;
      g_assert_true (fm_event_equal (&got, &want));
      expected++;
    }
  g_assert_cmpuint (expected, ==, 1501);

  /* and given back once it is gone, when the ring next needs a chunk */
  g_clear_pointer (&snap, fmd_ring_snapshot_free);
  append_n (ring, 31500, 30000);
  g_assert_cmpuint (fmd_ring_get_n_strings (ring), <=, 1000 + 2 + 1000);
}

/* A ring freed while a save still reads its snapshot leaves the strings to it. */
static void
test_snapshot_outlives_ring (void)
{
  FmdRing *ring = fmd_ring_new (1000, 1024 * 1024);
  g_autoptr(FmdRingSnapshot) snap = NULL;
  FmEvent got;
  guint n = 0;

  append_n (ring, 0, 1500);
  snap = fmd_ring_snapshot (ring, 0, NULL, NULL, NULL);
  fmd_ring_free (ring);
  while (fmd_ring_snapshot_next (snap, &got))
    {
      FmEvent want;
      char path[128];

      want = test_event (500 + n, path);
      want.seq = 501 + n;
      g_assert_true (fm_event_equal (&got, &want));
      n++;
    }
  g_assert_cmpuint (n, ==, 1000);
}

static void
test_snapshot_since_zero_and_beyond (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100, 1024 * 1024);
  g_autoptr(FmdRingSnapshot) all = NULL;
  g_autoptr(FmdRingSnapshot) none = NULL;
  g_autoptr(FmdRingSnapshot) empty = fmd_ring_snapshot (ring, 0, NULL, NULL, NULL);
  FmEvent event;
  guint n = 0;

  g_assert_false (fmd_ring_snapshot_next (empty, &event));

  append_n (ring, 0, 150);
  all = fmd_ring_snapshot (ring, 0, NULL, NULL, NULL);
  none = fmd_ring_snapshot (ring, 151, NULL, NULL, NULL);
  g_assert_cmpuint (fmd_ring_snapshot_get_n_events (all), ==, 100);
  g_assert_cmpuint (fmd_ring_snapshot_get_first_seq (all), ==, 51);
  while (fmd_ring_snapshot_next (all, &event))
    n++;
  g_assert_cmpuint (n, ==, 100);
  g_assert_cmpuint (fmd_ring_snapshot_get_n_events (none), ==, 0);
  g_assert_false (fmd_ring_snapshot_next (none, &event));
}

/* Appends @n events whose paths are all distinct and @len bytes long: the strings, not
 * the records, fill the byte budget, as a capture of distinct long paths does. */
static void
append_long (FmdRing *ring,
             guint    from,
             guint    n,
             gsize    len)
{
  g_autofree char *path = g_malloc (len + 1);

  memset (path, 'x', len);
  path[0] = '/';
  path[len] = '\0';
  for (guint i = from; i < from + n; i++)
    {
      FmEvent event = { 0 };

      g_snprintf (path + 1, 16, "%010u", i);
      path[11] = '/';
      event.pid = event.tid = 42;
      event.syscall_nr = 262;
      event.result = -2;
      fm_event_set_strings (&event, "stat", path, "", "");
      fmd_ring_append (ring, &event);
    }
}

static void
count_revoke (gpointer user_data)
{
  (*(guint *) user_data)++;
}

/* A snapshot nobody reads pinned every chunk and string from its start, and the ring grew
 * past its byte bound for as long as it lived (a Save into a FIFO nobody reads: 852 MB
 * against Bytes=256M). Now it is revoked once the ring needs what it pins. */
static void
test_snapshot_stalled_is_revoked (void)
{
  guint64 max = 4 * 1024 * 1024;
  g_autoptr(FmdRing) ring = fmd_ring_new (1000000, max);
  FmdRingSnapshot *snap;
  guint revoked = 0;
  FmEvent got;

  append_long (ring, 0, 500, 2000);
  g_assert_cmpuint (fmd_ring_get_memory (ring), <=, max);
  snap = fmd_ring_snapshot (ring, 0, count_revoke, &revoked, NULL);
  g_assert_false (fmd_ring_snapshot_is_revoked (snap));

  /* ten times the budget goes by while the snapshot is held */
  append_long (ring, 500, 20000, 2000);
  g_assert_cmpuint (revoked, ==, 1);
  g_assert_true (fmd_ring_snapshot_is_revoked (snap));
  g_assert_cmpuint (fmd_ring_get_n_revoked (ring), ==, 1);
  g_assert_false (fmd_ring_snapshot_next (snap, &got));

  /* its reader let go (next() returned FALSE): the ring is back within its bound at once */
  append_long (ring, 20500, 1, 2000);
  g_assert_cmpuint (fmd_ring_get_memory (ring), <=, max);
  fmd_ring_snapshot_free (snap);
  append_long (ring, 20501, 20000, 2000);
  g_assert_cmpuint (fmd_ring_get_memory (ring), <=, max);
  g_assert_cmpuint (revoked, ==, 1);
}

/* A reader that keeps ahead of the overwriting lets go of each chunk it passed: the ring
 * stays within its bound and the snapshot is never revoked, however long it is read. */
static void
test_snapshot_read_as_it_goes_is_kept (void)
{
  guint64 max = 4 * 1024 * 1024;
  g_autoptr(FmdRing) ring = fmd_ring_new (1000000, max);
  g_autoptr(FmdRingSnapshot) snap = NULL;
  guint revoked = 0;
  guint64 n = 0, expected;
  FmEvent got;

  append_long (ring, 0, 1500, 2000);
  snap = fmd_ring_snapshot (ring, 0, count_revoke, &revoked, NULL);
  expected = fmd_ring_snapshot_get_first_seq (snap);
  for (guint round = 0; round < 100; round++)
    {
      /* read a little more than the ring overwrites meanwhile */
      for (guint k = 0; k < 40 && fmd_ring_snapshot_next (snap, &got); k++, n++)
        {
          g_assert_cmpuint (got.seq, ==, expected);
          expected++;
        }
      append_long (ring, 1500 + round * 30, 30, 2000);
      g_assert_cmpuint (fmd_ring_get_memory (ring), <=, max);
    }
  while (fmd_ring_snapshot_next (snap, &got))
    n++;
  g_assert_cmpuint (n, ==, fmd_ring_snapshot_get_n_events (snap));
  g_assert_cmpuint (revoked, ==, 0);
  g_assert_false (fmd_ring_snapshot_is_revoked (snap));
}

static void
watch_count (FmdRing  *ring,
             gpointer  user_data)
{
  (*(guint *) user_data)++;
}

static void
test_watch_sees_each_append (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (10, 1024 * 1024);
  guint count = 0;
  guint id = fmd_ring_add_watch (ring, watch_count, &count);

  append_n (ring, 0, 25);
  g_assert_cmpuint (count, ==, 25);
  fmd_ring_remove_watch (ring, id);
  append_n (ring, 25, 5);
  g_assert_cmpuint (count, ==, 25);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ring/append/numbers-from-one", test_append_numbers_from_one);
  g_test_add_func ("/ring/capacity/events-overwrite-oldest-and-count", test_event_capacity_overwrites_oldest);
  g_test_add_func ("/ring/capacity/bytes-bound-memory", test_byte_capacity_bounds_memory);
  g_test_add_func ("/ring/strings/repeated-are-stored-once-and-go-with-the-last", test_repeated_strings_are_stored_once);
  g_test_add_func ("/ring/lookup/overwritten-and-future-are-absent", test_lookup_outside_is_absent);
  g_test_add_func ("/ring/encode-run/is-the-encoders-bytes", test_encode_run_is_the_encoders_bytes);
  g_test_add_func ("/ring/snapshot/survives-overwrite", test_snapshot_survives_overwrite);
  g_test_add_func ("/ring/snapshot/outlives-the-ring", test_snapshot_outlives_ring);
  g_test_add_func ("/ring/snapshot/since-zero-and-beyond", test_snapshot_since_zero_and_beyond);
  g_test_add_func ("/ring/snapshot/stalled-is-revoked-and-the-bound-holds", test_snapshot_stalled_is_revoked);
  g_test_add_func ("/ring/snapshot/read-as-it-goes-is-kept-within-the-bound", test_snapshot_read_as_it_goes_is_kept);
  g_test_add_func ("/ring/watch/sees-each-append", test_watch_sees_each_append);

  return g_test_run ();
}
