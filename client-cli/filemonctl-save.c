/* filemonctl-save.c: `filemonctl save FILE`: we open FILE with our own rights; filemond
 * never opens a path a client names. The daemon writes into a pipe and we copy it into
 * FILE: the pages of FILE are then ours, charged to our memory, not to filemond's (which
 * refuses a file kept in memory, such as one in a tmpfs /tmp, for that reason). */
#define _GNU_SOURCE   /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "filemonctl-common.h"
#include "fm-format.h"

/* The format a file name suggests: capture.csv is csv, capture.txt/.log text, else the
 * lossless jsonl that filemon-viewer opens. */
static FmFormat
format_for_name (const char *path)
{
  if (g_str_has_suffix (path, ".csv"))
    return FM_FORMAT_CSV;
  if (g_str_has_suffix (path, ".txt") || g_str_has_suffix (path, ".log"))
    return FM_FORMAT_TEXT;
  return FM_FORMAT_JSONL;
}

typedef struct {
  int from;
  int to;
  GError *error;
} Copy;

/* Copies the pipe into the file until the daemon closes its end. On a write error it
 * stops reading: the daemon then ends the save at once (the reader closed the pipe)
 * instead of waiting for a reader that will never come back. */
static gpointer
copy_thread (gpointer user_data)
{
  Copy *copy = user_data;
  char buf[64 * 1024];

  for (;;)
    {
      gssize n = read (copy->from, buf, sizeof buf);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (&copy->error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "reading from filemond: %s", g_strerror (saved_errno));
          break;
        }
      if (n == 0 || !fmctl_write_all (copy->to, buf, n, &copy->error))
        break;
    }
  close (copy->from);
  copy->from = -1;
  return NULL;
}

int
fmctl_cmd_save (int argc, char **argv)
{
  g_autofree char *format_name = NULL, *since = NULL;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name,
      "jsonl (lossless, opens in filemon-viewer), text or csv; default from the file name "
      "(.csv, .txt), else jsonl", "FORMAT" },
    { "since", 0, 0, G_OPTION_ARG_STRING, &since,
      "Only the events from this sequence number on", "SEQ" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  g_auto(GVariantBuilder) options = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GUnixFDList) fd_list = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *path;
  FmFormat format;
  gboolean created = TRUE;
  guint64 since_seq = 0, written;
  Copy copy = { -1, -1, NULL };
  GThread *thread;
  int fd, saved_errno;
  int p[2];

  g_option_context_set_summary (context, "Saves the events in filemond's buffer into FILE "
                                "(created or truncated, with your own rights).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!fmctl_parse_options (context, "save", &argc, &argv))
    return FMCTL_EXIT_USAGE;
  if (argc != 2)
    return fmctl_usage_error ("save", argc < 2 ? "FILE is missing" : "unexpected argument '%s'",
                              argc > 2 ? argv[2] : "");
  path = argv[1];
  format = format_for_name (path);
  if (format_name != NULL && !fm_format_from_string (format_name, &format))
    return fmctl_usage_error ("save", "--format: '%s' is not jsonl, text or csv", format_name);
  if (since != NULL && !fmctl_parse_since (since, &since_seq))
    return fmctl_usage_error ("save", "--since: '%s' is neither a sequence number nor 'start'",
                              since);

  proxy = fmctl_connect (&error);
  if (proxy == NULL)
    return fmctl_error_exit ("save", error);

  /* O_EXCL first, to know whether a failed save should remove what we created */
  fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST)
    {
      created = FALSE;
      fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    }
  if (fd < 0)
    {
      saved_errno = errno;
      g_printerr ("filemonctl: save: cannot open %s: %s\n", path, g_strerror (saved_errno));
      return FMCTL_EXIT_ERROR;
    }
  if (pipe2 (p, O_CLOEXEC) < 0)
    {
      saved_errno = errno;
      close (fd);
      if (created)
        (void) g_unlink (path);
      g_printerr ("filemonctl: save: cannot create a pipe: %s\n", g_strerror (saved_errno));
      return FMCTL_EXIT_ERROR;
    }
  copy.from = p[0];
  copy.to = fd;
  thread = g_thread_new ("filemonctl-save", copy_thread, &copy);

  /* the list takes the write end: once it and the daemon's copy are closed, the copy
   * sees the end of the pipe */
  fd_list = g_unix_fd_list_new_from_array (&p[1], 1);
  if (since != NULL)
    g_variant_builder_add (&options, "{sv}", "since-seq", g_variant_new_uint64 (since_seq));
  reply = fmctl_call (proxy, "Save",
                      g_variant_new ("(hsa{sv})", 0, fm_format_to_string (format), &options),
                      G_VARIANT_TYPE ("(t)"), fd_list, NULL, &error);
  g_clear_object (&fd_list);
  /* the daemon closes its end before it replies, error or not; a call that never reached
   * it (no bus) leaves none */
  g_thread_join (thread);
  if (close (fd) < 0 && copy.error == NULL)
    {
      saved_errno = errno;
      g_set_error (&copy.error, G_IO_ERROR, g_io_error_from_errno (saved_errno), "%s",
                   g_strerror (saved_errno));
    }
  if (reply == NULL || copy.error != NULL)
    {
      if (created)
        (void) g_unlink (path);
      if (copy.error != NULL)
        {
          g_printerr ("filemonctl: save: cannot write %s: %s\n", path, copy.error->message);
          g_clear_error (&copy.error);
          return FMCTL_EXIT_ERROR;
        }
      return fmctl_error_exit ("save", error);
    }
  g_variant_get (reply, "(t)", &written);
  printf ("Saved %" G_GUINT64_FORMAT " events to %s (%s).\n", written, path,
          fm_format_to_string (format));
  return FMCTL_EXIT_OK;
}
