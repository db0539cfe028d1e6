/* fmv-detail-process.c: the Process tab of the event properties; see
 * fmv-detail-process.h.
 *
 * The tab keeps a process index (fmv-process-index.h) of the store its event is in.
 * Rows appended since it was last brought up to date are read when an event is shown:
 * on the main thread while they are few (a live capture between two clicks), in a worker
 * thread otherwise (a capture file just opened, a store that let rows go), which owns the
 * index until it is done so that nothing reads it halfway.
 */
#include "config.h"

#include "fmv-detail.h"
#include "fmv-detail-process.h"
#include "fmv-process-index.h"
#include "fmv-process-text.h"

/* Rows read on the main thread at most: 1 to 11 ms here (a million rows took 17 ms, or
 * 0.23 s for a build's, a new process every 50 events: bench-model.c). */
#define SYNC_ROWS 50000

struct _FmvProcessPage
{
  GtkWidget parent_instance;

  GtkWidget *scrolled;
  GtkLabel *status;           /* why nothing is shown yet */
  GtkGrid *fields;
  GtkWidget *parents_heading;
  GtkGrid *parents;

  FmvRow *row;
  FmvProcessText *text;       /* what is shown */
  FmvProcessIndex *index;     /* NULL while a worker has it */
  gboolean updating;
  GCancellable *cancellable;
};

G_DEFINE_FINAL_TYPE (FmvProcessPage, fmv_process_page, GTK_TYPE_WIDGET)

static void refresh (FmvProcessPage *self);

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static void
fill_grid (GtkGrid   *grid,
           GPtrArray *fields)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const FmvPropField *field = fields->pdata[i];
      GtkWidget *value = fmv_detail_attach_field (grid, (int) i, field->label);

      gtk_label_set_label (GTK_LABEL (value), field->value);
      if (field->unknown)
        gtk_widget_add_css_class (value, "unknown");
    }
}

/* Shows @message instead of a process (NULL: neither). */
static void
show_status (FmvProcessPage *self,
             const char     *message)
{
  g_clear_pointer (&self->text, fmv_process_text_free);
  clear_grid (self->fields);
  clear_grid (self->parents);
  gtk_widget_set_visible (self->parents_heading, FALSE);
  gtk_label_set_label (self->status, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status), message != NULL);
}

static void
show_text (FmvProcessPage *self,
           FmvProcessText *text)
{
  g_autofree char *lines = fmv_process_text_to_string (text);

  show_status (self, NULL);
  self->text = text;
  fill_grid (self->fields, text->fields);
  fill_grid (self->parents, text->parents);
  gtk_widget_set_visible (self->parents_heading, text->parents->len > 0);
  /* The Xvfb tests read these lines. */
  g_debug ("properties: process tab of %s:\n%s", text->title, lines);
}

/* ---- the worker -------------------------------------------------------------------------- */

typedef struct {
  FmvStore *store;
  FmvProcessIndex *index;
  guint n_rows;
  double seconds;
} Job;

static void
job_free (Job *job)
{
  /* here, not in job_done_cb: the task is freed only once the thread is done reading */
  fmv_store_unhold (job->store);
  g_clear_pointer (&job->index, fmv_process_index_free);
  g_clear_object (&job->store);
  g_free (job);
}

static void
job_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;
  gint64 start = g_get_monotonic_time ();

  fmv_process_index_update (job->index);
  job->seconds = (g_get_monotonic_time () - start) / 1e6;
  g_task_return_boolean (task, TRUE);
}

static void
job_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  FmvProcessPage *self = FMV_PROCESS_PAGE (source);
  Job *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;   /* cancelled: the tab is going */
  self->updating = FALSE;
  g_debug ("properties: process index of %'u rows read in %.3f s", job->n_rows, job->seconds);
  self->index = g_steal_pointer (&job->index);
  refresh (self);
}

static void
start_job (FmvProcessPage *self)
{
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, job_done_cb, NULL);
  Job *job = g_new0 (Job, 1);

  job->store = g_object_ref (fmv_process_index_get_store (self->index));
  job->n_rows = fmv_process_index_get_n_pending (self->index);
  job->index = g_steal_pointer (&self->index);
  /* until job_free: the rows the thread reads stay there */
  fmv_store_hold (job->store);
  self->updating = TRUE;
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, job_thread);
}

/* ---- showing a row ----------------------------------------------------------------------- */

static void
refresh (FmvProcessPage *self)
{
  FmvStore *store;
  guint row;
  g_autofree char *message = NULL;

  if (self->row == NULL)
    {
      show_status (self, NULL);
      return;
    }
  if (self->updating)
    return;   /* job_done_cb comes back here */
  store = fmv_row_get_store (self->row);
  row = fmv_row_get_row (self->row);
  if (!fmv_store_has_row (store, row))
    {
      show_status (self, "This event is no longer held (the history depth let it go).");
      return;
    }
  if (self->index != NULL && fmv_process_index_get_store (self->index) != store)
    g_clear_pointer (&self->index, fmv_process_index_free);
  if (self->index == NULL)
    self->index = fmv_process_index_new (store);
  if (!fmv_process_index_covers (self->index, row))
    {
      guint pending = fmv_process_index_get_n_pending (self->index);

      if (pending > SYNC_ROWS)
        {
          message = g_strdup_printf ("Reading the %'u events held…", pending);
          show_status (self, message);
          start_job (self);
          return;
        }
      fmv_process_index_update (self->index);
    }
  show_text (self, fmv_process_text_new (self->index, row));
}

void
fmv_process_page_set_row (FmvProcessPage *self,
                          FmvRow         *row)
{
  g_return_if_fail (FMV_IS_PROCESS_PAGE (self));
  g_return_if_fail (row == NULL || FMV_IS_ROW (row));

  if (!g_set_object (&self->row, row) && (row == NULL || self->text != NULL))
    return;
  refresh (self);
}

char *
fmv_process_page_dup_text (FmvProcessPage *self)
{
  g_return_val_if_fail (FMV_IS_PROCESS_PAGE (self), NULL);

  return self->text != NULL ? fmv_process_text_to_string (self->text) : NULL;
}

/* ---- construction ------------------------------------------------------------------------ */

static void
fmv_process_page_dispose (GObject *object)
{
  FmvProcessPage *self = FMV_PROCESS_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->row);
  g_clear_pointer (&self->text, fmv_process_text_free);
  g_clear_pointer (&self->index, fmv_process_index_free);
  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  G_OBJECT_CLASS (fmv_process_page_parent_class)->dispose (object);
}

static void
fmv_process_page_class_init (FmvProcessPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = fmv_process_page_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static GtkGrid *
new_grid (void)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());

  gtk_grid_set_column_spacing (grid, 12);
  gtk_grid_set_row_spacing (grid, 8);
  return grid;
}

static void
fmv_process_page_init (FmvProcessPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);

  self->cancellable = g_cancellable_new ();
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->status), FALSE);
  self->fields = new_grid ();
  self->parents_heading = gtk_label_new ("Parents");
  gtk_label_set_xalign (GTK_LABEL (self->parents_heading), 0);
  gtk_widget_add_css_class (self->parents_heading, "heading");
  gtk_widget_set_margin_top (self->parents_heading, 10);
  gtk_widget_set_visible (self->parents_heading, FALSE);
  self->parents = new_grid ();

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->fields));
  gtk_box_append (GTK_BOX (box), self->parents_heading);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->parents));

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), box);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
}

GtkWidget *
fmv_process_page_new (void)
{
  return g_object_new (FMV_TYPE_PROCESS_PAGE, NULL);
}
