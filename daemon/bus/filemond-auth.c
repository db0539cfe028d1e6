/* filemond-auth.c: polkit checks of filemond's methods; see filemond-auth.h. */
#include "filemond-auth.h"

#include <polkit/polkit.h>

#include "filemond-limits.h"
#include "fm-error.h"
#include "fm-names.h"

typedef struct {
  const char *method;
  const char *action;
  const char *what;       /* for messages: "not authorized to <what>" */
} MethodAction;

static const MethodAction method_actions[] = {
  { "Start", FM_ACTION_START, "start a capture" },
  { "Stop", FM_ACTION_STOP, "stop the capture" },
  { "Save", FM_ACTION_SAVE, "save the captured events" },
  { "Subscribe", FM_ACTION_SUBSCRIBE, "receive captured events" },
  { "Unsubscribe", FM_ACTION_SUBSCRIBE, "receive captured events" },
  { "OpenStream", FM_ACTION_SUBSCRIBE, "receive captured events" },
};

static guint32
call_bus_u (GDBusConnection *connection,
            const char      *method,
            const char      *name,
            GError         **error)
{
  g_autoptr(GVariant) reply = NULL;
  guint32 value = 0;

  reply = g_dbus_connection_call_sync (connection, "org.freedesktop.DBus",
                                       "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       method, g_variant_new ("(s)", name),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1,
                                       NULL, error);
  if (reply != NULL)
    g_variant_get (reply, "(u)", &value);
  return value;
}

/* The subject polkit is asked about, and the caller's uid as the bus knows it (the
 * handlers count what each user holds by it). */
static PolkitSubject *
caller_subject (GDBusConnection       *connection,
                gboolean               session_bus,
                GDBusMethodInvocation *invocation,
                guint32               *uid,
                GError               **error)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  GError *local_error = NULL;
  guint32 pid;

  if (sender == NULL)
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_NOT_AUTHORIZED,
                           "the caller has no bus name");
      return NULL;
    }

  *uid = call_bus_u (connection, "GetConnectionUnixUser", sender, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  if (!session_bus)
    return polkit_system_bus_name_new (sender);

  /* polkit knows system bus names only: on a session bus (manual tests) it is asked
   * about the calling process. */
  pid = call_bus_u (connection, "GetConnectionUnixProcessID", sender, error);
  if (pid == 0)
    return NULL;
  return polkit_unix_process_new_for_owner (pid, 0, *uid);
}

#define CALLER_UID_KEY "filemond-caller-uid"

guint32
fmd_auth_get_caller_uid (GDBusMethodInvocation *invocation)
{
  gpointer data = g_object_get_data (G_OBJECT (invocation), CALLER_UID_KEY);

  /* a handler runs only for an authorized call, whose uid is known */
  g_return_val_if_fail (data != NULL, G_MAXUINT32);
  return GPOINTER_TO_UINT (data) - 1;
}

/* The rule of @method, NULL for a method the table does not name (refused). */
static const MethodAction *
method_action (const char *method)
{
  for (gsize i = 0; i < G_N_ELEMENTS (method_actions); i++)
    if (g_str_equal (method_actions[i].method, method))
      return &method_actions[i];
  return NULL;
}

const char *
fmd_auth_action_for_method (const char *method)
{
  const MethodAction *rule = method != NULL ? method_action (method) : NULL;

  return rule != NULL ? rule->action : NULL;
}

gboolean
fmd_authorize_method (GDBusConnection       *connection,
                      gboolean               session_bus,
                      FmdLimits             *limits,
                      GDBusMethodInvocation *invocation)
{
  const char *method = g_dbus_method_invocation_get_method_name (invocation);
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  GDBusMessage *message = g_dbus_method_invocation_get_message (invocation);
  PolkitCheckAuthorizationFlags flags = POLKIT_CHECK_AUTHORIZATION_FLAGS_NONE;
  g_autoptr(PolkitAuthority) authority = NULL;
  g_autoptr(PolkitSubject) subject = NULL;
  g_autoptr(PolkitAuthorizationResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const MethodAction *rule = method_action (method);
  const char *action;
  const char *what;
  guint32 uid = G_MAXUINT32;

  if (rule == NULL)
    {
      g_dbus_method_invocation_return_error (invocation, FM_ERROR, FM_ERROR_NOT_AUTHORIZED,
                                             "%s has no authorization rule; refused", method);
      return FALSE;
    }
  action = rule->action;
  what = rule->what;

  if (g_dbus_message_get_flags (message) & G_DBUS_MESSAGE_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION)
    flags |= POLKIT_CHECK_AUTHORIZATION_FLAGS_ALLOW_USER_INTERACTION;

  /* This is a GIO worker thread: the synchronous call iterates its own context and leaves
   * the main loop alone, however long an authentication dialog takes. */
  authority = polkit_authority_get_sync (NULL, &error);
  if (authority != NULL)
    subject = caller_subject (connection, session_bus, invocation, &uid, &error);
  if (subject != NULL)
    result = polkit_authority_check_authorization_sync (authority, subject, action, NULL,
                                                        flags, NULL, &error);
  if (result == NULL)
    {
      g_warning ("%s from %s refused: polkit could not be asked: %s", method, sender,
                 error->message);
      /* a distinct error: the advice to join the group would be wrong here */
      g_dbus_method_invocation_return_error (invocation, FM_ERROR,
                                             FM_ERROR_AUTHORIZATION_UNAVAILABLE,
                                             "cannot tell whether the caller may %s: polkit "
                                             "could not be asked (%s)", what, error->message);
      return FALSE;
    }

  if (polkit_authorization_result_get_is_authorized (result))
    {
      g_debug ("%s from %s authorized (%s)", method, sender, action);
      g_object_set_data (G_OBJECT (invocation), CALLER_UID_KEY, GUINT_TO_POINTER (uid + 1));
      return TRUE;
    }

  g_message ("%s from %s refused by polkit (%s)", method, sender, action);
  fmd_limits_remember_refusal (limits, uid, action);
  if (polkit_authorization_result_get_is_challenge (result))
    g_dbus_method_invocation_return_error (invocation, FM_ERROR, FM_ERROR_NOT_AUTHORIZED,
                                           "authentication is required to %s (polkit action "
                                           "%s); call again allowing interactive "
                                           "authorization, with a polkit agent running",
                                           what, action);
  else
    g_dbus_method_invocation_return_error (invocation, FM_ERROR, FM_ERROR_NOT_AUTHORIZED,
                                           "not authorized to %s (polkit action %s); ask an "
                                           "administrator to add you to the “%s” group",
                                           what, action, FM_GROUP_NAME);
  return FALSE;
}

