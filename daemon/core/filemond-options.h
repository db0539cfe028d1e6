/* filemond-options.h: the options of one capture (Start's a{sv}), parsed and validated
 * once, then read by the session and by the backends.
 *
 * One filter model: the "filter" key (the clients' filter language, fm-filter.h) and the
 * older keys (syscalls, pids, uids, comms, failed-only, path-prefixes, each a conjunct of
 * the same filter, built as nodes) make one FmFilter, the session's only matcher. What
 * the backends apply at the source is that filter's kernel part (fm-filter-kernel.h),
 * held in the fields below. */
#pragma once

#include <glib.h>

#include "fm-filter.h"
#include "fm-filter-kernel.h"
#include "fm-syscalls.h"

G_BEGIN_DECLS

/* filemond-backend-registry.h, which needs this header itself */
typedef struct _FmdBackendRegistry FmdBackendRegistry;

/* How long Start's lists and strings may be (doc/dbus-api.md): beyond, InvalidArgs naming
 * the key. pids and uids stay within the bpf program's maps; a path prefix is a path
 * (PATH_MAX); prefixes are matched one by one against every event, so few of them. */
#define FMD_OPTIONS_MAX_SYSCALLS 512
#define FMD_OPTIONS_MAX_IDS FM_FILTER_KERNEL_MAX_IDS
#define FMD_OPTIONS_MAX_COMMS FM_FILTER_KERNEL_MAX_COMMS
#define FMD_OPTIONS_MAX_PREFIXES FM_FILTER_KERNEL_MAX_PREFIXES
#define FMD_OPTIONS_MAX_PREFIX_BYTES 4096
/* the filter is compiled on the main loop: a long text is refused before it is read */
#define FMD_OPTIONS_MAX_FILTER_BYTES 16384

typedef struct {
  char *backend;             /* "auto" or a backend type's name (filemond-backend-type.h) */
  char *filter_text;         /* the "filter" key as given; "" without one */
  FmFilter *filter;          /* the filter and the older keys' conjuncts: every event the
                              * capture keeps matches it (pids with follow-children are
                              * the backend's alone: only it knows the descendants) */
  FmFilter *remainder;       /* what of @filter the session evaluates: the backends apply
                              * the kernel part's syscalls, pids, uids and failed-only
                              * exactly (fm_filter_kernel_remainder()); NULL: nothing */

  /* The kernel part of @filter, for the backends. */
  GPtrArray *syscalls;       /* const FmSyscall *, never empty (all of them by default) */
  GArray *pids;              /* guint32; empty = all processes */
  gboolean follow_children;  /* and the processes they start after the start */
  GArray *uids;              /* guint32; empty = all users */
  GStrv comms;               /* NULL-terminated, empty = all */
  gboolean failed_only;
  GStrv path_prefixes;       /* absolute paths without trailing '/' (except "/"), empty = all */
} FmdOptions;

/* Parses Start's a{sv}. Unknown keys, wrong types, a filter that does not compile (its
 * message starts "option “filter”: column N: "), an empty or unknown syscall list, a
 * comm longer than 15 bytes, a relative path prefix, keys and a filter that together
 * match no event...: FALSE with FM_ERROR_INVALID_ARGS naming the key and the value.
 * Duplicates in lists are merged. "follow-children" true without "pids" is refused (it
 * would mean nothing). */
FmdOptions *fmd_options_new_from_variant (GVariant            *asv,
                                          FmdBackendRegistry  *registry,
                                          GError             **error);
FmdOptions *fmd_options_new_default (void);
FmdOptions *fmd_options_copy (const FmdOptions *options);
void fmd_options_free (FmdOptions *options);
/* The a{sv} of the Options property: every key, defaults filled in: "filter" as given,
 * the older keys holding the kernel part (what the backend applies). Parsed again, it
 * gives the same options. */
GVariant *fmd_options_to_variant (const FmdOptions *options);

/* TRUE when the options select syscall @nr. */
gboolean fmd_options_has_syscall (const FmdOptions *options, guint nr);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdOptions, fmd_options_free)

G_END_DECLS
