/* filemond-backend-bpf.h: the eBPF capture backend (libbpf CO-RE, the raw syscall tracepoints,
 * in-kernel filters, a BPF ring buffer). The session reaches it as fmd_backend_type_bpf;
 * these are for its type and for tests.
 */
#pragma once

#include "filemond-backend.h"

G_BEGIN_DECLS

#define FMD_TYPE_BPF_BACKEND (fmd_bpf_backend_get_type ())
G_DECLARE_FINAL_TYPE (FmdBpfBackend, fmd_bpf_backend, FMD, BPF_BACKEND, FmdBackend)

FmdBackend *fmd_backend_bpf_new (const FmdConfig *config);
char *fmd_backend_bpf_unavailable_reason (const FmdConfig *config);

/* Seconds a stopped capture's loaded programs and maps stay for the next capture to reuse
 * before they are freed in the background. */
#define FMD_BACKEND_BPF_LINGER_SEC 30

/* Detaches every BPF link and frees every map the daemon still holds (a stopped capture's
 * programs are kept for reuse), waiting for detaches in progress. Call it once the capture
 * is stopped, before exit (fmd_backend_types_shutdown): it blocks for as long as the kernel
 * takes (a few ms a link). Exiting without it is safe too: the kernel then detaches them as
 * the process's fds close. */
void fmd_backend_bpf_shutdown (void);

G_END_DECLS
