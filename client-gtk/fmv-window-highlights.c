/* fmv-window-highlights.c: the window's highlight rules: "Highlight <value>" in the row
 * menu adds one, and the Highlight button in the filter bar lists them (each in its
 * colour, with a button removing it) and takes new ones typed as filter expressions. */
#include "config.h"

#include "fmv-window-private.h"

static void rebuild_popover (FmvWindow *self);

static void
remove_clicked_cb (GtkButton *button,
                   FmvWindow *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "fmv-rule"));

  if (index < fmv_highlights_get_n (self->highlights))
    fmv_highlights_remove (self->highlights, index);
}

static void
rule_entry_activate_cb (GtkEntry  *entry,
                        FmvWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));

  if (*text == '\0')
    return;
  if (!fmv_highlights_add (self->highlights, text, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

static void
rule_entry_changed_cb (GtkEditable *entry,
                       gpointer     user_data)
{
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry), NULL);
}

static GtkWidget *
rule_row (FmvWindow *self,
          guint      index)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *swatch = gtk_label_new (NULL);
  GtkWidget *text = gtk_label_new (fmv_highlights_get_text (self->highlights, index));
  GtkWidget *remove = gtk_button_new_from_icon_name ("edit-delete-symbolic");
  g_autofree char *colour = g_strdup_printf ("highlight-%u", fmv_highlights_get_colour (self->highlights, index));

  gtk_widget_add_css_class (swatch, "swatch");
  gtk_widget_add_css_class (swatch, colour);
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_label_set_ellipsize (GTK_LABEL (text), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_tooltip_text (remove, "Remove this highlight");
  gtk_widget_add_css_class (remove, "flat");
  g_object_set_data (G_OBJECT (remove), "fmv-rule", GUINT_TO_POINTER (index));
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), swatch);
  gtk_box_append (GTK_BOX (box), text);
  gtk_box_append (GTK_BOX (box), remove);
  return box;
}

/* The popover's contents, made again whenever the rules change. */
static void
rebuild_popover (FmvWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *title = gtk_label_new ("Highlight events matching");
  GtkWidget *entry = gtk_entry_new ();
  guint n = fmv_highlights_get_n (self->highlights);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (box), title);
  for (guint i = 0; i < n; i++)
    gtk_box_append (GTK_BOX (box), rule_row (self, i));
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), "Add a filter expression, e.g. errno=EACCES");
  gtk_widget_set_size_request (entry, 320, -1);
  g_signal_connect (entry, "activate", G_CALLBACK (rule_entry_activate_cb), self);
  g_signal_connect (entry, "changed", G_CALLBACK (rule_entry_changed_cb), NULL);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_popover_set_child (GTK_POPOVER (self->highlight_popover), box);
  /* Typing goes to the entry, not to the first rule's remove button (also after a rule
   * was added or removed with the popover open). */
  if (gtk_widget_get_visible (self->highlight_popover))
    gtk_widget_grab_focus (entry);
}

static void
popover_shown_cb (GtkWidget *popover,
                  FmvWindow *self)
{
  GtkWidget *entry = gtk_widget_get_last_child (gtk_popover_get_child (GTK_POPOVER (popover)));

  gtk_widget_grab_focus (entry);
}

static void
highlights_changed_cb (FmvHighlights *highlights,
                       FmvWindow     *self)
{
  g_autoptr(GString) rules = g_string_new (NULL);
  guint n = fmv_highlights_get_n (highlights);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (rules, "%s%s", i > 0 ? "; " : "", fmv_highlights_get_text (highlights, i));
  /* The Xvfb tests read this line. */
  g_debug ("highlight rules: %s", n > 0 ? rules->str : "(none)");
  rebuild_popover (self);
}

void
fmv_window_add_highlight (FmvWindow  *self,
                          const char *term)
{
  g_autoptr(GError) error = NULL;

  if (!fmv_highlights_add (self->highlights, term, &error))
    fmv_window_flash_status (self, error->message);
}

void
fmv_window_setup_highlights (FmvWindow *self)
{
  self->highlights = fmv_highlights_new ();
  self->highlight_popover = gtk_popover_new ();
  gtk_menu_button_set_popover (self->highlight_button, self->highlight_popover);
  g_signal_connect (self->highlight_popover, "show", G_CALLBACK (popover_shown_cb), self);
  g_signal_connect_object (self->highlights, "changed", G_CALLBACK (highlights_changed_cb), self, 0);
  rebuild_popover (self);
}
