/* filemond-stap-build.h: where SystemTap keeps the modules filemond builds, and building
 * the default capture's module ahead of time (filemond --precompile), so that a package's
 * postinst or an image build spares the first Start its compile. */
#pragma once

#include <gio/gio.h>

#include "filemond-config.h"
#include "filemond-options.h"

G_BEGIN_DECLS

/* SystemTap's directory for filemond's stap (SYSTEMTAP_DIR, holding its cache): the
 * environment's SYSTEMTAP_DIR when set (the unit sets it), else "systemtap" in the unit's
 * cache directory ($CACHE_DIRECTORY, else FILEMON_CACHEDIR). */
char *fmd_stap_dir (void);

/* A launcher for @flags whose child gets SYSTEMTAP_DIR = fmd_stap_dir(). */
GSubprocessLauncher *fmd_stap_launcher_new (GSubprocessFlags flags);

/* The directory where filemond --precompile keeps the module of @script for @release,
 * in fmd_stap_dir(): named by a hash of the script, of the stap command that builds it
 * (with @stap_path's size and time, which change with SystemTap) and of the release, so
 * that another script, build, SystemTap or kernel never finds it. The module keeps
 * SystemTap's name for it: staprun finds that name inside the file. */
char *fmd_stap_precompiled_dir (const char *stap_path,
                                guint       buffer_mb,
                                const char *script,
                                const char *release);
/* The module in fmd_stap_precompiled_dir(), or NULL when there is none. */
char *fmd_stap_precompiled_module (const char *stap_path,
                                   guint       buffer_mb,
                                   const char *script,
                                   const char *release);

/* Builds (stap -p4) the module of a Start with @options (NULL: without any), for
 * @kernel_release (NULL: the running kernel), and keeps it in fmd_stap_precompiled_dir():
 * a Start of the same syscalls on that kernel, whatever its filters, then loads it with
 * staprun, without stap's passes 1-2 (minutes on a slow machine). stap's own messages go
 * to stderr. The outcome is also recorded as the trial build's verdict for that kernel.
 * Where that module is built already, says so and returns TRUE without running stap.
 * FALSE with an error when stap failed or could not run. */
gboolean fmd_stap_precompile (const FmdConfig  *config,
                              const FmdOptions *options,
                              const char       *kernel_release,
                              GError          **error);

/* The verdict of a build for @release (filemond-stap-check.c): "" when it worked, else
 * fmd_stap_check_failure()'s sentence; AvailableBackends then needs no trial build. */
void fmd_stap_check_record (const FmdConfig *config,
                            const char      *release,
                            const char      *verdict);
char *fmd_stap_check_failure (const char *stap_path,
                              const char *release,
                              const char *why);

G_END_DECLS
