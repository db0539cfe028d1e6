/* filemond-backend-bpf.h: the eBPF capture backend (libbpf CO-RE, the raw syscall tracepoints,
 * in-kernel filters, a BPF ring buffer). The daemon reaches it through its type
 * (filemond-backend-type.h), made by fmd_bpf_backend_type_new(), which keeps a stopped
 * capture's loaded program for the next one; the rest is for tests.
 */
#pragma once

#include "filemond-backend-type.h"
#include "filemond-bpf-engine.h"

G_BEGIN_DECLS

#define FMD_TYPE_BPF_BACKEND (fmd_bpf_backend_get_type ())
G_DECLARE_FINAL_TYPE (FmdBpfBackend, fmd_bpf_backend, FMD, BPF_BACKEND, FmdBackend)

#define FMD_TYPE_BPF_BACKEND_TYPE (fmd_bpf_backend_type_get_type ())
G_DECLARE_FINAL_TYPE (FmdBpfBackendType, fmd_bpf_backend_type, FMD, BPF_BACKEND_TYPE,
                      FmdBackendType)

/* The type named "bpf". Disposing of it detaches every BPF link and frees every map it
 * still holds, waiting for detaches in progress. */
FmdBackendType *fmd_bpf_backend_type_new (void);
/* Where its backends leave a stopped capture's engine for the next one. */
FmdBpfEngineCache *fmd_bpf_backend_type_get_engine_cache (FmdBpfBackendType *self);

/* NULL when the kernel and the process's capabilities can run the program, else why
 * not (@config may be NULL). */
char *fmd_backend_bpf_unavailable_reason (const FmdConfig *config);

/* Seconds a stopped capture's loaded programs and maps stay for the next capture to reuse
 * before they are freed in the background. */
#define FMD_BACKEND_BPF_LINGER_SEC 30

G_END_DECLS
