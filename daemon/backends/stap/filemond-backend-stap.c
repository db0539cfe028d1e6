/* filemond-backend-stap.c: the SystemTap backend. It runs `stap` with the generated script
 * on stdin (filemond-stap-script.c), reads its stdout without blocking the main loop and
 * parses each line (filemond-stap-parser.c).
 *
 * stap runs in its own process group, so that Stop can signal stap and everything it
 * started (staprun, stapio) at once: a stapio left behind keeps the module loaded and
 * blocks the next start with "could not load module". It also gets SIGKILL when the
 * daemon dies (PR_SET_PDEATHSIG). The script text depends on the traced syscalls alone
 * (the filters are module parameters), so SystemTap's cache finds the compiled module of
 * any earlier capture of the same syscalls and such a start is fast.
 */
#include "config.h"

#include "filemond-backend-stap.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <gio/gio.h>

#include "fm-error.h"
#include "filemond-stap-build.h"
#include "filemond-stap-parser.h"
#include "filemond-stap-script.h"

#define READ_SIZE (256 * 1024)
#define STDERR_TAIL 2048
/* how long stap gets to unload its module after SIGTERM before SIGKILL: a SIGKILL loses
 * its last words (the count of probes that did not run), and 5 s were seen not to be
 * enough on a slow machine (a loaded host's qemu guest) */
#define KILL_TIMEOUT_MS 30000

#define FMD_TYPE_STAP_BACKEND (fmd_stap_backend_get_type ())
G_DECLARE_FINAL_TYPE (FmdStapBackend, fmd_stap_backend, FMD, STAP_BACKEND, FmdBackend)

struct _FmdStapBackend {
  FmdBackend parent_instance;

  char *stap_path;
  guint buffer_mb;

  GSubprocess *process;
  pid_t pgid;
  GCancellable *cancellable;
  FmdStapParser *parser;
  GByteArray *partial;        /* an incomplete last line */
  guint8 *read_buf;
  GString *stderr_tail;
  gboolean running;
  gboolean stopping;
  gboolean stdout_done;
  gboolean stderr_done;
  gboolean exited;
  int exit_status;
  guint kill_timeout_id;
};

G_DEFINE_FINAL_TYPE (FmdStapBackend, fmd_stap_backend, FMD_TYPE_BACKEND)

static void
child_setup (gpointer user_data)
{
  /* async-signal-safe calls only: this runs between fork and exec */
  setpgid (0, 0);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static void
signal_group (FmdStapBackend *self, int sig)
{
  if (self->pgid > 0 && kill (-self->pgid, sig) < 0 && errno != ESRCH)
    g_warning ("cannot signal stap's process group %d: %s", (int) self->pgid, g_strerror (errno));
}

/* The end: stap has exited and its stdout and stderr are read to the end (its last
 * words count the probes that did not run, as drops, before Stop is over). */
static void
maybe_finish (FmdStapBackend *self)
{
  if (!self->exited || !self->stdout_done || !self->stderr_done)
    return;
  g_clear_handle_id (&self->kill_timeout_id, g_source_remove);
  /* anything left in its group (a stapio that outlived stap) goes too */
  signal_group (self, SIGKILL);
  self->pgid = 0;
  g_clear_object (&self->process);

  if (self->stopping)
    {
      fmd_backend_emit_stopped (FMD_BACKEND (self));
      return;
    }
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *last = g_strstrip (g_strdup (self->stderr_tail->str));
    const char *nl = strrchr (last, '\n');

    g_set_error (&error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                 "stap exited (status %d)%s%s", self->exit_status,
                 *last != '\0' ? ": " : "", nl != NULL ? nl + 1 : last);
    fmd_backend_emit_failed (FMD_BACKEND (self), error);
  }
}

static void
handle_line (FmdStapBackend *self, const char *line, gsize len)
{
  g_autoptr(GError) error = NULL;
  FmdStapLineKind kind;
  FmEvent event;

  if (!fmd_stap_parser_parse_line (self->parser, line, len, &kind, &event, &error))
    {
      /* counted and reported, never turned into an event */
      g_debug ("%s: %.*s", error->message, (int) MIN (len, 200), line);
      fmd_backend_emit_dropped (FMD_BACKEND (self), 1);
      return;
    }
  if (!self->running && !self->stopping)
    {
      self->running = TRUE;
      fmd_backend_emit_running (FMD_BACKEND (self));
    }
  if (kind == FMD_STAP_LINE_EVENT && !self->stopping)
    fmd_backend_emit_event (FMD_BACKEND (self), &event);
}

static void read_stdout (FmdStapBackend *self, GInputStream *stream);

static void
stdout_read_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(FmdStapBackend) self = user_data;
  g_autoptr(GError) error = NULL;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (source), result, &error);
  const guint8 *p, *end;

  if (n <= 0)
    {
      if (n < 0 && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("reading stap's output: %s", error->message);
      if (self->partial->len > 0)
        {
          /* a record cut by stap's exit */
          fmd_backend_emit_dropped (FMD_BACKEND (self), 1);
          g_byte_array_set_size (self->partial, 0);
        }
      self->stdout_done = TRUE;
      maybe_finish (self);
      return;
    }

  p = self->read_buf;
  end = p + n;
  while (p < end)
    {
      const guint8 *nl = memchr (p, '\n', end - p);

      if (nl == NULL)
        {
          /* a line longer than any record can be is garbage: drop it whole */
          if (self->partial->len + (end - p) > 64 * 1024)
            {
              fmd_backend_emit_dropped (FMD_BACKEND (self), 1);
              g_byte_array_set_size (self->partial, 0);
            }
          else
            g_byte_array_append (self->partial, p, end - p);
          break;
        }
      if (self->partial->len > 0)
        {
          g_byte_array_append (self->partial, p, nl - p);
          handle_line (self, (const char *) self->partial->data, self->partial->len);
          g_byte_array_set_size (self->partial, 0);
        }
      else
        handle_line (self, (const char *) p, nl - p);
      p = nl + 1;
    }
  read_stdout (self, G_INPUT_STREAM (source));
}

static void
read_stdout (FmdStapBackend *self, GInputStream *stream)
{
  g_input_stream_read_async (stream, self->read_buf, READ_SIZE, G_PRIORITY_DEFAULT,
                             self->cancellable, stdout_read_cb, g_object_ref (self));
}

static void read_stderr (FmdStapBackend *self, GDataInputStream *stream);

/* The build's progress after pass @done (0: none yet); pass 4's end means loading. */
static void
report_pass (FmdStapBackend *self, int done)
{
  static const char *const next[] = {
    "stap pass 1-2 of 4: parsing the script and resolving its probes",
    "stap pass 1-2 of 4: parsing the script and resolving its probes",
    "stap pass 3 of 4: translating the script to C",
    /* one element: clang's -Wstring-concatenation wants the parentheses */
    ("stap pass 4 of 4: compiling the kernel module (a minute or more the first time "
     "these syscalls are traced on this kernel; the module is cached for the next Start)"),
  };

  fmd_backend_emit_compiling (FMD_BACKEND (self), done < 4 ? next[done] : NULL);
}

static void
stderr_line_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(FmdStapBackend) self = user_data;
  g_autoptr(GError) error = NULL;
  gsize len;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source),
                                                                       result, &len, &error);
  const char *skipped;

  if (line == NULL)
    {
      /* the end, or an error: stdout and the exit status tell the rest */
      if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("reading stap's messages: %s", error->message);
      self->stderr_done = TRUE;
      maybe_finish (self);
      return;
    }

  /* stap's own words, relayed */
  g_message ("stap says: %s", line);
  /* stap -v: "Pass N: ..." when pass N is done */
  if (g_str_has_prefix (line, "Pass ") && line[5] >= '1' && line[5] <= '4' && line[6] == ':' &&
      !self->running && !self->stopping)
    report_pass (self, line[5] - '0');
  g_string_append (self->stderr_tail, line);
  g_string_append_c (self->stderr_tail, '\n');
  if (self->stderr_tail->len > STDERR_TAIL)
    g_string_erase (self->stderr_tail, 0, self->stderr_tail->len - STDERR_TAIL);
  /* "WARNING: Number of errors: 0, skipped probes: 12": probes that did not run are events lost */
  skipped = strstr (line, "skipped probes: ");
  if (skipped != NULL)
    {
      guint64 n = g_ascii_strtoull (skipped + strlen ("skipped probes: "), NULL, 10);

      if (n > 0)
        fmd_backend_emit_dropped (FMD_BACKEND (self), n);
    }
  read_stderr (self, G_DATA_INPUT_STREAM (source));
}

static void
read_stderr (FmdStapBackend *self, GDataInputStream *stream)
{
  g_data_input_stream_read_line_async (stream, G_PRIORITY_DEFAULT, self->cancellable,
                                       stderr_line_cb, g_object_ref (self));
}

static void
wait_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(FmdStapBackend) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (source), result, &error))
    g_warning ("waiting for stap: %s", error->message);
  self->exit_status = g_subprocess_get_if_exited (G_SUBPROCESS (source)) ?
                      g_subprocess_get_exit_status (G_SUBPROCESS (source)) :
                      128 + g_subprocess_get_term_sig (G_SUBPROCESS (source));
  self->exited = TRUE;
  maybe_finish (self);
}

static void
stdin_written_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* a failure here means stap died early: its exit reports why */
  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, &error))
    g_debug ("writing the script to stap: %s", error->message);
  if (!g_output_stream_close (G_OUTPUT_STREAM (source), NULL, &error) && error != NULL)
    g_debug ("closing stap's stdin: %s", error->message);
  g_free (user_data);
}

/* The module filemond --precompile kept for @script and the running kernel, or NULL. */
static char *
precompiled_module (FmdStapBackend *self, const char *script)
{
  struct utsname uts;

  if (uname (&uts) < 0)
    return NULL;   /* then stap finds the kernel itself, or says why not */
  return fmd_stap_precompiled_module (self->stap_path, self->buffer_mb, script, uts.release);
}

static gboolean
fmd_stap_backend_start (FmdBackend       *backend,
                        const FmdOptions *options,
                        GError          **error)
{
  FmdStapBackend *self = FMD_STAP_BACKEND (backend);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *script = fmd_stap_script_generate (options);
  g_autofree char *module = precompiled_module (self, script);
  g_autoptr(GPtrArray) parameters = fmd_stap_script_parameters (options, (int) getpid ());
  g_autoptr(GPtrArray) argv = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *identifier;

  g_return_val_if_fail (self->process == NULL, FALSE);

  if (module != NULL)
    {
      g_message ("loading the precompiled module %s", module);
      argv = fmd_stap_staprun_command_new (self->stap_path, self->buffer_mb, parameters, module);
    }
  else
    argv = fmd_stap_command_new (self->stap_path, self->buffer_mb, parameters, NULL);

  launcher = fmd_stap_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                    G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                    G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
  self->process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata,
                                                &local_error);
  if (self->process == NULL)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED, "stap: cannot run %s: %s",
                   self->stap_path, local_error->message);
      return FALSE;
    }
  identifier = g_subprocess_get_identifier (self->process);
  self->pgid = identifier != NULL ? (pid_t) atoi (identifier) : 0;
  self->running = FALSE;
  self->stopping = FALSE;
  self->stdout_done = FALSE;
  self->stderr_done = FALSE;
  self->exited = FALSE;
  g_string_truncate (self->stderr_tail, 0);
  g_byte_array_set_size (self->partial, 0);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  if (module != NULL)
    {
      /* staprun reads nothing: an empty stdin */
      if (!g_output_stream_close (g_subprocess_get_stdin_pipe (self->process), NULL, &local_error))
        g_debug ("closing staprun's stdin: %s", local_error->message);
    }
  else
    {
      g_output_stream_write_all_async (g_subprocess_get_stdin_pipe (self->process), script,
                                       strlen (script), G_PRIORITY_DEFAULT, NULL,
                                       stdin_written_cb, script);
      script = NULL;   /* owned by the write until it completes */
    }
  read_stdout (self, g_subprocess_get_stdout_pipe (self->process));
  {
    g_autoptr(GDataInputStream) err =
        g_data_input_stream_new (g_subprocess_get_stderr_pipe (self->process));

    read_stderr (self, err);
  }
  g_subprocess_wait_async (self->process, NULL, wait_cb, g_object_ref (self));
  g_debug ("stap started as pid %d", (int) self->pgid);
  report_pass (self, module != NULL ? 4 : 0);
  return TRUE;
}

static gboolean
kill_timeout_cb (gpointer user_data)
{
  FmdStapBackend *self = user_data;

  self->kill_timeout_id = 0;
  g_warning ("stap did not exit within %d ms of SIGTERM: killing it", KILL_TIMEOUT_MS);
  signal_group (self, SIGKILL);
  return G_SOURCE_REMOVE;
}

static void
fmd_stap_backend_stop (FmdBackend *backend)
{
  FmdStapBackend *self = FMD_STAP_BACKEND (backend);

  if (self->process == NULL)
    {
      fmd_backend_emit_stopped (backend);
      return;
    }
  if (self->stopping)
    return;
  self->stopping = TRUE;
  /* SIGTERM lets stapio unload the module; what stap printed until then is still read */
  signal_group (self, SIGTERM);
  self->kill_timeout_id = g_timeout_add (KILL_TIMEOUT_MS, kill_timeout_cb, self);
}

static void
fmd_stap_backend_dispose (GObject *object)
{
  FmdStapBackend *self = FMD_STAP_BACKEND (object);

  /* never leave a stap behind, even when the backend goes without a Stop */
  if (self->process != NULL)
    signal_group (self, SIGKILL);
  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->kill_timeout_id, g_source_remove);
  g_clear_object (&self->process);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (fmd_stap_backend_parent_class)->dispose (object);
}

static void
fmd_stap_backend_finalize (GObject *object)
{
  FmdStapBackend *self = FMD_STAP_BACKEND (object);

  g_free (self->stap_path);
  g_clear_pointer (&self->parser, fmd_stap_parser_free);
  g_byte_array_unref (self->partial);
  g_free (self->read_buf);
  g_string_free (self->stderr_tail, TRUE);
  G_OBJECT_CLASS (fmd_stap_backend_parent_class)->finalize (object);
}

static void
fmd_stap_backend_class_init (FmdStapBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  FmdBackendClass *backend_class = FMD_BACKEND_CLASS (klass);

  object_class->dispose = fmd_stap_backend_dispose;
  object_class->finalize = fmd_stap_backend_finalize;
  backend_class->start = fmd_stap_backend_start;
  backend_class->stop = fmd_stap_backend_stop;
}

static void
fmd_stap_backend_init (FmdStapBackend *self)
{
  self->parser = fmd_stap_parser_new ();
  self->partial = g_byte_array_new ();
  self->read_buf = g_malloc (READ_SIZE);
  self->stderr_tail = g_string_new (NULL);
}

FmdBackend *
fmd_backend_stap_new (const FmdConfig *config)
{
  FmdStapBackend *self = g_object_new (FMD_TYPE_STAP_BACKEND, NULL);

  self->stap_path = g_strdup (config->stap_path);
  self->buffer_mb = config->stap_buffer_mb;
  return FMD_BACKEND (self);
}
