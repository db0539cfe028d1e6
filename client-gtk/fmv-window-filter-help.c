/* fmv-window-filter-help.c: the filter language made discoverable: the ? button next to
 * the filter lists the fields (from the filter module's own table, fm_event_fields),
 * their examples (a click adds one to the filter), the operators, and the filters
 * recently applied with Enter (a click brings one back). The capture filter's dialog
 * shows the same reference (fmv_filter_reference_new()). */
#include "config.h"

#include "fm-event-fields.h"
#include "fm-filter.h"
#include "fmv-window-private.h"

#define MAX_RECENT 10

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
  /* The Xvfb tests read this line. */
  g_debug ("recent filters: %s", all->str);
  rebuild (self);
}

void
fmv_window_setup_filter_help (FmvWindow *self)
{
  self->recent_filters = g_ptr_array_new_with_free_func (g_free);
  self->filter_help_popover = gtk_popover_new ();
  gtk_menu_button_set_popover (self->filter_help_button, self->filter_help_popover);
  rebuild (self);
}
