/* filemond-backend.h: what the session needs from a capture backend. Each backend
 * (filemond-backend-stap.c, filemond-backend-bpf.c) implements these vfuncs; nothing above
 * this interface knows which one runs.
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

/* The backends, and whether each can run here: NULL when it can, else a newly allocated
 * sentence saying what is missing ("stap: /usr/bin/stap not found"). */
FmdBackend *fmd_backend_stap_new (const FmdConfig *config);
/* For stap, the first call on a kernel also starts a trial build in the background
 * (filemond-stap-check.c): until its verdict is in, stap counts as usable; then
 * @notify, when not NULL and still alive, gets notify::available-backends. */
char *fmd_backend_stap_unavailable_reason (const FmdConfig *config,
                                           GObject         *notify);
FmdBackend *fmd_backend_bpf_new (const FmdConfig *config);
char *fmd_backend_bpf_unavailable_reason (const FmdConfig *config);

G_END_DECLS
