/* filemonctl-watch.c: `filemonctl watch [FILTER]`: reads the daemon's binary stream
 * (OpenStream), filters locally and prints as events arrive, with notes on gaps, drops and
 * captures stopped or started.
 *
 * The socket is read in large chunks from the main loop (so SIGINT and SIGTERM, handled
 * through g_unix_signal_add, end it cleanly whichever thread the signal lands on), and
 * everything one chunk produced goes out in one write. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>

#include <glib-unix.h>

#include "filemonctl-common.h"
#include "filemonctl-output.h"
#include "fm-stream.h"

#define READ_CHUNK (256 * 1024)

typedef struct {
  GMainLoop *loop;
  FmFilter *filter;
  FmctlPrinter *printer;
  FmStreamDecoder *decoder;
  guint8 *chunk;
  GError *error;          /* what ended the watch, if it failed */
  gboolean daemon_gone;
  guint64 dropped_total;
  guint fd_id;            /* the fd watch, 0 once removed */
  guint32 self_pid;
  guint64 count;          /* --count: stop after this many events printed, 0: never */
  guint64 printed;
} Watch;

static gboolean
on_event (const FmEvent *event, gpointer user_data)
{
  Watch *self = user_data;

  /* watch's own reads and writes would feed back into what it shows, line after line */
  if (event->pid == self->self_pid || !fm_filter_match (self->filter, event))
    return TRUE;
  if (!fmctl_printer_event (self->printer, event, &self->error))
    return FALSE;
  /* FALSE stops the decoder here: nothing after the last wanted event is printed */
  return self->count == 0 || ++self->printed < self->count;
}

/* A note among the events (on stderr with --json); nothing once printing failed. */
static void G_GNUC_PRINTF (2, 3)
print_note (Watch      *self,
            const char *format,
            ...)
{
  g_autofree char *note = NULL;
  va_list args;

  if (self->error != NULL)
    return;
  va_start (args, format);
  note = g_strdup_vprintf (format, args);
  va_end (args);
  fmctl_printer_note (self->printer, note, &self->error);
}

static void
on_gap (guint64 first_seq, guint64 count, gpointer user_data)
{
  print_note (user_data, "missed %" G_GUINT64_FORMAT " events (seq %" G_GUINT64_FORMAT
              " to %" G_GUINT64_FORMAT "): this reader fell behind",
              count, first_seq, first_seq + count - 1);
}

static void
on_dropped (guint64 total, gpointer user_data)
{
  Watch *self = user_data;

  if (total <= self->dropped_total)
    return;
  print_note (self, "the capture lost %" G_GUINT64_FORMAT " events (%" G_GUINT64_FORMAT
              " in all): the kernel or backend buffers were full",
              total - self->dropped_total, total);
  self->dropped_total = total;
}

static void
on_capture (FmCaptureChange change, guint64 next_seq, gpointer user_data)
{
  /* the capture is shared: someone else may have stopped it, or restarted it with other
   * options, and the watcher would otherwise just fall silent or change under the user */
  if (change == FM_CAPTURE_STOPPED)
    print_note (user_data, "the capture stopped before seq %" G_GUINT64_FORMAT
                ": this watch goes on and shows the next one", next_seq);
  else
    print_note (user_data, "a capture started at seq %" G_GUINT64_FORMAT
                ": 'filemonctl status' shows its options", next_seq);
}

static gboolean
on_readable (int fd, GIOCondition condition, gpointer user_data)
{
  Watch *self = user_data;
  g_autoptr(GError) feed_error = NULL;
  ssize_t n;

  n = read (fd, self->chunk, READ_CHUNK);
  if (n < 0)
    {
      int saved = errno;

      if (saved == EINTR || saved == EAGAIN)
        return G_SOURCE_CONTINUE;
      g_set_error (&self->error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "reading the event stream: %s", g_strerror (saved));
      g_main_loop_quit (self->loop);
      self->fd_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (n == 0)
    {
      /* filemond ends streams only when it exits (Stop keeps them open) */
      self->daemon_gone = TRUE;
      g_main_loop_quit (self->loop);
      self->fd_id = 0;
      return G_SOURCE_REMOVE;
    }
  /* a callback that failed to write stops the decoder too: keep the first error */
  if (!fm_stream_decoder_feed (self->decoder, self->chunk, (gsize) n, &feed_error) &&
      self->error == NULL)
    self->error = g_steal_pointer (&feed_error);
  if (self->error != NULL || !fmctl_printer_flush (self->printer, &self->error) ||
      (self->count != 0 && self->printed == self->count))
    {
      g_main_loop_quit (self->loop);
      self->fd_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_signal (gpointer user_data)
{
  Watch *self = user_data;

  g_main_loop_quit (self->loop);
  return G_SOURCE_CONTINUE;
}

int
fmctl_cmd_watch (int argc, char **argv)
{
  g_autofree char *since = NULL, *color = NULL, *count = NULL, *fields_help = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "since", 0, 0, G_OPTION_ARG_STRING, &since,
      "First print the buffered events from this sequence number ('start': all of them)", "SEQ" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      "Print JSON Lines (notes about gaps, drops and the capture go to stderr)", NULL },
    { "color", 0, 0, G_OPTION_ARG_STRING, &color,
      "Failed calls in red: auto (on a terminal, unless NO_COLOR is set), always, never", "WHEN" },
    { "count", 'n', 0, G_OPTION_ARG_STRING, &count,
      "Exit after printing N matching events", "N" },
    { NULL }
  };
  static const FmStreamCallbacks callbacks = { on_event, on_gap, on_dropped, on_capture };
  g_autoptr(GOptionContext) context = g_option_context_new ("[FILTER]");
  g_auto(GVariantBuilder) options = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autoptr(FmFilter) filter = NULL;
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GUnixFDList) fd_list = NULL;
  g_autoptr(FmctlPrinter) printer = NULL;
  g_autoptr(FmStreamDecoder) decoder = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *chunk = NULL;
  Watch watch = { 0 };
  guint64 since_seq = 0;
  gboolean use_color;
  gint32 handle;
  guint sigint_id, sigterm_id;
  int fd, rc = FMCTL_EXIT_OK;

  g_option_context_set_summary (context,
    "Prints the captured events as they happen, those matching FILTER when given, e.g.\n"
    "  filemonctl watch 'comm=sshd and result<0'\n"
    "  filemonctl watch errno=EACCES or errno=EPERM\n"
    "  filemonctl watch \"path~'^/etc/'\"\n"
    "Operators = != < <= > >= ~ (regex); and, or, not, parentheses; a bare word or\n"
    "/regex/ matches anywhere. The fields are below; see filemonctl(1).");
  fields_help = fmctl_filter_fields_help ();
  g_option_context_set_description (context, fields_help);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!fmctl_parse_options (context, "watch", &argc, &argv))
    return FMCTL_EXIT_USAGE;
  if (since != NULL && !fmctl_parse_since (since, &since_seq))
    return fmctl_usage_error ("watch", "--since: '%s' is neither a sequence number nor 'start'",
                              since);
  if (count != NULL &&
      !g_ascii_string_to_unsigned (count, 10, 1, G_MAXUINT64, &watch.count, NULL))
    return fmctl_usage_error ("watch", "--count: '%s' is not a number of events (1 or more)",
                              count);
  if (!fmctl_decide_color (color, STDOUT_FILENO, &use_color))
    return fmctl_usage_error ("watch", "--color: '%s' is not auto, always or never", color);
  filter = fmctl_compile_filter ("watch", argc - 1, argv + 1);
  if (filter == NULL)
    return FMCTL_EXIT_USAGE;

  proxy = fmctl_connect (&error);
  if (proxy == NULL)
    return fmctl_error_exit ("watch", error);
  if (since != NULL)
    g_variant_builder_add (&options, "{sv}", "since-seq", g_variant_new_uint64 (since_seq));
  reply = fmctl_call (proxy, "OpenStream", g_variant_new ("(a{sv})", &options),
                      G_VARIANT_TYPE ("(h)"), NULL, &fd_list, &error);
  if (reply == NULL)
    return fmctl_error_exit ("watch", error);
  g_variant_get (reply, "(h)", &handle);
  if (fd_list == NULL)
    {
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "filemond answered OpenStream without a file descriptor");
      return fmctl_error_exit ("watch", error);
    }
  fd = g_unix_fd_list_get (fd_list, handle, &error);
  if (fd < 0)
    return fmctl_error_exit ("watch", error);
  g_clear_object (&fd_list);
  /* no more password prompts: let the agent go */
  fmctl_agent_unregister ();

  printer = fmctl_printer_new (STDOUT_FILENO, json ? FM_FORMAT_JSONL : FM_FORMAT_TEXT, use_color);
  decoder = fm_stream_decoder_new (&callbacks, &watch);
  loop = g_main_loop_new (NULL, FALSE);
  chunk = g_malloc (READ_CHUNK);
  watch.loop = loop;
  watch.filter = filter;
  watch.self_pid = (guint32) getpid ();
  watch.printer = printer;
  watch.decoder = decoder;
  watch.chunk = chunk;

  watch.fd_id = g_unix_fd_add (fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_readable, &watch);
  sigint_id = g_unix_signal_add (SIGINT, on_signal, &watch);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &watch);
  g_main_loop_run (loop);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  if (watch.fd_id != 0)
    g_source_remove (watch.fd_id);
  close (fd);

  if (watch.error == NULL)
    fmctl_printer_flush (printer, &watch.error);
  if (watch.error != NULL)
    {
      /* the reader of our output went away (watch | head): not an error of ours */
      if (g_error_matches (watch.error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE))
        rc = FMCTL_EXIT_OK;
      else
        rc = fmctl_error_exit ("watch", watch.error);
      g_clear_error (&watch.error);
    }
  else if (watch.daemon_gone)
    {
      g_printerr ("filemonctl: watch: filemond closed the event stream (it exited); is it "
                  "running? Try 'systemctl status filemond'.\n");
      rc = FMCTL_EXIT_NO_DAEMON;
    }
  return rc;
}
