/* filemond-backend-stap.h: the SystemTap capture backend (a generated script on kprobes of
 * the syscalls' entry points, built into a kernel module and run with staprun). The session
 * reaches it as fmd_backend_type_stap; these are for its type and for tests.
 */
#pragma once

#include "filemond-backend.h"

G_BEGIN_DECLS

FmdBackend *fmd_backend_stap_new (const FmdConfig *config);
/* The first call on a kernel also starts a trial build in the background
 * (filemond-stap-check.c): until its verdict is in, stap counts as usable; then @notify,
 * when not NULL and still alive, gets notify::available-backends. */
char *fmd_backend_stap_unavailable_reason (const FmdConfig *config,
                                           GObject         *notify);

G_END_DECLS
