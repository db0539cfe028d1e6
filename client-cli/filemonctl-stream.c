/* filemonctl-stream.c: reading the daemon's binary stream (OpenStream) for watch and dump;
 * see filemonctl-stream.h.
 *
 * The socket is read in large chunks from the main loop (so SIGINT and SIGTERM, handled
 * through g_unix_signal_add, end it cleanly whichever thread the signal lands on), and
 * everything one chunk produced goes out in one write. */
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>

#include <glib-unix.h>

#include "filemonctl-stream.h"
#include "fm-stream.h"

#define READ_CHUNK (256 * 1024)

typedef struct {
  const FmctlStreamPrint *how;
  GMainLoop *loop;
  FmStreamDecoder *decoder;
  guint8 *chunk;
  GError *error;          /* what ended the reading, if it failed */
  gboolean at_end;        /* the daemon closed the stream */
  guint64 dropped_total;
  guint fd_id;            /* the fd watch, 0 once removed */
  guint32 self_pid;       /* 0: none left out */
  guint64 printed;
} Reader;

static gboolean
on_event (const FmEvent *event, gpointer user_data)
{
  Reader *self = user_data;

  /* watch's own reads and writes would feed back into what it shows, line after line */
  if (event->pid == self->self_pid || !fm_filter_match (self->how->filter, event))
    return TRUE;
  if (!fmctl_printer_event (self->how->printer, event, &self->error))
    return FALSE;
  /* FALSE stops the decoder here: nothing after the last wanted event is printed */
  return self->how->count == 0 || ++self->printed < self->how->count;
}

/* A note among the events (on stderr with --json); nothing once printing failed. */
static void G_GNUC_PRINTF (2, 3)
print_note (Reader     *self,
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
  fmctl_printer_note (self->how->printer, note, &self->error);
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
  Reader *self = user_data;

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
  Reader *self = user_data;
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
      /* filemond ends a stream at the live edge when asked to, or when it exits (Stop
       * keeps streams open) */
      self->at_end = TRUE;
      g_main_loop_quit (self->loop);
      self->fd_id = 0;
      return G_SOURCE_REMOVE;
    }
  /* a callback that failed to write stops the decoder too: keep the first error */
  if (!fm_stream_decoder_feed (self->decoder, self->chunk, (gsize) n, &feed_error) &&
      self->error == NULL)
    self->error = g_steal_pointer (&feed_error);
  if (self->error != NULL || !fmctl_printer_flush (self->how->printer, &self->error) ||
      (self->how->count != 0 && self->printed == self->how->count))
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
  Reader *self = user_data;

  g_main_loop_quit (self->loop);
  return G_SOURCE_CONTINUE;
}

/* The stream's descriptor from OpenStream, or -1 with @error. */
static int
open_stream (const FmctlStreamPrint *how,
             GError                **error)
{
  g_auto(GVariantBuilder) options = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GUnixFDList) fd_list = NULL;
  gint32 handle;

  proxy = fmctl_connect (error);
  if (proxy == NULL)
    return -1;
  if (how->has_since)
    g_variant_builder_add (&options, "{sv}", "since-seq", g_variant_new_uint64 (how->since_seq));
  if (!how->follow)
    g_variant_builder_add (&options, "{sv}", "follow", g_variant_new_boolean (FALSE));
  reply = fmctl_call (proxy, "OpenStream", g_variant_new ("(a{sv})", &options),
                      G_VARIANT_TYPE ("(h)"), NULL, &fd_list, error);
  if (reply == NULL)
    return -1;
  g_variant_get (reply, "(h)", &handle);
  if (fd_list == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "filemond answered OpenStream without a file descriptor");
      return -1;
    }
  return g_unix_fd_list_get (fd_list, handle, error);
}

int
fmctl_stream_print (const char             *command,
                    const FmctlStreamPrint *how)
{
  static const FmStreamCallbacks callbacks = { on_event, on_gap, on_dropped, on_capture };
  g_autoptr(FmStreamDecoder) decoder = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *chunk = NULL;
  Reader reader = { 0 };
  guint sigint_id, sigterm_id;
  int fd, rc = FMCTL_EXIT_OK;

  fd = open_stream (how, &error);
  if (fd < 0)
    return fmctl_error_exit (command, error);
  /* no more password prompts: let the agent go */
  fmctl_agent_unregister ();

  decoder = fm_stream_decoder_new (&callbacks, &reader);
  loop = g_main_loop_new (NULL, FALSE);
  chunk = g_malloc (READ_CHUNK);
  reader.how = how;
  reader.loop = loop;
  reader.self_pid = how->skip_self ? (guint32) getpid () : 0;
  reader.decoder = decoder;
  reader.chunk = chunk;

  reader.fd_id = g_unix_fd_add (fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_readable, &reader);
  sigint_id = g_unix_signal_add (SIGINT, on_signal, &reader);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &reader);
  g_main_loop_run (loop);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  if (reader.fd_id != 0)
    g_source_remove (reader.fd_id);
  close (fd);

  if (reader.error == NULL)
    fmctl_printer_flush (how->printer, &reader.error);
  if (reader.error == NULL && reader.at_end && !fm_stream_decoder_at_boundary (decoder))
    g_set_error (&reader.error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                 "the event stream ended in the middle of a record");
  if (reader.error != NULL)
    {
      /* the reader of our output went away (watch | head): not an error of ours */
      if (g_error_matches (reader.error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE))
        rc = FMCTL_EXIT_OK;
      else
        rc = fmctl_error_exit (command, reader.error);
      g_clear_error (&reader.error);
    }
  else if (reader.at_end && how->follow)
    {
      g_printerr ("filemonctl: %s: filemond closed the event stream (it exited); is it "
                  "running? Try 'systemctl status filemond'.\n", command);
      rc = FMCTL_EXIT_NO_DAEMON;
    }
  return rc;
}
