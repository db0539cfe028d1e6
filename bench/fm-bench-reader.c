/* fm-bench-reader.c: one reader of filemond for the benchmark, through OpenStream (the
 * binary stream, decoded with common's FmStreamDecoder) or through Events signals (received
 * with GDBus, or with sd-bus: fm-bench-reader-sdbus.c), that counts what it receives and
 * when: events per second one reader gets, time to the first event after Start, and loss
 * (gap records, Dropped signals, holes in the sequence).
 *
 *   fm-bench-reader --mode=stream|signals|signals-sd-bus [--since=SEQ] [--count=N] [--comm=NAME]
 *                   [--idle=S] [--timeout=S] [--ready-file=F]
 *
 * Ends after N events (received plus missed), after S seconds without data once something
 * arrived (--idle, default 2), after --timeout seconds in all, or on SIGTERM/SIGINT. With
 * --comm, the events of processes of that name (the load generator) are counted apart,
 * with their own first and last arrival times, and --idle waits for those only: the rest
 * of the machine keeps making events, so "no data" would never come. Writes
 * --ready-file once the stream is open or the subscription active, so that a script can
 * start the load only then. Prints key=value lines: events, comm_events, missed (gap
 * records or Dropped signals), dropped (the capture's own drop counter, stream only),
 * seq_holes, t_ready, t_first, t_last, t_comm_first, t_comm_last (CLOCK_REALTIME seconds,
 * comparable with `date +%s.%N`). */
#include <errno.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <glib-unix.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fm-bench-reader.h"
#include "fm-stream.h"

volatile sig_atomic_t stop_requested;

double
now_real (void)
{
  return g_get_real_time () / 1e6;
}

void
seen_seq (Reader *r, guint64 seq, const char *comm)
{
  double t = now_real ();

  if (r->events == 0)
    r->t_first = t;
  else if (seq > r->last_seq + 1)
    r->holes += seq - r->last_seq - 1;
  r->last_seq = seq;
  r->events++;
  r->t_last = t;
  if (r->comm == NULL || g_strcmp0 (comm, r->comm) == 0)
    {
      if (r->comm_events == 0)
        r->t_comm_first = t;
      r->comm_events++;
      r->t_comm_last = t;
      r->last_data_us = g_get_monotonic_time ();
    }
}

static gboolean
reached_count (Reader *r)
{
  return r->count != 0 && r->events + r->missed >= r->count;
}

gboolean
reader_done (Reader *r, gint64 start_us, double idle, double timeout)
{
  gint64 t = g_get_monotonic_time ();

  return stop_requested || reached_count (r) || (timeout > 0 && t - start_us > timeout * 1e6) ||
         (r->comm_events > 0 && t - r->last_data_us > idle * 1e6);
}

static gboolean
on_stream_event (const FmEvent *event, gpointer user_data)
{
  seen_seq (user_data, event->seq, event->comm);
  return TRUE;
}

static void
on_stream_gap (guint64 first_seq, guint64 count, gpointer user_data)
{
  Reader *r = user_data;

  r->missed += count;
  /* the hole the gap explains is not a hole of the stream */
  if (r->events > 0 && first_seq == r->last_seq + 1)
    r->last_seq = first_seq + count - 1;
}

static void
on_stream_dropped (guint64 total, gpointer user_data)
{
  ((Reader *) user_data)->dropped = total;
}

static void
on_stop_signal (int signum)
{
  stop_requested = 1;
}

static gboolean
read_stream (Reader *r, int fd, double idle, double timeout, GError **error)
{
  static const FmStreamCallbacks callbacks = { on_stream_event, on_stream_gap, on_stream_dropped };
  g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&callbacks, r);
  g_autofree guint8 *buf = g_malloc (1 << 20);
  gint64 start = g_get_monotonic_time ();

  while (!reader_done (r, start, idle, timeout))
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      ssize_t n;
      int ready;

      ready = poll (&pfd, 1, 100);
      if (ready < 0 && errno != EINTR)
        return g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "poll: %s",
                            g_strerror (errno)), FALSE;
      if (ready <= 0)
        continue;
      n = read (fd, buf, 1 << 20);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n < 0)
        return g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "read: %s",
                            g_strerror (errno)), FALSE;
      if (n == 0)
        break;   /* filemond exited */
      if (!fm_stream_decoder_feed (decoder, buf, (gsize) n, error))
        return FALSE;
    }
  return TRUE;
}

static void
on_signal (GDBusConnection *connection, const char *sender, const char *path,
           const char *interface, const char *signal, GVariant *parameters,
           gpointer user_data)
{
  Reader *r = user_data;

  if (g_strcmp0 (signal, "Events") == 0)
    {
      g_autoptr(GVariant) batch = g_variant_get_child_value (parameters, 0);
      GVariantIter iter;
      GVariant *child;

      g_variant_iter_init (&iter, batch);
      while ((child = g_variant_iter_next_value (&iter)) != NULL)
        {
          g_autoptr(GVariant) comm = g_variant_get_child_value (child, 7);
          guint64 seq;

          /* what a script would read of each record */
          g_variant_get_child (child, 0, "t", &seq);
          seen_seq (r, seq, g_variant_get_bytestring (comm));
          g_variant_unref (child);
        }
    }
  else if (g_strcmp0 (signal, "Dropped") == 0)
    {
      guint64 count;
      gboolean unsubscribed;

      g_variant_get (parameters, "(tb)", &count, &unsubscribed);
      r->missed += count;
      if (unsubscribed)
        g_main_loop_quit (r->loop);
    }
  if (reached_count (r))
    g_main_loop_quit (r->loop);
}

typedef struct {
  Reader *r;
  double idle, timeout;
  gint64 start;
} Ticker;

static gboolean
on_tick (gpointer user_data)
{
  Ticker *k = user_data;

  if (reader_done (k->r, k->start, k->idle, k->timeout))
    g_main_loop_quit (k->r->loop);
  return G_SOURCE_CONTINUE;
}

static void
print_counts (const Reader *r)
{
  printf ("events=%" G_GUINT64_FORMAT "\ncomm_events=%" G_GUINT64_FORMAT "\nmissed=%" G_GUINT64_FORMAT
          "\ndropped=%" G_GUINT64_FORMAT "\nseq_holes=%" G_GUINT64_FORMAT
          "\nt_ready=%.6f\nt_first=%.6f\nt_last=%.6f\nt_comm_first=%.6f\nt_comm_last=%.6f\n",
          r->events, r->comm_events, r->missed, r->dropped, r->holes, r->t_ready, r->t_first, r->t_last,
          r->t_comm_first, r->t_comm_last);
}

int
main (int argc, char **argv)
{
  g_autofree char *mode = NULL;
  g_autofree char *ready_file = NULL;
  g_autofree char *comm = NULL;
  gint64 since = -1, count = 0;
  double idle = 2, timeout = 0;
  GOptionEntry entries[] = {
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode, "stream or signals", "MODE" },
    { "since", 0, 0, G_OPTION_ARG_INT64, &since, "OpenStream since-seq", "SEQ" },
    { "count", 0, 0, G_OPTION_ARG_INT64, &count, "stop after N events", "N" },
    { "comm", 0, 0, G_OPTION_ARG_STRING, &comm, "count the events of this process name apart", "NAME" },
    { "idle", 0, 0, G_OPTION_ARG_DOUBLE, &idle, "stop after S s without data", "S" },
    { "timeout", 0, 0, G_OPTION_ARG_DOUBLE, &timeout, "stop after S s in all", "S" },
    { "ready-file", 0, 0, G_OPTION_ARG_FILENAME, &ready_file, "written once reading", "F" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- count what one reader of filemond gets");
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Reader r = { 0 };
  struct sigaction sa = { 0 };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      (g_strcmp0 (mode, "stream") != 0 && g_strcmp0 (mode, "signals") != 0 &&
       g_strcmp0 (mode, "signals-sd-bus") != 0))
    {
      g_printerr ("fm-bench-reader: %s\n",
                  error ? error->message : "--mode=stream|signals|signals-sd-bus");
      return 2;
    }
  r.comm = comm;
  r.count = (guint64) count;
  r.loop = loop;
  sa.sa_handler = on_stop_signal;   /* no SA_RESTART: poll returns at once */
  if (sigaction (SIGTERM, &sa, NULL) != 0 || sigaction (SIGINT, &sa, NULL) != 0)
    g_error ("sigaction: %s", g_strerror (errno));

  if (g_strcmp0 (mode, "signals-sd-bus") == 0)
    {
      if (!read_signals_sd_bus (&r, idle, timeout, ready_file, &error))
        {
          g_printerr ("fm-bench-reader: %s\n", error->message);
          return 1;
        }
      print_counts (&r);
      return 0;
    }

  bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  if (bus == NULL)
    {
      g_printerr ("fm-bench-reader: %s\n", error->message);
      return 1;
    }

  if (g_strcmp0 (mode, "stream") == 0)
    {
      g_autoptr(GVariantBuilder) options = g_variant_builder_new (G_VARIANT_TYPE_VARDICT);
      g_autoptr(GUnixFDList) fds = NULL;
      g_autoptr(GVariant) reply = NULL;
      gint32 index;
      int fd;

      if (since >= 0)
        g_variant_builder_add (options, "{sv}", "since-seq", g_variant_new_uint64 ((guint64) since));
      reply = g_dbus_connection_call_with_unix_fd_list_sync (bus, BUS_NAME, OBJECT_PATH, INTERFACE,
                                                             "OpenStream",
                                                             g_variant_new ("(a{sv})", options),
                                                             G_VARIANT_TYPE ("(h)"),
                                                             G_DBUS_CALL_FLAGS_NONE, -1, NULL,
                                                             &fds, NULL, &error);
      if (reply == NULL)
        {
          g_printerr ("fm-bench-reader: OpenStream: %s\n", error->message);
          return 1;
        }
      g_variant_get (reply, "(h)", &index);
      fd = g_unix_fd_list_get (fds, index, &error);
      if (fd < 0)
        {
          g_printerr ("fm-bench-reader: %s\n", error->message);
          return 1;
        }
      r.t_ready = now_real ();
      if (ready_file != NULL && !g_file_set_contents (ready_file, "", 0, &error))
        {
          g_printerr ("fm-bench-reader: %s\n", error->message);
          return 1;
        }
      if (!read_stream (&r, fd, idle, timeout, &error))
        {
          g_printerr ("fm-bench-reader: %s\n", error->message);
          close (fd);
          return 1;
        }
      close (fd);
    }
  else
    {
      g_autoptr(GVariant) reply = NULL;
      Ticker ticker = { &r, idle, timeout, g_get_monotonic_time () };
      guint tick_id;

      g_dbus_connection_signal_subscribe (bus, BUS_NAME, INTERFACE, NULL, OBJECT_PATH, NULL,
                                          G_DBUS_SIGNAL_FLAGS_NONE, on_signal, &r, NULL);
      reply = g_dbus_connection_call_sync (bus, BUS_NAME, OBJECT_PATH, INTERFACE, "Subscribe",
                                           g_variant_new ("(a{sv})", NULL), NULL,
                                           G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
      if (reply == NULL)
        {
          g_printerr ("fm-bench-reader: Subscribe: %s\n", error->message);
          return 1;
        }
      r.t_ready = now_real ();
      if (ready_file != NULL && !g_file_set_contents (ready_file, "", 0, &error))
        {
          g_printerr ("fm-bench-reader: %s\n", error->message);
          return 1;
        }
      tick_id = g_timeout_add (50, on_tick, &ticker);
      g_main_loop_run (loop);
      g_source_remove (tick_id);
    }

  print_counts (&r);
  return 0;
}
