/* filemond-backends.c: the registry of this build's backends; see filemond-backends.h. */
#include "config.h"

#include "filemond-backends.h"

#include "filemond-backend-stap.h"
#ifdef HAVE_BPF
#include "filemond-backend-bpf.h"
#else

/* bpf in a build without libbpf: AvailableBackends still lists it, saying why it cannot
 * run, and a Start of it says the build has no such backend. */
#define FMD_TYPE_MISSING_BPF_TYPE (fmd_missing_bpf_type_get_type ())
G_DECLARE_FINAL_TYPE (FmdMissingBpfType, fmd_missing_bpf_type, FMD, MISSING_BPF_TYPE,
                      FmdBackendType)

struct _FmdMissingBpfType {
  FmdBackendType parent_instance;
};

G_DEFINE_FINAL_TYPE (FmdMissingBpfType, fmd_missing_bpf_type, FMD_TYPE_BACKEND_TYPE)

static FmdProbeResult
fmd_missing_bpf_type_probe (FmdBackendType   *type,
                            const FmdConfig  *config,
                            char            **reason)
{
  *reason = g_strdup ("bpf: filemon was built without libbpf");
  return FMD_PROBE_FAIL;
}

static void
fmd_missing_bpf_type_class_init (FmdMissingBpfTypeClass *klass)
{
  FMD_BACKEND_TYPE_CLASS (klass)->probe = fmd_missing_bpf_type_probe;
}

static void
fmd_missing_bpf_type_init (FmdMissingBpfType *self)
{
}

static FmdBackendType *
fmd_bpf_backend_type_new (void)
{
  return g_object_new (FMD_TYPE_MISSING_BPF_TYPE, "name", "bpf", NULL);
}
#endif

FmdBackendRegistry *
fmd_backends_new_registry (void)
{
  FmdBackendRegistry *registry = fmd_backend_registry_new ();
  /* SystemTap first: the backend filemon is built around, where it can run */
  g_autoptr(FmdBackendType) stap = fmd_stap_backend_type_new ();
  g_autoptr(FmdBackendType) bpf = fmd_bpf_backend_type_new ();

  fmd_backend_registry_add (registry, stap);
  fmd_backend_registry_add (registry, bpf);
  return registry;
}
