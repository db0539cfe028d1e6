/* fmv-analysis-window.c: the process tree, file summary and value counts of the events a
 * viewer window shows, computed in a worker thread (fmv-analysis.c) when the window opens;
 * see fmv-analysis-window.h.
 *
 * Each view is a GtkColumnView over plain items holding their cells' texts, a sort key per
 * column and the filter term of their events; selecting one sets the main window's filter
 * to the one it had when the analysis opened AND that term, so going from entry to entry
 * replaces the last term instead of piling them up.
 */
#include "config.h"

#include "fmv-analysis-window.h"
#include "fmv-analysis.h"
#include "fmv-cells.h"
#include "fmv-columns.h"
#include "fmv-command-line.h"
#include "fmv-filter-term.h"
#include "fmv-process-menu.h"
#include "fmv-row.h"
#include "fmv-window-private.h"

#define MAX_COLUMNS 11
/* How much of the views the debug log spells out (the Xvfb tests read it). */
#define LOG_ENTRIES 40

/* ---- items ------------------------------------------------------------------------------- */

#define FMV_TYPE_SUMMARY_ITEM (fmv_summary_item_get_type ())
G_DECLARE_FINAL_TYPE (FmvSummaryItem, fmv_summary_item, FMV, SUMMARY_ITEM, GObject)

struct _FmvSummaryItem
{
  GObject parent_instance;
  char *texts[MAX_COLUMNS];
  gint64 keys[MAX_COLUMNS];   /* the order of numeric columns */
  char *term;                 /* the filter that shows this entry's events */
  GListStore *children;       /* the process tree's children, NULL elsewhere */
  guint process;              /* the process tree's: its index in the analysis's processes */
};

G_DEFINE_FINAL_TYPE (FmvSummaryItem, fmv_summary_item, G_TYPE_OBJECT)

static void
fmv_summary_item_finalize (GObject *object)
{
  FmvSummaryItem *self = FMV_SUMMARY_ITEM (object);

  for (guint i = 0; i < MAX_COLUMNS; i++)
    g_free (self->texts[i]);
  g_free (self->term);
  g_clear_object (&self->children);
  G_OBJECT_CLASS (fmv_summary_item_parent_class)->finalize (object);
}

static void
fmv_summary_item_class_init (FmvSummaryItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fmv_summary_item_finalize;
}

static void
fmv_summary_item_init (FmvSummaryItem *self)
{
}

/* Column @c shows @number. */
static void
set_number (FmvSummaryItem *item,
            guint           c,
            guint64         number)
{
  item->texts[c] = g_strdup_printf ("%'" G_GUINT64_FORMAT, number);
  item->keys[c] = (gint64) number;
}

/* Column @c shows @bytes as a size ("4.1 kB"), ordered by the exact number. */
static void
set_bytes (FmvSummaryItem *item,
           guint           c,
           guint64         bytes)
{
  item->texts[c] = g_format_size (bytes);
  item->keys[c] = (gint64) bytes;
}

/* ---- the views' columns ------------------------------------------------------------------ */

typedef struct {
  const char *title;
  gboolean numeric;           /* right-aligned, sorted by key, largest first */
  gboolean expand;
} ColumnSpec;

enum { P_NAME, P_PID, P_USER, P_COMMAND, P_START, P_LIFE, P_EVENTS, P_FAILURES, P_FILES, P_N };
static const ColumnSpec process_columns[P_N] = {
  [P_NAME] = { "Process", FALSE, FALSE },
  [P_PID] = { "PID", TRUE, FALSE },
  [P_USER] = { "User", FALSE, FALSE },
  [P_COMMAND] = { "Command Line", FALSE, TRUE },
  [P_START] = { "Start", TRUE, FALSE },
  [P_LIFE] = { "Life Time", TRUE, FALSE },
  [P_EVENTS] = { "Events", TRUE, FALSE },
  [P_FAILURES] = { "Failures", TRUE, FALSE },
  [P_FILES] = { "Files", TRUE, FALSE },
};

enum { F_PATH, F_OPENS, F_READS, F_READ_BYTES, F_WRITES, F_WRITE_BYTES, F_FAILURES, F_TIME, F_PROCESSES,
       F_EVENTS, F_N };
static const ColumnSpec file_columns[F_N] = {
  [F_PATH] = { "Path", FALSE, TRUE },
  [F_OPENS] = { "Opens", TRUE, FALSE },
  [F_READS] = { "Reads", TRUE, FALSE },
  [F_READ_BYTES] = { "Bytes Read", TRUE, FALSE },
  [F_WRITES] = { "Writes", TRUE, FALSE },
  [F_WRITE_BYTES] = { "Bytes Written", TRUE, FALSE },
  [F_FAILURES] = { "Failures", TRUE, FALSE },
  [F_TIME] = { "Total Time", TRUE, FALSE },
  [F_PROCESSES] = { "Processes", TRUE, FALSE },
  [F_EVENTS] = { "Events", TRUE, FALSE },
};

enum { C_VALUE, C_COUNT, C_N };
static const ColumnSpec count_columns[C_N] = {
  [C_VALUE] = { "Value", FALSE, TRUE },
  [C_COUNT] = { "Count", TRUE, FALSE },
};

/* Column @i of those whose values can be counted: the event list's columns (fmv-columns.h)
 * whose values a filter term can name, in its order; NULL past the last. */
static const FmvColumnInfo *
count_column (guint i)
{
  for (guint c = 0; c < fmv_columns_get_n (); c++)
    if (fmv_filter_term_offered (fmv_columns_get (c)->field) && i-- == 0)
      return fmv_columns_get (c);
  return NULL;
}

typedef struct {
  guint column;
  const ColumnSpec *spec;
  gboolean process_menu;      /* a right click opens the process tree's row menu */
} ColumnData;

static void process_menu_cb (GtkWidget *cell,
                             GObject   *item,
                             double     x,
                             double     y,
                             gpointer   user_data);

static FmvSummaryItem *
item_of (gpointer object)
{
  g_autoptr(GObject) inner = NULL;

  if (!GTK_IS_TREE_LIST_ROW (object))
    return object;
  /* The row holds the item; the borrowed pointer stays valid as long as the row. */
  inner = gtk_tree_list_row_get_item (object);
  return FMV_SUMMARY_ITEM (inner);
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  const ColumnData *data = user_data;
  GtkWidget *label = fmv_cells_new_label (data->spec->numeric ? 1 : 0,
                                          data->spec->expand ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_END,
                                          data->spec->numeric);
  if (data->column == 0)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    gtk_list_item_set_child (list_item, label);
  if (data->process_menu)
    fmv_cells_add_right_click (gtk_list_item_get_child (list_item), list_item, process_menu_cb, NULL);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  const ColumnData *data = user_data;
  gpointer object = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  FmvSummaryItem *item = item_of (object);

  if (GTK_IS_TREE_EXPANDER (child))
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child),
                                      GTK_IS_TREE_LIST_ROW (object) ? object : NULL);
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }
  gtk_label_set_label (GTK_LABEL (child), item->texts[data->column]);
}

static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const ColumnData *data = user_data;
  const FmvSummaryItem *x = a, *y = b;

  if (data->spec->numeric)
    return x->keys[data->column] < y->keys[data->column] ? GTK_ORDERING_SMALLER :
           x->keys[data->column] > y->keys[data->column] ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
  return gtk_ordering_from_cmpfunc (g_strcmp0 (x->texts[data->column], y->texts[data->column]));
}

static GListModel *
create_children_cb (gpointer object,
                    gpointer user_data)
{
  FmvSummaryItem *item = object;

  return item->children != NULL ? g_object_ref (G_LIST_MODEL (item->children)) : NULL;
}

/* ---- the window -------------------------------------------------------------------------- */

struct _FmvAnalysisWindow
{
  GtkWindow parent_instance;

  FmvWindow *main;            /* weak: the window whose events these are */
  char *base_filter;          /* its filter when the analysis opened */
  FmvStore *store;
  GArray *rows;               /* the rows it showed then */
  GCancellable *cancellable;

  GtkStack *stack;
  GtkLabel *status;
  FmvAnalysis *analysis;      /* the processes and files shown, once computed */
  GtkWidget *process_view;
  FmvProcessMenu *menu;       /* the tree's row menu, NULL until the main window is known */
  GListStore *processes;      /* roots of the tree */
  GListStore *files;
  GListStore *counts;
  GtkDropDown *count_field;
  GtkLabel *count_status;
  guint count_generation;     /* a newer count replaces an older one still running */
};

G_DEFINE_FINAL_TYPE (FmvAnalysisWindow, fmv_analysis_window, GTK_TYPE_WINDOW)

static void
selected_cb (GtkSingleSelection *selection,
             GParamSpec         *pspec,
             FmvAnalysisWindow  *self)
{
  gpointer object = gtk_single_selection_get_selected_item (selection);
  g_autofree char *text = NULL;

  if (object == NULL || self->main == NULL)
    return;
  text = fmv_filter_and (self->base_filter, item_of (object)->term);
  fmv_window_set_filter_text (self->main, text);
}

static GtkWidget *
make_view (FmvAnalysisWindow *self,
           const ColumnSpec  *specs,
           guint              n_columns,
           GListStore        *items,
           gboolean           tree,
           guint              sort_column)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GListModel *model = G_LIST_MODEL (g_object_ref (items));
  GtkSorter *sorter;
  GtkSortListModel *sorted;
  GtkSingleSelection *selection;

  gtk_column_view_set_show_column_separators (view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (view), "analysis");
  for (guint c = 0; c < n_columns; c++)
    {
      ColumnData *data = g_new (ColumnData, 1);
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;
      g_autoptr(GtkSorter) column_sorter = NULL;

      *data = (ColumnData) { c, &specs[c], tree };
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), data);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), data);
      column = gtk_column_view_column_new (specs[c].title, g_object_ref (factory));
      gtk_column_view_column_set_expand (column, specs[c].expand);
      gtk_column_view_column_set_resizable (column, TRUE);
      column_sorter = GTK_SORTER (gtk_custom_sorter_new (compare_items, data, g_free));
      gtk_column_view_column_set_sorter (column, column_sorter);
      gtk_column_view_append_column (view, column);
      if (c == sort_column)
        gtk_column_view_sort_by_column (view, column, specs[c].numeric ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
    }

  sorter = g_object_ref (gtk_column_view_get_sorter (view));
  if (tree)
    {
      model = G_LIST_MODEL (gtk_tree_list_model_new (model, FALSE, TRUE, create_children_cb, NULL, NULL));
      sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (sorter));
    }
  sorted = gtk_sort_list_model_new (model, sorter);
  selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  g_signal_connect_object (selection, "notify::selected-item", G_CALLBACK (selected_cb), self, 0);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (view));
  gtk_widget_set_vexpand (scrolled, TRUE);
  if (tree)
    self->process_view = GTK_WIDGET (view);
  return scrolled;
}

/* ---- filling the views ------------------------------------------------------------------- */

static FmvSummaryItem *
process_item (FmvAnalysisWindow    *self,
              const FmvProcessInfo *info)
{
  FmvSummaryItem *item = g_object_new (FMV_TYPE_SUMMARY_ITEM, NULL);
  FmvStoreEvent stored;
  const FmEvent *ev;

  ev = fmv_store_get_event (self->store, info->row, &stored);
  item->texts[P_NAME] = fmv_bytes_to_display (ev->comm, ev->comm_len);
  set_number (item, P_PID, info->pid);
  item->texts[P_USER] = g_strdup (fmv_user_name (info->uid));
  if (info->has_exec)
    {
      ev = fmv_store_get_event (self->store, info->exec_row, &stored);
      item->texts[P_COMMAND] = fmv_exec_command_line (ev);
    }
  item->texts[P_START] = fmv_format_time (info->first_ns, FALSE);
  item->keys[P_START] = (gint64) info->first_ns;
  item->texts[P_LIFE] = fmv_format_duration (info->last_ns - info->first_ns);
  item->keys[P_LIFE] = (gint64) (info->last_ns - info->first_ns);
  set_number (item, P_EVENTS, info->n_events);
  set_number (item, P_FAILURES, info->n_failures);
  set_number (item, P_FILES, info->n_files);
  item->term = g_strdup_printf ("pid=%u", info->pid);
  return item;
}

static FmvSummaryItem *
file_item (FmvAnalysisWindow *self,
           const FmvFileInfo *info)
{
  FmvSummaryItem *item = g_object_new (FMV_TYPE_SUMMARY_ITEM, NULL);
  FmvStoreEvent stored;
  const FmEvent *ev;

  ev = fmv_store_get_event (self->store, info->row, &stored);
  if (info->row_is_path2)
    item->texts[F_PATH] = fmv_bytes_to_display (ev->path2, ev->path2_len);
  else
    item->texts[F_PATH] = fmv_bytes_to_display (ev->path, ev->path_len);
  set_number (item, F_OPENS, info->n_opens);
  set_number (item, F_READS, info->n_reads);
  set_bytes (item, F_READ_BYTES, info->bytes_read);
  set_number (item, F_WRITES, info->n_writes);
  set_bytes (item, F_WRITE_BYTES, info->bytes_written);
  set_number (item, F_FAILURES, info->n_failures);
  item->texts[F_TIME] = fmv_format_duration (info->total_ns);
  item->keys[F_TIME] = (gint64) info->total_ns;
  set_number (item, F_PROCESSES, info->n_processes);
  set_number (item, F_EVENTS, info->n_events);
  item->term = fmv_filter_term (info->row_is_path2 ? FM_FIELD_PATH2 : FM_FIELD_PATH, ev);
  return item;
}

/* "100 bash [200 make [300 cc1]]": the tree, for the debug log. */
static void
describe_tree (GListModel *items,
               GString    *out,
               guint      *budget)
{
  for (guint i = 0; i < g_list_model_get_n_items (items) && *budget > 0; i++, (*budget)--)
    {
      g_autoptr(FmvSummaryItem) item = g_list_model_get_item (items, i);

      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%s %s", item->texts[P_PID], item->texts[P_NAME]);
      if (item->children != NULL)
        {
          g_string_append (out, " [");
          describe_tree (G_LIST_MODEL (item->children), out, budget);
          g_string_append_c (out, ']');
        }
    }
}

static void
show_analysis (FmvAnalysisWindow *self,
               FmvAnalysis       *analysis)
{
  g_autoptr(GPtrArray) procs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GString) tree = g_string_new (NULL);
  guint budget = LOG_ENTRIES;

  for (guint i = 0; i < analysis->processes->len; i++)
    {
      FmvSummaryItem *item = process_item (self, &g_array_index (analysis->processes, FmvProcessInfo, i));

      item->process = i;
      g_ptr_array_add (procs, item);
    }
  /* The children first: the tree model asks a root for its children when it is added. */
  for (guint i = 0; i < analysis->processes->len; i++)
    {
      int parent = g_array_index (analysis->processes, FmvProcessInfo, i).parent;
      FmvSummaryItem *parent_item = parent >= 0 ? procs->pdata[parent] : NULL;

      if (parent_item == NULL)
        continue;
      if (parent_item->children == NULL)
        parent_item->children = g_list_store_new (FMV_TYPE_SUMMARY_ITEM);
      g_list_store_append (parent_item->children, procs->pdata[i]);
    }
  for (guint i = 0; i < analysis->processes->len; i++)
    if (g_array_index (analysis->processes, FmvProcessInfo, i).parent < 0)
      g_list_store_append (self->processes, procs->pdata[i]);
  describe_tree (G_LIST_MODEL (self->processes), tree, &budget);
  g_debug ("process tree: %s", tree->str);
  for (guint i = 0; i < MIN (procs->len, LOG_ENTRIES); i++)
    {
      FmvSummaryItem *item = procs->pdata[i];

      if (item->texts[P_COMMAND] != NULL)
        g_debug ("process %s command line: %s", item->texts[P_PID], item->texts[P_COMMAND]);
    }

  for (guint i = 0; i < analysis->files->len; i++)
    {
      const FmvFileInfo *info = &g_array_index (analysis->files, FmvFileInfo, i);
      g_autoptr(FmvSummaryItem) item = file_item (self, info);

      if (i < LOG_ENTRIES)
        g_debug ("file summary: %s opens=%s reads=%s (%" G_GUINT64_FORMAT " bytes) writes=%s (%" G_GUINT64_FORMAT
                 " bytes) failures=%s processes=%s events=%s", item->texts[F_PATH], item->texts[F_OPENS],
                 item->texts[F_READS], info->bytes_read, item->texts[F_WRITES], info->bytes_written,
                 item->texts[F_FAILURES], item->texts[F_PROCESSES], item->texts[F_EVENTS]);
      g_list_store_append (self->files, item);
    }
}

static void
show_counts (FmvAnalysisWindow *self,
             GArray            *counts,
             guint              field)
{
  const FmvColumnInfo *column = count_column (field);

  g_list_store_remove_all (self->counts);
  for (guint i = 0; i < counts->len; i++)
    {
      const FmvValueCount *vc = &g_array_index (counts, FmvValueCount, i);
      g_autoptr(FmvSummaryItem) item = g_object_new (FMV_TYPE_SUMMARY_ITEM, NULL);
      g_autoptr(FmvRow) row = fmv_row_new (self->store, vc->row);
      FmvStoreEvent stored;
      const FmEvent *ev;

      ev = fmv_row_get_event (row, &stored);
      item->texts[C_VALUE] = column->format (column->field, ev);
      set_number (item, C_COUNT, vc->count);
      item->term = fmv_filter_term (column->field, ev);
      if (i < LOG_ENTRIES)
        g_debug ("count of %s: %s %u", column->title, item->texts[C_VALUE], vc->count);
      g_list_store_append (self->counts, item);
    }
}

/* ---- the worker -------------------------------------------------------------------------- */

typedef struct {
  FmvStore *store;
  GArray *rows;
  gboolean counting;
  guint field;                /* count_column()'s index */
  guint generation;
  FmvAnalysis *analysis;
  GArray *counts;
  double seconds;
} Job;

static void
job_free (Job *job)
{
  /* Here, not in job_done_cb: with return-on-cancel the callback may come before the
   * thread's last read, while the task is finalized only after both. */
  fmv_store_unhold (job->store);
  g_clear_object (&job->store);
  g_clear_pointer (&job->rows, g_array_unref);
  g_clear_pointer (&job->analysis, fmv_analysis_free);
  g_clear_pointer (&job->counts, g_array_unref);
  g_free (job);
}

static void
job_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;
  const guint32 *rows = (const guint32 *) (gpointer) job->rows->data;
  gint64 start = g_get_monotonic_time ();

  if (job->counting)
    job->counts = fmv_analysis_count_values (job->store, rows, job->rows->len, count_column (job->field)->field);
  else
    job->analysis = fmv_analysis_new (job->store, rows, job->rows->len);
  job->seconds = (g_get_monotonic_time () - start) / 1e6;
  g_task_return_boolean (task, TRUE);
}

static void count_field_cb (GtkDropDown       *drop_down,
                            GParamSpec        *pspec,
                            FmvAnalysisWindow *self);

static void
job_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  FmvAnalysisWindow *self = FMV_ANALYSIS_WINDOW (source);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autofree char *text = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), NULL))
    return;   /* cancelled: the window is closing */
  if (job->counting)
    {
      if (job->generation != self->count_generation)
        return;
      show_counts (self, job->counts, job->field);
      g_debug ("count occurrences of %s: %u values of %u events in %.3f s", count_column (job->field)->title,
               job->counts->len, job->rows->len, job->seconds);
      text = g_strdup_printf ("%'u different values in %'u events", job->counts->len, job->rows->len);
      gtk_label_set_label (self->count_status, text);
      return;
    }
  else
    {
      gint64 start = g_get_monotonic_time ();

      show_analysis (self, job->analysis);
      /* kept for the tree's row menu; the store it holds stays held as long */
      self->analysis = g_steal_pointer (&job->analysis);
      fmv_process_menu_set_analysis (self->menu, self->analysis);
      g_debug ("analysis: %u processes, %u files of %u events in %.3f s, shown in %.3f s more",
               self->analysis->processes->len, self->analysis->files->len, job->rows->len, job->seconds,
               (g_get_monotonic_time () - start) / 1e6);
      g_signal_connect_object (self->count_field, "notify::selected", G_CALLBACK (count_field_cb), self, 0);
      count_field_cb (self->count_field, NULL, self);
      text = g_strdup_printf ("%'u processes and %'u files in %'u events", self->analysis->processes->len,
                              self->analysis->files->len, job->rows->len);
    }
  gtk_label_set_label (self->status, text);
}

static void
run_job (FmvAnalysisWindow *self,
         gboolean           counting,
         guint              field)
{
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, job_done_cb, NULL);
  Job *job = g_new0 (Job, 1);

  /* The rows shown when the window opened, but those the store let go since (its
   * depth): a later count covers what is still there. A copy: a job still running may be
   * reading the array. */
  if (fmv_store_get_first_row (self->store) > 0)
    {
      g_autoptr(GArray) kept = g_array_copy (self->rows);

      if (fmv_store_forget_gone_rows (self->store, kept))
        {
          g_array_unref (self->rows);
          self->rows = g_steal_pointer (&kept);
        }
    }
  job->store = g_object_ref (self->store);
  job->rows = g_array_ref (self->rows);
  /* until job_free: also the rows job_done_cb reads to show the result */
  fmv_store_hold (self->store);
  job->counting = counting;
  job->field = field;
  if (counting)
    job->generation = ++self->count_generation;
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, job_thread);
}

static void
count_field_cb (GtkDropDown       *drop_down,
                GParamSpec        *pspec,
                FmvAnalysisWindow *self)
{
  guint field = gtk_drop_down_get_selected (drop_down);

  if (count_column (field) != NULL)
    run_job (self, TRUE, field);
}

/* ---- the process tree's row menu --------------------------------------------------------- */

static void
process_menu_cb (GtkWidget *cell,
                 GObject   *object,
                 double     x,
                 double     y,
                 gpointer   user_data)
{
  FmvAnalysisWindow *self = FMV_ANALYSIS_WINDOW (gtk_widget_get_root (cell));

  if (self->menu != NULL)
    fmv_process_menu_popup (self->menu, item_of (object)->process, cell, x, y);
}

/* ---- construction ------------------------------------------------------------------------ */

static void
fmv_analysis_window_dispose (GObject *object)
{
  FmvAnalysisWindow *self = FMV_ANALYSIS_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->menu, fmv_process_menu_free);
  g_clear_pointer (&self->analysis, fmv_analysis_free);
  g_clear_weak_pointer (&self->main);
  g_clear_object (&self->processes);
  g_clear_object (&self->files);
  g_clear_object (&self->counts);
  g_clear_object (&self->store);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->base_filter, g_free);
  G_OBJECT_CLASS (fmv_analysis_window_parent_class)->dispose (object);
}

static void
fmv_analysis_window_class_init (FmvAnalysisWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = fmv_analysis_window_dispose;
}

static void
fmv_analysis_window_init (FmvAnalysisWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *counts_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *field_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  const char *labels[FM_N_FIELDS + 1] = { NULL };

  self->cancellable = g_cancellable_new ();
  self->processes = g_list_store_new (FMV_TYPE_SUMMARY_ITEM);
  self->files = g_list_store_new (FMV_TYPE_SUMMARY_ITEM);
  self->counts = g_list_store_new (FMV_TYPE_SUMMARY_ITEM);

  gtk_window_set_title (GTK_WINDOW (self), "Analysis");
  gtk_window_set_default_size (GTK_WINDOW (self), 1000, 520);
  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->stack);
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), switcher);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  gtk_stack_add_titled (self->stack, make_view (self, process_columns, P_N, self->processes, TRUE, G_MAXUINT),
                        "processes", "Process Tree");
  gtk_stack_add_titled (self->stack, make_view (self, file_columns, F_N, self->files, FALSE, F_EVENTS),
                        "files", "File Summary");

  for (guint i = 0; count_column (i) != NULL; i++)
    labels[i] = count_column (i)->title;
  self->count_field = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (labels));
  gtk_widget_set_margin_start (field_box, 6);
  gtk_widget_set_margin_top (field_box, 6);
  gtk_widget_set_margin_bottom (field_box, 6);
  gtk_box_append (GTK_BOX (field_box), gtk_label_new ("Count the values of"));
  gtk_box_append (GTK_BOX (field_box), GTK_WIDGET (self->count_field));
  self->count_status = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->count_status), "dim-label");
  gtk_box_append (GTK_BOX (field_box), GTK_WIDGET (self->count_status));
  gtk_box_append (GTK_BOX (counts_box), field_box);
  gtk_box_append (GTK_BOX (counts_box), make_view (self, count_columns, C_N, self->counts, FALSE, C_COUNT));
  gtk_stack_add_titled (self->stack, counts_box, "counts", "Count Occurrences");

  self->status = GTK_LABEL (gtk_label_new ("Computing…"));
  gtk_label_set_xalign (self->status, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_widget_set_margin_start (GTK_WIDGET (self->status), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->status), 3);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->status), 3);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));
  gtk_window_set_child (GTK_WINDOW (self), box);
}

FmvAnalysisWindow *
fmv_analysis_window_new (FmvWindow  *window,
                         const char *page)
{
  FmvAnalysisWindow *self;

  g_return_val_if_fail (FMV_IS_WINDOW (window), NULL);
  g_return_val_if_fail (!fmv_event_list_get_busy (window->list), NULL);

  self = g_object_new (FMV_TYPE_ANALYSIS_WINDOW, "transient-for", window, "destroy-with-parent", TRUE, NULL);
  g_set_weak_pointer (&self->main, window);
  self->menu = fmv_process_menu_new (self->process_view, window);
  self->base_filter = g_strdup (gtk_editable_get_text (GTK_EDITABLE (window->filter_entry)));
  self->store = g_object_ref (window->store);
  self->rows = fmv_event_list_dup_shown_rows (window->list);
  gtk_stack_set_visible_child_name (self->stack, page);
  /* The counts follow once the tree and summary are done, not beside them: the two share
   * the machine's cores with the window's own work. */
  run_job (self, FALSE, 0);
  return self;
}
