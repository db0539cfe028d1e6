/* filemond-backend-stap.h: the SystemTap capture backend (a generated script on kprobes of
 * the syscalls' entry points, built into a kernel module and run with staprun). The
 * daemon reaches it through its type (filemond-backend-type.h), made by
 * fmd_stap_backend_type_new(); the rest is for tests.
 */
#pragma once

#include "filemond-backend-type.h"

G_BEGIN_DECLS

/* The first line of the trial build's script (filemond-stap-check.c), by which a fake
 * stap tells it from a capture's. */
#define FMD_STAP_TRIAL_HEADER "# filemond trial build"

#define FMD_TYPE_STAP_BACKEND_TYPE (fmd_stap_backend_type_get_type ())
G_DECLARE_FINAL_TYPE (FmdStapBackendType, fmd_stap_backend_type, FMD, STAP_BACKEND_TYPE,
                      FmdBackendType)

/* The type named "stap". Its probe fails when stap, module support, the kernel's build
 * tree or its debuginfo is missing; past those it reads the verdict of a trial build for
 * the running kernel, and where there is none yet starts one and defers. */
FmdBackendType *fmd_stap_backend_type_new (void);

/* The probe past the kernel's own facts, as for a kernel @release: the trial build's
 * verdict, or a new trial and FMD_PROBE_DEFER (then "probe-request" when it is in). */
FmdProbeResult fmd_stap_backend_type_probe_release (FmdStapBackendType  *self,
                                                    const FmdConfig     *config,
                                                    const char          *release,
                                                    char               **reason);

FmdBackend *fmd_backend_stap_new (const FmdConfig *config);

G_END_DECLS
