/* fmv-event-list.c: the filtered, sorted view of an FmvStore as a GListModel.
 *
 * State: `index` maps positions to store rows (NULL means the identity: arrival order, and
 * no filter or one that took every row so far, the cheapest case and the one a live
 * capture without a filter, or a file opened with the default one, spend most time in:
 * no 4 bytes a row). The index accounts for the store rows [first, n_seen). A refilter
 * or resort is a job run in a GTask thread over a snapshot of the rows; a newer job makes an older one's result void
 * (generation counter), and the rows that arrived while it ran are matched on the main
 * thread before the result is shown, in one items-changed.
 *
 * Rows the store lets go (its depth, fmv-store.h) leave the list at an update (paced while
 * rows keep coming, DROP_INTERVAL_MS), or at once when the store is about to free them
 * ("releasing"), in one items-changed: a removal at the top in arrival order, everything
 * in a sorted list (they are spread through it).
 * The store frees nothing while a job runs (the job holds it), so the rows shown then stay
 * readable until the job's result replaces them.
 *
 * Replacing everything (refilter, sorted merge) is bracketed by the "resetting" and
 * "reset" signals: GtkSingleSelection looks for a selected item that was removed among the
 * added ones by calling get_item() on each, which over a million rows would create a
 * million objects; the window drops the selection before and restores it after.
 */
#include "config.h"

#include <string.h>

#include "fm-filter.h"
#include "fmv-event-list.h"
#include "fmv-match.h"
#include "fmv-row.h"
#include "fmv-sort.h"

#define UPDATE_INTERVAL_MS 40

/* The ramp: while the list is shorter than RAMP_ROWS, a timed update adds at most
 * RAMP_STEP rows. GTK 4.8's list view keeps a widget for each of the ~200 rows around its
 * anchor (GTK_LIST_VIEW_MAX_LIST_ITEMS + 2 x GTK_LIST_VIEW_EXTRA_ITEMS), and a column view
 * row is 15 widgets (the row, 7 cells, 7 labels), made, styled and measured when its row
 * first exists. The first update of a live capture (or the first after Clear) brought
 * thousands of rows and so all ~200 at once, one long gap in the frames; a step of
 * RAMP_STEP rows costs a small part of it, and the fill's frames look like the steady
 * state's (the figures: bench/README.md, "Figures behind the code"). Past ~200 rows an update makes no widgets (following the tail rebinds the ones
 * there are), so the ramp stops there; what it holds back comes at the next updates, a few
 * hundred ms in all, and fmv_event_list_update_now() still takes everything at once. */
#define RAMP_ROWS 256
#define RAMP_STEP 32

/* Rows the store let go (its depth) leave the list at most this often while rows keep
 * coming, and at once when the flow pauses (an update with nothing new), when the store
 * frees their memory ("releasing") and on fmv_event_list_update_now(). A removal at the
 * top costs GTK 4.8's list view a pass over its rows whatever its size: one at each update
 * lost frames while a busy capture was followed at the depth, one every half second none
 * (bench/README.md, "Figures behind the code"). Meanwhile the list shows
 * up to that half second's rows more than the depth, rows whose memory is still there. */
#define DROP_INTERVAL_MS 500

/* While rows keep coming, the list takes them in at most this often; the first rows after
 * a pause still come UPDATE_INTERVAL_MS after they arrived. Each update of a followed tail
 * rebinds every visible row and redraws the whole list (two frames: see
 * fmv_window_follow_now), whatever the number of new rows, so the update rate is what a
 * steady capture costs, even a quiet one (bench/bench-viewer-load.sh). Rows that fly by
 * faster than this cannot be read anyway; the ramp's first rows (RAMP_ROWS) are not
 * paced. */
#define FLOW_INTERVAL_MS 200

struct _FmvEventList
{
  GObject parent_instance;

  FmvStore *store;
  GArray *index;              /* guint32 store rows; NULL = identity */
  guint first;                /* the index accounts for store rows [first, n_seen) */
  guint n_seen;
  gulong releasing_handler;
  gint64 last_drop_us;        /* when drop_gone_rows last ran in an update */
  gint64 last_update_us;      /* when an update last took rows in */

  char *filter_text;          /* NULL = no filter */
  FmFilter *filter;           /* main-thread instance; workers parse their own */
  FmvSortField sort_field;
  gboolean descending;

  guint generation;
  GCancellable *job_cancellable;
  gboolean job_running;
  guint update_source;
  gboolean in_reset;          /* "resetting" emitted, "reset" not yet */

  GHashTable *rows;           /* store row -> FmvRow*, weak: the items alive now */
};

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum {
  SIGNAL_RESETTING,
  SIGNAL_RESET,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void fmv_event_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (FmvEventList, fmv_event_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, fmv_event_list_model_init))

/* ---- the worker ------------------------------------------------------------------------- */

typedef struct {
  FmvStore *store;
  char *filter_text;
  FmvSortField sort_field;
  gboolean descending;
  guint first_row;
  guint n_rows;
  guint32 n_ids;              /* the store's string ids when it started */
  guint generation;
  GArray *index;              /* the worker's result: NULL for the identity */
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_clear_object (&job->store);
  g_clear_pointer (&job->index, g_array_unref);
  g_free (job->filter_text);
  g_free (job);
}

/* The index of rows [@first, @end) in arrival order: for a list that stops being the
 * identity. */
static GArray *
identity_index (guint first,
                guint end)
{
  GArray *index = g_array_sized_new (FALSE, FALSE, sizeof (guint32), end - first);

  for (guint32 row = first; row < end; row++)
    g_array_append_val (index, row);
  return index;
}

#define MATCH_CHUNK_ROWS 65536u

/* The rows are matched a chunk at a time, and kept only from the first chunk the filter
 * drops a row of: a filter that takes every row (the default one, hiding filemon's own
 * activity, on a capture without it) leaves the identity, and no copy of every row
 * number is ever made. */
static void
refilter_worker (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  Job *job = task_data;
  g_autofree guint32 *chunk = g_new (guint32, MATCH_CHUNK_ROWS);
  g_autoptr(FmFilter) filter = NULL;
  g_autoptr(FmFilterMemo) memo = NULL;
  gboolean sorted = job->sort_field != FMV_SORT_ARRIVAL || job->descending;

  if (job->filter_text != NULL)
    {
      g_autoptr(GError) error = NULL;

      /* The text parsed on the main thread already; this instance is the worker's own,
       * since a compiled filter keeps per-match scratch state. */
      filter = fm_filter_new (job->filter_text, &error);
      if (filter == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      /* This job's own memo: its hold keeps every string id of its rows naming the
       * same string until it ends (fmv-store.h), and a new job makes a new one. */
      memo = fm_filter_memo_new (filter, job->n_ids);
    }
  /* a sorted list always has an index, the rows' order */
  if (sorted)
    job->index = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint start = job->first_row; start < job->n_rows; start += MATCH_CHUNK_ROWS)
    {
      guint end = MIN (start + MATCH_CHUNK_ROWS, job->n_rows);
      guint n;

      if (filter != NULL)
        n = fmv_match_rows (job->store, filter, memo, start, end, chunk, cancellable);
      else
        for (n = 0; n < end - start; n++)
          chunk[n] = start + n;
      if (n == G_MAXUINT || g_cancellable_is_cancelled (cancellable))
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "superseded");
          return;
        }
      if (job->index == NULL && n < end - start)
        job->index = identity_index (job->first_row, start);
      if (job->index != NULL)
        g_array_append_vals (job->index, chunk, n);
    }
  if (job->index != NULL)
    fmv_sort_rows (job->store, (guint32 *) (void *) job->index->data, job->index->len,
                   job->sort_field, job->descending);
  g_task_return_boolean (task, TRUE);
}

/* ---- taking in new rows ----------------------------------------------------------------- */

static guint
n_shown (FmvEventList *self)
{
  return self->index ? self->index->len : self->n_seen - self->first;
}

/* The first of the @n ascending @rows that is not below @row. */
static guint
lower_bound (const guint32 *rows,
             guint          n,
             guint          row)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (rows[mid] < row)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
is_arrival_order (FmvEventList *self)
{
  return self->sort_field == FMV_SORT_ARRIVAL && !self->descending;
}

/* "resetting" goes out before the rows shown change, never after: its handlers read the
 * selection's position in the rows as they were (GtkSingleSelection, unselecting there,
 * checks it against the list's count). Emitted after, a Clear with a row selected asked
 * for a position past the end of the emptied list. Once per change. */
static void
begin_reset (FmvEventList *self)
{
  if (self->in_reset)
    return;
  self->in_reset = TRUE;
  g_signal_emit (self, signals[SIGNAL_RESETTING], 0);
}

static void
end_reset (FmvEventList *self,
           gboolean      everything)
{
  if (!self->in_reset)
    return;
  self->in_reset = FALSE;
  g_signal_emit (self, signals[SIGNAL_RESET], 0, everything);
}

/* Forgets the rows the store let go. Returns whether they were all at the top (arrival
 * order), so that one removal there says what changed. */
static gboolean
forget_gone_rows (FmvEventList *self)
{
  guint first = fmv_store_get_first_row (self->store);

  if (first <= self->first)
    return TRUE;
  self->first = first;
  self->n_seen = MAX (self->n_seen, first);
  if (self->index == NULL)
    return TRUE;

  if (is_arrival_order (self))
    {
      g_array_remove_range (self->index, 0,
                            lower_bound ((const guint32 *) (const void *) self->index->data,
                                         self->index->len, first));
      return TRUE;
    }
  begin_reset (self);
  fmv_store_forget_gone_rows (self->store, self->index);
  return FALSE;
}

/* Matches the store rows the list has not seen yet and puts them into the index, at most
 * @limit of them (the rows after the last one taken stay unseen for the next call).
 * Returns the first position that changed and sets the removed and added counts for
 * items-changed; FALSE when nothing changed. */
static gboolean
take_new_rows (FmvEventList *self,
               guint         limit,
               guint        *position,
               guint        *removed,
               guint        *added)
{
  guint n_rows = fmv_store_get_n_rows (self->store);
  guint old_len = n_shown (self);
  g_autoptr(GArray) fresh = NULL;
  GArray *merged;
  guint32 row;

  if (n_rows == self->n_seen)
    return FALSE;

  if (self->index == NULL && self->filter == NULL)
    {
      *position = self->n_seen - self->first;
      *removed = 0;
      *added = MIN (n_rows - self->n_seen, limit);
      self->n_seen += *added;
      return TRUE;
    }

  /* The limit counts rows taken, not rows looked at: a filter that matches few would
   * otherwise fall behind the store. */
  fresh = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (row = self->n_seen; row < n_rows && fresh->len < limit; row++)
    {
      if (self->filter != NULL)
        {
          FmvStoreEvent stored;

          if (!fm_filter_match (self->filter, fmv_store_get_event (self->store, row, &stored)))
            continue;
        }
      g_array_append_val (fresh, row);
    }
  if (self->index == NULL)
    {
      /* The identity while the filter takes every row; the index from the first it drops. */
      if (fresh->len == row - self->n_seen)
        {
          if (fresh->len == 0)
            return FALSE;
          *position = old_len;
          *removed = 0;
          *added = fresh->len;
          self->n_seen = row;
          return TRUE;
        }
      self->index = identity_index (self->first, self->n_seen);
    }
  self->n_seen = row;
  if (fresh->len == 0)
    return FALSE;

  if (is_arrival_order (self))
    {
      g_array_append_vals (self->index, fresh->data, fresh->len);
      *position = old_len;
      *removed = 0;
      *added = fresh->len;
      return TRUE;
    }

  /* Sorted: everything from the first insertion point on moves. */
  fmv_sort_rows (self->store, (guint32 *) (void *) fresh->data, fresh->len,
                 self->sort_field, self->descending);
  merged = fmv_sort_merge (self->store, self->index, fresh, self->sort_field,
                           self->descending, position);
  if (*position < old_len)
    begin_reset (self);
  g_array_unref (self->index);
  self->index = merged;
  *removed = old_len - *position;
  *added = merged->len - *position;
  return TRUE;
}

/* Every items-changed goes through here; the debug line is what the viewer's Xvfb tests
 * read to know how many rows the list holds (a screenshot shows only part of them). */
static void
items_changed (FmvEventList *self,
               guint         position,
               guint         removed,
               guint         added)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  g_debug ("list shows %u of %u events", n_shown (self), fmv_event_list_get_n_total (self));
}

static void
emit_changes (FmvEventList *self,
              guint         position,
              guint         removed,
              guint         added,
              gboolean      everything)
{
  /* Appends at the end never touch the selection; anything else may, and began a reset
   * before it changed the rows (begin_reset). */
  g_assert (removed == 0 || self->in_reset);
  items_changed (self, position, removed, added);
  end_reset (self, everything);
}

/* Drops the rows the store let go from what the list shows, in one items-changed. Not
 * while a job runs: its result replaces everything (and its hold keeps the rows).
 *
 * A removal at the top alone needs no resetting/reset around it: with nothing added,
 * GtkSingleSelection has no new items to search for its selected one (it moves the
 * selection up, or drops it when its row went). Following a live capture at the depth
 * this runs at every update, and the bracket made the window drop and restore its
 * selection each time. */
static void
drop_gone_rows (FmvEventList *self)
{
  guint old_len = n_shown (self);
  gboolean at_top;

  if (self->job_running)
    return;
  at_top = forget_gone_rows (self);
  if (n_shown (self) == old_len)
    {
      end_reset (self, FALSE);   /* none of the rows shown went */
      return;
    }
  if (at_top)
    items_changed (self, 0, old_len - n_shown (self), 0);
  else
    emit_changes (self, 0, old_len, n_shown (self), FALSE);
}

static void
store_releasing_cb (FmvStore     *store,
                    FmvEventList *self)
{
  drop_gone_rows (self);
}

static void
watch_store (FmvEventList *self,
             FmvStore     *store)
{
  g_clear_signal_handler (&self->releasing_handler, self->store);
  g_set_object (&self->store, store);
  if (store != NULL)
    self->releasing_handler = g_signal_connect (store, "releasing",
                                                G_CALLBACK (store_releasing_cb), self);
}

/* @exact: the list lets go of every row the store let go, not only at the pace of
 * DROP_INTERVAL_MS (see there). */
static void
update (FmvEventList *self,
        guint         limit,
        gboolean      exact)
{
  guint position, removed, added;
  gint64 now = g_get_monotonic_time ();

  g_clear_handle_id (&self->update_source, g_source_remove);
  /* A running job takes the new rows in when it lands. */
  if (self->job_running)
    return;
  if (exact || self->n_seen == fmv_store_get_n_rows (self->store) ||
      now - self->last_drop_us >= DROP_INTERVAL_MS * 1000)
    {
      drop_gone_rows (self);
      self->last_drop_us = now;
    }
  if (take_new_rows (self, limit, &position, &removed, &added))
    {
      if (added > 0)
        self->last_update_us = now;
      emit_changes (self, position, removed, added, FALSE);
    }
}

void
fmv_event_list_update_now (FmvEventList *self)
{
  g_return_if_fail (FMV_IS_EVENT_LIST (self));

  update (self, G_MAXUINT, TRUE);
}

static gboolean
update_timeout_cb (gpointer data)
{
  FmvEventList *self = data;

  self->update_source = 0;
  update (self, n_shown (self) < RAMP_ROWS ? RAMP_STEP : G_MAXUINT, FALSE);
  /* What the ramp left for later (see RAMP_ROWS), and the rows let go that the list
   * still shows: an update with nothing new drops them (see DROP_INTERVAL_MS). */
  if (!self->job_running && (self->n_seen < fmv_store_get_n_rows (self->store) ||
                             self->first < fmv_store_get_first_row (self->store)))
    fmv_event_list_queue_update (self);
  return G_SOURCE_REMOVE;
}

void
fmv_event_list_queue_update (FmvEventList *self)
{
  g_return_if_fail (FMV_IS_EVENT_LIST (self));

  if (self->update_source == 0)
    {
      gint64 since_ms = (g_get_monotonic_time () - self->last_update_us) / 1000;
      guint delay = UPDATE_INTERVAL_MS;

      if (n_shown (self) >= RAMP_ROWS && since_ms < FLOW_INTERVAL_MS)
        delay = MAX (UPDATE_INTERVAL_MS, FLOW_INTERVAL_MS - (guint) since_ms);
      self->update_source = g_timeout_add (delay, update_timeout_cb, self);
    }
}

/* ---- jobs ------------------------------------------------------------------------------- */

static gboolean
is_identity (FmvEventList *self)
{
  return self->filter_text == NULL && self->sort_field == FMV_SORT_ARRIVAL && !self->descending;
}

static void
set_job_running (FmvEventList *self,
                 gboolean      running)
{
  if (self->job_running == running)
    return;
  self->job_running = running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
job_landed (FmvEventList *self,
            Job          *job,
            GTask        *task)
{
  g_autoptr(GError) error = NULL;
  guint old_len, position, removed, added;

  if (!g_task_propagate_boolean (task, &error))
    {
      /* Only cancellation fails a job, and a cancelled job is never the current one. */
      if (job->generation == self->generation)
        {
          set_job_running (self, FALSE);
          g_warning ("refilter failed: %s", error->message);
        }
      return;
    }
  if (job->generation != self->generation)
    return;
  set_job_running (self, FALSE);

  old_len = n_shown (self);
  begin_reset (self);
  g_clear_pointer (&self->index, g_array_unref);
  self->index = g_steal_pointer (&job->index);
  self->first = job->first_row;
  self->n_seen = job->n_rows;
  /* the rows let go while the job ran, then those that came */
  forget_gone_rows (self);
  take_new_rows (self, G_MAXUINT, &position, &removed, &added);

  items_changed (self, 0, old_len, n_shown (self));
  end_reset (self, TRUE);
}

static void
job_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Job *job = g_task_get_task_data (G_TASK (result));

  job_landed (FMV_EVENT_LIST (source), job, G_TASK (result));
  /* Last: the rows the list showed while the job ran may go now (drop_gone_rows). */
  fmv_store_unhold (job->store);
}

/* Starts over from the current store, filter and order. */
static void
restart (FmvEventList *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  self->generation++;
  g_cancellable_cancel (self->job_cancellable);
  g_clear_object (&self->job_cancellable);
  g_clear_handle_id (&self->update_source, g_source_remove);

  if (is_identity (self))
    {
      guint old_len = n_shown (self);

      set_job_running (self, FALSE);
      begin_reset (self);
      g_clear_pointer (&self->index, g_array_unref);
      self->first = fmv_store_get_first_row (self->store);
      self->n_seen = fmv_store_get_n_rows (self->store);
      items_changed (self, 0, old_len, n_shown (self));
      end_reset (self, TRUE);
      return;
    }

  job = g_new0 (Job, 1);
  job->store = g_object_ref (self->store);
  job->filter_text = g_strdup (self->filter_text);
  job->sort_field = self->sort_field;
  job->descending = self->descending;
  job->first_row = fmv_store_get_first_row (self->store);
  job->n_rows = fmv_store_get_n_rows (self->store);
  job->n_ids = fmv_store_get_string_id_bound (self->store);
  job->generation = self->generation;
  /* Released in job_done_cb, which GTask calls for every job, superseded ones too. */
  fmv_store_hold (job->store);

  self->job_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->job_cancellable, job_done_cb, NULL);
  g_task_set_source_tag (task, restart);
  g_task_set_task_data (task, job, job_free);
  /* The view keeps showing the previous result until this one lands. */
  set_job_running (self, TRUE);
  g_task_run_in_thread (task, refilter_worker);
}

/* ---- public API ------------------------------------------------------------------------- */

static void
row_finalized_cb (gpointer  data,
                  GObject  *where_the_object_was)
{
  FmvEventList *self = data;
  /* Weak references are notified from dispose, while the row's fields are still there. */
  gpointer key = GUINT_TO_POINTER (fmv_row_get_row ((FmvRow *) where_the_object_was));

  if (g_hash_table_lookup (self->rows, key) == (gpointer) where_the_object_was)
    g_hash_table_remove (self->rows, key);
}

static void
forget_rows (FmvEventList *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_object_weak_unref (value, row_finalized_cb, self);
  g_hash_table_remove_all (self->rows);
}

void
fmv_event_list_set_store (FmvEventList *self,
                          FmvStore     *store)
{
  guint old_len;

  g_return_if_fail (FMV_IS_EVENT_LIST (self));
  g_return_if_fail (FMV_IS_STORE (store));

  old_len = n_shown (self);
  /* "resetting" before anything changes: its handlers read the selected row's position
   * in the rows shown so far (a Clear with a row selected asked for a position past the
   * end of the emptied list, and GtkSingleSelection unselected an item it no longer had). */
  if (old_len > 0)
    begin_reset (self);
  forget_rows (self);
  watch_store (self, store);
  g_clear_pointer (&self->index, g_array_unref);
  self->first = self->n_seen = fmv_store_get_first_row (store);
  /* Empty until restart() shows the new store's rows (at once, or when its job lands). */
  if (!is_identity (self))
    self->index = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (old_len > 0)
    emit_changes (self, 0, old_len, 0, TRUE);
  restart (self);
}

FmvStore *
fmv_event_list_get_store (FmvEventList *self)
{
  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), NULL);

  return self->store;
}

gboolean
fmv_event_list_set_filter (FmvEventList  *self,
                           const char    *text,
                           GError       **error)
{
  g_autoptr(FmFilter) filter = NULL;
  g_autofree char *stripped = NULL;

  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), FALSE);

  stripped = g_strstrip (g_strdup (text ? text : ""));
  if (*stripped == '\0')
    g_clear_pointer (&stripped, g_free);
  if (g_strcmp0 (stripped, self->filter_text) == 0)
    return TRUE;

  if (stripped != NULL)
    {
      filter = fm_filter_new (stripped, error);
      if (filter == NULL)
        return FALSE;
    }

  g_clear_pointer (&self->filter, fm_filter_free);
  self->filter = g_steal_pointer (&filter);
  g_free (self->filter_text);
  self->filter_text = g_steal_pointer (&stripped);
  restart (self);
  return TRUE;
}

const char *
fmv_event_list_get_filter (FmvEventList *self)
{
  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), NULL);

  return self->filter_text;
}

void
fmv_event_list_set_sort (FmvEventList *self,
                         FmvSortField  field,
                         gboolean      descending)
{
  g_return_if_fail (FMV_IS_EVENT_LIST (self));
  g_return_if_fail (field >= FMV_SORT_ARRIVAL && field < FM_N_FIELDS);

  if (self->sort_field == field && self->descending == descending)
    return;
  self->sort_field = field;
  self->descending = descending;
  /* The Xvfb tests read this line. */
  g_debug ("sort: column %s%s", field == FMV_SORT_ARRIVAL ? "none" : fm_event_fields[field].filter_name,
           descending ? ", descending" : "");
  restart (self);
}

gboolean
fmv_event_list_get_busy (FmvEventList *self)
{
  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), FALSE);

  return self->job_running;
}

guint
fmv_event_list_get_n_total (FmvEventList *self)
{
  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), 0);

  /* Not the store's count: rows appended since the last update (up to UPDATE_INTERVAL_MS
   * ago, longer while the main loop is busy) are neither shown nor filtered out yet, and
   * counting them made a live window without a filter say "Showing 0 of 240 events" and
   * "No events match the filter." until the update came. While a job runs, the store's
   * count is what it is working through (the window says "Filtering…"). */
  if (self->job_running)
    return fmv_store_get_n_rows (self->store) - fmv_store_get_first_row (self->store);
  return self->n_seen - self->first;
}

guint
fmv_event_list_get_row (FmvEventList *self,
                        guint         position)
{
  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), 0);
  g_return_val_if_fail (position < n_shown (self), 0);

  return self->index ? g_array_index (self->index, guint32, position) : self->first + position;
}

GArray *
fmv_event_list_dup_shown_rows (FmvEventList *self)
{
  guint n;
  GArray *rows;

  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), NULL);
  g_return_val_if_fail (!self->job_running, NULL);

  n = n_shown (self);
  rows = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  if (self->index != NULL)
    g_array_append_vals (rows, self->index->data, n);
  else
    for (guint32 i = self->first; i < self->first + n; i++)
      g_array_append_val (rows, i);
  return rows;
}

gboolean
fmv_event_list_find_row (FmvEventList *self,
                         guint         row,
                         guint        *position)
{
  const guint32 *rows;
  guint n;

  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), FALSE);

  if (self->index == NULL)
    {
      if (row < self->first || row >= self->n_seen)
        return FALSE;
      *position = row - self->first;
      return TRUE;
    }

  rows = (const guint32 *) (const void *) self->index->data;
  n = self->index->len;
  if (is_arrival_order (self))
    {
      /* Arrival order: the index is ascending. */
      guint lo = lower_bound (rows, n, row);

      if (lo < n && rows[lo] == row)
        {
          *position = lo;
          return TRUE;
        }
      return FALSE;
    }

  for (guint i = 0; i < n; i++)
    if (rows[i] == row)
      {
        *position = i;
        return TRUE;
      }
  return FALSE;
}

typedef gboolean (*RowTest) (FmvStore *store, guint row, gpointer data);

/* The next (previous) position shown strictly after (before) @from whose row @test takes. */
static gboolean
find_position (FmvEventList *self,
               guint         from,
               gboolean      forward,
               RowTest       test,
               gpointer      data,
               guint        *position)
{
  guint n = n_shown (self);

  if (n == 0)
    return FALSE;
  if (forward)
    {
      for (guint p = (from == G_MAXUINT ? 0 : from + 1); p < n; p++)
        if (test (self->store, fmv_event_list_get_row (self, p), data))
          {
            *position = p;
            return TRUE;
          }
    }
  else
    {
      for (guint p = (from == G_MAXUINT || from > n ? n : from); p-- > 0;)
        if (test (self->store, fmv_event_list_get_row (self, p), data))
          {
            *position = p;
            return TRUE;
          }
    }
  return FALSE;
}

static gboolean
row_failed (FmvStore *store,
            guint     row,
            gpointer  data)
{
  return fmv_store_get_result (store, row) < 0;
}

gboolean
fmv_event_list_find_failure (FmvEventList *self,
                             guint         from,
                             gboolean      forward,
                             guint        *position)
{
  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), FALSE);

  return find_position (self, from, forward, row_failed, NULL, position);
}

static gboolean
row_matches (FmvStore *store,
             guint     row,
             gpointer  filter)
{
  return fmv_match_row (store, filter, row);
}

gboolean
fmv_event_list_find_match (FmvEventList *self,
                           FmFilter     *filter,
                           guint         from,
                           gboolean      forward,
                           guint        *position)
{
  g_return_val_if_fail (FMV_IS_EVENT_LIST (self), FALSE);
  g_return_val_if_fail (filter != NULL, FALSE);

  return find_position (self, from, forward, row_matches, filter, position);
}

void
fmv_event_list_wait (FmvEventList *self)
{
  g_return_if_fail (FMV_IS_EVENT_LIST (self));

  while (self->job_running)
    g_main_context_iteration (NULL, TRUE);
  fmv_event_list_update_now (self);
}

/* ---- GListModel ------------------------------------------------------------------------- */

static GType
fmv_event_list_get_item_type (GListModel *model)
{
  return FMV_TYPE_ROW;
}

static guint
fmv_event_list_get_n_items (GListModel *model)
{
  return n_shown (FMV_EVENT_LIST (model));
}

static gpointer
fmv_event_list_get_item (GListModel *model,
                         guint       position)
{
  FmvEventList *self = FMV_EVENT_LIST (model);
  FmvRow *item;
  guint row;

  if (position >= n_shown (self))
    return NULL;

  /* The same object for as long as one is alive: selection models compare items. */
  row = fmv_event_list_get_row (self, position);
  item = g_hash_table_lookup (self->rows, GUINT_TO_POINTER (row));
  if (item != NULL)
    return g_object_ref (item);

  item = fmv_row_new (self->store, row);
  g_hash_table_insert (self->rows, GUINT_TO_POINTER (row), item);
  g_object_weak_ref (G_OBJECT (item), row_finalized_cb, self);
  return item;
}

static void
fmv_event_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = fmv_event_list_get_item_type;
  iface->get_n_items = fmv_event_list_get_n_items;
  iface->get_item = fmv_event_list_get_item;
}

/* ---- GObject ---------------------------------------------------------------------------- */

static void
fmv_event_list_dispose (GObject *object)
{
  FmvEventList *self = FMV_EVENT_LIST (object);

  self->generation++;
  g_cancellable_cancel (self->job_cancellable);
  g_clear_object (&self->job_cancellable);
  g_clear_handle_id (&self->update_source, g_source_remove);

  G_OBJECT_CLASS (fmv_event_list_parent_class)->dispose (object);
}

static void
fmv_event_list_finalize (GObject *object)
{
  FmvEventList *self = FMV_EVENT_LIST (object);

  forget_rows (self);
  g_hash_table_unref (self->rows);
  g_clear_pointer (&self->index, g_array_unref);
  g_clear_pointer (&self->filter, fm_filter_free);
  g_free (self->filter_text);
  watch_store (self, NULL);

  G_OBJECT_CLASS (fmv_event_list_parent_class)->finalize (object);
}

static void
fmv_event_list_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  FmvEventList *self = FMV_EVENT_LIST (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->job_running);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fmv_event_list_class_init (FmvEventListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fmv_event_list_dispose;
  object_class->finalize = fmv_event_list_finalize;
  object_class->get_property = fmv_event_list_get_property;

  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_RESETTING] = g_signal_new ("resetting", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
  /* reset (gboolean everything): everything is new (refilter, resort, new store), not
   * only a merge of new rows into a sorted list. */
  signals[SIGNAL_RESET] = g_signal_new ("reset", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
fmv_event_list_init (FmvEventList *self)
{
  self->sort_field = FMV_SORT_ARRIVAL;
  self->rows = g_hash_table_new (NULL, NULL);
}

FmvEventList *
fmv_event_list_new (FmvStore *store)
{
  FmvEventList *self;

  g_return_val_if_fail (FMV_IS_STORE (store), NULL);

  self = g_object_new (FMV_TYPE_EVENT_LIST, NULL);
  watch_store (self, store);
  self->first = fmv_store_get_first_row (store);
  self->n_seen = fmv_store_get_n_rows (store);
  return self;
}
