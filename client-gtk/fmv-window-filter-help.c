/* fmv-window-filter-help.c: the filter language made discoverable: the ? button next to
 * the filter lists the fields (from the filter module's own table, fm_event_fields),
 * their examples (a click adds one to the filter), the operators, and the filters
 * recently applied with Enter (a click brings one back), kept across runs in the user's
 * state directory; and Tab in the entry completes a field, syscall or errno name, offering
 * the candidates under the entry when there are several. The capture filter's dialog
 * shows the same reference (fmv_filter_reference_new()). */
#include "config.h"

#include <errno.h>

#include "fm-event-fields.h"
#include "fm-filter.h"
#include "fmv-filter-complete.h"
#include "fmv-window-private.h"

#define MAX_RECENT 10
#define CANDIDATES_PER_ROW 8

/* One filter a line, escaped (g_strescape) so that any text survives, newest first. */
static char *
recent_filters_path (void)
{
  return g_build_filename (g_get_user_state_dir (), "filemon-viewer", "recent-filters", NULL);
}

static void
load_recent_filters (FmvWindow *self)
{
  g_autofree char *path = recent_filters_path ();
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_file_get_contents (path, &contents, NULL, &error))
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_message ("recent filters not read: %s", error->message);
      return;
    }
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && self->recent_filters->len < MAX_RECENT; i++)
    {
      g_autofree char *text = g_strcompress (lines[i]);

      /* a file edited by hand: what is not text is skipped, the rest kept */
      if (*text != '\0' && g_utf8_validate (text, -1, NULL))
        g_ptr_array_add (self->recent_filters, g_steal_pointer (&text));
    }
}

static void
save_recent_filters (FmvWindow *self)
{
  g_autofree char *path = recent_filters_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GString) contents = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < self->recent_filters->len; i++)
    {
      g_autofree char *line = g_strescape (g_ptr_array_index (self->recent_filters, i), NULL);

      g_string_append_printf (contents, "%s\n", line);
    }
  if (g_mkdir_with_parents (dir, 0700) != 0)
    g_message ("recent filters not saved: cannot make %s: %s", dir, g_strerror (errno));
  else if (!g_file_set_contents_full (path, contents->str, contents->len,
                                      G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error))
    g_message ("recent filters not saved: %s", error->message);
}

static void
example_clicked_cb (GtkButton *button,
                    FmvWindow *self)
{
  gtk_popover_popdown (GTK_POPOVER (self->filter_help_popover));
  fmv_window_add_filter_term (self, gtk_button_get_label (button));
}

static void
recent_clicked_cb (GtkButton *button,
                   FmvWindow *self)
{
  gtk_popover_popdown (GTK_POPOVER (self->filter_help_popover));
  fmv_window_set_filter_text (self, gtk_button_get_label (button));
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

static GtkWidget *
flat_button (const char *text,
             GCallback   clicked,
             gpointer    data)
{
  GtkWidget *button = gtk_button_new_with_label (text);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), 0);
  g_signal_connect (button, "clicked", clicked, data);
  return button;
}

GtkWidget *
fmv_filter_reference_new (GCallback example_clicked,
                          gpointer  data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *operators;

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_box_append (GTK_BOX (box), heading ("Fields"));
  for (guint n = 0; n < FM_N_FIELDS; n++)
    {
      const FmFieldInfo *info = &fm_event_fields[n];
      GtkWidget *name = gtk_label_new (info->filter_name);
      GtkWidget *description = gtk_label_new (info->help);

      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_widget_add_css_class (name, "monospace");
      gtk_label_set_xalign (GTK_LABEL (description), 0);
      gtk_grid_attach (GTK_GRID (grid), name, 0, (int) n, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), description, 1, (int) n, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), flat_button (info->example, example_clicked, data),
                       2, (int) n, 1, 1);
    }
  gtk_box_append (GTK_BOX (box), grid);
  gtk_box_append (GTK_BOX (box), heading ("Operators"));
  operators = gtk_label_new ("=  !=  <  <=  >  >=    ~ regular expression (PCRE2)\n"
                             "and  or  not  ( )    * and ? in a text value with = or != are globs\n"
                             "A bare word or /regex/ matches anywhere in an event; all-lowercase "
                             "text ignores case.");
  gtk_label_set_xalign (GTK_LABEL (operators), 0);
  gtk_box_append (GTK_BOX (box), operators);
  return box;
}

static void
rebuild (FmvWindow *self)
{
  GtkWidget *box = fmv_filter_reference_new (G_CALLBACK (example_clicked_cb), self);

  gtk_box_append (GTK_BOX (box), heading ("Recent Filters"));
  if (self->recent_filters->len == 0)
    {
      GtkWidget *none = gtk_label_new ("Filters applied with Enter are kept here.");

      gtk_label_set_xalign (GTK_LABEL (none), 0);
      gtk_widget_add_css_class (none, "dim-label");
      gtk_box_append (GTK_BOX (box), none);
    }
  for (guint i = 0; i < self->recent_filters->len; i++)
    gtk_box_append (GTK_BOX (box), flat_button (g_ptr_array_index (self->recent_filters, i),
                                                G_CALLBACK (recent_clicked_cb), self));
  gtk_popover_set_child (GTK_POPOVER (self->filter_help_popover), box);
  /* The Xvfb tests read this line. */
  g_debug ("filter help: %u fields, %u recent filters", (guint) FM_N_FIELDS,
           self->recent_filters->len);
}

void
fmv_window_remember_filter (FmvWindow  *self,
                            const char *text)
{
  g_autoptr(GString) all = g_string_new (NULL);

  if (*text == '\0')
    return;
  for (guint i = 0; i < self->recent_filters->len; i++)
    if (g_str_equal (g_ptr_array_index (self->recent_filters, i), text))
      {
        g_ptr_array_remove_index (self->recent_filters, i);
        break;
      }
  g_ptr_array_insert (self->recent_filters, 0, g_strdup (text));
  if (self->recent_filters->len > MAX_RECENT)
    g_ptr_array_set_size (self->recent_filters, MAX_RECENT);
  for (guint i = 0; i < self->recent_filters->len; i++)
    g_string_append_printf (all, "%s%s", i > 0 ? " | " : "", (char *) g_ptr_array_index (self->recent_filters, i));
  save_recent_filters (self);
  /* The Xvfb tests read this line, and then may end the viewer: after the save (logged
   * before it, a SIGTERM under load came during the fsync and the file kept the old list). */
  g_debug ("recent filters: %s", all->str);
  rebuild (self);
}

/* ---- Tab completion ---------------------------------------------------------------------- */

static void
set_entry_text (FmvWindow  *self,
                const char *text,
                gsize       cursor)
{
  self->completing = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text);
  gtk_editable_set_position (GTK_EDITABLE (self->filter_entry),
                             (int) g_utf8_pointer_to_offset (text, text + cursor));
  self->completing = FALSE;
}

static void
candidate_clicked_cb (GtkButton *button,
                      FmvWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  const char *word = gtk_button_get_label (button);
  g_autoptr(GString) s = g_string_new_len (text, MIN (self->candidates_start, strlen (text)));
  gsize cursor;

  g_string_append_printf (s, "%s%s", word, self->candidates_suffix);
  cursor = s->len;
  g_string_append (s, text + MIN (self->candidates_end, strlen (text)));
  gtk_popover_popdown (GTK_POPOVER (self->candidates_popover));
  set_entry_text (self, s->str, cursor);
  gtk_widget_grab_focus (GTK_WIDGET (self->filter_entry));
}

static void
show_candidates (FmvWindow     *self,
                 FmvCompletion *c)
{
  GtkWidget *grid = gtk_grid_new ();
  g_autoptr(GString) all = g_string_new (NULL);

  for (guint i = 0; i < c->words->len; i++)
    {
      const char *word = g_ptr_array_index (c->words, i);
      GtkWidget *button = gtk_button_new_with_label (word);

      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_focusable (button, FALSE);
      g_signal_connect (button, "clicked", G_CALLBACK (candidate_clicked_cb), self);
      gtk_grid_attach (GTK_GRID (grid), button, (int) (i % CANDIDATES_PER_ROW),
                       (int) (i / CANDIDATES_PER_ROW), 1, 1);
      g_string_append_printf (all, "%s%s", i ? " " : "", word);
    }
  self->candidates_start = c->word_start;
  self->candidates_end = c->cursor;
  self->candidates_suffix = c->suffix;
  gtk_popover_set_child (GTK_POPOVER (self->candidates_popover), grid);
  gtk_popover_popup (GTK_POPOVER (self->candidates_popover));
  /* The Xvfb tests read this line. */
  g_debug ("completion candidates: %s", all->str);
}

static gboolean
filter_key_pressed_cb (GtkEventControllerKey *controller,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       FmvWindow             *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  int position = gtk_editable_get_position (GTK_EDITABLE (self->filter_entry));
  g_autoptr(FmvCompletion) c = NULL;

  if (keyval != GDK_KEY_Tab || (state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return FALSE;
  c = fmv_filter_complete (text, g_utf8_offset_to_pointer (text, position) - text);
  if (c == NULL)
    return FALSE;   /* Tab moves the focus on, as it does elsewhere */
  if (!g_str_equal (c->text, text))
    set_entry_text (self, c->text, c->cursor);
  if (c->words != NULL)
    show_candidates (self, c);
  return TRUE;
}

static void
filter_text_changed_cb (GtkEditable *entry,
                        FmvWindow   *self)
{
  if (!self->completing)
    gtk_popover_popdown (GTK_POPOVER (self->candidates_popover));
}

static void
setup_completion (FmvWindow *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (filter_key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->filter_entry), keys);
  g_signal_connect (self->filter_entry, "changed", G_CALLBACK (filter_text_changed_cb), self);
  /* under the entry, leaving the keyboard to it */
  self->candidates_popover = gtk_popover_new ();
  gtk_popover_set_autohide (GTK_POPOVER (self->candidates_popover), FALSE);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->candidates_popover), FALSE);
  gtk_popover_set_position (GTK_POPOVER (self->candidates_popover), GTK_POS_BOTTOM);
  gtk_widget_set_parent (self->candidates_popover, GTK_WIDGET (self->filter_entry));
}

void
fmv_window_setup_filter_help (FmvWindow *self)
{
  setup_completion (self);
  self->recent_filters = g_ptr_array_new_with_free_func (g_free);
  load_recent_filters (self);
  self->filter_help_popover = gtk_popover_new ();
  gtk_menu_button_set_popover (self->filter_help_button, self->filter_help_popover);
  rebuild (self);
}
