/* filemond-stap-build.c: SystemTap's cache directory for filemond, and the build of the
 * default capture's module ahead of time; see filemond-stap-build.h.
 *
 * A build ahead of time is kept under a name of filemond's own (fmd_stap_precompiled_dir)
 * and loaded with staprun: SystemTap's cache would find it too, but only after passes 1-2,
 * which take minutes on a slow machine. The daemon's pid is a module parameter (-G), so
 * the module does not depend on it (fmd_stap_command_new).
 */
#include "config.h"

#include "filemond-stap-build.h"

#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <glib/gstdio.h>

#include "fm-error.h"
#include "filemond-options.h"
#include "filemond-stap-script.h"

char *
fmd_stap_dir (void)
{
  const char *dir = g_getenv ("SYSTEMTAP_DIR");
  const char *cache = g_getenv ("CACHE_DIRECTORY");

  if (dir != NULL && *dir != '\0')
    return g_strdup (dir);
  /* systemd may list several directories, colon-separated: ours is the only one */
  return g_build_filename (cache != NULL && *cache != '\0' ? cache : FILEMON_CACHEDIR,
                           "systemtap", NULL);
}

GSubprocessLauncher *
fmd_stap_launcher_new (GSubprocessFlags flags)
{
  GSubprocessLauncher *launcher = g_subprocess_launcher_new (flags);
  g_autofree char *dir = fmd_stap_dir ();

  g_subprocess_launcher_setenv (launcher, "SYSTEMTAP_DIR", dir, TRUE);
  return launcher;
}

/* @dir and the files in it (the work directory of a build: no subdirectories) */
static void
remove_tree (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_unlink (path) < 0)
        g_warning ("cannot remove %s: %s", path, g_strerror (errno));
    }
  if (g_rmdir (dir) < 0)
    g_warning ("cannot remove %s: %s", dir, g_strerror (errno));
}

char *
fmd_stap_precompiled_dir (const char *stap_path,
                          guint       buffer_mb,
                          const char *script,
                          const char *release)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr(GPtrArray) argv = fmd_stap_command_new (stap_path, buffer_mb, NULL, NULL);
  g_autofree char *command = NULL;
  g_autofree char *stap_id = NULL;
  g_autofree char *dir = fmd_stap_dir ();
  GStatBuf st;

  command = g_strjoinv ("\n", (char **) argv->pdata);
  stap_id = g_stat (stap_path, &st) == 0 ?
            g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                             (gint64) st.st_size, (gint64) st.st_mtime) :
            g_strdup ("");
  for (const char *const *part = (const char *const[]) { script, command, stap_id, release, NULL };
       *part != NULL; part++)
    g_checksum_update (sum, (const guchar *) *part, (gssize) strlen (*part) + 1);
  return g_build_filename (dir, "precompiled", g_checksum_get_string (sum), NULL);
}

char *
fmd_stap_precompiled_module (const char *stap_path,
                             guint       buffer_mb,
                             const char *script,
                             const char *release)
{
  g_autofree char *dir = fmd_stap_precompiled_dir (stap_path, buffer_mb, script, release);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".ko"))
      return g_build_filename (dir, name, NULL);
  return NULL;
}

/* Copies the module stap -p4 built in @workdir (its stdout names it) into @dir, under
 * its own name: the module's name inside it, which staprun expects to find there. */
static gboolean
keep_module (GBytes     *out,
             const char *workdir,
             const char *dir,
             GError    **error)
{
  g_autofree char *text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  g_auto(GStrv) lines = g_strsplit (g_strstrip (text), "\n", -1);
  const char *built = lines[0] != NULL ? lines[g_strv_length (lines) - 1] : "";
  g_autofree char *path = g_path_is_absolute (built) ? g_strdup (built)
                                                     : g_build_filename (workdir, built, NULL);
  g_autofree char *base = g_path_get_basename (built);
  g_autofree char *dest = g_build_filename (dir, base, NULL);
  g_autoptr(GFile) from = g_file_new_for_path (path);
  g_autoptr(GFile) to = g_file_new_for_path (dest);

  if (!g_str_has_suffix (built, ".ko"))
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                   "stap -p4 named no module on its output (“%s”)", built);
      return FALSE;
    }
  if (g_mkdir_with_parents (dir, 0755) < 0)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED, "cannot create %s: %s", dir,
                   g_strerror (errno));
      return FALSE;
    }
  if (!g_file_copy (from, to, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error))
    return FALSE;
  g_message ("module kept at %s", dest);
  return TRUE;
}

gboolean
fmd_stap_precompile (const FmdConfig  *config,
                     const FmdOptions *options,
                     const char       *kernel_release,
                     GError          **error)
{
  g_autoptr(FmdOptions) no_options = fmd_options_new_default ();
  g_autofree char *script = fmd_stap_script_generate (options != NULL ? options : no_options);
  g_autoptr(GPtrArray) argv = fmd_stap_command_new (config->stap_path, config->stap_buffer_mb,
                                                    NULL, "-p4");
  g_autoptr(GSubprocessLauncher) launcher = fmd_stap_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GBytes) input = g_bytes_new_static (script, strlen (script));
  g_autoptr(GBytes) output = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *workdir = NULL;
  g_autofree char *dest = NULL;
  g_autofree char *built = NULL;
  struct utsname uts;
  const char *release = kernel_release;
  gboolean ok;

  if (release == NULL)
    {
      if (uname (&uts) < 0)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED, "uname: %s", g_strerror (errno));
          return FALSE;
        }
      release = uts.release;
    }
  /* filemond-precompile.service runs this at every boot and package upgrade: once the
   * module of this script, build command, SystemTap and kernel exists (its directory's
   * name covers all four), there is nothing to do, and stap's passes 1-2 would take
   * minutes on a slow machine only to find it in their cache */
  built = fmd_stap_precompiled_module (config->stap_path, config->stap_buffer_mb, script,
                                       release);
  if (built != NULL)
    {
      g_message ("the module for %s is built already: %s", release, built);
      return TRUE;
    }
  if (kernel_release != NULL)
    {
      /* before the "-p4" "-" at the end */
      g_ptr_array_insert (argv, (int) argv->len - 3, g_strdup ("-r"));
      g_ptr_array_insert (argv, (int) argv->len - 3, g_strdup (kernel_release));
    }
  /* -p4 copies the module it built (or found in its cache) to its working directory */
  workdir = g_dir_make_tmp ("filemond-precompile-XXXXXX", error);
  if (workdir == NULL)
    return FALSE;
  g_subprocess_launcher_set_cwd (launcher, workdir);
  process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata,
                                          &local_error);
  if (process == NULL ||
      !g_subprocess_communicate (process, input, NULL, &output, NULL, &local_error))
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED, "cannot run %s: %s",
                   config->stap_path, local_error->message);
      ok = FALSE;
    }
  else if (!g_subprocess_get_successful (process))
    {
      g_autofree char *verdict = fmd_stap_check_failure (config->stap_path, release,
                                                         "filemond --precompile failed");

      fmd_stap_check_record (config, release, verdict);
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                   "%s could not build the module (its messages are above)", config->stap_path);
      ok = FALSE;
    }
  else
    {
      fmd_stap_check_record (config, release, "");
      dest = fmd_stap_precompiled_dir (config->stap_path, config->stap_buffer_mb, script,
                                       release);
      ok = keep_module (output, workdir, dest, error);
    }
  remove_tree (workdir);
  return ok;
}
