/* fmv-window-depth.c: the history depth, how many of the newest events a window keeps.
 *
 * The store only grew before: a viewer left following a live capture ran out of memory.
 * The depth bounds it (fmv-store.h); it is one setting for all windows, kept across runs
 * in the viewer's settings (fmv-settings.h), set from the main menu's History Depth
 * dialog, and the status bar says when the bound was reached and how many older events
 * were let go.
 *
 * The default, 2 000 000 events: a held event costs about 42 bytes of the viewer's memory
 * when the capture's strings repeat and about 88 when every path is distinct
 * (bench/README.md, "The viewer's memory per held event"), so 85 to 180 MB: a small share
 * of a desktop's memory, and hours of an ordinary desktop's file activity (minutes of a
 * flood).
 */
#include "config.h"

#include "fmv-settings.h"
#include "fmv-window-private.h"

#define DEFAULT_DEPTH 2000000u
/* A depth under one page would let rows go at every append; the upper end is the store's
 * limit on rows held. */
#define MIN_DEPTH 10000u
#define MAX_DEPTH 1000000000u
#define GROUP "history"
#define KEY "depth"

guint
fmv_window_load_depth (void)
{
  g_autoptr(GKeyFile) settings = fmv_settings_load ();
  g_autoptr(GError) error = NULL;
  guint64 depth;

  depth = g_key_file_get_uint64 (settings, GROUP, KEY, &error);
  if (error != NULL)
    {
      if (!g_error_matches (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND) &&
          !g_error_matches (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND))
        g_message ("settings: %s", error->message);
      return DEFAULT_DEPTH;
    }
  /* a file edited by hand: a depth out of range is brought into it */
  return (guint) CLAMP (depth, MIN_DEPTH, MAX_DEPTH);
}

static void
save_depth (guint depth)
{
  g_autoptr(GKeyFile) settings = fmv_settings_load ();

  g_key_file_set_uint64 (settings, GROUP, KEY, depth);
  fmv_settings_save (settings);
}

static void
apply_depth (FmvWindow *self,
             guint      depth)
{
  self->depth = depth;
  fmv_store_set_depth (self->store, depth);
  /* the list lets the rows go at its next update; show it now */
  fmv_event_list_update_now (self->list);
  fmv_window_update_status (self);
}

void
fmv_window_set_depth (FmvWindow *self,
                      guint      depth)
{
  GtkApplication *app;

  g_return_if_fail (FMV_IS_WINDOW (self));

  depth = CLAMP (depth, MIN_DEPTH, MAX_DEPTH);
  if (depth != self->depth)
    save_depth (depth);
  /* one setting: every window of the viewer takes it */
  app = gtk_window_get_application (GTK_WINDOW (self));
  if (app == NULL)
    apply_depth (self, depth);
  else
    for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
      if (FMV_IS_WINDOW (l->data))
        apply_depth (l->data, depth);
  /* The Xvfb tests read this line. */
  g_debug ("history depth: %u", depth);
}

char *
fmv_window_dup_depth_status (FmvWindow *self)
{
  guint gone = fmv_store_get_first_row (self->store);

  if (gone == 0)
    return NULL;
  return g_strdup_printf ("newest %'u kept, %'u older let go", fmv_store_get_depth (self->store), gone);
}

void
fmv_window_update_depth_tooltip (FmvWindow *self)
{
  g_autofree char *tooltip = NULL;

  /* Not the count let go: this runs at every list update of a live capture, and a
   * tooltip set, even to the same text, costs a round trip to the X server
   * (fmv-window-status.c); a text that changed each time would cost it each time. */
  if (fmv_store_get_first_row (self->store) > 0)
    tooltip = g_strdup_printf ("This window keeps the newest %'u events and lets older ones go, so "
                               "that its memory stays bounded. History Depth in the main menu "
                               "changes how many it keeps.", fmv_store_get_depth (self->store));
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->counts_label)), tooltip) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->counts_label), tooltip);
}

/* ---- the dialog -------------------------------------------------------------------------- */

typedef struct {
  FmvWindow *window;
  GtkWidget *dialog;
  GtkSpinButton *spin;
} DepthEditor;

static void
apply_clicked_cb (GtkButton   *button,
                  DepthEditor *editor)
{
  gtk_spin_button_update (editor->spin);
  fmv_window_set_depth (editor->window, (guint) gtk_spin_button_get_value (editor->spin));
  gtk_window_destroy (GTK_WINDOW (editor->dialog));
}

static void
text_activate_cb (GtkText     *text,
                  DepthEditor *editor)
{
  apply_clicked_cb (NULL, editor);
}

static void
cancel_clicked_cb (GtkButton   *button,
                   DepthEditor *editor)
{
  gtk_window_destroy (GTK_WINDOW (editor->dialog));
}

void
fmv_window_edit_depth (FmvWindow *self)
{
  DepthEditor *editor = g_new0 (DepthEditor, 1);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *box;
  GtkWidget *intro, *label;

  editor->window = self;
  editor->dialog = fmv_window_new_dialog (self, "History Depth", editor, &box);
  gtk_window_set_resizable (GTK_WINDOW (editor->dialog), FALSE);
  intro = gtk_label_new ("Windows keep the newest events up to this number and let older ones "
                         "go, so that a capture followed for hours does not fill the memory. "
                         "Each event kept takes about 75 to 175 bytes.");
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (intro), 50);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_box_append (GTK_BOX (box), intro);

  editor->spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (MIN_DEPTH, MAX_DEPTH, 100000));
  gtk_spin_button_set_value (editor->spin, self->depth);
  gtk_widget_set_hexpand (GTK_WIDGET (editor->spin), TRUE);
  /* GTK 4.8's spin button has no activate signal; its text has */
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (editor->spin)), "activate",
                    G_CALLBACK (text_activate_cb), editor);
  label = gtk_label_new_with_mnemonic ("_Keep the newest");
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (editor->spin));
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (editor->spin));
  gtk_box_append (GTK_BOX (row), gtk_label_new ("events"));
  gtk_box_append (GTK_BOX (box), row);

  gtk_box_append (GTK_BOX (box), fmv_dialog_buttons (G_CALLBACK (cancel_clicked_cb),
                                                     G_CALLBACK (apply_clicked_cb), editor));
  gtk_window_present (GTK_WINDOW (editor->dialog));
  gtk_widget_grab_focus (GTK_WIDGET (editor->spin));
  /* The Xvfb tests read this line. */
  g_debug ("history depth editor open");
}
