/* fmv-detail.c: the event properties: the Event tab, every field of the selected event
 * (the field table's, fm-event-fields.h) in a grid of selectable labels, with a button
 * per filterable field that asks the window to filter on that value; and the Process
 * tab beside it (fmv-detail-process.c). */
#include "config.h"

#include <string.h>

#include "fm-format.h"
#include "fm-syscalls.h"
#include "fmv-command-line.h"
#include "fmv-detail.h"
#include "fmv-detail-process.h"
#include "fmv-filter-term.h"
#include "fmv-process-text.h"

/* The Event tab's rows: one per field of the field table (fm-event-fields.h), and an
 * exec's command line. */
#define ROW_COMMAND FM_N_FIELDS
#define N_ROWS (FM_N_FIELDS + 1)

/* A field missing here (one added to the table) is shown under its jsonl key. */
static const char *const row_labels[N_ROWS] = {
  [FM_FIELD_SEQ] = "Sequence",
  [FM_FIELD_TIME] = "Time",
  [FM_FIELD_DURATION] = "Duration",
  [FM_FIELD_PID] = "PID",
  [FM_FIELD_PPID] = "Parent PID",
  [FM_FIELD_TID] = "Thread ID",
  [FM_FIELD_UID] = "User",
  [FM_FIELD_COMM] = "Process",
  [FM_FIELD_SYSCALL] = "Syscall",
  [FM_FIELD_RESULT] = "Result",
  [FM_FIELD_PATH] = "Path",
  [FM_FIELD_PATH2] = "Second path",
  [FM_FIELD_DETAIL] = "Detail",
  [ROW_COMMAND] = "Command line",
};

/* Fields derived from another are shown in its row: the user name beside the uid, the
 * errno beside the result. */
static const gboolean row_folded[N_ROWS] = {
  [FM_FIELD_USER] = TRUE,
  [FM_FIELD_ERRNO] = TRUE,
};

/* The filter-language term for each row, or FMV_TERM_NONE where filtering makes no
 * sense. */
static const FmvTermField row_terms[N_ROWS] = {
  [FM_FIELD_PID] = FMV_TERM_PID,
  [FM_FIELD_PPID] = FMV_TERM_PPID,
  [FM_FIELD_TID] = FMV_TERM_TID,
  [FM_FIELD_UID] = FMV_TERM_UID,
  [FM_FIELD_COMM] = FMV_TERM_COMM,
  [FM_FIELD_SYSCALL] = FMV_TERM_SYSCALL,
  [FM_FIELD_RESULT] = FMV_TERM_RESULT,
  [FM_FIELD_PATH] = FMV_TERM_PATH,
  [FM_FIELD_PATH2] = FMV_TERM_PATH2,
};

static const char *
row_label (guint r)
{
  if (row_labels[r] != NULL)
    return row_labels[r];
  return fm_event_fields[r].key != NULL ? fm_event_fields[r].key : fm_event_fields[r].filter_name;
}

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

static char *
format_duration (guint64 ns)
{
  if (ns == 0)
    return g_strdup ("unknown");
  if (ns < 1000)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
  if (ns < 1000000)
    return g_strdup_printf ("%.1f µs", ns / 1e3);
  if (ns < 1000000000)
    return g_strdup_printf ("%.2f ms", ns / 1e6);
  return g_strdup_printf ("%.3f s", ns / 1e9);
}

/* An exec's command line as shell words, and @rest the detail's other fields; NULL for
 * other events and details without an argv list. */
static char *
exec_command_line (const FmEvent *ev,
                   char         **rest)
{
  const FmSyscall *sc = fm_syscall_by_nr (ev->syscall_nr);

  *rest = NULL;
  if (sc == NULL || (sc->traits & FM_TRAIT_EXEC) == 0)
    return NULL;
  return fmv_command_line_from_detail (ev->detail, ev->detail_len, rest);
}

/* A stored field's value as the table holds it, for the fields shown as they are. */
#define TEXT_U64(ev, m) g_strdup_printf ("%" G_GUINT64_FORMAT, (ev)->m)
#define TEXT_U32(ev, m) g_strdup_printf ("%u", (ev)->m)
#define TEXT_I64(ev, m) g_strdup_printf ("%" G_GINT64_FORMAT, (ev)->m)
#define TEXT_SYSCALL(ev, m) g_strdup_printf ("%u", (ev)->m)
#define TEXT_BYTES(ev, m) fmv_bytes_to_display ((ev)->m, (ev)->m##_len)
#define TEXT_UTF8(ev, m) fmv_bytes_to_display ((ev)->m, (ev)->m##_len)
#define TEXT_CASE(id, m, type, ...) FM_FIELD_IF_STORED_##type (case FM_FIELD_##id: return TEXT_##type (ev, m);)

static char *
plain_text (const FmEvent *ev,
            guint          r)
{
  switch (r)
    {
      FM_EVENT_FIELDS (TEXT_CASE)
    default:
      return NULL;
    }
}

/* The text of row @r, or NULL where @ev has none (path2 of most calls, the command line
 * of all but an exec, the detail of an exec that holds only its command line). */
static char *
format_row (const FmEvent *ev,
            guint          r)
{
  char buf[32];
  char name[16];

  switch (r)
    {
    case FM_FIELD_TIME:
      return fmv_format_time (ev->time_ns, TRUE);
    case FM_FIELD_DURATION:
      return format_duration (ev->duration_ns);
    case FM_FIELD_PPID:
      return ev->ppid ? g_strdup_printf ("%u", ev->ppid) : g_strdup ("unknown");
    case FM_FIELD_UID:
      return fmv_format_user (ev->uid);
    case FM_FIELD_SYSCALL:
      return g_strdup_printf ("%s (%u)", fm_syscall_name (ev->syscall_nr, name), ev->syscall_nr);
    case FM_FIELD_RESULT:
      if (ev->result < 0 && ev->result >= -G_MAXINT)
        return g_strdup_printf ("%s (%s)", fm_result_format (ev->syscall_nr, ev->result, buf),
                                g_strerror ((int) -ev->result));
      return g_strdup (fm_result_format (ev->syscall_nr, ev->result, buf));
    case FM_FIELD_PATH2:
      return ev->path2_len > 0 ? fmv_bytes_to_display (ev->path2, ev->path2_len) : NULL;
    case ROW_COMMAND:
      {
        g_autofree char *rest = NULL;

        return exec_command_line (ev, &rest);
      }
    case FM_FIELD_DETAIL:
      {
        g_autofree char *rest = NULL;
        g_autofree char *command_line = exec_command_line (ev, &rest);

        if (command_line == NULL)
          return fmv_bytes_to_display (ev->detail, ev->detail_len);
        return *rest != '\0' ? fmv_bytes_to_display (rest, strlen (rest)) : NULL;
      }
    default:
      return row_folded[r] ? NULL : plain_text (ev, r);
    }
}

static void
filter_clicked_cb (GtkButton *button,
                   FmvDetail *self)
{
  guint r = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "fmv-field"));
  g_autofree char *term = NULL;
  FmvStoreEvent stored;
  const FmEvent *ev;

  if (self->row == NULL)
    return;
  ev = fmv_row_get_event (self->row, &stored);
  term = fmv_filter_term (row_terms[r], ev);
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
      g_autofree char *value = format_row (ev, r);

      if (value != NULL)
        g_string_append_printf (text, "%s: %s\n", row_label (r), value);
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
      g_autofree char *value = self->values[r] != NULL ? format_row (ev, r) : NULL;
      gboolean shown = value != NULL;

      if (self->values[r] == NULL)
        continue;
      /* The Xvfb tests read this line. */
      if (r == ROW_COMMAND && value != NULL)
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

  self->values[r] = fmv_detail_attach_field (self->grid, top, row_label (r));
  self->names[r] = gtk_grid_get_child_at (self->grid, 0, top);
  if (row_terms[r] == FMV_TERM_NONE)
    return;
  button = gtk_button_new_from_icon_name ("edit-find-symbolic");
  tooltip = g_strdup_printf ("Show only events with this %s", row_label (r));
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "filter-value");
  g_object_set_data (G_OBJECT (button), "fmv-field", GUINT_TO_POINTER (r));
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
        attach_row (self, ROW_COMMAND, top++);
      if (!row_folded[i])
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
