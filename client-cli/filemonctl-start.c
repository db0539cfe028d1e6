/* filemonctl-start.c: `filemonctl start [OPTIONS]`: checks the options here, with
 * messages that name the option, then calls Start (the daemon checks them again). */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "filemonctl-common.h"
#include "fm-syscalls.h"

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

static void
print_syscalls (void)
{
  guint n;
  const FmSyscall *all = fm_syscalls_all (&n);

  for (guint i = 0; i < n; i++)
    printf ("%s\n", all[i].name);
}

int
fmctl_cmd_start (int argc, char **argv)
{
  g_autofree char *backend = NULL;
  g_auto(GStrv) syscalls = NULL, pids = NULL, uids = NULL, comms = NULL, prefixes = NULL;
  gboolean follow_children = FALSE, failed_only = FALSE;
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend,
      "Capture with this backend: auto (default), stap or bpf", "NAME" },
    { "syscalls", 0, 0, G_OPTION_ARG_STRING_ARRAY, &syscalls,
      "Capture only these syscalls, comma-separated ('help' lists them)", "LIST" },
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
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GPtrArray) syscall_list = NULL, pid_list = NULL, uid_list = NULL;
  g_autoptr(GPtrArray) comm_list = NULL, prefix_list = NULL;
  g_auto(GVariantBuilder) options = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  g_option_context_set_summary (context, "Starts a capture. Without options, every file "
                                "syscall of every process is captured.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!fmctl_parse_options (context, "start", &argc, &argv))
    return FMCTL_EXIT_USAGE;
  if (argc > 1)
    return fmctl_usage_error ("start", "unexpected argument '%s'", argv[1]);

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
  reply = fmctl_call (proxy, "Start", g_variant_new ("(a{sv})", &options), G_VARIANT_TYPE_UNIT,
                      NULL, NULL, &error);
  if (reply == NULL)
    return fmctl_error_exit ("start", error);
  return FMCTL_EXIT_OK;
}
