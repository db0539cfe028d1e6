/* fm-event.h: the event record shared by the daemon, its backends and both clients.
 *
 * An FmEvent is a view: its strings point into memory owned by someone else (a backend's
 * read buffer, a stream record, a GVariant), so passing events around costs no allocation.
 * Strings are NUL-terminated and their lengths are given; comm, path and path2 are bytes
 * (Linux file names need not be UTF-8), detail is always valid UTF-8.
 */
#pragma once

#include <glib.h>

#include "fm-event-fields.h"

G_BEGIN_DECLS

/* One member per stored field of fm-event-fields.h, a string as a pointer and a length. */
typedef struct {
  FM_EVENT_FIELDS (FM_FIELD_MEMBER)
} FmEvent;

/* Fills the string fields from NUL-terminated strings (NULL means empty), for tests and
 * backends that hold C strings. Strings longer than their limits (fm-event-fields.h) are truncated. */
void fm_event_set_strings (FmEvent    *event,
                           const char *comm,
                           const char *path,
                           const char *path2,
                           const char *detail);

gboolean fm_event_equal (const FmEvent *a,
                         const FmEvent *b);

G_END_DECLS
