/* filemond-backend-registry.h: the backend types a daemon chooses from, in the order
 * "auto" tries them. The core reaches backends only through it: the session probes and
 * creates them, the config and Start's options check the names they are given against
 * it. backends/filemond-backends.h makes the registry of this build; tests make their
 * own with fakes.
 *
 * Signal "probe-request" (FmdBackendType *type): a deferred probe of @type has its answer
 * (filemond-backend-type.h). */
#pragma once

#include <glib-object.h>

#include "filemond-backend-type.h"

G_BEGIN_DECLS

#define FMD_TYPE_BACKEND_REGISTRY (fmd_backend_registry_get_type ())
G_DECLARE_FINAL_TYPE (FmdBackendRegistry, fmd_backend_registry, FMD, BACKEND_REGISTRY, GObject)

FmdBackendRegistry *fmd_backend_registry_new (void);

/* Appends @type (a reference is taken); its name must be new to the registry. */
void fmd_backend_registry_add (FmdBackendRegistry *self,
                               FmdBackendType     *type);

guint fmd_backend_registry_get_n_types (FmdBackendRegistry *self);
FmdBackendType *fmd_backend_registry_nth (FmdBackendRegistry *self,
                                          guint               index);
/* The type named @name; NULL when there is none. */
FmdBackendType *fmd_backend_registry_lookup (FmdBackendRegistry *self,
                                             const char         *name);
/* TRUE for "auto" and the name of a type of the registry. */
gboolean fmd_backend_registry_name_is_valid (FmdBackendRegistry *self,
                                             const char         *name);
/* "auto, stap or bpf", for messages (newly allocated). */
char *fmd_backend_registry_dup_names (FmdBackendRegistry *self);

G_END_DECLS
