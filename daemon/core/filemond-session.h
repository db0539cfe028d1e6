/* filemond-session.h: the capture controller: at most one capture at a time, its backend,
 * its state machine and its counters. Events from the backend are filtered (the options
 * are enforced here too, whatever the backend did) and appended to the ring, which gives
 * them their sequence numbers.
 *
 * States: idle -> starting (Start) -> running (first probe fired) -> stopping (Stop) ->
 * idle; starting/running -> failed (the backend ended on its own). While starting, a
 * backend that builds something first (stap compiling its module) is "compiling", with
 * its progress in "progress", and back to starting when the build is done. Start is
 * allowed from idle and failed; Stop from starting, compiling and running.
 */
#pragma once

#include <glib-object.h>

#include "filemond-backend-registry.h"
#include "filemond-config.h"
#include "filemond-options.h"
#include "filemond-ring.h"

G_BEGIN_DECLS

typedef enum {
  FMD_STATE_IDLE,
  FMD_STATE_STARTING,
  FMD_STATE_COMPILING,
  FMD_STATE_RUNNING,
  FMD_STATE_STOPPING,
  FMD_STATE_FAILED,
} FmdState;

const char *fmd_state_to_string (FmdState state);
/* TRUE from Start until the capture stops or fails: compiling is part of starting. */
gboolean fmd_state_is_capturing (FmdState state);

#define FMD_TYPE_SESSION (fmd_session_get_type ())
G_DECLARE_FINAL_TYPE (FmdSession, fmd_session, FMD, SESSION, GObject)

/* @config and @ring must outlive the session; @registry (a reference is kept) holds the
 * backends it chooses from. Properties (notify is emitted on change): "state" (FmdState as
 * int), "progress", "backend-name", "last-error", "started-at", "options", "dropped-count",
 * "available-backends". The event count changes too often to notify: poll it. */
FmdSession *fmd_session_new (const FmdConfig    *config,
                             FmdBackendRegistry *registry,
                             FmdRing            *ring);

/* Starts a capture with @options (copied). FM_ERROR_ALREADY_RUNNING,
 * FM_ERROR_BACKEND_UNAVAILABLE or FM_ERROR_BACKEND_FAILED otherwise. */
gboolean fmd_session_start (FmdSession        *self,
                            const FmdOptions  *options,
                            GError           **error);
/* Begins stopping; FM_ERROR_NOT_RUNNING when no capture runs. State reaches idle when the
 * backend has finished. */
gboolean fmd_session_stop (FmdSession *self,
                           GError    **error);

FmdState fmd_session_get_state (FmdSession *self);
/* The registry Start's "backend" option names a type of. */
FmdBackendRegistry *fmd_session_get_registry (FmdSession *self);
/* What "compiling" is at, e.g. "stap pass 4 of 4: compiling the kernel module"; "" in
 * any other state. */
const char *fmd_session_get_progress (FmdSession *self);
/* "stap", "bpf", or "" before the first capture. */
const char *fmd_session_get_backend_name (FmdSession *self);
const char *fmd_session_get_last_error (FmdSession *self);
/* µs since the epoch, 0 before the first capture. */
gint64 fmd_session_get_started_at (FmdSession *self);
/* The options of the current or last capture, NULL before the first. */
const FmdOptions *fmd_session_get_options (FmdSession *self);
/* Events appended to the ring since the daemon started. */
guint64 fmd_session_get_event_count (FmdSession *self);
/* Events lost before the ring: kernel side and unparseable backend output. */
guint64 fmd_session_get_dropped_count (FmdSession *self);
/* Events the backend delivered that the options filtered out. */
guint64 fmd_session_get_filtered_count (FmdSession *self);
/* a{ss}: each backend -> "" when it can run here, else why not. */
GVariant *fmd_session_dup_available_backends (FmdSession *self);

G_END_DECLS
