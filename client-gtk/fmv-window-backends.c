/* fmv-window-backends.c: the Start menu's backend choice, from what the daemon says can
 * run here (AvailableBackends): a backend that cannot run is shown, insensitive, with the
 * daemon's reason, rather than offered and refused after the click. */
#include "config.h"

#include "fmv-window-private.h"

static const struct {
  const char *name;    /* the daemon's backend name */
  const char *label;
} backends[] = {
  { "stap", "_SystemTap" },
  { "bpf", "_eBPF" },
};

static void
append_item (GMenu      *section,
             const char *label,
             const char *action,
             const char *target)
{
  fmv_menu_append (section, label, action, target ? g_variant_new_string (target) : NULL);
}

/* Rebuilds the section when @available (a{ss}, or NULL: not connected, every backend is
 * offered and the daemon will say) differs from what it shows. */
void
fmv_window_update_backends (FmvWindow *self,
                            GVariant  *available)
{
  g_autoptr(GVariant) backend = NULL;
  const char *chosen;

  if (g_menu_model_get_n_items (G_MENU_MODEL (self->backend_section)) > 0
      && (available == NULL ? self->shown_backends == NULL
          : self->shown_backends != NULL && g_variant_equal (available, self->shown_backends)))
    return;
  g_clear_pointer (&self->shown_backends, g_variant_unref);
  if (available != NULL)
    self->shown_backends = g_variant_ref (available);

  g_menu_remove_all (self->backend_section);
  append_item (self->backend_section, "_Automatic", "win.backend", "auto");
  backend = g_action_group_get_action_state (G_ACTION_GROUP (self), "backend");
  chosen = g_variant_get_string (backend, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (backends); i++)
    {
      const char *why = NULL;
      g_auto(GStrv) parts = NULL;
      g_autofree char *escaped = NULL;
      g_autofree char *label = NULL;

      if (available == NULL || !g_variant_lookup (available, backends[i].name, "&s", &why))
        why = "";
      if (why[0] == '\0')
        {
          append_item (self->backend_section, backends[i].label, "win.backend", backends[i].name);
          continue;
        }
      /* win.unavailable is never enabled: the item is shown insensitive */
      /* menu labels take '_' as a mnemonic: the reason's own are doubled */
      parts = g_strsplit (why, "_", -1);
      escaped = g_strjoinv ("__", parts);
      label = g_strdup_printf ("%s (cannot run: %s)", backends[i].label, escaped);
      append_item (self->backend_section, label, "win.unavailable", NULL);
      g_debug ("backend menu: %s cannot run: %s", backends[i].name, why);
      if (g_str_equal (chosen, backends[i].name))
        g_action_group_change_action_state (G_ACTION_GROUP (self), "backend",
                                            g_variant_new_string ("auto"));
    }
}
