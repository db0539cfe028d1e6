/* fmv-detail.c: the event properties: the Event tab, every field of the selected event
 * (its rows: fmv-detail-rows.h) in a grid of selectable labels, with a button per
 * filterable field that asks the window to filter on that value; and the Process tab
 * beside it (fmv-detail-process.c). */
#include "config.h"


#include "fm-format.h"
#include "fmv-detail.h"
#include "fmv-detail-process.h"
#include "fmv-detail-rows.h"
#include "fmv-filter-term.h"

#define N_ROWS FMV_DETAIL_N_ROWS

struct _FmvDetail
{
  GtkWidget parent_instance;

  GtkLabel *heading;
  GtkStack *stack;
  GtkGrid *grid;
  GtkWidget *copy_button;
  GtkWidget *copy_json_button;

  GtkStack *tabs;
  FmvProcessPage *process_page;

  GtkWidget *names[N_ROWS];
  GtkWidget *values[N_ROWS];
  GtkWidget *filter_buttons[N_ROWS];

  FmvRow *row;
};

enum {
  SIGNAL_FILTER_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (FmvDetail, fmv_detail, GTK_TYPE_WIDGET)

static void
filter_clicked_cb (GtkButton *button,
                   FmvDetail *self)
{
  FmFieldId field = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "fmv-field"));
  g_autofree char *term = NULL;
  FmvStoreEvent stored;
  const FmEvent *ev;

  if (self->row == NULL)
    return;
  ev = fmv_row_get_event (self->row, &stored);
  term = fmv_filter_term (field, ev);
  if (term != NULL)
    g_signal_emit (self, signals[SIGNAL_FILTER_REQUESTED], 0, term);
}

static void
copy_text_cb (FmvDetail *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *process = NULL;
  FmvStoreEvent stored;
  const FmEvent *ev;

  if (self->row == NULL)
    return;
  /* what the tab shown says */
  if (g_str_equal (gtk_stack_get_visible_child_name (self->tabs), "process")
      && (process = fmv_process_page_dup_text (self->process_page)) != NULL)
    {
      gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), process);
      return;
    }
  ev = fmv_row_get_event (self->row, &stored);
  for (guint r = 0; r < N_ROWS; r++)
    {
      g_autofree char *value = fmv_detail_row_exists (r) ? fmv_detail_row_text (r, ev) : NULL;

      if (value != NULL)
        g_string_append_printf (text, "%s: %s\n", fmv_detail_row_label (r), value);
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text->str);
}

static void
copy_json_cb (FmvDetail *self)
{
  g_autoptr(GString) line = g_string_new (NULL);
  FmvStoreEvent stored;
  const FmEvent *ev;

  if (self->row == NULL)
    return;
  ev = fmv_row_get_event (self->row, &stored);
  fm_format_event (FM_FORMAT_JSONL, ev, line);
  if (line->len > 0 && line->str[line->len - 1] == '\n')
    g_string_truncate (line, line->len - 1);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), line->str);
}

/* The Process tab is filled only while shown: it reads other rows than the event's. */
static void
show_process_if_visible (FmvDetail *self)
{
  gboolean visible = g_str_equal (gtk_stack_get_visible_child_name (self->tabs), "process");

  fmv_process_page_set_row (self->process_page, visible ? self->row : NULL);
}

static void
tab_changed_cb (FmvDetail *self)
{
  /* The Xvfb tests read this line. */
  g_debug ("properties: %s tab", gtk_stack_get_visible_child_name (self->tabs));
  show_process_if_visible (self);
}

void
fmv_detail_set_row (FmvDetail *self,
                    FmvRow    *row)
{
  FmvStoreEvent stored;
  const FmEvent *ev;
  g_autofree char *heading = NULL;

  g_return_if_fail (FMV_IS_DETAIL (self));
  g_return_if_fail (row == NULL || FMV_IS_ROW (row));

  if (!g_set_object (&self->row, row))
    return;

  gtk_widget_set_sensitive (self->copy_button, row != NULL);
  gtk_widget_set_sensitive (self->copy_json_button, row != NULL);
  if (row == NULL)
    {
      fmv_process_page_set_row (self->process_page, NULL);
      gtk_label_set_label (self->heading, "No Event Selected");
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  ev = fmv_row_get_event (row, &stored);
  heading = g_strdup_printf ("Event %" G_GUINT64_FORMAT, ev->seq);
  gtk_label_set_label (self->heading, heading);
  for (guint r = 0; r < N_ROWS; r++)
    {
      g_autofree char *value = self->values[r] != NULL ? fmv_detail_row_text (r, ev) : NULL;
      gboolean shown = value != NULL;

      if (self->values[r] == NULL)
        continue;
      /* The Xvfb tests read this line. */
      if (r == FMV_DETAIL_ROW_COMMAND && value != NULL)
        g_debug ("detail pane: command line: %s", value);
      if (r == FM_FIELD_UID)
        g_debug ("detail pane: user: %s", value);
      if (r == FM_FIELD_RESULT)
        g_debug ("detail pane: result: %s", value);
      gtk_label_set_label (GTK_LABEL (self->values[r]), value != NULL ? value : "");
      gtk_widget_set_visible (self->names[r], shown);
      gtk_widget_set_visible (self->values[r], shown);
      if (self->filter_buttons[r] != NULL)
        gtk_widget_set_visible (self->filter_buttons[r], shown);
      if (r == FM_FIELD_RESULT)
        {
          if (ev->result < 0)
            gtk_widget_add_css_class (self->values[r], "failed");
          else
            gtk_widget_remove_css_class (self->values[r], "failed");
        }
    }
  show_process_if_visible (self);
  gtk_stack_set_visible_child_name (self->stack, "event");
}

FmvRow *
fmv_detail_get_row (FmvDetail *self)
{
  g_return_val_if_fail (FMV_IS_DETAIL (self), NULL);

  return self->row;
}

GtkWidget *
fmv_detail_attach_field (GtkGrid    *grid,
                         int         top,
                         const char *label)
{
  GtkWidget *name = gtk_label_new (label);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 1.0);
  gtk_widget_set_valign (name, GTK_ALIGN_START);
  gtk_widget_add_css_class (name, "dim-label");
  gtk_widget_add_css_class (name, "field-name");

  gtk_label_set_xalign (GTK_LABEL (value), 0.0);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (value, TRUE);
  gtk_widget_set_valign (value, GTK_ALIGN_START);
  gtk_widget_add_css_class (value, "field-value");
  gtk_accessible_update_relation (GTK_ACCESSIBLE (value),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, name, NULL, -1);

  gtk_grid_attach (grid, name, 0, top, 1, 1);
  gtk_grid_attach (grid, value, 1, top, 1, 1);
  return value;
}

static void
attach_row (FmvDetail *self,
            guint      r,
            int        top)
{
  GtkWidget *button;
  g_autofree char *tooltip = NULL;
  FmFieldId field;

  self->values[r] = fmv_detail_attach_field (self->grid, top, fmv_detail_row_label (r));
  self->names[r] = gtk_grid_get_child_at (self->grid, 0, top);
  if (!fmv_detail_row_filter_field (r, &field))
    return;
  button = gtk_button_new_from_icon_name ("edit-find-symbolic");
  tooltip = g_strdup_printf ("Show only events with this %s", fmv_detail_row_label (r));
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "filter-value");
  g_object_set_data (G_OBJECT (button), "fmv-field", GUINT_TO_POINTER (field));
  g_signal_connect (button, "clicked", G_CALLBACK (filter_clicked_cb), self);
  gtk_grid_attach (self->grid, button, 2, top, 1, 1);
  self->filter_buttons[r] = button;
}

/* The rows in the table's order, the command line before the detail it comes from. */
static void
build_rows (FmvDetail *self)
{
  int top = 0;

  for (guint i = 0; i < FM_N_FIELDS; i++)
    {
      if (i == FM_FIELD_DETAIL)
        attach_row (self, FMV_DETAIL_ROW_COMMAND, top++);
      if (fmv_detail_row_exists (i))
        attach_row (self, i, top++);
    }
}

static void
fmv_detail_dispose (GObject *object)
{
  FmvDetail *self = FMV_DETAIL (object);

  GtkWidget *child;

  g_clear_object (&self->row);
  gtk_widget_dispose_template (GTK_WIDGET (self), FMV_TYPE_DETAIL);
  /* The template's outer box has no id, so dispose_template leaves it: without this,
   * "Finalizing FmvDetail, but it still has children left". */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (fmv_detail_parent_class)->dispose (object);
}

static void
fmv_detail_class_init (FmvDetailClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fmv_detail_dispose;

  signals[SIGNAL_FILTER_REQUESTED] = g_signal_new ("filter-requested", G_TYPE_FROM_CLASS (klass),
                                                   G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                   G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/filemond/Viewer/fmv-detail.ui");
  gtk_widget_class_bind_template_child (widget_class, FmvDetail, heading);
  gtk_widget_class_bind_template_child (widget_class, FmvDetail, stack);
  gtk_widget_class_bind_template_child (widget_class, FmvDetail, grid);
  gtk_widget_class_bind_template_child (widget_class, FmvDetail, tabs);
  gtk_widget_class_bind_template_child (widget_class, FmvDetail, process_page);
  gtk_widget_class_bind_template_child (widget_class, FmvDetail, copy_button);
  gtk_widget_class_bind_template_child (widget_class, FmvDetail, copy_json_button);
  gtk_widget_class_bind_template_callback (widget_class, copy_text_cb);
  gtk_widget_class_bind_template_callback (widget_class, copy_json_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_changed_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "fmvdetail");
}

static void
fmv_detail_init (FmvDetail *self)
{
  g_type_ensure (FMV_TYPE_PROCESS_PAGE);
  gtk_widget_init_template (GTK_WIDGET (self));
  build_rows (self);
  gtk_widget_set_sensitive (self->copy_button, FALSE);
  gtk_widget_set_sensitive (self->copy_json_button, FALSE);
  gtk_label_set_label (self->heading, "No Event Selected");
}

GtkWidget *
fmv_detail_new (void)
{
  return g_object_new (FMV_TYPE_DETAIL, NULL);
}
