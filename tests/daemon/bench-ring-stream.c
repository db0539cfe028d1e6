/* bench-ring-stream.c: events per second through the daemon's ring buffer alone, and
 * through the ring and N OpenStream readers (default 1; each a thread decoding every
 * record), as the daemon runs them: appends in batches, the streams flushed by the main
 * loop.
 *
 *   bench-ring-stream [N]
 *
 * Under callgrind, --toggle-collect=flush_all_cb gives the streams' instructions an event
 * (encoding and sending) for N readers: what a second `watch` adds to filemond. */
#include <unistd.h>

#include "filemond-ring.h"
#include "filemond-stream.h"
#include "fm-stream.h"
#include "test-daemon-util.h"

#define N_EVENTS 5000000
#define BATCH 1000
#define READ_BYTES ((gsize) 1 << 20)

typedef struct {
  int fd;
  guint64 events;
  guint64 gap_events;
  gpointer seen;   /* events + gap_events, published atomically for the main thread */
} Reader;

static gboolean
on_event (const FmEvent *event, gpointer user_data)
{
  ((Reader *) user_data)->events++;
  return TRUE;
}

static void
on_gap (guint64 first, guint64 count, gpointer user_data)
{
  ((Reader *) user_data)->gap_events += count;
}

static void
on_dropped (guint64 total, gpointer user_data)
{
}

static gpointer
reader_thread (gpointer user_data)
{
  static const FmStreamCallbacks callbacks = { on_event, on_gap, on_dropped };
  Reader *r = user_data;
  g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&callbacks, r);
  g_autofree guint8 *buf = g_malloc (READ_BYTES);
  gssize n;

  while ((n = read (r->fd, buf, READ_BYTES)) > 0)
    {
      if (!fm_stream_decoder_feed (decoder, buf, n, NULL))
        g_error ("malformed stream");
      g_atomic_pointer_set (&r->seen, GSIZE_TO_POINTER (r->events + r->gap_events));
    }
  return NULL;
}

static gboolean
all_seen (Reader *readers, guint n)
{
  for (guint i = 0; i < n; i++)
    if (GPOINTER_TO_SIZE (g_atomic_pointer_get (&readers[i].seen)) < N_EVENTS)
      return FALSE;
  return TRUE;
}

int
main (int argc, char *argv[])
{
  g_autoptr(FmdRing) ring = fmd_ring_new (1000000, 256 * 1024 * 1024);
  g_autoptr(FmdRing) ring2 = fmd_ring_new (1000000, 256 * 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring2, 1024 * 1024);
  FmEvent events[64];
  char paths[64][128];
  guint n_readers = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 1;
  Reader readers[FMD_STREAMS_PER_PEER] = { 0 };
  GThread *threads[FMD_STREAMS_PER_PEER];
  gint64 t0, t1;
  double secs;

  if (n_readers < 1 || n_readers > G_N_ELEMENTS (readers))
    g_error ("usage: %s [N_READERS: 1 to %u]", argv[0], (guint) G_N_ELEMENTS (readers));

  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    events[i] = test_event (i * 7, paths[i]);

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < N_EVENTS; i++)
    fmd_ring_append (ring, &events[i % 64]);
  t1 = g_get_monotonic_time ();
  secs = (t1 - t0) / 1e6;
  g_print ("ring alone: %u events in %.2f s: %.2f M events/s (%.0f ns an event)\n",
           N_EVENTS, secs, N_EVENTS / secs / 1e6, secs * 1e9 / N_EVENTS);

  for (guint r = 0; r < n_readers; r++)
    {
      readers[r].fd = fmd_streams_open (streams, ":bench", 0, FALSE, 0, TRUE, NULL);
      threads[r] = g_thread_new ("reader", reader_thread, &readers[r]);
    }

  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < N_EVENTS; i += BATCH)
    {
      for (guint k = 0; k < BATCH; k++)
        fmd_ring_append (ring2, &events[(i + k) % 64]);
      g_main_context_iteration (NULL, FALSE);
    }
  t1 = g_get_monotonic_time ();
  /* hand over what is left, then end the stream */
  while (!all_seen (readers, n_readers))
    g_main_context_iteration (NULL, FALSE);
  fmd_streams_close_all (streams);
  for (guint r = 0; r < n_readers; r++)
    g_thread_join (threads[r]);

  secs = (t1 - t0) / 1e6;
  g_print ("ring + %u stream readers: %u events in %.2f s: %.2f M events/s offered\n",
           n_readers, N_EVENTS, secs, N_EVENTS / secs / 1e6);
  for (guint r = 0; r < n_readers; r++)
    g_print ("  reader %u got %" G_GUINT64_FORMAT ", gaps %" G_GUINT64_FORMAT "\n",
             r, readers[r].events, readers[r].gap_events);
  return 0;
}
