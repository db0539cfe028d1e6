/* fmv-settings.c: the key file behind the viewer's persisted settings (the history depth,
 * the file choosers' last folder); each keeps its own group, and keys a hand put there
 * stay when another is written. */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "fmv-settings.h"

static char *
settings_path (void)
{
  return g_build_filename (g_get_user_state_dir (), "filemon-viewer", "settings", NULL);
}

GKeyFile *
fmv_settings_load (void)
{
  g_autofree char *path = settings_path ();
  g_autoptr(GKeyFile) settings = g_key_file_new ();
  g_autoptr(GError) error = NULL;

  if (!g_key_file_load_from_file (settings, path, G_KEY_FILE_KEEP_COMMENTS, &error) &&
      !g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      g_message ("settings not read: %s", error->message);
      /* what a failed parse left half-read is not a setting */
      g_key_file_unref (g_steal_pointer (&settings));
      settings = g_key_file_new ();
    }
  return g_steal_pointer (&settings);
}

void
fmv_settings_save (GKeyFile *settings)
{
  g_autofree char *path = settings_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_return_if_fail (settings != NULL);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    g_message ("settings not saved: cannot make %s: %s", dir, g_strerror (errno));
  else if (!g_key_file_save_to_file (settings, path, &error))
    g_message ("settings not saved: %s", error->message);
}
