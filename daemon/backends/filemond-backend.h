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

/* A kind of backend. The session knows backends only through these: Start's "backend"
 * option and AvailableBackends name them, "auto" tries them in the registry's order. */
typedef struct _FmdBackendType FmdBackendType;
struct _FmdBackendType {
  const char *name;
  /* NULL when the backend can run here, else a newly allocated sentence saying what is
   * missing ("stap: /usr/bin/stap not found"). A check that ends later (stap's trial build
   * on a new kernel) notifies @notify, when not NULL and still alive, with
   * notify::available-backends. */
  char *(*probe) (const FmdBackendType *type, const FmdConfig *config, GObject *notify);
  /* NULL when this build of filemond lacks the backend. */
  FmdBackend *(*create) (const FmdBackendType *type, const FmdConfig *config);
  /* Releases what the type keeps between captures (the bpf backend keeps a stopped
   * capture's loaded program for the next one); NULL when it keeps nothing. */
  void (*shutdown) (const FmdBackendType *type);
  gpointer user_data;   /* the type's own (tests' fakes) */
};

/* The backends of this build, NULL-terminated, in the order "auto" tries them. */
const FmdBackendType *const *fmd_backend_types (void);
/* The type of @types named @name; NULL when there is none. */
const FmdBackendType *fmd_backend_types_lookup (const FmdBackendType *const *types,
                                                const char                  *name);
/* TRUE for "auto" and the name of a backend of this build. */
gboolean fmd_backend_name_is_valid (const char *name);
/* "auto, stap or bpf", for messages (newly allocated). */
char *fmd_backend_names_list (void);
/* Every type's shutdown, before the process exits with its captures stopped. */
void fmd_backend_types_shutdown (void);

extern const FmdBackendType fmd_backend_type_stap;
extern const FmdBackendType fmd_backend_type_bpf;

G_END_DECLS
