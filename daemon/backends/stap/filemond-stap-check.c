/* filemond-stap-check.c: the stap backend's type: whether the installed SystemTap can
 * build a capture module for the running kernel (its probe), and making a backend.
 *
 * Cheap facts first (stap, module support, the kernel's build tree, its debuginfo). Then
 * what no version number tells: whether this SystemTap and this kernel build a module
 * together at all. Debian 12's SystemTap 4.8 builds none for Debian 12's current kernel
 * (its runtime does not compile against that kernel's task_work_cancel()), and a newer
 * pair may break the same way. So a small script with the probe kinds and the tapset
 * functions the capture uses is built once (stap -p4, asynchronously, a minute at most
 * natively), and the verdict is kept in SystemTap's directory per kernel release and
 * stap binary: a later daemon reads it instead of building again. Until the verdict is
 * in, the probe is deferred (filemond-backend-type.h). The build in flight and its
 * verdict are the type instance's: one daemon, one registry, one trial.
 */
#include "config.h"

#include "filemond-backend-stap.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <gio/gio.h>

#include "filemond-stap-build.h"
#include "filemond-stap-script.h"

/* the capture's ingredients: a syscall kprobe and its return, a user string, and the
 * dentry walk of the cwd (debuginfo) */
static const char trial_script[] =
  FMD_STAP_TRIAL_HEADER "\n"
  "probe kprobe.function(\"" FMD_STAP_SYSCALL_PREFIX "close\") {\n"
  "  printf(\"%s %s\\n\", fullpath_struct_path(task_cwd_path(task_current())), user_string(0))\n"
  "}\n"
  "probe kprobe.function(\"" FMD_STAP_SYSCALL_PREFIX "close\").return { printf(\"%d\\n\", returnval()) }\n"
  "probe begin { exit() }\n";

struct _FmdStapBackendType {
  FmdBackendType parent_instance;

  GSubprocess *trial;          /* the trial build in flight */
  GCancellable *cancellable;   /* its wait, ended with the type */
  char *verdict_file;          /* where the last trial started keeps its verdict */
  char *verdict;               /* that trial's verdict once in ("": it works), for when
                                * the file cannot be written */
};

G_DEFINE_FINAL_TYPE (FmdStapBackendType, fmd_stap_backend_type, FMD_TYPE_BACKEND_TYPE)

/* Where stap looks for the kernel's vmlinux with its debuginfo (Debian's -dbg packages
 * use the first); NULL when none is there. */
static char *
debuginfo_path (const char *release)
{
  g_autofree char *vmlinux = g_strconcat ("vmlinux-", release, NULL);
  char *candidates[] = {
    g_build_filename ("/usr/lib/debug/boot", vmlinux, NULL),
    g_build_filename ("/usr/lib/debug/lib/modules", release, "vmlinux", NULL),
    g_build_filename ("/boot", vmlinux, NULL),
    g_build_filename ("/lib/modules", release, "build", "vmlinux", NULL),
    g_build_filename ("/usr/lib/debug", vmlinux, NULL),
  };
  char *found = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      if (found == NULL && g_file_test (candidates[i], G_FILE_TEST_IS_REGULAR))
        found = g_steal_pointer (&candidates[i]);
      g_free (candidates[i]);
    }
  return found;
}

/* The verdict's file: per kernel release and stap binary (a new SystemTap is a new
 * binary, with another size or time). */
static char *
verdict_path (const FmdConfig *config, const char *release)
{
  struct stat st;
  g_autofree char *dir = fmd_stap_dir ();
  g_autofree char *name = NULL;

  if (stat (config->stap_path, &st) < 0)
    return NULL;
  name = g_strdup_printf ("filemond-trial-%s-%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT, release,
                          (gint64) st.st_size, (gint64) st.st_mtime);
  return g_build_filename (dir, name, NULL);
}

/* The first line of stap's output that says what failed. */
static char *
first_error (const char *output)
{
  g_auto(GStrv) lines = g_strsplit (output != NULL ? output : "", "\n", -1);
  const char *last = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strstrip (lines[i]);
      if (strstr (lines[i], "error:") != NULL || g_str_has_prefix (lines[i], "semantic error"))
        return g_strdup (lines[i]);
      if (*lines[i] != '\0' && !g_str_has_prefix (lines[i], "Pass "))
        last = lines[i];
    }
  return g_strdup (last != NULL ? last : "no message");
}

static void
write_verdict (const char *verdict_file, const char *verdict)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (verdict_file);

  if (g_mkdir_with_parents (dir, 0700) < 0 ||
      !g_file_set_contents (verdict_file, verdict, -1, &error))
    g_warning ("cannot keep the trial build's verdict in %s: %s", verdict_file,
               error != NULL ? error->message : g_strerror (errno));
}

char *
fmd_stap_check_failure (const char *stap_path, const char *release, const char *why)
{
  return g_strdup_printf ("stap: %s cannot build a kernel module for kernel %s (a trial "
                          "build failed: %s)", stap_path, release, why);
}

void
fmd_stap_check_record (const FmdConfig *config, const char *release, const char *verdict)
{
  g_autofree char *verdict_file = verdict_path (config, release);

  if (verdict_file != NULL)
    write_verdict (verdict_file, verdict);
}

typedef struct {
  FmdStapBackendType *self;
  char *verdict_file;
  char *release;
  char *stap_path;
} Trial;

static void
trial_free (Trial *t)
{
  g_object_unref (t->self);
  g_free (t->verdict_file);
  g_free (t->release);
  g_free (t->stap_path);
  g_free (t);
}

static void
trial_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Trial *t = user_data;
  FmdStapBackendType *self = t->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *verdict = NULL;
  gboolean ran = g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result,
                                                       &output, NULL, &error);

  /* the type went first: nobody is left to tell */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      trial_free (t);
      return;
    }
  if (!ran)
    verdict = g_strdup_printf ("stap: the trial build did not run: %s", error->message);
  else if (!g_subprocess_get_successful (G_SUBPROCESS (source)))
    {
      g_autofree char *why = first_error (output);

      verdict = fmd_stap_check_failure (t->stap_path, t->release, why);
    }
  else
    verdict = g_strdup ("");
  g_clear_object (&self->trial);
  g_info ("stap trial build for %s: %s", t->release, *verdict != '\0' ? verdict : "works");
  write_verdict (t->verdict_file, verdict);
  g_free (self->verdict);
  self->verdict = g_steal_pointer (&verdict);
  fmd_backend_type_request_probe (FMD_BACKEND_TYPE (self));
  trial_free (t);
}

/* TRUE when the trial build is running. */
static gboolean
start_trial (FmdStapBackendType *self, const FmdConfig *config, const char *release,
             const char *verdict_file)
{
  g_autoptr(GPtrArray) argv = fmd_stap_command_new (config->stap_path, config->stap_buffer_mb,
                                                    NULL, "-p4");
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = fmd_stap_dir ();
  Trial *t;

  if (g_mkdir_with_parents (dir, 0700) < 0)
    {
      g_warning ("cannot create %s for the trial build: %s", dir, g_strerror (errno));
      return FALSE;
    }
  launcher = fmd_stap_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                    G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                    G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_set_cwd (launcher, g_get_tmp_dir ());
  self->trial = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata,
                                              &error);
  if (self->trial == NULL)
    {
      g_warning ("cannot run the trial build: %s", error->message);
      return FALSE;
    }
  g_free (self->verdict_file);
  self->verdict_file = g_strdup (verdict_file);
  g_clear_pointer (&self->verdict, g_free);
  t = g_new0 (Trial, 1);
  t->self = g_object_ref (self);
  t->verdict_file = g_strdup (verdict_file);
  t->release = g_strdup (release);
  t->stap_path = g_strdup (config->stap_path);
  g_subprocess_communicate_utf8_async (self->trial, trial_script, self->cancellable,
                                       trial_done_cb, t);
  return TRUE;
}

static FmdProbeResult
verdict_result (const char *verdict, char **reason)
{
  if (*verdict == '\0')
    return FMD_PROBE_SUCCESS;
  *reason = g_strdup (verdict);
  return FMD_PROBE_FAIL;
}

FmdProbeResult
fmd_stap_backend_type_probe_release (FmdStapBackendType  *self,
                                     const FmdConfig     *config,
                                     const char          *release,
                                     char               **reason)
{
  g_autofree char *verdict_file = NULL;
  g_autofree char *verdict = NULL;

  g_return_val_if_fail (FMD_IS_STAP_BACKEND_TYPE (self), FMD_PROBE_FAIL);
  g_return_val_if_fail (release != NULL, FMD_PROBE_FAIL);
  g_return_val_if_fail (reason != NULL && *reason == NULL, FMD_PROBE_FAIL);

  verdict_file = verdict_path (config, release);
  if (verdict_file == NULL)
    return FMD_PROBE_SUCCESS;
  /* the file first: filemond --precompile may have recorded a newer verdict */
  if (g_file_get_contents (verdict_file, &verdict, NULL, NULL))
    return verdict_result (verdict, reason);
  if (self->verdict != NULL && g_strcmp0 (self->verdict_file, verdict_file) == 0)
    return verdict_result (self->verdict, reason);
  if (self->trial != NULL || start_trial (self, config, release, verdict_file))
    return FMD_PROBE_DEFER;
  return FMD_PROBE_SUCCESS;
}

/* What the running kernel lacks for any capture module, in a newly allocated sentence;
 * NULL with its @release when it has it all (NULL too when the config says not to check). */
static char *
kernel_lacks (const FmdConfig *config, char **release)
{
  struct utsname uts;
  g_autofree char *build = NULL;
  g_autofree char *debuginfo = NULL;

  *release = NULL;
  if (!g_file_test (config->stap_path, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup_printf ("stap: %s not found (install systemtap)", config->stap_path);
  if (!config->stap_check_kernel)
    return NULL;
  /* /proc/modules exists only where the kernel can load modules (CONFIG_MODULES) */
  if (!g_file_test ("/proc/modules", G_FILE_TEST_EXISTS))
    return g_strdup ("stap: this kernel cannot load modules (built without CONFIG_MODULES)");
  if (uname (&uts) < 0)
    return g_strdup_printf ("stap: uname: %s", g_strerror (errno));
  build = g_build_filename ("/lib/modules", uts.release, "build", NULL);
  if (!g_file_test (build, G_FILE_TEST_IS_DIR))
    return g_strdup_printf ("stap: no kernel build tree in %s (install the headers of "
                            "kernel %s)", build, uts.release);
  debuginfo = debuginfo_path (uts.release);
  if (debuginfo == NULL)
    return g_strdup_printf ("stap: no debuginfo for kernel %s (install its debug symbols, "
                            "e.g. the linux-image-%s-dbg package): the capture reads the "
                            "paths of fds and of the cwd through it", uts.release, uts.release);
  *release = g_strdup (uts.release);
  return NULL;
}

static FmdProbeResult
fmd_stap_backend_type_probe (FmdBackendType   *type,
                             const FmdConfig  *config,
                             char            **reason)
{
  g_autofree char *release = NULL;

  *reason = kernel_lacks (config, &release);
  if (*reason != NULL)
    return FMD_PROBE_FAIL;
  if (release == NULL)
    return FMD_PROBE_SUCCESS;
  return fmd_stap_backend_type_probe_release (FMD_STAP_BACKEND_TYPE (type), config, release,
                                              reason);
}

static FmdBackend *
fmd_stap_backend_type_create (FmdBackendType  *type,
                              const FmdConfig *config)
{
  return fmd_backend_stap_new (config);
}

FmdBackendType *
fmd_stap_backend_type_new (void)
{
  return g_object_new (FMD_TYPE_STAP_BACKEND_TYPE, "name", "stap", NULL);
}

/* A trial still running is left to finish on its own, as the process would leave it at
 * exit; only the wait for it ends. */
static void
fmd_stap_backend_type_dispose (GObject *object)
{
  FmdStapBackendType *self = FMD_STAP_BACKEND_TYPE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->trial);

  G_OBJECT_CLASS (fmd_stap_backend_type_parent_class)->dispose (object);
}

static void
fmd_stap_backend_type_finalize (GObject *object)
{
  FmdStapBackendType *self = FMD_STAP_BACKEND_TYPE (object);

  g_clear_object (&self->cancellable);
  g_free (self->verdict_file);
  g_free (self->verdict);

  G_OBJECT_CLASS (fmd_stap_backend_type_parent_class)->finalize (object);
}

static void
fmd_stap_backend_type_class_init (FmdStapBackendTypeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  FmdBackendTypeClass *type_class = FMD_BACKEND_TYPE_CLASS (klass);

  object_class->dispose = fmd_stap_backend_type_dispose;
  object_class->finalize = fmd_stap_backend_type_finalize;
  type_class->probe = fmd_stap_backend_type_probe;
  type_class->create = fmd_stap_backend_type_create;
}

static void
fmd_stap_backend_type_init (FmdStapBackendType *self)
{
  self->cancellable = g_cancellable_new ();
}
