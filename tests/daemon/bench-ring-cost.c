/* bench-ring-cost.c: the daemon's work per event in its ring, for instruction counts:
 * appending a capture's events, then replaying them to one OpenStream reader (the
 * daemon's side only: the reader thread reads and discards).
 *
 *   valgrind --tool=callgrind --toggle-collect=fmd_ring_append bench-ring-cost mix
 *   valgrind --tool=callgrind --toggle-collect=stream_flush bench-ring-cost mix
 *
 * Loads: "single", one event a million times over (the benchmark's failed open); "mix",
 * paths drawn from 20 000 with a Zipf-like law (the k-th most frequent named about 1/k as
 * often as the first, as a build's headers and a desktop's files are), eight commands, ten
 * flag sets, a rename's second path now and then. Fixed seed: the same events each run.
 * Prints the events, the bytes replayed and saved (jsonl, through Save) with their
 * SHA-256 (the same events must give the same bytes, before and after a change of the
 * ring), and the main thread's CPU time an event for each
 * part (CPU time rather than wall time: a loaded machine stretches the wall time with
 * the time spent waiting for a CPU; instruction counts are the steadiest of the three). */
#include <math.h>
#include <time.h>
#include <unistd.h>

#include "filemond-ring.h"
#include "filemond-save.h"
#include "filemond-stream.h"

#define N_EVENTS 200000

static double
thread_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}
#define N_PATHS 20000

typedef struct {
  int fd;
  gsize bytes;
  GChecksum *sum;   /* of the stream: the same events must give the same bytes */
} Drain;

static gpointer
drain_thread (gpointer user_data)
{
  Drain *d = user_data;
  static guint8 buf[1 << 20];
  gssize n;

  while ((n = read (d->fd, buf, sizeof buf)) > 0)
    {
      d->bytes += n;
      g_checksum_update (d->sum, buf, n);
    }
  return NULL;
}

static void
make_event (GRand   *rand,
            gboolean mix,
            FmEvent *event,
            char     path[256],
            char     path2[256])
{
  static const char *comms[] = { "cc1", "make", "gnome-shell", "nautilus", "tracker-miner-f",
                                 "bash", "ld", "evolution" };
  static const char *details[] = { "O_RDONLY|O_CLOEXEC", "O_RDONLY|O_NOCTTY", "AT_FDCWD",
                                   "O_WRONLY|O_CREAT|O_TRUNC, 0644", "0", "F_OK", "R_OK",
                                   "O_RDONLY|O_DIRECTORY|O_CLOEXEC", "AT_SYMLINK_NOFOLLOW", "" };
  guint k;

  memset (event, 0, sizeof *event);
  event->time_ns = 1700000000000000000ull + g_rand_int (rand);
  event->duration_ns = g_rand_int_range (rand, 200, 20000);
  event->ppid = 1;
  event->uid = 1000;
  if (!mix)
    {
      event->pid = event->tid = 4242;
      event->syscall_nr = 257;
      event->result = -2;
      fm_event_set_strings (event, "fm-loadgen", "/nonexistent/fm-loadgen", NULL,
                            "O_RDONLY");
      return;
    }
  /* log-uniform rank: P(k) ~ 1/k */
  k = (guint) exp (g_rand_double (rand) * log (N_PATHS));
  g_snprintf (path, 256, "/usr/include/x86_64-linux-gnu/%s/%u/header-%u.h",
              k % 3 ? "glib-2.0" : "sys", k % 97, k);
  event->pid = event->tid = 1000 + g_rand_int_range (rand, 0, 40);
  event->syscall_nr = k % 5 ? 257 : 262;
  event->result = k % 3 ? 3 : -2;
  path2[0] = '\0';
  if (g_rand_int_range (rand, 0, 100) == 0)
    g_snprintf (path2, 256, "%s.%u.tmp", path, g_rand_int (rand));
  fm_event_set_strings (event, comms[event->pid % G_N_ELEMENTS (comms)], path, path2,
                        details[k % G_N_ELEMENTS (details)]);
}

static void
saved_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  guint64 written;

  if (!fmd_save_finish (result, &written, NULL))
    g_error ("Save failed");
  *(gboolean *) user_data = TRUE;
}

/* Save of the whole ring in jsonl, drained by a thread as the stream is. */
static void
save_all (FmdRing *ring,
          Drain   *drain)
{
  gboolean done = FALSE;
  GThread *thread;
  int p[2];

  if (pipe (p) < 0)
    g_error ("pipe failed");
  drain->fd = p[0];
  drain->sum = g_checksum_new (G_CHECKSUM_SHA256);
  thread = g_thread_new ("drain", drain_thread, drain);
  fmd_save_async (ring, 0, p[1], FM_FORMAT_JSONL, 60, NULL, saved_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  close (p[0]);
}

int
main (int argc, char **argv)
{
  gboolean mix = argc > 1 && g_str_equal (argv[1], "mix");
  g_autoptr(GRand) rand = g_rand_new_with_seed (21);
  g_autoptr(FmdRing) ring = fmd_ring_new (N_EVENTS, 1024 * 1024 * 1024);
  g_autoptr(FmdStreams) streams = fmd_streams_new (ring, 4 * 1024 * 1024);
  GThread *thread;
  Drain drain = { 0 };
  Drain saved = { 0 };
  static FmEvent events[N_EVENTS];
  static char paths[N_EVENTS][2][256];
  double t0, t1, t2;
  int fd;

  /* made first, so that only the appends are timed */
  for (guint i = 0; i < N_EVENTS; i++)
    make_event (rand, mix, &events[i], paths[i][0], paths[i][1]);

  t0 = thread_cpu_ns ();
  for (guint i = 0; i < N_EVENTS; i++)
    fmd_ring_append (ring, &events[i]);
  t1 = thread_cpu_ns ();

  fd = fmd_streams_open (streams, ":bench", 0, TRUE, 1, FALSE, NULL);
  g_assert (fd >= 0);
  drain.fd = fd;
  drain.sum = g_checksum_new (G_CHECKSUM_SHA256);
  thread = g_thread_new ("drain", drain_thread, &drain);
  while (fmd_streams_get_n_streams (streams) > 0)
    g_main_context_iteration (NULL, TRUE);
  t2 = thread_cpu_ns ();
  g_thread_join (thread);

  g_print ("%s: %u events, CPU an event: append %.0f ns, replay %.0f ns (%zu bytes, sha256 %s)\n",
           mix ? "mix" : "single", N_EVENTS, (t1 - t0) / N_EVENTS, (t2 - t1) / N_EVENTS,
           drain.bytes, g_checksum_get_string (drain.sum));
  g_checksum_free (drain.sum);

  save_all (ring, &saved);
  g_print ("%s: saved %zu bytes of jsonl, sha256 %s\n", mix ? "mix" : "single", saved.bytes,
           g_checksum_get_string (saved.sum));
  g_checksum_free (saved.sum);
  return 0;
}
