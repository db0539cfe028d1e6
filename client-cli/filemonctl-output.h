/* filemonctl-output.h: how watch and dump print events: one of the fm-format writers into
 * a large buffer written with few write(2) calls, failed calls in red when asked, notes
 * (gaps, drops) inline in text and on stderr otherwise. */
#pragma once

#include <glib.h>

#include "fm-event.h"
#include "fm-format.h"

G_BEGIN_DECLS

typedef struct _FmctlPrinter FmctlPrinter;

/* Output goes to @fd; @color paints failed calls red (text format only). */
FmctlPrinter *fmctl_printer_new (int fd, FmFormat format, gboolean color);
void fmctl_printer_free (FmctlPrinter *printer);

/* Appends one event; writes when the buffer is large. FALSE with @error when writing
 * failed (G_IO_ERROR_BROKEN_PIPE when the reader went away). */
gboolean fmctl_printer_event (FmctlPrinter *printer, const FmEvent *event, GError **error);

/* A line about the stream itself (gap, drops): inline in text, on stderr otherwise so
 * that jsonl and csv stay machine-readable. */
gboolean fmctl_printer_note (FmctlPrinter *printer, const char *note, GError **error);

/* Appends the format's header line (csv), if it has one. */
void fmctl_printer_header (FmctlPrinter *printer);

/* Writes whatever is buffered. */
gboolean fmctl_printer_flush (FmctlPrinter *printer, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmctlPrinter, fmctl_printer_free)

G_END_DECLS
