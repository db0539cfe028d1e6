/* fmv-gaps.c: the runs of sequence numbers a window missed; see fmv-gaps.h.
 *
 * The stream reports gaps in sequence order, so the runs stay sorted and a run that
 * continues the last one is merged into it: a reader that keeps falling behind adds one
 * run per time it caught up, not one per event. */
#include "config.h"

#include "fmv-gaps.h"

typedef struct {
  guint64 first_seq;
  guint64 count;
} Run;

struct _FmvGaps
{
  GArray *runs;   /* Run, by first_seq */
};

/* The run's last number, saturated: a hostile count must not wrap below its start. */
static guint64
run_last (const Run *run)
{
  return run->first_seq + MIN (run->count - 1, G_MAXUINT64 - run->first_seq);
}

FmvGaps *
fmv_gaps_new (void)
{
  FmvGaps *self = g_new0 (FmvGaps, 1);

  self->runs = g_array_new (FALSE, FALSE, sizeof (Run));
  return self;
}

void
fmv_gaps_free (FmvGaps *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->runs);
  g_free (self);
}

void
fmv_gaps_add (FmvGaps *self,
              guint64  first_seq,
              guint64  count)
{
  Run run = { first_seq, count };
  Run *last;

  g_return_if_fail (self != NULL);

  if (count == 0)
    return;
  last = self->runs->len > 0 ? &g_array_index (self->runs, Run, self->runs->len - 1) : NULL;
  if (last != NULL && run_last (last) < G_MAXUINT64 && run_last (last) + 1 == first_seq)
    last->count += count;
  else
    g_array_append_val (self->runs, run);
}

guint64
fmv_gaps_count_within (FmvGaps *self,
                       guint64  first_seq,
                       guint64  last_seq)
{
  guint64 n = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < self->runs->len; i++)
    {
      const Run *run = &g_array_index (self->runs, Run, i);
      guint64 lo = MAX (run->first_seq, first_seq);
      guint64 hi = MIN (run_last (run), last_seq);

      if (lo <= hi)
        n += hi - lo + 1;
    }
  return n;
}

void
fmv_gaps_forget_before (FmvGaps *self,
                        guint64  seq)
{
  guint n = 0;

  g_return_if_fail (self != NULL);

  while (n < self->runs->len)
    {
      if (run_last (&g_array_index (self->runs, Run, n)) >= seq)
        break;
      n++;
    }
  if (n > 0)
    g_array_remove_range (self->runs, 0, n);
}

void
fmv_gaps_clear (FmvGaps *self)
{
  g_return_if_fail (self != NULL);

  g_array_set_size (self->runs, 0);
}

guint
fmv_gaps_get_n_runs (FmvGaps *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->runs->len;
}
