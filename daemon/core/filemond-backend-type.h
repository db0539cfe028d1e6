/* filemond-backend-type.h: a kind of capture backend (stap, bpf): whether it can run here,
 * and making one. One instance of each lives in the daemon's registry
 * (filemond-backend-registry.h) and owns what the kind keeps between captures (stap's
 * trial build, the bpf program kept loaded for the next capture): disposing of it
 * releases that.
 *
 * A probe answers at once when it can (FMD_PROBE_SUCCESS, FMD_PROBE_FAIL with the
 * reason). When the answer takes long to find (stap's trial build of a kernel module), it
 * says FMD_PROBE_DEFER, finds out in the background and emits "probe-request" once
 * probing again tells; until then the backend counts as usable, as a Start then finds out
 * the same way. */
#pragma once

#include <glib-object.h>

#include "filemond-backend.h"
#include "filemond-config.h"

G_BEGIN_DECLS

typedef enum {
  FMD_PROBE_SUCCESS,
  FMD_PROBE_FAIL,
  FMD_PROBE_DEFER,
} FmdProbeResult;

#define FMD_TYPE_BACKEND_TYPE (fmd_backend_type_get_type ())
G_DECLARE_DERIVABLE_TYPE (FmdBackendType, fmd_backend_type, FMD, BACKEND_TYPE, GObject)

struct _FmdBackendTypeClass {
  GObjectClass parent_class;

  /* FMD_PROBE_FAIL sets @reason to a newly allocated sentence saying what is missing
   * ("stap: /usr/bin/stap not found"); the other results leave it NULL. */
  FmdProbeResult (*probe) (FmdBackendType   *self,
                           const FmdConfig  *config,
                           char            **reason);
  /* A new backend for one capture; NULL when this build of filemond lacks it. */
  FmdBackend *(*create) (FmdBackendType  *self,
                         const FmdConfig *config);
};

/* Start's "backend" option and AvailableBackends name a type by this (construct-only
 * property "name"). */
const char *fmd_backend_type_get_name (FmdBackendType *self);

FmdProbeResult fmd_backend_type_probe (FmdBackendType   *self,
                                       const FmdConfig  *config,
                                       char            **reason);
/* NULL when fmd_backend_type_probe() could never succeed in this build. */
FmdBackend *fmd_backend_type_create (FmdBackendType  *self,
                                     const FmdConfig *config);

/* For subclasses: a deferred probe has its answer; emits "probe-request". */
void fmd_backend_type_request_probe (FmdBackendType *self);

G_END_DECLS
