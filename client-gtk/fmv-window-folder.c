/* fmv-window-folder.c: "Open Containing Folder": the desktop's file manager shows an
 * event's file in its folder. */
#include "config.h"

#include "fmv-window-private.h"

typedef struct {
  FmvWindow *window;
  char *path;     /* for display */
  char *uri;
} ShowItems;

static void
show_items_free (ShowItems *show)
{
  g_clear_object (&show->window);
  g_free (show->path);
  g_free (show->uri);
  g_free (show);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShowItems, show_items_free)

/* Without a file manager (none owns org.freedesktop.FileManager1, or no session bus at
 * all) the bus's own error names the interface, which tells a user nothing: say it in
 * words, and hand over the path to open some other way. */
static void
show_items_failed (ShowItems *show,
                   GError    *error)
{
  FmvWindow *self = show->window;
  g_autofree char *text = NULL;

  if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
      g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
      !g_dbus_error_is_remote_error (error))
    text = g_strdup_printf ("No file manager is running that can show the folder of %s.", show->path);
  else
    {
      g_dbus_error_strip_remote_error (error);
      text = g_strdup_printf ("The file manager could not show the folder of %s: %s", show->path,
                              error->message);
    }
  fmv_window_show_info (self, GTK_MESSAGE_WARNING, text);
  fmv_window_offer_copy (self, "_Copy Path", show->path);
}

static void
show_items_done_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(ShowItems) show = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);

  if (show->window->list == NULL)
    return;   /* the window closed meanwhile */
  if (reply == NULL)
    {
      show_items_failed (show, error);
      return;
    }
  fmv_window_flash_status (show->window, "The file manager shows the folder");
}

static void
session_bus_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(ShowItems) show = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) session = g_bus_get_finish (result, &error);
  const char *uris[2] = { show->uri, NULL };

  if (session == NULL)
    {
      if (show->window->list != NULL)
        show_items_failed (show, error);
      return;
    }
  /* The Xvfb tests read this line. */
  g_debug ("open containing folder: %s", show->uri);
  g_dbus_connection_call (session, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                          "org.freedesktop.FileManager1", "ShowItems", g_variant_new ("(^ass)", uris, ""),
                          NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, show_items_done_cb, g_steal_pointer (&show));
}

/* The folder holding an event's path, in the desktop's file manager: asked over the
 * session bus (org.freedesktop.FileManager1.ShowItems, which selects the file in its
 * folder), so the file manager opens it with the user's own rights; the viewer only turns
 * the path into a URI and never touches the file. */
void
fmv_window_open_folder (FmvWindow *self,
                        guint      row)
{
  g_autofree char *path = NULL;
  ShowItems *show;
  FmvStoreEvent stored;
  const FmEvent *ev;

  if (!fmv_store_has_row (self->store, row))
    return;
  ev = fmv_store_get_event (self->store, row, &stored);
  path = g_strndup (ev->path, ev->path_len);
  show = g_new0 (ShowItems, 1);
  show->uri = g_filename_to_uri (path, NULL, NULL);
  if (show->uri == NULL)
    {
      show_items_free (show);
      fmv_window_flash_status (self, "This path cannot be shown in a file manager");
      return;
    }
  /* the info bar and the clipboard take UTF-8: a name's odd bytes become U+FFFD there */
  show->path = g_filename_display_name (path);
  show->window = g_object_ref (self);
  g_bus_get (G_BUS_TYPE_SESSION, NULL, session_bus_cb, show);
}
