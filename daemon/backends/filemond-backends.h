/* filemond-backends.h: the backends of this build of filemond, as a registry for the core
 * (core/filemond-backend-registry.h). */
#pragma once

#include "filemond-backend-registry.h"

G_BEGIN_DECLS

/* A new registry of this build's backend types, in the order "auto" tries them: stap,
 * then bpf (listed even in a build without libbpf, saying so, for AvailableBackends). */
FmdBackendRegistry *fmd_backends_new_registry (void);

G_END_DECLS
