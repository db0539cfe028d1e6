/* fmv-chooser-folder.c: the file choosers' last folder, kept in the viewer's settings.
 *
 * One folder for Open and Save alike: captures are saved where they are opened from
 * later, as in GNOME's own apps. It is kept as a URI, which escapes the bytes of a name
 * that is not UTF-8 (a key file holds UTF-8 only).
 */
#include "config.h"

#include "fmv-chooser-folder.h"
#include "fmv-settings.h"

#define GROUP "files"
#define KEY "last-folder"

void
fmv_chooser_folder_restore (GtkFileChooser *chooser)
{
  g_autoptr(GKeyFile) settings = fmv_settings_load ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *uri = NULL;

  g_return_if_fail (GTK_IS_FILE_CHOOSER (chooser));

  uri = g_key_file_get_string (settings, GROUP, KEY, NULL);
  if (uri == NULL)
    return;
  folder = g_file_new_for_uri (uri);
  /* gone since, or never a folder (a hand edited it): the chooser's own default then */
  if (g_file_query_file_type (folder, G_FILE_QUERY_INFO_NONE, NULL) != G_FILE_TYPE_DIRECTORY)
    {
      g_debug ("last folder %s is not a folder now", uri);
      return;
    }
  if (!gtk_file_chooser_set_current_folder (chooser, folder, &error))
    {
      g_message ("the file chooser cannot start in %s: %s", uri, error->message);
      return;
    }
  /* The Xvfb tests read this line. */
  g_debug ("file chooser starts in %s", uri);
}

void
fmv_chooser_folder_remember (GFile *file)
{
  g_autoptr(GKeyFile) settings = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *uri = NULL;

  g_return_if_fail (G_IS_FILE (file));

  folder = g_file_get_parent (file);
  if (folder == NULL)
    return;
  uri = g_file_get_uri (folder);
  settings = fmv_settings_load ();
  g_key_file_set_string (settings, GROUP, KEY, uri);
  fmv_settings_save (settings);
}
