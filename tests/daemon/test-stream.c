/* test-stream.c: OpenStream writers: replay then live without gap or duplicate, a frozen
 * reader getting the exact gap count, a slow reader not holding back another one, drop
 * records, closing the descriptor ending the stream, a stream that ends at the live
 * edge (follow false), and readers at different places each getting exactly their own
 * events from the encoded runs the streams share. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "filemond-stream.h"
#include "fm-stream.h"
#include "test-daemon-util.h"

typedef struct {
  FmStreamDecoder *decoder;
  guint64 expected;      /* the next seq the reader must see, as event or in a gap */
  guint64 events;
  guint64 gaps;
  guint64 gap_events;
  guint64 dropped_total;
  gboolean eof;
} Reader;

static gboolean
reader_event (const FmEvent *event,
              gpointer       user_data)
{
  Reader *r = user_data;
  FmEvent want;
  char path[128];

  /* no gap that is not reported, no duplicate, in order */
  g_assert_cmpuint (event->seq, ==, r->expected);
  want = test_event (event->seq - 1, path);
  want.seq = event->seq;
  g_assert_true (fm_event_equal (event, &want));
  r->expected++;
  r->events++;
  return TRUE;
}

static void
reader_gap (guint64  first_seq,
            guint64  count,
            gpointer user_data)
{
  Reader *r = user_data;

  g_assert_cmpuint (first_seq, ==, r->expected);
  g_assert_cmpuint (count, >, 0);
  r->expected += count;
  r->gaps++;
  r->gap_events += count;
}

static void
reader_dropped (guint64  total,
                gpointer user_data)
{
  Reader *r = user_data;

  r->dropped_total = total;
}

static const FmStreamCallbacks reader_callbacks = {
  reader_event,
  reader_gap,
  reader_dropped,
};

static void
reader_init (Reader  *r,
             guint64  first_expected)
{
  *r = (Reader) { 0 };
  r->decoder = fm_stream_decoder_new (&reader_callbacks, r);
  r->expected = first_expected;
}

static void
reader_clear (Reader *r)
{
  g_clear_pointer (&r->decoder, fm_stream_decoder_free);
}

/* Reads what is there now, without blocking; returns the bytes read. */
static gsize
reader_drain (Reader *r,
              int     fd,
              gsize   max)
{
  guint8 buf[65536];
  gsize total = 0;

  while (total < max)
    {
      gssize n = read (fd, buf, MIN (sizeof buf, max - total));
      g_autoptr(GError) error = NULL;

      if (n == 0)
        {
          r->eof = TRUE;
          break;
        }
      if (n < 0)
        {
          g_assert_cmpint (errno, ==, EAGAIN);
          break;
        }
      g_assert_true (fm_stream_decoder_feed (r->decoder, buf, n, &error));
      g_assert_no_error (error);
      total += n;
    }
  return total;
}

static void
set_nonblocking (int fd)
{
  int flags = fcntl (fd, F_GETFL);

  /* the stream hands out a blocking descriptor */
  g_assert_cmpint (flags & O_NONBLOCK, ==, 0);
  g_assert_cmpint (fcntl (fd, F_SETFL, flags | O_NONBLOCK), ==, 0);
}

static void
append_n (FmdRing *ring,
          guint    from,
          guint    n)
{
  char path[128];

  for (guint i = from; i < from + n; i++)
    {
      FmEvent event = test_event (i, path);
      fmd_ring_append (ring, &event);
    }
}

/* Reads until the reader has accounted for every seq before @next. */
static void
read_until (Reader *r,
            int     fd,
            guint64 next)
{
  for (guint spins = 0; r->expected < next; spins++)
    {
      test_iterate ();
      reader_drain (r, fd, G_MAXSIZE);
      g_assert_cmpuint (spins, <, 100000);
    }
}

static void
test_frozen_reader_gets_exact_gap (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (1000, 8 * 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  g_autoptr(GError) error = NULL;
  Reader r;
  int fd = fmd_streams_open (streams, ":1.1", 0, FALSE, 0, TRUE, &error);

  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  set_nonblocking (fd);
  reader_init (&r, 1);

  /* the reader is frozen while 50 000 events pass through a ring of 1000 */
  for (guint i = 0; i < 50; i++)
    {
      append_n (ring, i * 1000, 1000);
      test_iterate ();
    }
  g_assert_cmpuint (fmd_streams_get_gap_total (streams), ==, 0);   /* not known to be lost yet */

  read_until (&r, fd, 50001);

  g_assert_cmpuint (r.expected, ==, 50001);
  g_assert_cmpuint (r.events + r.gap_events, ==, 50000);
  g_assert_cmpuint (r.gaps, >=, 1);
  g_assert_cmpuint (r.gap_events, ==, fmd_streams_get_gap_total (streams));
  /* what the frozen reader got is what fitted in its socket plus the ring */
  g_assert_cmpuint (r.events, >=, 1000);
  g_assert_cmpuint (r.events, <, 50000);

  /* live again: no further gap */
  append_n (ring, 50000, 500);
  read_until (&r, fd, 50501);
  g_assert_cmpuint (r.gap_events, ==, fmd_streams_get_gap_total (streams));

  reader_clear (&r);
  close (fd);
}

/* A stream replaying from seq 1200 of 3000 buffered events, while 10 000 more come in
 * batches and the reader takes some of it between them; returns its descriptor. */
static int
open_replay_in_flight (FmdRing    *ring,
                       FmdStreams *streams,
                       gboolean    follow,
                       Reader     *r)
{
  g_autoptr(GError) error = NULL;
  int fd;

  append_n (ring, 0, 3000);
  fd = fmd_streams_open (streams, ":1.1", 0, TRUE, 1200, follow, &error);
  g_assert_no_error (error);
  set_nonblocking (fd);
  reader_init (r, 1200);
  for (guint i = 0; i < 20; i++)
    {
      append_n (ring, 3000 + i * 500, 500);
      test_iterate ();
      reader_drain (r, fd, 16 * 1024);
    }
  return fd;
}

static void
test_replay_then_live_has_no_gap (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100000, 64 * 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  Reader r;
  int fd = open_replay_in_flight (ring, streams, TRUE, &r);

  read_until (&r, fd, 13001);

  g_assert_cmpuint (r.gaps, ==, 0);
  g_assert_cmpuint (r.events, ==, 13000 - 1200 + 1);

  reader_clear (&r);
  close (fd);
}

static void
test_since_zero_replays_everything (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100, 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  g_autoptr(GError) error = NULL;
  Reader r;
  int fd;

  append_n (ring, 0, 250);   /* 1..150 are overwritten already */
  fd = fmd_streams_open (streams, ":1.1", 0, TRUE, 0, TRUE, &error);
  g_assert_no_error (error);
  set_nonblocking (fd);
  reader_init (&r, 151);
  read_until (&r, fd, 251);
  g_assert_cmpuint (r.events, ==, 100);
  g_assert_cmpuint (r.gaps, ==, 0);
  reader_clear (&r);
  close (fd);
}

static void
test_since_overwritten_seq_reports_gap (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100, 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  g_autoptr(GError) error = NULL;
  Reader r;
  int fd;

  append_n (ring, 0, 250);
  fd = fmd_streams_open (streams, ":1.1", 0, TRUE, 101, TRUE, &error);
  g_assert_no_error (error);
  set_nonblocking (fd);
  reader_init (&r, 101);
  read_until (&r, fd, 251);
  g_assert_cmpuint (r.gaps, ==, 1);
  g_assert_cmpuint (r.gap_events, ==, 50);
  g_assert_cmpuint (r.events, ==, 100);
  reader_clear (&r);
  close (fd);
}

static void
test_live_only_starts_at_next_event (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (1000, 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  g_autoptr(GError) error = NULL;
  Reader r;
  int fd;

  append_n (ring, 0, 10);
  fd = fmd_streams_open (streams, ":1.1", 0, FALSE, 0, TRUE, &error);
  g_assert_no_error (error);
  set_nonblocking (fd);
  reader_init (&r, 11);
  append_n (ring, 10, 5);
  read_until (&r, fd, 16);
  g_assert_cmpuint (r.events, ==, 5);
  reader_clear (&r);
  close (fd);
}

static void
test_slow_reader_does_not_hold_back_another (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (2000, 8 * 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  g_autoptr(GError) error = NULL;
  Reader fast, slow;
  int fast_fd = fmd_streams_open (streams, ":1.1", 0, FALSE, 0, TRUE, &error);
  int slow_fd = fmd_streams_open (streams, ":1.1", 0, FALSE, 0, TRUE, &error);

  g_assert_no_error (error);
  set_nonblocking (fast_fd);
  set_nonblocking (slow_fd);
  reader_init (&fast, 1);
  reader_init (&slow, 1);

  for (guint i = 0; i < 100; i++)
    {
      append_n (ring, i * 500, 500);
      test_iterate ();
      reader_drain (&fast, fast_fd, G_MAXSIZE);
      reader_drain (&slow, slow_fd, 512);   /* a trickle */
    }
  read_until (&fast, fast_fd, 50001);
  g_assert_cmpuint (fast.gaps, ==, 0);
  g_assert_cmpuint (fast.events, ==, 50000);

  read_until (&slow, slow_fd, 50001);
  g_assert_cmpuint (slow.gap_events, >, 0);
  g_assert_cmpuint (slow.events + slow.gap_events, ==, 50000);

  reader_clear (&fast);
  reader_clear (&slow);
  close (fast_fd);
  close (slow_fd);
}

static void
test_dropped_total_is_sent (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100, 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  g_autoptr(GError) error = NULL;
  Reader r;
  int fd = fmd_streams_open (streams, ":1.1", 0, FALSE, 0, TRUE, &error);

  g_assert_no_error (error);
  set_nonblocking (fd);
  reader_init (&r, 1);
  fmd_streams_set_dropped_total (streams, 7);
  test_iterate ();
  reader_drain (&r, fd, G_MAXSIZE);
  g_assert_cmpuint (r.dropped_total, ==, 7);
  fmd_streams_set_dropped_total (streams, 19);
  append_n (ring, 0, 3);
  read_until (&r, fd, 4);
  g_assert_cmpuint (r.dropped_total, ==, 19);
  reader_clear (&r);
  close (fd);
}

static void
test_closing_the_fd_ends_the_stream (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100, 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  g_autoptr(GError) error = NULL;
  int a = fmd_streams_open (streams, ":1.1", 0, FALSE, 0, TRUE, &error);
  int b = fmd_streams_open (streams, ":1.1", 0, FALSE, 0, TRUE, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (fmd_streams_get_n_streams (streams), ==, 2);

  close (a);
  for (guint i = 0; i < 1000 && fmd_streams_get_n_streams (streams) != 1; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fmd_streams_get_n_streams (streams), ==, 1);

  /* the daemon ending a stream is end of file for its reader */
  fmd_streams_close_all (streams);
  g_assert_cmpuint (fmd_streams_get_n_streams (streams), ==, 0);
  {
    Reader r;
    reader_init (&r, 1);
    set_nonblocking (b);
    reader_drain (&r, b, G_MAXSIZE);
    g_assert_true (r.eof);
    g_assert_true (fm_stream_decoder_at_boundary (r.decoder));
    reader_clear (&r);
  }
  close (b);
}

/* Reads until the daemon ends the stream. */
static void
read_until_eof (Reader *r,
                int     fd)
{
  for (guint spins = 0; !r->eof; spins++)
    {
      test_iterate ();
      reader_drain (r, fd, G_MAXSIZE);
      g_assert_cmpuint (spins, <, 100000);
    }
  g_assert_true (fm_stream_decoder_at_boundary (r->decoder));
}

static void
test_no_follow_ends_at_the_live_edge (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100000, 64 * 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  Reader r;
  int fd = open_replay_in_flight (ring, streams, FALSE, &r);

  /* the events that came while the replay was in flight are past the edge: not sent */
  read_until_eof (&r, fd);

  g_assert_cmpuint (r.expected, ==, 3001);
  g_assert_cmpuint (r.events, ==, 3000 - 1200 + 1);
  g_assert_cmpuint (r.gaps, ==, 0);
  g_assert_cmpuint (fmd_streams_get_n_streams (streams), ==, 0);
  reader_clear (&r);
  close (fd);
}

/* The streams share encoded runs of records (filemond-stream.c): readers at different
 * places, more of them than runs are kept, some reading a trickle (short writes that cut
 * records and runs evicted under them), one ending at the live edge, must each get exactly
 * the events from their own start, in order, with their own content (reader_event checks
 * every field against the event appended with that seq). */
static void
test_readers_at_different_places_get_their_own_events (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100000, 64 * 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  const struct {
    gboolean replay;
    guint64 since;
    gboolean follow;
    gsize per_round;     /* bytes read each round */
  } spec[] = {
    { FALSE, 0, TRUE, G_MAXSIZE },     /* live: from seq 1001 */
    { TRUE, 1, TRUE, G_MAXSIZE },
    { TRUE, 500, FALSE, G_MAXSIZE },   /* 500-1000, then the end */
    { TRUE, 700, TRUE, 700 },
    { TRUE, 1, TRUE, 1500 },
  };
  Reader r[G_N_ELEMENTS (spec)];
  int fd[G_N_ELEMENTS (spec)];

  append_n (ring, 0, 1000);
  for (guint i = 0; i < G_N_ELEMENTS (spec); i++)
    {
      g_autoptr(GError) error = NULL;

      fd[i] = fmd_streams_open (streams, i < FMD_STREAMS_PER_PEER ? ":1.1" : ":1.2", 0,
                                spec[i].replay, spec[i].since, spec[i].follow, &error);
      g_assert_no_error (error);
      set_nonblocking (fd[i]);
      reader_init (&r[i], spec[i].replay ? spec[i].since : 1001);
    }

  for (guint round = 0; round < 40; round++)
    {
      append_n (ring, 1000 + round * 100, 100);
      test_iterate ();
      for (guint i = 0; i < G_N_ELEMENTS (spec); i++)
        if (!r[i].eof)
          reader_drain (&r[i], fd[i], spec[i].per_round);
    }

  read_until_eof (&r[2], fd[2]);
  g_assert_cmpuint (r[2].expected, ==, 1001);
  g_assert_cmpuint (r[2].events, ==, 501);
  for (guint i = 0; i < G_N_ELEMENTS (spec); i++)
    {
      if (i != 2)
        {
          read_until (&r[i], fd[i], 5001);
          g_assert_cmpuint (r[i].events, ==, 5001 - (spec[i].replay ? spec[i].since : 1001));
        }
      g_assert_cmpuint (r[i].gaps, ==, 0);
      reader_clear (&r[i]);
      close (fd[i]);
    }
}

static void
test_no_follow_gap_stops_at_the_edge (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (5000, 8 * 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  g_autoptr(GError) error = NULL;
  Reader r;
  int fd;

  /* 5000 records of ~110 bytes: far more than the 64 KiB socket holds */
  append_n (ring, 0, 5000);
  fd = fmd_streams_open (streams, ":1.1", 0, TRUE, 0, FALSE, &error);
  g_assert_no_error (error);
  set_nonblocking (fd);
  reader_init (&r, 1);

  /* the reader is frozen while the ring overwrites all it was owed, and more */
  for (guint i = 0; i < 5; i++)
    {
      append_n (ring, 5000 + i * 5000, 5000);
      test_iterate ();
    }
  read_until_eof (&r, fd);

  /* what it missed is counted up to the edge, and nothing past it arrives */
  g_assert_cmpuint (r.expected, ==, 5001);
  g_assert_cmpuint (r.events + r.gap_events, ==, 5000);
  g_assert_cmpuint (r.gaps, ==, 1);
  reader_clear (&r);
  close (fd);
}

static void
test_no_follow_of_an_empty_buffer_ends_at_once (void)
{
  g_autoptr(FmdRing) ring = fmd_ring_new (100, 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 64 * 1024);
  g_autoptr(GError) error = NULL;
  Reader r;
  int fd = fmd_streams_open (streams, ":1.1", 0, TRUE, 0, FALSE, &error);

  g_assert_no_error (error);
  set_nonblocking (fd);
  reader_init (&r, 1);
  read_until_eof (&r, fd);
  g_assert_cmpuint (r.events, ==, 0);
  reader_clear (&r);
  close (fd);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stream/frozen-reader-gets-exact-gap-count", test_frozen_reader_gets_exact_gap);
  g_test_add_func ("/stream/replay-then-live-has-no-gap-or-duplicate", test_replay_then_live_has_no_gap);
  g_test_add_func ("/stream/since-zero-replays-everything-buffered", test_since_zero_replays_everything);
  g_test_add_func ("/stream/since-overwritten-seq-reports-gap", test_since_overwritten_seq_reports_gap);
  g_test_add_func ("/stream/live-only-starts-at-next-event", test_live_only_starts_at_next_event);
  g_test_add_func ("/stream/slow-reader-does-not-hold-back-another", test_slow_reader_does_not_hold_back_another);
  g_test_add_func ("/stream/dropped-total-is-sent", test_dropped_total_is_sent);
  g_test_add_func ("/stream/closing-the-fd-ends-the-stream", test_closing_the_fd_ends_the_stream);
  g_test_add_func ("/stream/no-follow/ends-at-the-live-edge", test_no_follow_ends_at_the_live_edge);
  g_test_add_func ("/stream/no-follow/gap-stops-at-the-edge", test_no_follow_gap_stops_at_the_edge);
  g_test_add_func ("/stream/shared-runs/readers-at-different-places-get-their-own-events",
                   test_readers_at_different_places_get_their_own_events);
  g_test_add_func ("/stream/no-follow/empty-buffer-ends-at-once",
                   test_no_follow_of_an_empty_buffer_ends_at_once);

  return g_test_run ();
}
