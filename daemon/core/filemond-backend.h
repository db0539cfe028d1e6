/* filemond-backend.h: what the session needs from a running capture. Each backend
 * (backends/stap, backends/bpf) implements these vfuncs; nothing above this interface
 * knows which one runs. Its type (filemond-backend-type.h) says whether it can run here
 * and makes one.
 *
 * Events flow through the FmdBackendSink callbacks, always on the main loop's thread.
 */
#pragma once

#include <glib-object.h>

#include "fm-event.h"
#include "filemond-config.h"
#include "filemond-options.h"

G_BEGIN_DECLS

typedef struct {
  /* One captured event; its seq is ignored (the session numbers events). The view is valid
   * during the call only. */
  void (*event) (const FmEvent *event, gpointer user_data);
  /* The capture is live: the first probe fired, or the backend is attached. */
  void (*running) (gpointer user_data);
  /* The backend builds what it runs (stap compiles a kernel module): @progress says how
   * far, for users; NULL when the build is done and what it built is being loaded. */
  void (*compiling) (const char *progress, gpointer user_data);
  /* @count more events were lost before they reached the daemon (kernel buffers full,
   * malformed backend output). */
  void (*dropped) (guint64 count, gpointer user_data);
  /* The backend stopped on its own (stap exited, BPF ring buffer broke); @error says why.
   * Not called after fmd_backend_stop(). */
  void (*failed) (const GError *error, gpointer user_data);
  /* fmd_backend_stop() finished: nothing of the backend is left running. */
  void (*stopped) (gpointer user_data);
} FmdBackendSink;

#define FMD_TYPE_BACKEND (fmd_backend_get_type ())
G_DECLARE_DERIVABLE_TYPE (FmdBackend, fmd_backend, FMD, BACKEND, GObject)

struct _FmdBackendClass {
  GObjectClass parent_class;

  /* Launches the capture. FALSE with FM_ERROR_BACKEND_UNAVAILABLE or
   * FM_ERROR_BACKEND_FAILED when it could not be launched at all. */
  gboolean (*start) (FmdBackend       *self,
                     const FmdOptions *options,
                     GError          **error);
  /* Begins stopping; sink->stopped is called when done (possibly before returning). */
  void (*stop) (FmdBackend *self);
};

void fmd_backend_set_sink (FmdBackend          *self,
                           const FmdBackendSink *sink,
                           gpointer              user_data);
gboolean fmd_backend_start (FmdBackend       *self,
                            const FmdOptions *options,
                            GError          **error);
void fmd_backend_stop (FmdBackend *self);

/* For subclasses: forward to the sink. */
void fmd_backend_emit_event (FmdBackend *self, const FmEvent *event);
void fmd_backend_emit_running (FmdBackend *self);
void fmd_backend_emit_compiling (FmdBackend *self, const char *progress);
void fmd_backend_emit_dropped (FmdBackend *self, guint64 count);
void fmd_backend_emit_failed (FmdBackend *self, const GError *error);
void fmd_backend_emit_stopped (FmdBackend *self);

G_END_DECLS
