/* fmv-detail.c: every field of the selected event, in a grid of selectable labels, with a
 * button per filterable field that asks the window to filter on that value. */
#include "config.h"

#include <string.h>

#include "fm-format.h"
#include "fm-syscalls.h"
#include "fmv-command-line.h"
#include "fmv-detail.h"
#include "fmv-filter-term.h"

typedef enum {
  FIELD_SEQ,
  FIELD_TIME,
  FIELD_DURATION,
  FIELD_PROCESS,
  FIELD_PID,
  FIELD_PPID,
  FIELD_TID,
  FIELD_UID,
  FIELD_SYSCALL,
  FIELD_RESULT,
  FIELD_PATH,
  FIELD_PATH2,
  FIELD_COMMAND,
  FIELD_DETAIL,
  N_FIELDS
} Field;

static const char *const field_labels[N_FIELDS] = {
  [FIELD_SEQ] = "Sequence",
  [FIELD_TIME] = "Time",
  [FIELD_DURATION] = "Duration",
  [FIELD_PROCESS] = "Process",
  [FIELD_PID] = "PID",
  [FIELD_PPID] = "Parent PID",
  [FIELD_TID] = "Thread ID",
  [FIELD_UID] = "User ID",
  [FIELD_SYSCALL] = "Syscall",
  [FIELD_RESULT] = "Result",
  [FIELD_PATH] = "Path",
  [FIELD_PATH2] = "Second path",
  [FIELD_COMMAND] = "Command line",
  [FIELD_DETAIL] = "Detail",
};

/* The filter-language term for each field, or NULL where filtering makes no sense. */
static const FmvTermField field_terms[N_FIELDS] = {
  [FIELD_SEQ] = FMV_TERM_NONE,
  [FIELD_TIME] = FMV_TERM_NONE,
  [FIELD_DURATION] = FMV_TERM_NONE,
  [FIELD_PROCESS] = FMV_TERM_COMM,
  [FIELD_PID] = FMV_TERM_PID,
  [FIELD_PPID] = FMV_TERM_PPID,
  [FIELD_TID] = FMV_TERM_TID,
  [FIELD_UID] = FMV_TERM_UID,
  [FIELD_SYSCALL] = FMV_TERM_SYSCALL,
  [FIELD_RESULT] = FMV_TERM_RESULT,
  [FIELD_PATH] = FMV_TERM_PATH,
  [FIELD_PATH2] = FMV_TERM_PATH2,
  [FIELD_COMMAND] = FMV_TERM_NONE,
  [FIELD_DETAIL] = FMV_TERM_NONE,
};

struct _FmvDetail
{
  GtkWidget parent_instance;

  GtkLabel *heading;
  GtkStack *stack;
  GtkGrid *grid;
  GtkWidget *copy_button;
  GtkWidget *copy_json_button;

  GtkWidget *names[N_FIELDS];
  GtkWidget *values[N_FIELDS];
  GtkWidget *filter_buttons[N_FIELDS];

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

/* The text of @field, or NULL where @ev has none (path2 of most calls, the command line
 * of all but an exec, the detail of an exec that holds only its command line). */
static char *
format_field (const FmEvent *ev,
              Field          field)
{
  char buf[32];
  char name[16];

  switch (field)
    {
    case FIELD_SEQ:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, ev->seq);
    case FIELD_TIME:
      return fmv_format_time (ev->time_ns, TRUE);
    case FIELD_DURATION:
      return format_duration (ev->duration_ns);
    case FIELD_PROCESS:
      return fmv_bytes_to_display (ev->comm, ev->comm_len);
    case FIELD_PID:
      return g_strdup_printf ("%u", ev->pid);
    case FIELD_PPID:
      return ev->ppid ? g_strdup_printf ("%u", ev->ppid) : g_strdup ("unknown");
    case FIELD_TID:
      return g_strdup_printf ("%u", ev->tid);
    case FIELD_UID:
      return g_strdup_printf ("%u", ev->uid);
    case FIELD_SYSCALL:
      return g_strdup_printf ("%s (%u)", fm_syscall_name (ev->syscall_nr, name), ev->syscall_nr);
    case FIELD_RESULT:
      if (ev->result < 0 && ev->result >= -G_MAXINT)
        return g_strdup_printf ("%s (%s)", fm_result_format (ev->result, buf),
                                g_strerror ((int) -ev->result));
      return g_strdup (fm_result_format (ev->result, buf));
    case FIELD_PATH:
      return fmv_bytes_to_display (ev->path, ev->path_len);
    case FIELD_PATH2:
      return ev->path2_len > 0 ? fmv_bytes_to_display (ev->path2, ev->path2_len) : NULL;
    case FIELD_COMMAND:
      {
        g_autofree char *rest = NULL;

        return exec_command_line (ev, &rest);
      }
    case FIELD_DETAIL:
      {
        g_autofree char *rest = NULL;
        g_autofree char *command_line = exec_command_line (ev, &rest);

        if (command_line == NULL)
          return fmv_bytes_to_display (ev->detail, ev->detail_len);
        return *rest != '\0' ? fmv_bytes_to_display (rest, strlen (rest)) : NULL;
      }
    case N_FIELDS:
    default:
      g_assert_not_reached ();
    }
}

static void
filter_clicked_cb (GtkButton *button,
                   FmvDetail *self)
{
  Field field = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "fmv-field"));
  g_autofree char *term = NULL;
  FmvStoreEvent stored;
  const FmEvent *ev;

  if (self->row == NULL)
    return;
  ev = fmv_row_get_event (self->row, &stored);
  term = fmv_filter_term (field_terms[field], ev);
  if (term != NULL)
    g_signal_emit (self, signals[SIGNAL_FILTER_REQUESTED], 0, term);
}

static void
copy_text_cb (FmvDetail *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  FmvStoreEvent stored;
  const FmEvent *ev;

  if (self->row == NULL)
    return;
  ev = fmv_row_get_event (self->row, &stored);
  for (Field f = 0; f < N_FIELDS; f++)
    {
      g_autofree char *value = format_field (ev, f);

      if (value == NULL)
        continue;
      g_string_append_printf (text, "%s: %s\n", field_labels[f], value);
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
      gtk_label_set_label (self->heading, "No Event Selected");
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  ev = fmv_row_get_event (row, &stored);
  heading = g_strdup_printf ("Event %" G_GUINT64_FORMAT, ev->seq);
  gtk_label_set_label (self->heading, heading);
  for (Field f = 0; f < N_FIELDS; f++)
    {
      g_autofree char *value = format_field (ev, f);
      gboolean shown = value != NULL;

      /* The Xvfb tests read this line. */
      if (f == FIELD_COMMAND && value != NULL)
        g_debug ("detail pane: command line: %s", value);
      gtk_label_set_label (GTK_LABEL (self->values[f]), value != NULL ? value : "");
      gtk_widget_set_visible (self->names[f], shown);
      gtk_widget_set_visible (self->values[f], shown);
      if (self->filter_buttons[f] != NULL)
        gtk_widget_set_visible (self->filter_buttons[f], shown);
      if (f == FIELD_RESULT)
        {
          if (ev->result < 0)
            gtk_widget_add_css_class (self->values[f], "failed");
          else
            gtk_widget_remove_css_class (self->values[f], "failed");
        }
    }
  gtk_stack_set_visible_child_name (self->stack, "event");
}

FmvRow *
fmv_detail_get_row (FmvDetail *self)
{
  g_return_val_if_fail (FMV_IS_DETAIL (self), NULL);

  return self->row;
}

static void
build_rows (FmvDetail *self)
{
  for (Field f = 0; f < N_FIELDS; f++)
    {
      GtkWidget *name = gtk_label_new (field_labels[f]);
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

      gtk_grid_attach (self->grid, name, 0, f, 1, 1);
      gtk_grid_attach (self->grid, value, 1, f, 1, 1);
      self->names[f] = name;
      self->values[f] = value;

      if (field_terms[f] != FMV_TERM_NONE)
        {
          GtkWidget *button = gtk_button_new_from_icon_name ("edit-find-symbolic");
          g_autofree char *tooltip = g_strdup_printf ("Show only events with this %s",
                                                      field_labels[f]);

          gtk_widget_set_tooltip_text (button, tooltip);
          gtk_widget_set_valign (button, GTK_ALIGN_START);
          gtk_widget_add_css_class (button, "flat");
          gtk_widget_add_css_class (button, "filter-value");
          g_object_set_data (G_OBJECT (button), "fmv-field", GINT_TO_POINTER (f));
          g_signal_connect (button, "clicked", G_CALLBACK (filter_clicked_cb), self);
          gtk_grid_attach (self->grid, button, 2, f, 1, 1);
          self->filter_buttons[f] = button;
        }
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
  gtk_widget_class_bind_template_child (widget_class, FmvDetail, copy_button);
  gtk_widget_class_bind_template_child (widget_class, FmvDetail, copy_json_button);
  gtk_widget_class_bind_template_callback (widget_class, copy_text_cb);
  gtk_widget_class_bind_template_callback (widget_class, copy_json_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "fmvdetail");
}

static void
fmv_detail_init (FmvDetail *self)
{
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
