/* fm-error.h: filemon's error domain, registered with D-Bus error names so that clients
 * match on org.filemond.Filemond1.Error.NotAuthorized rather than on message text. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  FM_ERROR_FAILED,               /* org.filemond.Filemond1.Error.Failed */
  FM_ERROR_NOT_AUTHORIZED,
  FM_ERROR_INVALID_ARGS,
  FM_ERROR_ALREADY_RUNNING,
  FM_ERROR_NOT_RUNNING,
  FM_ERROR_BACKEND_UNAVAILABLE,
  FM_ERROR_BACKEND_FAILED,
  FM_ERROR_IO,
  FM_ERROR_PARSE,                /* malformed input: backend line, filter text, jsonl, stream */
  FM_ERROR_AUTHORIZATION_UNAVAILABLE, /* polkit could not be asked: nothing is authorized */
} FmError;

#define FM_ERROR (fm_error_quark ())
GQuark fm_error_quark (void);

G_END_DECLS
