/* fmv-application.c: application-wide actions (new window, about, quit), keyboard
 * accelerators, and the command line: `filemon-viewer [CAPTURE.jsonl...]`. */
#include "config.h"

#include "fmv-application.h"
#include "fmv-window.h"

struct _FmvApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (FmvApplication, fmv_application, GTK_TYPE_APPLICATION)

static void
new_window_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (fmv_window_new_live (GTK_APPLICATION (user_data))));
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *app = user_data;
  const char *authors[] = { "The filemon authors", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", "filemon Viewer",
                         "logo-icon-name", "org.filemond.Viewer",
                         "version", PACKAGE_VERSION,
                         "comments", "See which programs touch which files, live, "
                                     "and what the kernel answered.",
                         "license-type", GTK_LICENSE_GPL_2_0,
                         "authors", authors,
                         NULL);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (user_data));

  /* Destroying removes the window from the list we walk: copy it first. */
  g_list_foreach (g_list_copy (windows), (GFunc) (void (*) (void)) gtk_window_destroy, NULL);
}

static const GActionEntry app_actions[] = {
  { .name = "new-window", .activate = new_window_activated },
  { .name = "about", .activate = about_activated },
  { .name = "quit", .activate = quit_activated },
};

static void
fmv_application_startup (GApplication *application)
{
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.new-window", { "<Control>n", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.toggle-capture", { "<Control>e", NULL } },
    { "win.edit-capture-filter", { "<Shift><Control>e", NULL } },
    { "win.clear", { "<Control>l", NULL } },
    { "win.open", { "<Control>o", NULL } },
    /* enabled only while a file is read: Escape then reaches the entries as before */
    { "win.stop-loading", { "Escape", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-shown", { "<Shift><Control>s", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.find-next", { "F3", NULL } },
    { "win.find-previous", { "<Shift>F3", NULL } },
    { "win.focus-filter", { "<Control>k", NULL } },
    { "win.next-failure", { "F8", NULL } },
    { "win.previous-failure", { "<Shift>F8", NULL } },
    { "win.show-details", { "F9", NULL } },
    { "win.hide-monitor", { "<Control>h", NULL } },
    { "win.follow", { "<Control>End", NULL } },
    { "win.toggle-bookmark", { "<Control>b", NULL } },
    { "win.next-bookmark", { "F2", NULL } },
    { "win.previous-bookmark", { "<Shift>F2", NULL } },
    { "win.analysis::processes", { "<Control>t", NULL } },
    { "win.analysis::files", { "<Shift><Control>f", NULL } },
    { "win.analysis::counts", { "<Shift><Control>k", NULL } },
  };

  g_autoptr(GtkCssProvider) provider = NULL;

  G_APPLICATION_CLASS (fmv_application_parent_class)->startup (application);
  /* Unlike AdwApplication, GtkApplication does not load style.css by itself. */
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/org/filemond/Viewer/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  g_action_map_add_action_entries (G_ACTION_MAP (application), app_actions,
                                   G_N_ELEMENTS (app_actions), application);
  for (gsize i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (application), accels[i].action,
                                           accels[i].accels);
}

static void
fmv_application_activate (GApplication *application)
{
  gtk_window_present (GTK_WINDOW (fmv_window_new_live (GTK_APPLICATION (application))));
}

static void
fmv_application_open (GApplication  *application,
                      GFile        **files,
                      int            n_files,
                      const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    gtk_window_present (GTK_WINDOW (fmv_window_new_for_file (GTK_APPLICATION (application), files[i])));
}

static int
fmv_application_handle_local_options (GApplication *application,
                                      GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("filemon-viewer %s\n", PACKAGE_VERSION);
      return 0;
    }
  return -1;
}

static void
fmv_application_class_init (FmvApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = fmv_application_startup;
  app_class->activate = fmv_application_activate;
  app_class->open = fmv_application_open;
  app_class->handle_local_options = fmv_application_handle_local_options;
}

static void
fmv_application_init (FmvApplication *self)
{
  static const GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, "Print the version and exit", NULL },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), "[CAPTURE.jsonl…]");
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            "Shows file activity captured by filemond, live, or "
                                            "from saved captures (JSON Lines) given as arguments.");
}

FmvApplication *
fmv_application_new (void)
{
  return g_object_new (FMV_TYPE_APPLICATION,
                       "application-id", "org.filemond.Viewer",
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}
