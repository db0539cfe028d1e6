/* fmv-window-capture-filter.c: the capture filter, set before Start from the menu beside
 * it: the same language as the list's filter, with the same reference of fields and
 * examples, checked as it is applied so that an error points at its column here rather
 * than coming back from filemond. The text is the action win.capture-filter's state and
 * goes to Start as its "filter" key; filemond applies what it can of it in the kernel
 * and the rest itself. */
#include "config.h"

#include "fm-filter.h"
#include "fmv-window-private.h"

typedef struct {
  FmvWindow *window;
  GtkWidget *dialog;
  GtkEntry *entry;
  GtkLabel *error_label;
} Editor;

static void
example_clicked_cb (GtkButton *button,
                    Editor    *editor)
{
  const char *term = gtk_button_get_label (button);
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (editor->entry))));
  g_autofree char *joined = *text != '\0' ? g_strdup_printf ("%s and %s", text, term) : g_strdup (term);

  gtk_editable_set_text (GTK_EDITABLE (editor->entry), joined);
  gtk_editable_set_position (GTK_EDITABLE (editor->entry), -1);
  gtk_widget_grab_focus (GTK_WIDGET (editor->entry));
}

static void
apply (Editor *editor)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (editor->entry))));
  g_autoptr(GError) error = NULL;
  g_autoptr(FmFilter) filter = fm_filter_new (text, &error);

  if (filter == NULL)
    {
      guint column = fm_filter_error_column (error);

      gtk_label_set_text (editor->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (editor->error_label), TRUE);
      gtk_widget_grab_focus (GTK_WIDGET (editor->entry));
      if (column > 0)
        gtk_editable_set_position (GTK_EDITABLE (editor->entry), (int) column - 1);
      /* The Xvfb tests read this line. */
      g_debug ("capture filter refused: %s", error->message);
      return;
    }
  g_action_group_change_action_state (G_ACTION_GROUP (editor->window), "capture-filter",
                                      g_variant_new_string (text));
  /* The Xvfb tests read this line. */
  g_debug ("capture filter: %s", text);
  gtk_window_destroy (GTK_WINDOW (editor->dialog));
}

static void
apply_clicked_cb (GtkButton *button,
                  Editor    *editor)
{
  apply (editor);
}

static void
entry_activate_cb (GtkEntry *entry,
                   Editor   *editor)
{
  apply (editor);
}

static void
cancel_clicked_cb (GtkButton *button,
                   Editor    *editor)
{
  gtk_window_destroy (GTK_WINDOW (editor->dialog));
}

void
fmv_window_edit_capture_filter (FmvWindow *self)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self), "capture-filter");
  Editor *editor = g_new0 (Editor, 1);
  GtkWidget *box;
  GtkWidget *intro, *scrolled;

  editor->window = self;
  editor->dialog = fmv_window_new_dialog (self, "Capture Filter", editor, &box);
  gtk_window_set_default_size (GTK_WINDOW (editor->dialog), 760, 520);
  intro = gtk_label_new ("The next capture keeps only the calls matching this filter (empty: all "
                         "of them). What the kernel can apply of it (syscalls, processes, "
                         "users, exact process names, failed calls) is applied there, at "
                         "almost no cost; filemond applies the rest.");
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_box_append (GTK_BOX (box), intro);

  editor->entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (editor->entry, "e.g. syscall=open* and comm=sshd and failed");
  gtk_editable_set_text (GTK_EDITABLE (editor->entry), g_variant_get_string (state, NULL));
  g_signal_connect (editor->entry, "activate", G_CALLBACK (entry_activate_cb), editor);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (editor->entry));

  editor->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (editor->error_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (editor->error_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (editor->error_label), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (editor->error_label));

  scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled),
                                 fmv_filter_reference_new (G_CALLBACK (example_clicked_cb), editor));
  gtk_box_append (GTK_BOX (box), scrolled);

  gtk_box_append (GTK_BOX (box), fmv_dialog_buttons (G_CALLBACK (cancel_clicked_cb),
                                                     G_CALLBACK (apply_clicked_cb), editor));
  gtk_window_present (GTK_WINDOW (editor->dialog));
  gtk_widget_grab_focus (GTK_WIDGET (editor->entry));
  /* The Xvfb tests read this line. */
  g_debug ("capture filter editor open");
}
