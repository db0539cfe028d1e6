/* filemonctl-common.c: reaching filemond, calling it, and turning what goes wrong into
 * an exit code and one line that tells the user what to do next. */
#include "config.h"

#include "filemonctl-common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define POLKIT_AGENT_I_KNOW_API_IS_SUBJECT_TO_CHANGE
#include <polkitagent/polkitagent.h>

#include "fm-error.h"
#include "fm-names.h"

FmctlGlobals fmctl_globals;

/* Errors of reaching the bus at all, before any method call: always "no daemon". */
#define FMCTL_NO_DAEMON_ERROR (g_quark_from_static_string ("fmctl-no-daemon"))

static PolkitAgentListener *agent_listener;
static gpointer agent_handle;
static gboolean agent_tried;

int
fmctl_usage_error (const char *command, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (command != NULL)
    {
      g_printerr ("filemonctl %s: %s\n", command, message);
      g_printerr ("Try 'filemonctl %s --help'.\n", command);
    }
  else
    {
      g_printerr ("filemonctl: %s\n", message);
      g_printerr ("Try 'filemonctl --help'.\n");
    }
  return FMCTL_EXIT_USAGE;
}

gboolean
fmctl_parse_options (GOptionContext *context,
                     const char     *command,
                     int            *argc,
                     char         ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fmctl_usage_error (command, "%s", error->message);
      return FALSE;
    }
  return TRUE;
}

char *
fmctl_filter_fields_help (void)
{
  GString *out = g_string_new ("Fields of FILTER:\n");

  for (guint i = 0; i < FM_N_FIELDS; i++)
    g_string_append_printf (out, "  %-10s %s\n", fm_event_fields[i].filter_name,
                            fm_event_fields[i].help);
  return g_string_free (out, FALSE);
}

FmFilemond1 *
fmctl_connect (GError **error)
{
  g_autoptr(GDBusConnection) connection = NULL;
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GError) local_error = NULL;

  /* registers the D-Bus names of our errors, so replies map to FM_ERROR codes */
  (void) fm_error_quark ();

  connection = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &local_error);
  if (connection == NULL)
    {
      g_set_error (error, FMCTL_NO_DAEMON_ERROR, 0,
                   "cannot connect to the system bus: %s", local_error->message);
      return NULL;
    }
  /* Without DO_NOT_AUTO_START the proxy asks the bus to activate filemond (its
   * activation file starts the systemd unit) before loading the properties. */
  proxy = fm_filemond1_proxy_new_sync (connection,
                                       G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS,
                                       FM_BUS_NAME, FM_OBJECT_PATH, NULL, &local_error);
  if (proxy == NULL)
    {
      g_set_error (error, FMCTL_NO_DAEMON_ERROR, 0, "%s", local_error->message);
      return NULL;
    }
  /* No check that the name has an owner: the first call starts an activatable filemond
   * (D-Bus activation), and fails with ServiceUnknown where there is none. */
  /* Save and OpenStream may wait for an administrator's password, and Save for a slow
   * reader: no timeout of our own (a daemon that vanishes still ends the call). */
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (proxy), G_MAXINT);
  return g_steal_pointer (&proxy);
}

void
fmctl_agent_register (void)
{
  g_autoptr(PolkitSubject) subject = NULL;
  g_autoptr(GError) error = NULL;

  if (agent_tried || fmctl_globals.no_ask_password)
    return;
  agent_tried = TRUE;
  /* The text agent reads the password from the controlling terminal: only then. */
  if (!isatty (STDIN_FILENO) || !isatty (STDERR_FILENO))
    return;
  agent_listener = polkit_agent_text_listener_new (NULL, &error);
  if (agent_listener == NULL)
    {
      g_debug ("no polkit text agent: %s", error->message);
      return;
    }
  subject = polkit_unix_process_new_for_owner (getpid (), 0, getuid ());
  /* In a thread, because our method calls block the main thread while polkitd asks. */
  agent_handle = polkit_agent_listener_register (agent_listener,
                                                 POLKIT_AGENT_REGISTER_FLAGS_RUN_IN_THREAD,
                                                 subject, NULL, NULL, &error);
  if (agent_handle == NULL)
    {
      /* usually another agent (a desktop's) serves this session already: fine */
      g_debug ("polkit text agent not registered: %s", error->message);
      g_clear_object (&agent_listener);
    }
}

void
fmctl_agent_unregister (void)
{
  if (agent_handle != NULL)
    polkit_agent_listener_unregister (agent_handle);
  agent_handle = NULL;
  g_clear_object (&agent_listener);
}

GVariant *
fmctl_call (FmFilemond1         *proxy,
            const char          *method,
            GVariant            *parameters,
            const GVariantType  *reply_type,
            GUnixFDList         *fd_list,
            GUnixFDList        **out_fd_list,
            GError             **error)
{
  g_autoptr(GVariant) reply = NULL;

  fmctl_agent_register ();
  reply = g_dbus_proxy_call_with_unix_fd_list_sync (G_DBUS_PROXY (proxy), method, parameters,
                                                    G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION,
                                                    -1, fd_list, out_fd_list, NULL, error);
  if (reply == NULL)
    return NULL;
  if (reply_type != NULL && !g_variant_is_of_type (reply, reply_type))
    {
      g_set_error (error, FM_ERROR, FM_ERROR_FAILED,
                   "filemond answered %s with %s, expected %s", method,
                   g_variant_get_type_string (reply), (const char *) reply_type);
      return NULL;
    }
  return g_steal_pointer (&reply);
}

char *
fmctl_read_string_property (FmFilemond1  *proxy,
                            const char   *name,
                            GError      **error)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) value = NULL;

  reply = g_dbus_connection_call_sync (g_dbus_proxy_get_connection (G_DBUS_PROXY (proxy)),
                                       FM_BUS_NAME, FM_OBJECT_PATH,
                                       "org.freedesktop.DBus.Properties", "Get",
                                       g_variant_new ("(ss)", FM_INTERFACE, name),
                                       G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NONE, -1,
                                       NULL, error);
  if (reply == NULL)
    return NULL;
  g_variant_get (reply, "(v)", &value);
  if (!g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "filemond's %s is a '%s', not a string", name, g_variant_get_type_string (value));
      return NULL;
    }
  return g_variant_dup_string (value, NULL);
}

#define WAIT_POLL_MS 50
#define WAIT_ANNOUNCE_MS 1000

typedef struct {
  FmFilemond1 *proxy;
  const char *command;
  const char *goal;
  const char * const *while_states;
  FmctlStateFunc on_state;
  gpointer user_data;
  GMainLoop *loop;
  gint64 started_us;
  gboolean announced;
  char *state;        /* the last one read */
  GError *error;      /* reading it failed */
} StateWait;

static gboolean
on_state_poll (gpointer data)
{
  StateWait *w = data;

  g_free (w->state);
  w->state = fmctl_read_string_property (w->proxy, "State", &w->error);
  if (w->state == NULL || !g_strv_contains (w->while_states, w->state))
    {
      g_main_loop_quit (w->loop);
      return G_SOURCE_REMOVE;
    }
  if (w->on_state != NULL && w->on_state (w->proxy, w->state, w->user_data))
    w->announced = TRUE;
  if (!w->announced && isatty (STDERR_FILENO) &&
      g_get_monotonic_time () - w->started_us > WAIT_ANNOUNCE_MS * 1000)
    {
      g_autofree char *backend = fmctl_read_string_property (w->proxy, "Backend", NULL);

      g_printerr ("filemonctl: %s: waiting for the %s%scapture to %s...\n", w->command,
                  backend != NULL ? backend : "", backend != NULL ? " " : "", w->goal);
      w->announced = TRUE;
    }
  return G_SOURCE_CONTINUE;
}

char *
fmctl_wait_state (FmFilemond1         *proxy,
                  const char          *command,
                  const char          *goal,
                  const char * const  *while_states,
                  FmctlStateFunc       on_state,
                  gpointer             user_data,
                  GError             **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  StateWait w = {
    .proxy = proxy, .command = command, .goal = goal, .while_states = while_states,
    .on_state = on_state, .user_data = user_data, .loop = loop,
    .started_us = g_get_monotonic_time (),
  };

  if (on_state_poll (&w) == G_SOURCE_CONTINUE)
    {
      g_timeout_add (WAIT_POLL_MS, on_state_poll, &w);
      g_main_loop_run (loop);
    }
  if (w.state == NULL)
    g_propagate_error (error, w.error);
  return w.state;
}

FmctlExit
fmctl_error_to_exit (const GError *error)
{
  if (error->domain == FMCTL_NO_DAEMON_ERROR)
    return FMCTL_EXIT_NO_DAEMON;
  if (error->domain == FM_ERROR)
    {
      switch ((FmError) error->code)
        {
        case FM_ERROR_NOT_AUTHORIZED:
        case FM_ERROR_AUTHORIZATION_UNAVAILABLE:
          return FMCTL_EXIT_NOT_AUTHORIZED;
        case FM_ERROR_INVALID_ARGS: return FMCTL_EXIT_USAGE;
        default: return FMCTL_EXIT_ERROR;
        }
    }
  if (error->domain == G_DBUS_ERROR)
    {
      switch ((GDBusError) error->code)
        {
        case G_DBUS_ERROR_SERVICE_UNKNOWN:
        case G_DBUS_ERROR_NAME_HAS_NO_OWNER:
        case G_DBUS_ERROR_NO_REPLY:
        case G_DBUS_ERROR_NO_SERVER:
        case G_DBUS_ERROR_DISCONNECTED:
        case G_DBUS_ERROR_SPAWN_EXEC_FAILED:
        case G_DBUS_ERROR_SPAWN_FORK_FAILED:
        case G_DBUS_ERROR_SPAWN_CHILD_EXITED:
        case G_DBUS_ERROR_SPAWN_CHILD_SIGNALED:
        case G_DBUS_ERROR_SPAWN_FAILED:
        case G_DBUS_ERROR_SPAWN_SERVICE_INVALID:
        case G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND:
          return FMCTL_EXIT_NO_DAEMON;
        case G_DBUS_ERROR_ACCESS_DENIED:
        case G_DBUS_ERROR_AUTH_FAILED:
          return FMCTL_EXIT_NOT_AUTHORIZED;
        default:
          return FMCTL_EXIT_ERROR;
        }
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CLOSED) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED))
    return FMCTL_EXIT_NO_DAEMON;
  return FMCTL_EXIT_ERROR;
}

int
fmctl_error_exit (const char *what, const GError *error)
{
  g_autoptr(GError) copy = g_error_copy (error);
  FmctlExit code = fmctl_error_to_exit (error);
  const char *docs = FILEMONCTL_DOCDIR "/security.md";

  /* "GDBus.Error:org.filemond.Filemond1.Error.NotRunning: no capture" -> "no capture" */
  if (g_dbus_error_is_remote_error (copy))
    g_dbus_error_strip_remote_error (copy);

  switch (code)
    {
    case FMCTL_EXIT_NO_DAEMON:
      g_printerr ("filemonctl: %s: filemond is not reachable (%s); is filemond installed? "
                  "Try 'systemctl start filemond'.\n", what, copy->message);
      break;
    case FMCTL_EXIT_NOT_AUTHORIZED:
      if (g_error_matches (error, FM_ERROR, FM_ERROR_AUTHORIZATION_UNAVAILABLE))
        g_printerr ("filemonctl: %s: %s; an administrator can start polkit with "
                    "'systemctl start polkit'\n", what, copy->message);
      else if (strstr (copy->message, "group") != NULL)
        g_printerr ("filemonctl: %s: %s; see %s\n", what, copy->message, docs);
      else
        g_printerr ("filemonctl: %s: %s; ask an administrator to add you to the “%s” group, "
                    "see %s\n", what, copy->message, FM_GROUP_NAME, docs);
      break;
    case FMCTL_EXIT_USAGE:
      g_printerr ("filemonctl: %s: %s\n", what, copy->message);
      break;
    case FMCTL_EXIT_OK:
    case FMCTL_EXIT_ERROR:
    default:
      if (g_error_matches (error, FM_ERROR, FM_ERROR_NOT_RUNNING))
        g_printerr ("filemonctl: %s: %s; start one with 'filemonctl start'\n", what, copy->message);
      else if (g_error_matches (error, FM_ERROR, FM_ERROR_ALREADY_RUNNING))
        g_printerr ("filemonctl: %s: %s; stop it first with 'filemonctl stop'\n", what, copy->message);
      else
        g_printerr ("filemonctl: %s: %s\n", what, copy->message);
      code = FMCTL_EXIT_ERROR;
      break;
    }
  return code;
}

gboolean
fmctl_decide_color (const char *value, int fd, gboolean *use_color)
{
  const char *no_color = g_getenv ("NO_COLOR");
  const char *term = g_getenv ("TERM");

  if (value == NULL || g_str_equal (value, "auto"))
    /* https://no-color.org: NO_COLOR set and not empty turns colour off */
    *use_color = isatty (fd) && (no_color == NULL || no_color[0] == '\0') &&
                 g_strcmp0 (term, "dumb") != 0;
  else if (g_str_equal (value, "always"))
    *use_color = TRUE;
  else if (g_str_equal (value, "never"))
    *use_color = FALSE;
  else
    return FALSE;
  return TRUE;
}

FmFilter *
fmctl_compile_filter (const char *command, int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  FmFilter *filter;
  guint column;

  /* `watch comm=sshd and result<0` works unquoted: the words are one filter */
  text = argc > 0 ? g_strjoinv (" ", argv) : g_strdup ("");
  filter = fm_filter_new (text, &error);
  if (filter != NULL)
    return filter;

  column = fm_filter_error_column (error);
  g_printerr ("filemonctl %s: bad filter: %s\n", command, error->message);
  if (column > 0 && g_utf8_validate (text, -1, NULL))
    {
      g_autoptr(GString) line = g_string_new ("  ");
      const char *p = text;

      /* the filter as typed, control characters shown as '?' so the caret lines up */
      for (; *p != '\0'; p = g_utf8_next_char (p))
        {
          gunichar c = g_utf8_get_char (p);

          if (g_unichar_iscntrl (c))
            g_string_append_c (line, '?');
          else
            g_string_append_unichar (line, c);
        }
      g_printerr ("%s\n", line->str);
      g_string_truncate (line, 0);
      g_string_append (line, "  ");
      for (guint i = 1; i < column; i++)
        g_string_append_c (line, ' ');
      g_printerr ("%s^\n", line->str);
    }
  g_printerr ("Try 'filemonctl %s --help' for the filter language.\n", command);
  return NULL;
}

gboolean
fmctl_parse_since (const char *value, guint64 *since_seq)
{
  if (g_str_equal (value, "start"))
    {
      *since_seq = 0;
      return TRUE;
    }
  return g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT64, since_seq, NULL);
}

gboolean
fmctl_write_all (int fd, const char *data, gsize len, GError **error)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0)
        {
          int saved = errno;

          if (saved == EINTR)
            continue;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       "%s", g_strerror (saved));
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}
