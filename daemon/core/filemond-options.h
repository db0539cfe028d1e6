/* filemond-options.h: the options of one capture (Start's a{sv}), parsed and validated
 * once, then read by the session and by the backends. */
#pragma once

#include <glib.h>

#include "fm-syscalls.h"

G_BEGIN_DECLS

/* How long Start's lists and strings may be (doc/dbus-api.md): beyond, InvalidArgs naming
 * the key. pids and uids stay within the bpf program's maps; a path prefix is a path
 * (PATH_MAX); prefixes are matched one by one against every event, so few of them. */
#define FMD_OPTIONS_MAX_SYSCALLS 512
#define FMD_OPTIONS_MAX_IDS 1024
#define FMD_OPTIONS_MAX_COMMS 256
#define FMD_OPTIONS_MAX_PREFIXES 64
#define FMD_OPTIONS_MAX_PREFIX_BYTES 4096

typedef struct {
  char *backend;             /* "auto" or a backend type's name (filemond-backend.h) */
  GPtrArray *syscalls;       /* const FmSyscall *, never empty (all of them by default) */
  GArray *pids;              /* guint32; empty = all processes */
  gboolean follow_children;
  GArray *uids;              /* guint32; empty = all users */
  GStrv comms;               /* NULL-terminated, empty = all */
  gboolean failed_only;
  GStrv path_prefixes;       /* absolute paths without trailing '/' (except "/"), empty = all */
} FmdOptions;

/* Parses Start's a{sv}. Unknown keys, wrong types, an empty or unknown syscall list, a
 * comm longer than 15 bytes, a relative path prefix...: FALSE with FM_ERROR_INVALID_ARGS
 * naming the key and the value. Duplicates in lists are merged. "follow-children" true
 * without "pids" is refused (it would mean nothing). */
FmdOptions *fmd_options_new_from_variant (GVariant *asv, GError **error);
FmdOptions *fmd_options_new_default (void);
FmdOptions *fmd_options_copy (const FmdOptions *options);
void fmd_options_free (FmdOptions *options);
/* The a{sv} of the Options property: every key, defaults filled in. */
GVariant *fmd_options_to_variant (const FmdOptions *options);

/* TRUE when the options select syscall @nr. */
gboolean fmd_options_has_syscall (const FmdOptions *options, guint nr);

/* TRUE when the options keep an event with these paths: no path-prefixes, or @path or
 * @path2 equal to a prefix or below it ("/etc" keeps "/etc" and "/etc/passwd", not
 * "/etcetera"). The strings need not be NUL-terminated. */
gboolean fmd_options_match_paths (const FmdOptions *options,
                                  const char       *path,
                                  gsize             path_len,
                                  const char       *path2,
                                  gsize             path2_len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdOptions, fmd_options_free)

G_END_DECLS
