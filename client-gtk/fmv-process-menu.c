/* fmv-process-menu.c: the process tree's row menu and what its items do; see
 * fmv-process-menu.h. The filter terms are plain filter language (fmv-filter-term.c), so
 * the entry shows what a user could have typed, as the main list's own menu does. */
#include "config.h"

#include "fmv-filter-term.h"
#include "fmv-process-menu.h"
#include "fmv-window-private.h"

struct _FmvProcessMenu
{
  GtkWidget *view;
  GtkWidget *popover;         /* a child of view */
  FmvWindow *window;          /* weak */
  FmvAnalysis *analysis;      /* borrowed */
};

void
fmv_process_menu_popup (FmvProcessMenu *self,
                        guint           index,
                        GtkWidget      *cell,
                        double          x,
                        double          y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autofree char *include = NULL;
  g_autofree char *exclude = NULL;
  g_autofree char *first = NULL;
  graphene_point_t at;
  guint32 pid;

  g_return_if_fail (self != NULL);

  if (self->analysis == NULL || index >= self->analysis->processes->len ||
      !gtk_widget_compute_point (cell, self->view, &GRAPHENE_POINT_INIT ((float) x, (float) y), &at))
    return;
  pid = g_array_index (self->analysis->processes, FmvProcessInfo, index).pid;
  include = g_strdup_printf ("Include Process %u and Its Descendants", pid);
  exclude = g_strdup_printf ("Exclude Process %u and Its Descendants", pid);
  first = g_strdup_printf ("Go to the First Event of Process %u", pid);
  fmv_menu_append (menu, include, "tree.include-subtree", g_variant_new_uint32 (index));
  fmv_menu_append (menu, exclude, "tree.exclude-subtree", g_variant_new_uint32 (index));
  fmv_menu_append (menu, first, "tree.go-to-first-event", g_variant_new_uint32 (index));
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->popover), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover), &(GdkRectangle) { (int) at.x, (int) at.y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->popover));
  /* The Xvfb tests read this line. */
  g_debug ("process tree: menu of process %u", pid);
}

static void
filter_subtree (FmvProcessMenu *self,
                guint           index,
                gboolean        exclude)
{
  g_autoptr(GArray) pids = fmv_analysis_dup_subtree_pids (self->analysis, index);
  g_autofree char *term = fmv_filter_pid_set ((const guint32 *) (gpointer) pids->data, pids->len, exclude);

  fmv_window_add_filter_term (self->window, term);
}

static void
go_to_first_event (FmvProcessMenu *self,
                   guint           index)
{
  const FmvProcessInfo *info = &g_array_index (self->analysis->processes, FmvProcessInfo, index);
  FmvWindow *window = self->window;
  guint position;

  /* Not found while a refilter runs, after the filter changed to hide it, or once the
   * store let the row go (its depth): the list cannot show it then. */
  if (fmv_event_list_get_busy (window->list) || !fmv_event_list_find_row (window->list, info->first_row, &position))
    {
      g_autofree char *text = g_strdup_printf ("The first event of process %u is not in the list: "
                                               "the filter hides it, or it is no longer kept", info->pid);

      fmv_window_flash_status (window, text);
      return;
    }
  fmv_window_select_position (window, position);
  /* The Xvfb tests read this line. */
  g_debug ("process %u: went to its first event, row %u at %u", info->pid, info->first_row, position);
}

/* Any of the menu's actions: on the process its target names, when the main window and
 * the analysis still exist. */
static void
activated (GSimpleAction *action,
           GVariant      *parameter,
           gpointer       user_data)
{
  FmvProcessMenu *self = user_data;
  const char *name = g_action_get_name (G_ACTION (action));
  guint index = g_variant_get_uint32 (parameter);

  if (self->window == NULL || self->analysis == NULL || index >= self->analysis->processes->len)
    return;
  if (g_str_equal (name, "go-to-first-event"))
    go_to_first_event (self, index);
  else
    filter_subtree (self, index, g_str_equal (name, "exclude-subtree"));
}

static const GActionEntry actions[] = {
  { .name = "include-subtree", .parameter_type = "u", .activate = activated },
  { .name = "exclude-subtree", .parameter_type = "u", .activate = activated },
  { .name = "go-to-first-event", .parameter_type = "u", .activate = activated },
};

FmvProcessMenu *
fmv_process_menu_new (GtkWidget *view,
                      FmvWindow *window)
{
  FmvProcessMenu *self;
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();

  g_return_val_if_fail (GTK_IS_WIDGET (view), NULL);
  g_return_val_if_fail (FMV_IS_WINDOW (window), NULL);

  self = g_new0 (FmvProcessMenu, 1);
  self->view = view;
  g_set_weak_pointer (&self->window, window);
  /* on the view, so that the popover (its child) finds them */
  g_action_map_add_action_entries (G_ACTION_MAP (group), actions, G_N_ELEMENTS (actions), self);
  gtk_widget_insert_action_group (view, "tree", G_ACTION_GROUP (group));
  self->popover = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->popover), FALSE);
  gtk_widget_set_halign (self->popover, GTK_ALIGN_START);
  gtk_widget_set_parent (self->popover, view);
  return self;
}

void
fmv_process_menu_set_analysis (FmvProcessMenu *self,
                               FmvAnalysis    *analysis)
{
  g_return_if_fail (self != NULL);
  self->analysis = analysis;
}

void
fmv_process_menu_free (FmvProcessMenu *self)
{
  if (self == NULL)
    return;
  /* the actions' user data is going: the view may outlive this */
  gtk_widget_insert_action_group (self->view, "tree", NULL);
  g_clear_pointer (&self->popover, gtk_widget_unparent);
  g_clear_weak_pointer (&self->window);
  g_free (self);
}
