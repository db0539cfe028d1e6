/* filemond-stap-build.c: SystemTap's cache directory for filemond, and the build of the
 * default capture's module ahead of time; see filemond-stap-build.h.
 *
 * A build ahead of time is found by a later Start because SystemTap names and caches a
 * module by a hash of the script and of what it was built with (the kernel, its build
 * tree, the -D options), not of the module parameters: the daemon's pid, given at load
 * time with -G, does not change it (fmd_stap_command_new).
 */
#include "config.h"

#include "filemond-stap-build.h"

#include <errno.h>
#include <string.h>
#include <sys/utsname.h>

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

gboolean
fmd_stap_precompile (const FmdConfig *config,
                     const char      *kernel_release,
                     GError         **error)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  g_autofree char *script = fmd_stap_script_generate (options);
  g_autoptr(GPtrArray) argv = fmd_stap_command_new (config->stap_path, config->stap_buffer_mb,
                                                    0, "-p4");
  g_autoptr(GSubprocessLauncher) launcher = fmd_stap_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GBytes) input = g_bytes_new_static (script, strlen (script));
  g_autoptr(GError) local_error = NULL;
  struct utsname uts;
  const char *release = kernel_release;

  if (release == NULL)
    {
      if (uname (&uts) < 0)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED, "uname: %s", g_strerror (errno));
          return FALSE;
        }
      release = uts.release;
    }
  if (kernel_release != NULL)
    {
      /* before the "-p4" "-" at the end */
      g_ptr_array_insert (argv, (int) argv->len - 3, g_strdup ("-r"));
      g_ptr_array_insert (argv, (int) argv->len - 3, g_strdup (kernel_release));
    }
  /* the module lands in the cache; -p4 also copies it to the working directory */
  g_subprocess_launcher_set_cwd (launcher, g_get_tmp_dir ());
  process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata,
                                          &local_error);
  if (process == NULL ||
      !g_subprocess_communicate (process, input, NULL, NULL, NULL, &local_error))
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED, "cannot run %s: %s",
                   config->stap_path, local_error->message);
      return FALSE;
    }
  if (!g_subprocess_get_successful (process))
    {
      g_autofree char *verdict = fmd_stap_check_failure (config->stap_path, release,
                                                         "filemond --precompile failed");

      fmd_stap_check_record (config, release, verdict);
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                   "%s could not build the module (its messages are above)", config->stap_path);
      return FALSE;
    }
  fmd_stap_check_record (config, release, "");
  return TRUE;
}
