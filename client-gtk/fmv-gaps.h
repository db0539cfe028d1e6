/* fmv-gaps.h: the runs of sequence numbers a window missed (the stream's gap records),
 * so that Save can say how many of them fall inside what it wrote. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FmvGaps FmvGaps;

FmvGaps *fmv_gaps_new (void);
void fmv_gaps_free (FmvGaps *self);

/* @count events from @first_seq on were missed. */
void fmv_gaps_add (FmvGaps *self,
                   guint64  first_seq,
                   guint64  count);
/* The missed events numbered from @first_seq to @last_seq, both included. */
guint64 fmv_gaps_count_within (FmvGaps *self,
                               guint64  first_seq,
                               guint64  last_seq);
/* Gaps wholly below @seq can no longer touch a saved range (the rows before it are gone). */
void fmv_gaps_forget_before (FmvGaps *self,
                             guint64  seq);
void fmv_gaps_clear (FmvGaps *self);
/* How many runs are kept, for the tests of the bound. */
guint fmv_gaps_get_n_runs (FmvGaps *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmvGaps, fmv_gaps_free)

G_END_DECLS
