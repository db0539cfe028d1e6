/* filemonctl-dump.c: `filemonctl dump [FILTER]`: the buffered events, then exit.
 *
 * The daemon writes into a pipe that we read WHILE the Save call is in flight: it writes
 * from a thread and replies only when everything is written, so waiting for the reply
 * before reading would deadlock once the pipe is full. jsonl and csv without a filter
 * pass through untouched, as the daemon rendered them; otherwise we ask for the lossless
 * jsonl, filter each event here and render it again (text always: its times are local,
 * and the user's time zone is not necessarily the daemon's). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>

#include "filemonctl-common.h"
#include "filemonctl-output.h"
#include "fm-error.h"

#define READ_CHUNK (256 * 1024)

typedef struct {
  GMainLoop *loop;
  FmFilter *filter;         /* NULL: pass the daemon's bytes through */
  FmctlPrinter *printer;
  FmJsonlReader *reader;
  GString *pending;         /* bytes of a line not complete yet */
  guint8 *chunk;
  guint fd_id;
  gboolean eof;
  gboolean replied;
  GError *call_error;       /* Save failed */
  GError *error;            /* reading, parsing or writing failed */
  guint64 line_number;
} Dump;

static void
maybe_quit (Dump *self)
{
  /* done when the daemon replied and its end of the pipe is closed; at once on errors */
  if ((self->eof && self->replied) || self->call_error != NULL || self->error != NULL)
    g_main_loop_quit (self->loop);
}

static gboolean
process_lines (Dump *self, gboolean at_end)
{
  const char *start = self->pending->str;
  const char *end = start + self->pending->len;
  const char *nl;
  FmEvent event;

  while (start < end)
    {
      gsize len;

      nl = memchr (start, '\n', (gsize) (end - start));
      if (nl == NULL && !at_end)
        break;
      len = (gsize) ((nl != NULL ? nl : end) - start);
      self->line_number++;
      if (len > 0)
        {
          g_autoptr(GError) error = NULL;

          if (!fm_jsonl_reader_parse_line (self->reader, start, len, &event, &error))
            {
              g_set_error (&self->error, FM_ERROR, FM_ERROR_PARSE,
                           "filemond's jsonl, line %" G_GUINT64_FORMAT ": %s",
                           self->line_number, error->message);
              return FALSE;
            }
          if (fm_filter_match (self->filter, &event) &&
              !fmctl_printer_event (self->printer, &event, &self->error))
            return FALSE;
        }
      start += len + (nl != NULL ? 1 : 0);
    }
  g_string_erase (self->pending, 0, (gssize) (start - self->pending->str));
  return TRUE;
}

static gboolean
on_readable (int fd, GIOCondition condition, gpointer user_data)
{
  Dump *self = user_data;
  ssize_t n = read (fd, self->chunk, READ_CHUNK);

  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return G_SOURCE_CONTINUE;
  if (n < 0)
    {
      int saved = errno;

      g_set_error (&self->error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "reading from filemond: %s", g_strerror (saved));
    }
  else if (n == 0)
    {
      self->eof = TRUE;
      if (self->filter != NULL && process_lines (self, TRUE))
        fmctl_printer_flush (self->printer, &self->error);
    }
  else if (self->filter == NULL)
    fmctl_printer_raw (self->printer, (const char *) self->chunk, (gsize) n, &self->error);
  else
    {
      g_string_append_len (self->pending, (const char *) self->chunk, n);
      if (process_lines (self, FALSE))
        fmctl_printer_flush (self->printer, &self->error);
    }
  if (self->eof || self->error != NULL)
    {
      self->fd_id = 0;
      maybe_quit (self);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
on_saved (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Dump *self = user_data;
  g_autoptr(GVariant) reply = NULL;

  reply = g_dbus_proxy_call_with_unix_fd_list_finish (G_DBUS_PROXY (source), NULL, result,
                                                      &self->call_error);
  self->replied = TRUE;
  maybe_quit (self);
}

int
fmctl_cmd_dump (int argc, char **argv)
{
  g_autofree char *since = NULL, *format_name = NULL, *color = NULL;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name,
      "Output format: text (default), jsonl or csv", "FORMAT" },
    { "since", 0, 0, G_OPTION_ARG_STRING, &since,
      "Only the events from this sequence number on", "SEQ" },
    { "color", 0, 0, G_OPTION_ARG_STRING, &color,
      "Failed calls in red (text): auto, always, never", "WHEN" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[FILTER]");
  g_auto(GVariantBuilder) options = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autoptr(FmFilter) filter = NULL;
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GUnixFDList) fd_list = NULL;
  g_autoptr(FmctlPrinter) printer = NULL;
  g_autoptr(FmJsonlReader) reader = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GString) pending = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *chunk = NULL;
  Dump dump = { 0 };
  FmFormat format = FM_FORMAT_TEXT;
  guint64 since_seq = 0;
  gboolean use_color, rerender;
  int fds[2];
  int rc = FMCTL_EXIT_OK;

  g_option_context_set_summary (context,
    "Prints the events in filemond's buffer, those matching FILTER when given, and exits.\n"
    "The filter language is the one of 'filemonctl watch --help'.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!fmctl_parse_options (context, "dump", &argc, &argv))
    return FMCTL_EXIT_USAGE;
  if (format_name != NULL && !fm_format_from_string (format_name, &format))
    return fmctl_usage_error ("dump", "--format: '%s' is not text, jsonl or csv", format_name);
  if (since != NULL && !fmctl_parse_since (since, &since_seq))
    return fmctl_usage_error ("dump", "--since: '%s' is neither a sequence number nor 'start'",
                              since);
  if (!fmctl_decide_color (color, STDOUT_FILENO, &use_color))
    return fmctl_usage_error ("dump", "--color: '%s' is not auto, always or never", color);
  filter = fmctl_compile_filter ("dump", argc - 1, argv + 1);
  if (filter == NULL)
    return FMCTL_EXIT_USAGE;
  /* text shows local times: rendered here, in the user's time zone, not the daemon's */
  rerender = argc > 1 || format == FM_FORMAT_TEXT;

  proxy = fmctl_connect (&error);
  if (proxy == NULL)
    return fmctl_error_exit ("dump", error);

  if (!g_unix_open_pipe (fds, FD_CLOEXEC, &error) ||
      !g_unix_set_fd_nonblocking (fds[0], TRUE, &error))
    return fmctl_error_exit ("dump", error);
  /* the list owns the write end: once the message is sent, only the daemon holds one,
   * and its closing is our end of file */
  fd_list = g_unix_fd_list_new_from_array (&fds[1], 1);
  if (since != NULL)
    g_variant_builder_add (&options, "{sv}", "since-seq", g_variant_new_uint64 (since_seq));

  printer = fmctl_printer_new (STDOUT_FILENO, format, use_color);
  if (rerender)
    {
      reader = fm_jsonl_reader_new ();
      fmctl_printer_header (printer);
    }
  loop = g_main_loop_new (NULL, FALSE);
  pending = g_string_sized_new (READ_CHUNK);
  chunk = g_malloc (READ_CHUNK);
  dump.loop = loop;
  dump.filter = rerender ? filter : NULL;
  dump.printer = printer;
  dump.reader = reader;
  dump.pending = pending;
  dump.chunk = chunk;

  fmctl_call_async (proxy, "Save",
                    g_variant_new ("(hsa{sv})", 0,
                                   fm_format_to_string (rerender ? FM_FORMAT_JSONL : format),
                                   &options),
                    fd_list, on_saved, &dump);
  g_clear_object (&fd_list);
  dump.fd_id = g_unix_fd_add (fds[0], G_IO_IN | G_IO_HUP | G_IO_ERR, on_readable, &dump);
  g_main_loop_run (loop);
  if (dump.fd_id != 0)
    g_source_remove (dump.fd_id);
  close (fds[0]);

  if (dump.call_error != NULL)
    rc = fmctl_error_exit ("dump", dump.call_error);
  else if (dump.error != NULL &&
           !g_error_matches (dump.error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE))
    rc = fmctl_error_exit ("dump", dump.error);
  g_clear_error (&dump.call_error);
  g_clear_error (&dump.error);
  return rc;
}
