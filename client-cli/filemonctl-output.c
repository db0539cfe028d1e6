/* filemonctl-output.c: event output for watch and dump. The fm-format writers escape
 * every control character (text: \xNN), so a file name cannot reach the terminal as an
 * escape sequence; the only escapes on the wire are the colours we add ourselves. */
#include "filemonctl-output.h"

#include <unistd.h>

#include "filemonctl-common.h"

/* Big writes: at full rate one write(2) carries hundreds of lines. */
#define FLUSH_THRESHOLD (256 * 1024)

#define COLOR_FAILED "\033[31m"
#define COLOR_NOTE   "\033[33m"
#define COLOR_RESET  "\033[0m"

struct _FmctlPrinter {
  int fd;
  FmFormat format;
  gboolean color;
  GString *buffer;
};

FmctlPrinter *
fmctl_printer_new (int fd, FmFormat format, gboolean color)
{
  FmctlPrinter *printer = g_new0 (FmctlPrinter, 1);

  printer->fd = fd;
  printer->format = format;
  printer->color = color && format == FM_FORMAT_TEXT;
  printer->buffer = g_string_sized_new (FLUSH_THRESHOLD + 8192);
  return printer;
}

void
fmctl_printer_free (FmctlPrinter *printer)
{
  if (printer == NULL)
    return;
  g_string_free (printer->buffer, TRUE);
  g_free (printer);
}

void
fmctl_printer_header (FmctlPrinter *printer)
{
  const char *header = fm_format_header (printer->format);

  if (header != NULL)
    g_string_append (printer->buffer, header);
}

gboolean
fmctl_printer_flush (FmctlPrinter *printer, GError **error)
{
  gboolean ok;

  if (printer->buffer->len == 0)
    return TRUE;
  ok = fmctl_write_all (printer->fd, printer->buffer->str, printer->buffer->len, error);
  g_string_truncate (printer->buffer, 0);
  return ok;
}

static gboolean
maybe_flush (FmctlPrinter *printer, GError **error)
{
  if (printer->buffer->len < FLUSH_THRESHOLD)
    return TRUE;
  return fmctl_printer_flush (printer, error);
}

gboolean
fmctl_printer_event (FmctlPrinter *printer, const FmEvent *event, GError **error)
{
  GString *out = printer->buffer;

  if (printer->color && event->result < 0)
    {
      gsize start = out->len;

      g_string_append (out, COLOR_FAILED);
      fm_format_event (printer->format, event, out);
      /* the reset goes before the newline, so a pager never carries the red over */
      if (out->len > start && out->str[out->len - 1] == '\n')
        g_string_truncate (out, out->len - 1);
      g_string_append (out, COLOR_RESET "\n");
    }
  else
    fm_format_event (printer->format, event, out);
  return maybe_flush (printer, error);
}

gboolean
fmctl_printer_note (FmctlPrinter *printer, const char *note, GError **error)
{
  if (printer->format != FM_FORMAT_TEXT)
    {
      /* keep the order with the events printed so far */
      if (!fmctl_printer_flush (printer, error))
        return FALSE;
      g_printerr ("filemonctl: %s\n", note);
      return TRUE;
    }
  if (printer->color)
    g_string_append_printf (printer->buffer, COLOR_NOTE "-- %s --" COLOR_RESET "\n", note);
  else
    g_string_append_printf (printer->buffer, "-- %s --\n", note);
  return maybe_flush (printer, error);
}
