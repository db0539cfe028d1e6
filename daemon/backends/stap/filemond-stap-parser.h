/* filemond-stap-parser.h: the strict parser of the stap script's output lines (protocol in
 * filemond-stap-script.h). A malformed or truncated line is an error the backend counts
 * as a drop; it never yields a wrong event. */
#pragma once

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

typedef struct _FmdStapParser FmdStapParser;

typedef enum {
  FMD_STAP_LINE_READY,   /* "R": the module is live */
  FMD_STAP_LINE_EVENT,   /* "E ...": one event */
} FmdStapLineKind;

FmdStapParser *fmd_stap_parser_new (void);
void fmd_stap_parser_free (FmdStapParser *parser);

/* Parses one line, without its newline. For an event, @event is a view into the parser,
 * valid until the next call; its seq is 0. FM_ERROR_PARSE says what is wrong. */
gboolean fmd_stap_parser_parse_line (FmdStapParser   *parser,
                                     const char      *line,
                                     gsize            len,
                                     FmdStapLineKind *kind,
                                     FmEvent         *event,
                                     GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdStapParser, fmd_stap_parser_free)

G_END_DECLS
