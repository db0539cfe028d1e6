/* test-ring.c: the daemon's ring buffer: sequence numbers, both capacities, overwrite
 * counting, lookups and snapshots. */
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
  const guint8 *data;
  gsize len;
  FmEvent got;
  FmEvent want;
  char path[128];
  g_autoptr(GError) error = NULL;

  g_assert_true (fmd_ring_lookup (ring, seq, &data, &len));
  g_assert_true (fm_record_decode_event (data, len, &got, &error));
  g_assert_no_error (error);
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
  guint64 bytes = 0;
  char path[128];

  for (guint i = 0; i < 20000; i++)
    {
      FmEvent event = test_event (i, path);

      fmd_ring_append (ring, &event);
      g_assert_cmpuint (fmd_ring_get_memory (ring), <=, max_bytes);
      g_assert_cmpuint (fmd_ring_get_n_bytes (ring), <=, fmd_ring_get_memory (ring));
    }

  /* everything appended is either buffered or counted as overwritten */
  g_assert_cmpuint (fmd_ring_get_n_events (ring) + fmd_ring_get_overwritten (ring), ==, 20000);
  g_assert_cmpuint (fmd_ring_get_overwritten (ring), >, 0);
  /* and what is buffered is the newest, contiguous, and its byte count adds up */
  g_assert_cmpuint (fmd_ring_get_next_seq (ring), ==, 20001);
  for (guint64 seq = fmd_ring_get_first_seq (ring); seq <= 20000; seq++)
    {
      const guint8 *data;
      gsize len;

      g_assert_true (fmd_ring_lookup (ring, seq, &data, &len));
      bytes += len;
      assert_record (ring, seq);
    }
  g_assert_cmpuint (bytes, ==, fmd_ring_get_n_bytes (ring));
  /* overwriting goes a chunk at a time, never more than half the buffer */
  g_assert_cmpuint (fmd_ring_get_n_bytes (ring), >=, max_bytes / 2 - FM_RECORD_MAX_SIZE);
}

static void
test_lookup_outside_is_absent (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (10, 1024 * 1024);
  const guint8 *data;
  gsize len;
  guint64 n;

  g_assert_false (fmd_ring_lookup (ring, 0, &data, &len));
  g_assert_false (fmd_ring_lookup (ring, 1, &data, &len));
  append_n (ring, 0, 15);
  g_assert_false (fmd_ring_lookup (ring, 5, &data, &len));
  g_assert_true (fmd_ring_lookup (ring, 6, &data, &len));
  g_assert_true (fmd_ring_lookup (ring, 15, &data, &len));
  g_assert_false (fmd_ring_lookup (ring, 16, &data, &len));
  g_assert_false (fmd_ring_peek_run (ring, 16, &data, &len, &n));
  g_assert_false (fmd_ring_peek_run (ring, 5, &data, &len, &n));
}

static void
test_peek_run_is_contiguous (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100000, 4 * 1024 * 1024);
  guint64 seq = 1;

  append_n (ring, 0, 5000);

  /* walking the runs byte by byte visits every record once, in order */
  while (seq < fmd_ring_get_next_seq (ring))
    {
      const guint8 *data;
      gsize len;
      guint64 n;
      gsize off = 0;

      g_assert_true (fmd_ring_peek_run (ring, seq, &data, &len, &n));
      g_assert_cmpuint (n, >, 0);
      for (guint64 k = 0; k < n; k++)
        {
          FmEvent event;
          g_autoptr(GError) error = NULL;
          guint32 size = data[off] | data[off + 1] << 8 | data[off + 2] << 16 | (guint32) data[off + 3] << 24;

          g_assert_cmpuint (off + size, <=, len);
          g_assert_true (fm_record_decode_event (data + off, size, &event, &error));
          g_assert_cmpuint (event.seq, ==, seq + k);
          off += size;
        }
      g_assert_cmpuint (off, ==, len);
      seq += n;
    }
  g_assert_cmpuint (seq, ==, 5001);
}

static void
test_snapshot_survives_overwrite (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (1000, 1024 * 1024);
  g_autoptr(FmdRingSnapshot) snap = NULL;
  const guint8 *data;
  gsize len;
  guint64 expected;

  append_n (ring, 0, 1500);
  snap = fmd_ring_snapshot (ring, 700);
  g_assert_cmpuint (fmd_ring_snapshot_get_first_seq (snap), ==, 700);
  g_assert_cmpuint (fmd_ring_snapshot_get_n_events (snap), ==, 801);

  /* the ring moves on and overwrites everything the snapshot holds */
  append_n (ring, 1500, 30000);
  g_assert_cmpuint (fmd_ring_get_first_seq (ring), >, 1500);

  expected = 700;
  while (fmd_ring_snapshot_next (snap, &data, &len))
    {
      FmEvent got;
      FmEvent want;
      char path[128];
      g_autoptr(GError) error = NULL;

      g_assert_true (fm_record_decode_event (data, len, &got, &error));
      want = test_event (expected - 1, path);
      want.seq = expected;
      g_assert_true (fm_event_equal (&got, &want));
      expected++;
    }
  g_assert_cmpuint (expected, ==, 1501);
}

static void
test_snapshot_since_zero_and_beyond (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100, 1024 * 1024);
  g_autoptr(FmdRingSnapshot) all = NULL;
  g_autoptr(FmdRingSnapshot) none = NULL;
  g_autoptr(FmdRingSnapshot) empty = fmd_ring_snapshot (ring, 0);
  const guint8 *data;
  gsize len;
  guint n = 0;

  g_assert_false (fmd_ring_snapshot_next (empty, &data, &len));

  append_n (ring, 0, 150);
  all = fmd_ring_snapshot (ring, 0);
  none = fmd_ring_snapshot (ring, 151);
  g_assert_cmpuint (fmd_ring_snapshot_get_n_events (all), ==, 100);
  g_assert_cmpuint (fmd_ring_snapshot_get_first_seq (all), ==, 51);
  while (fmd_ring_snapshot_next (all, &data, &len))
    n++;
  g_assert_cmpuint (n, ==, 100);
  g_assert_cmpuint (fmd_ring_snapshot_get_n_events (none), ==, 0);
  g_assert_false (fmd_ring_snapshot_next (none, &data, &len));
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
  g_test_add_func ("/ring/lookup/overwritten-and-future-are-absent", test_lookup_outside_is_absent);
  g_test_add_func ("/ring/peek-run/records-are-contiguous", test_peek_run_is_contiguous);
  g_test_add_func ("/ring/snapshot/survives-overwrite", test_snapshot_survives_overwrite);
  g_test_add_func ("/ring/snapshot/since-zero-and-beyond", test_snapshot_since_zero_and_beyond);
  g_test_add_func ("/ring/watch/sees-each-append", test_watch_sees_each_append);

  return g_test_run ();
}
