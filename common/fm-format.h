/* fm-format.h: the three save formats (text, jsonl, csv) and the jsonl reader.
 *
 * jsonl is the lossless one: one JSON object per line with every field. Strings that are
 * bytes (comm, path, path2) are written as JSON strings when they are valid UTF-8; a byte
 * that is not valid UTF-8 is written as the lone surrogate escape "\udcNN" (Python's
 * surrogateescape), which valid UTF-8 never produces. doc/formats.md documents it.
 */
#pragma once

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

typedef enum {
  FM_FORMAT_TEXT,
  FM_FORMAT_JSONL,
  FM_FORMAT_CSV,
} FmFormat;

/* "text", "jsonl", "csv" -> format; FALSE for anything else. */
gboolean fm_format_from_string (const char *name, FmFormat *format);
const char *fm_format_to_string (FmFormat format);

/* The first line of a csv file (the column names), with its CRLF; NULL for other formats. */
const char *fm_format_header (FmFormat format);

/* Appends one event, one line (with its line end) to @out. */
void fm_format_event (FmFormat format, const FmEvent *event, GString *out);

/* jsonl reader: parses one line (without its newline) into a view whose strings point into
 * @scratch (reset by each call); FALSE with FM_ERROR_PARSE naming the column otherwise. */
typedef struct _FmJsonlReader FmJsonlReader;
FmJsonlReader *fm_jsonl_reader_new (void);
void fm_jsonl_reader_free (FmJsonlReader *reader);
gboolean fm_jsonl_reader_parse_line (FmJsonlReader *reader,
                                     const char    *line,
                                     gsize          len,
                                     FmEvent       *event,
                                     GError       **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmJsonlReader, fm_jsonl_reader_free)

G_END_DECLS
