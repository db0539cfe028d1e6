/* fm-filter-build.h: filters made from parts instead of text, for the daemon's Start keys
 * that predate the filter (syscalls, pids, uids, comms, failed-only, path-prefixes): each
 * becomes a conjunct of the one filter, built as nodes, so that no value is ever quoted
 * into filter text and misread.
 */
#pragma once

#include "fm-filter.h"

G_BEGIN_DECLS

/* @field (FM_FIELD_COMM) is exactly one of @values (NULL-terminated, at least one). */
FmFilter *fm_filter_new_any_text (FmFieldId field, const char *const *values);

/* @field (FM_FIELD_PID, FM_FIELD_UID, or FM_FIELD_SYSCALL by number) is one of the
 * @n_values @values (at least one): a binary search per event. */
FmFilter *fm_filter_new_any_number (FmFieldId field, const guint32 *values, gsize n_values);

/* The call failed (result < 0), as the filter word "failed". */
FmFilter *fm_filter_new_failed (void);

/* path or path2 is one of @prefixes (NULL-terminated, at least one) or below it, by whole
 * components: "/etc" takes "/etc" and "/etc/passwd", not "/etcetera". */
FmFilter *fm_filter_new_below (const char *const *prefixes);

/* Both @a and @b; takes both references (either may be NULL: then the other). */
FmFilter *fm_filter_new_and (FmFilter *a, FmFilter *b);

G_END_DECLS
