/* filemonctl-start.c: `filemonctl start [OPTIONS] [FILTER]`: checks the filter and the
 * options here, with messages that name the option or point at the filter's column, then
 * calls Start (the daemon checks them again: the filter is its "filter" key, each option
 * one of the keys it adds to that filter) and waits until the capture runs. */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "filemonctl-common.h"
#include "fm-escape.h"
#include "fm-names.h"
#include "fm-syscalls.h"
#include "fm-syscalls-kernel.h"

/* Each value of a repeatable option may itself be a comma-separated list. */
static GPtrArray *
split_values (char **values)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (values[i], ",", -1);

      for (guint j = 0; parts[j] != NULL; j++)
        {
          g_strstrip (parts[j]);
          g_ptr_array_add (out, g_strdup (parts[j]));
        }
    }
  return out;
}

static gboolean
parse_id (const char *text, guint32 *out)
{
  guint64 value;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32 - 1, &value, NULL))
    return FALSE;
  *out = (guint32) value;
  return TRUE;
}

/* One name a line; a call the running kernel lacks is marked, as a capture of it would
 * see nothing (both backends skip it there). */
static void
print_syscalls (void)
{
  guint n;
  const FmSyscall *all = fm_syscalls_all (&n);
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) present = fm_syscalls_in_kernel ("/proc/kallsyms", &error);
  struct utsname u;
  const char *release = uname (&u) == 0 ? u.release : "the running kernel";

  if (present == NULL)
    g_printerr ("filemonctl: cannot tell which of these kernel %s has: %s\n", release,
                error->message);
  for (guint i = 0; i < n; i++)
    {
      if (present == NULL || g_hash_table_contains (present, all[i].kernel_name))
        printf ("%s\n", all[i].name);
      else
        printf ("%s (not in kernel %s)\n", all[i].name, release);
    }
}

/* --- waiting for the capture ------------------------------------------------------------
 * Start returns once the backend was launched; the capture runs when State says so: a few
 * ms for bpf, seconds for SystemTap, which compiles its probes first. Waiting makes
 * `filemonctl start && command` capture all of the command, and a start that fails an
 * exit status with the reason. State is read from the daemon each time (a cached value
 * can be the last capture's); PropertiesChanged only tells that the capture ran when it
 * ended before a read saw it running. */

typedef struct {
  gboolean saw_running;
  char *progress;     /* the last build progress shown */
} StartWait;

/* a first stap build takes minutes: say what it is doing, once per step */
static gboolean
show_progress (FmFilemond1 *proxy, const char *state, gpointer user_data)
{
  StartWait *w = user_data;
  g_autofree char *progress = NULL;

  if (!g_str_equal (state, "compiling") || !isatty (STDERR_FILENO))
    return FALSE;
  progress = fmctl_read_string_property (proxy, "Progress", NULL);
  if (progress == NULL || *progress == '\0' || g_strcmp0 (progress, w->progress) == 0)
    return FALSE;
  g_printerr ("filemonctl: start: %s\n", progress);
  g_free (w->progress);
  w->progress = g_steal_pointer (&progress);
  return TRUE;
}

static void
on_state_changed (FmFilemond1 *proxy, GParamSpec *pspec, gpointer user_data)
{
  StartWait *w = user_data;

  if (g_strcmp0 (fm_filemond1_get_state (proxy), "running") == 0)
    w->saw_running = TRUE;
}

/* Waits until the capture Start launched runs (FMCTL_EXIT_OK), or says why it does not. */
static int
wait_until_running (FmFilemond1 *proxy, StartWait *w)
{
  static const char * const launching[] = { "starting", "compiling", NULL };
  g_autofree char *state = NULL;
  g_autofree char *last_error = NULL;
  g_autoptr(GError) error = NULL;

  state = fmctl_wait_state (proxy, "start", "run", launching, show_progress, w, &error);
  if (state == NULL)
    {
      g_prefix_error (&error, "the capture was started, but its state cannot be read: ");
      return fmctl_error_exit ("start", error);
    }
  if (g_str_equal (state, "running") || w->saw_running)
    return FMCTL_EXIT_OK;

  last_error = fmctl_read_string_property (proxy, "LastError", &error);
  if (last_error != NULL && last_error[0] != '\0')
    {
      g_autofree char *escaped = fm_escape_text (last_error);

      g_printerr ("filemonctl: start: the capture did not run: %s\n", escaped);
    }
  else
    g_printerr ("filemonctl: start: the capture did not run (state %s)\n", state);
  return FMCTL_EXIT_ERROR;
}

int
fmctl_cmd_start (int argc, char **argv)
{
  g_autofree char *backend = NULL;
  g_auto(GStrv) syscalls = NULL, pids = NULL, uids = NULL, comms = NULL, prefixes = NULL;
  gboolean follow_children = FALSE, failed_only = FALSE, no_wait = FALSE;
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend,
      "Capture with this backend: auto (default), stap or bpf", "NAME" },
    { "syscalls", 0, 0, G_OPTION_ARG_STRING_ARRAY, &syscalls,
      "Capture only these syscalls, comma-separated ('help' lists them, marking what this kernel lacks)", "LIST" },
    { "pid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &pids,
      "Capture only this process (repeatable)", "PID" },
    { "follow-children", 0, 0, G_OPTION_ARG_NONE, &follow_children,
      "With --pid: also capture children forked after the start", NULL },
    { "uid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &uids,
      "Capture only processes of this user, a name or a number (repeatable)", "USER" },
    { "comm", 0, 0, G_OPTION_ARG_STRING_ARRAY, &comms,
      "Capture only processes with this name, at most 15 bytes (repeatable)", "NAME" },
    { "failed-only", 0, 0, G_OPTION_ARG_NONE, &failed_only,
      "Capture only calls that failed", NULL },
    { "path-prefix", 0, 0, G_OPTION_ARG_STRING_ARRAY, &prefixes,
      "Capture only calls on paths under this absolute path (repeatable)", "PATH" },
    { "no-wait", 0, 0, G_OPTION_ARG_NONE, &no_wait,
      "Return once the backend was launched, without waiting for the capture to run", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[FILTER]");
  g_autoptr(FmFilter) filter = NULL;
  g_autofree char *fields_help = NULL;
  g_autoptr(GPtrArray) syscall_list = NULL, pid_list = NULL, uid_list = NULL;
  g_autoptr(GPtrArray) comm_list = NULL, prefix_list = NULL;
  g_auto(GVariantBuilder) options = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  StartWait wait = { 0 };
  gulong state_handler;
  int status;

  g_option_context_set_summary (context,
    "Starts a capture and waits until it runs. It keeps the calls matching FILTER (the\n"
    "language of 'filemonctl watch') and the options, e.g.\n"
    "  filemonctl start 'syscall=open* and comm=sshd and failed'\n"
    "  filemonctl start 'user=root and path=/etc/*'\n"
    "What the kernel side can apply of it (syscalls, pids, uids, exact process names,\n"
    "failed calls, path prefixes) is applied there; the rest by filemond. Without a\n"
    "filter or options, every file syscall of every process is captured.");
  fields_help = fmctl_filter_fields_help ();
  g_option_context_set_description (context, fields_help);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!fmctl_parse_options (context, "start", &argc, &argv))
    return FMCTL_EXIT_USAGE;
  filter = fmctl_compile_filter ("start", argc - 1, argv + 1);
  if (filter == NULL)
    return FMCTL_EXIT_USAGE;
  if (argc > 1)
    {
      /* the words are one filter, as for watch; filemond compiles the text again */
      g_autofree char *text = g_strjoinv (" ", argv + 1);

      g_variant_builder_add (&options, "{sv}", "filter", g_variant_new_string (text));
    }

  if (backend != NULL)
    {
      if (!g_str_equal (backend, "auto") && !g_str_equal (backend, "stap") &&
          !g_str_equal (backend, "bpf"))
        return fmctl_usage_error ("start", "--backend: '%s' is not auto, stap or bpf", backend);
      g_variant_builder_add (&options, "{sv}", "backend", g_variant_new_string (backend));
    }

  syscall_list = split_values (syscalls);
  if (syscall_list->len > 0)
    {
      GVariantBuilder names = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_STRING_ARRAY);

      for (guint i = 0; i < syscall_list->len; i++)
        {
          const char *name = syscall_list->pdata[i];

          if (g_str_equal (name, "help"))
            {
              g_variant_builder_clear (&names);
              print_syscalls ();
              return FMCTL_EXIT_OK;
            }
          if (fm_syscall_by_name (name) == NULL)
            {
              g_variant_builder_clear (&names);
              return fmctl_usage_error ("start", "--syscalls: '%s' is not a file syscall filemon "
                                        "traces ('--syscalls=help' lists them)", name);
            }
          g_variant_builder_add (&names, "s", name);
        }
      g_variant_builder_add (&options, "{sv}", "syscalls", g_variant_builder_end (&names));
    }

  pid_list = split_values (pids);
  if (pid_list->len > 0)
    {
      GVariantBuilder values = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("au"));

      for (guint i = 0; i < pid_list->len; i++)
        {
          guint32 pid;

          if (!parse_id (pid_list->pdata[i], &pid) || pid == 0)
            {
              g_variant_builder_clear (&values);
              return fmctl_usage_error ("start", "--pid: '%s' is not a process id",
                                        (const char *) pid_list->pdata[i]);
            }
          g_variant_builder_add (&values, "u", pid);
        }
      g_variant_builder_add (&options, "{sv}", "pids", g_variant_builder_end (&values));
    }
  if (follow_children)
    {
      if (pid_list->len == 0)
        return fmctl_usage_error ("start", "--follow-children needs --pid");
      g_variant_builder_add (&options, "{sv}", "follow-children", g_variant_new_boolean (TRUE));
    }

  uid_list = split_values (uids);
  if (uid_list->len > 0)
    {
      GVariantBuilder values = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("au"));

      for (guint i = 0; i < uid_list->len; i++)
        {
          const char *text = uid_list->pdata[i];
          guint32 uid;

          if (!parse_id (text, &uid))
            {
              struct passwd *pw = text[0] != '\0' ? getpwnam (text) : NULL;

              if (pw == NULL)
                {
                  g_variant_builder_clear (&values);
                  return fmctl_usage_error ("start", "--uid: '%s' is neither a user id nor a "
                                            "known user name", text);
                }
              uid = pw->pw_uid;
            }
          g_variant_builder_add (&values, "u", uid);
        }
      g_variant_builder_add (&options, "{sv}", "uids", g_variant_builder_end (&values));
    }

  comm_list = split_values (comms);
  if (comm_list->len > 0)
    {
      GVariantBuilder values = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_STRING_ARRAY);

      for (guint i = 0; i < comm_list->len; i++)
        {
          const char *comm = comm_list->pdata[i];

          /* the kernel keeps 15 bytes of a process name: a longer one never matches */
          if (comm[0] == '\0' || strlen (comm) > 15 || !g_utf8_validate (comm, -1, NULL))
            {
              g_variant_builder_clear (&values);
              return fmctl_usage_error ("start", "--comm: '%s' is not a process name "
                                        "(1 to 15 bytes, as in ps -o comm)", comm);
            }
          g_variant_builder_add (&values, "s", comm);
        }
      g_variant_builder_add (&options, "{sv}", "comms", g_variant_builder_end (&values));
    }

  if (failed_only)
    g_variant_builder_add (&options, "{sv}", "failed-only", g_variant_new_boolean (TRUE));

  /* --path-prefix is not split at commas: a path may hold one */
  prefix_list = g_ptr_array_new ();
  for (guint i = 0; prefixes != NULL && prefixes[i] != NULL; i++)
    g_ptr_array_add (prefix_list, prefixes[i]);
  if (prefix_list->len > 0)
    {
      GVariantBuilder values = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_STRING_ARRAY);

      for (guint i = 0; i < prefix_list->len; i++)
        {
          const char *prefix = prefix_list->pdata[i];

          if (prefix[0] != '/' || !g_utf8_validate (prefix, -1, NULL))
            {
              g_variant_builder_clear (&values);
              return fmctl_usage_error ("start", "--path-prefix: '%s' is not an absolute path",
                                        prefix);
            }
          g_variant_builder_add (&values, "s", prefix);
        }
      g_variant_builder_add (&options, "{sv}", "path-prefixes", g_variant_builder_end (&values));
    }

  proxy = fmctl_connect (&error);
  if (proxy == NULL)
    return fmctl_error_exit ("start", error);
  /* connected before the call, so that no change of State after it is missed */
  state_handler = g_signal_connect (proxy, "notify::state", G_CALLBACK (on_state_changed), &wait);
  reply = fmctl_call (proxy, "Start", g_variant_new ("(a{sv})", &options), G_VARIANT_TYPE_UNIT,
                      NULL, NULL, &error);
  if (reply == NULL)
    status = fmctl_error_exit ("start", error);
  else if (no_wait)
    status = FMCTL_EXIT_OK;
  else
    status = wait_until_running (proxy, &wait);
  g_signal_handler_disconnect (proxy, state_handler);
  g_free (wait.progress);
  return status;
}
