/* fm-filter-kernel.h: the part of a filter a capture backend applies at the source.
 *
 * A backend can keep or drop a call by a few traits only, in the kernel (bpf maps, the
 * stap script's conditions): its syscall, the process id, the user id, the exact process
 * name, whether it failed, and whether its path is below a prefix. From a filter comes
 * such a description that holds for every event the filter matches (the filter implies
 * it): what the filter says on those traits through and, or and not, as far as these sets
 * can express it; whatever they cannot leaves that trait unrestricted. What the kernel
 * part does not decide exactly (its remainder, below) is still evaluated on each event
 * the backend delivers, so a kernel part that is wider than the filter costs only work,
 * never a wrong event; one that was narrower would lose events, which is why nothing is
 * ever guessed.
 */
#pragma once

#include "fm-filter.h"

G_BEGIN_DECLS

/* Sets longer than these are left unrestricted: they are the kernel side's bounds, and
 * the daemon's for the same lists given as Start keys. */
#define FM_FILTER_KERNEL_MAX_IDS 1024
#define FM_FILTER_KERNEL_MAX_COMMS 256
#define FM_FILTER_KERNEL_MAX_PREFIXES 64

typedef struct {
  gboolean matches_nothing;  /* the filter can match no event at all (pid=1 and pid=2) */
  GArray *syscalls;          /* guint32 syscall numbers of the table, sorted; NULL: all */
  GArray *pids;              /* guint32, sorted; NULL: every process */
  GArray *uids;              /* guint32, sorted; NULL: every user */
  GPtrArray *comms;          /* char *, exact process names of 1 to 15 bytes; NULL: all */
  gboolean failed_only;      /* only calls that returned an error */
  GPtrArray *path_prefixes;  /* char *, canonical (fm_path_prefix_canonical()): path or
                              * path2 is one of them or below; NULL: any path */
} FmFilterKernel;

FmFilterKernel *fm_filter_kernel_part (const FmFilter *filter);
void fm_filter_kernel_free (FmFilterKernel *kernel);

/* The traits of the kernel part a source applies exactly: it delivers an event only when
 * the event's own field is in that set (the syscall it reports, its process id, its real
 * user id, its result). A process name is no such trait: an execve renames the process
 * between the entry the backends filter at and the event; neither is a path prefix: the
 * backends pass the paths they cannot compare exactly (cut, deleted, a pseudo file). */
typedef enum {
  FM_FILTER_TRAIT_SYSCALL = 1 << 0,
  FM_FILTER_TRAIT_PID = 1 << 1,
  FM_FILTER_TRAIT_UID = 1 << 2,
  FM_FILTER_TRAIT_FAILED = 1 << 3,
} FmFilterTraits;

/* What is left of @filter to evaluate on the events of a source that applies its kernel
 * part, the @exact traits exactly: the filter without the conjuncts that one of those
 * traits decides alone (pid=1 or pid=2, failed, syscall=open*), sharing the rest. NULL
 * when nothing is left: every event such a source delivers matches @filter. */
FmFilter *fm_filter_kernel_remainder (const FmFilter *filter, FmFilterTraits exact);

/* "/a/b" from an absolute path: no trailing, doubled or "." components; NULL for a
 * relative path or one with "..", which the kernel side never reports. */
char *fm_path_prefix_canonical (const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmFilterKernel, fm_filter_kernel_free)

G_END_DECLS
