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

/* The caller's uid as the bus knows it: the handlers count what each user holds by it,
 * and a user refused lately is not asked about again. */
static gboolean
caller_uid (GDBusConnection       *connection,
            GDBusMethodInvocation *invocation,
            guint32               *uid,
            GError               **error)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  GError *local_error = NULL;

  if (sender == NULL)
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_NOT_AUTHORIZED,
                           "the caller has no bus name");
      return FALSE;
    }
  *uid = call_bus_u (connection, "GetConnectionUnixUser", sender, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

static PolkitSubject *
caller_subject (GDBusConnection       *connection,
                gboolean               session_bus,
                GDBusMethodInvocation *invocation,
                guint32                uid,
                GError               **error)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  guint32 pid;

  if (!session_bus)
    return polkit_system_bus_name_new (sender);

  /* polkit knows system bus names only: on a session bus (manual tests) it is asked
   * about the calling process. */
  pid = call_bus_u (connection, "GetConnectionUnixProcessID", sender, error);
  if (pid == 0)
    return NULL;
  return polkit_unix_process_new_for_owner (pid, 0, uid);
}

#define CALLER_UID_KEY "filemond-caller-uid"

gboolean
fmd_auth_lookup_caller_uid (GDBusMethodInvocation *invocation,
                            guint32               *uid)
{
  gpointer data = g_object_get_data (G_OBJECT (invocation), CALLER_UID_KEY);

  if (data == NULL)
    return FALSE;
  *uid = GPOINTER_TO_UINT (data) - 1;
  return TRUE;
}

guint32
fmd_auth_get_caller_uid (GDBusMethodInvocation *invocation)
{
  guint32 uid = G_MAXUINT32;

  /* a method's handler runs only for an authorized call, whose uid is known */
  if (!fmd_auth_lookup_caller_uid (invocation, &uid))
    g_return_val_if_reached (G_MAXUINT32);
  return uid;
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

typedef enum {
  CHECK_AUTHORIZED,
  CHECK_REFUSED,      /* @invocation was not answered */
  CHECK_UNAVAILABLE,  /* polkitd could not be asked; @invocation was answered */
} CheckResult;

/* Asks polkit whether the caller of @invocation may @action (blocking: worker thread),
 * unless polkit refused the caller's user that action a moment ago (@limits remembers)
 * and the call does not allow interactive authorization. On CHECK_REFUSED, *@challenge
 * says whether authentication would have allowed it, and @limits remembers the refusal;
 * on CHECK_AUTHORIZED the invocation carries the caller's uid. */
static CheckResult
check_action (GDBusConnection       *connection,
              gboolean               session_bus,
              FmdLimits             *limits,
              GDBusMethodInvocation *invocation,
              const char            *action,
              const char            *what,
              gboolean              *challenge)
{
  const char *method = g_dbus_method_invocation_get_method_name (invocation);
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  GDBusMessage *message = g_dbus_method_invocation_get_message (invocation);
  PolkitCheckAuthorizationFlags flags = POLKIT_CHECK_AUTHORIZATION_FLAGS_NONE;
  g_autoptr(PolkitAuthority) authority = NULL;
  g_autoptr(PolkitSubject) subject = NULL;
  g_autoptr(PolkitAuthorizationResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint32 uid = G_MAXUINT32;
  gboolean have_uid = caller_uid (connection, invocation, &uid, &error);

  if (g_dbus_message_get_flags (message) & G_DBUS_MESSAGE_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION)
    flags |= POLKIT_CHECK_AUTHORIZATION_FLAGS_ALLOW_USER_INTERACTION;
  else if (have_uid && fmd_limits_refused_lately (limits, uid, action))
    {
      *challenge = FALSE;
      return CHECK_REFUSED;
    }

  /* This is a GIO worker thread: the synchronous call iterates its own context and leaves
   * the main loop alone, however long an authentication dialog takes. */
  if (have_uid)
    authority = polkit_authority_get_sync (NULL, &error);
  if (authority != NULL)
    subject = caller_subject (connection, session_bus, invocation, uid, &error);
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
      return CHECK_UNAVAILABLE;
    }

  if (polkit_authorization_result_get_is_authorized (result))
    {
      g_debug ("%s from %s authorized (%s)", method, sender, action);
      g_object_set_data (G_OBJECT (invocation), CALLER_UID_KEY, GUINT_TO_POINTER (uid + 1));
      return CHECK_AUTHORIZED;
    }
  *challenge = polkit_authorization_result_get_is_challenge (result);
  fmd_limits_remember_refusal (limits, uid, action);
  return CHECK_REFUSED;
}

static void
return_not_authorized (GDBusMethodInvocation *invocation,
                       const char            *action,
                       const char            *what,
                       gboolean               challenge)
{
  if (challenge)
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
}

gboolean
fmd_authorize_method (GDBusConnection       *connection,
                      gboolean               session_bus,
                      FmdLimits             *limits,
                      GDBusMethodInvocation *invocation)
{
  const char *method = g_dbus_method_invocation_get_method_name (invocation);
  const MethodAction *rule = method_action (method);
  gboolean challenge = FALSE;

  if (rule == NULL)
    {
      g_dbus_method_invocation_return_error (invocation, FM_ERROR, FM_ERROR_NOT_AUTHORIZED,
                                             "%s has no authorization rule; refused", method);
      return FALSE;
    }

  switch (check_action (connection, session_bus, limits, invocation, rule->action,
                        rule->what, &challenge))
    {
    case CHECK_AUTHORIZED:
      return TRUE;
    case CHECK_UNAVAILABLE:
      return FALSE;
    case CHECK_REFUSED:
      break;
    }

  g_message ("%s from %s refused by polkit (%s)", method,
             g_dbus_method_invocation_get_sender (invocation), rule->action);
  return_not_authorized (invocation, rule->action, rule->what, challenge);
  return FALSE;
}

/* --- properties ------------------------------------------------------------------------ */

#define PROPERTIES_INTERFACE "org.freedesktop.DBus.Properties"
#define PRIVATE_WHAT "read the capture's options and counters"

/* set on the invocation in the worker thread, read by the handler on the main loop */
#define ACCESS_KEY "fmd-properties-access"

gboolean
fmd_property_is_private (const GDBusPropertyInfo *info)
{
  const char *emits;

  g_return_val_if_fail (info != NULL, TRUE);

  emits = g_dbus_annotation_info_lookup (info->annotations,
                                         "org.freedesktop.DBus.Property.EmitsChangedSignal");
  return g_strcmp0 (emits, "false") == 0;
}

gboolean
fmd_is_properties_call (GDBusMethodInvocation *invocation)
{
  return g_strcmp0 (g_dbus_method_invocation_get_interface_name (invocation),
                    PROPERTIES_INTERFACE) == 0;
}

gboolean
fmd_authorize_properties (GDBusConnection       *connection,
                          gboolean               session_bus,
                          FmdLimits             *limits,
                          GDBusMethodInvocation *invocation,
                          gboolean               watcher)
{
  const char *method = g_dbus_method_invocation_get_method_name (invocation);
  const GDBusPropertyInfo *info = g_dbus_method_invocation_get_property_info (invocation);
  gboolean is_get = g_str_equal (method, "Get");
  gboolean challenge = FALSE;
  FmdPropertyAccess access;

  /* Set never comes here (every property is read-only: GDBus refuses it), nor does
   * anything else of the interface; refuse them all the same */
  if (!is_get && !g_str_equal (method, "GetAll"))
    {
      g_dbus_method_invocation_return_error (invocation, FM_ERROR, FM_ERROR_NOT_AUTHORIZED,
                                             "%s.%s has no authorization rule; refused",
                                             PROPERTIES_INTERFACE, method);
      return FALSE;
    }

  if (is_get && info != NULL && !fmd_property_is_private (info))
    access = FMD_PROPERTIES_PUBLIC;   /* no polkit call for what anybody may read */
  else if (watcher)
    access = FMD_PROPERTIES_ALL;
  else if (g_dbus_method_invocation_get_sender (invocation) == NULL)
    access = FMD_PROPERTIES_PUBLIC;
  else
    switch (check_action (connection, session_bus, limits, invocation, FM_ACTION_SUBSCRIBE,
                          PRIVATE_WHAT, &challenge))
      {
      case CHECK_AUTHORIZED:
        access = FMD_PROPERTIES_ALL;
        break;
      case CHECK_UNAVAILABLE:
        return FALSE;
      case CHECK_REFUSED:
      default:
        access = FMD_PROPERTIES_PUBLIC;
        break;
      }

  if (is_get && access == FMD_PROPERTIES_PUBLIC && (info == NULL || fmd_property_is_private (info)))
    {
      g_debug ("Get %s from %s refused by polkit (%s)", info != NULL ? info->name : "?",
               g_dbus_method_invocation_get_sender (invocation), FM_ACTION_SUBSCRIBE);
      return_not_authorized (invocation, FM_ACTION_SUBSCRIBE, PRIVATE_WHAT, challenge);
      return FALSE;
    }

  g_object_set_data (G_OBJECT (invocation), ACCESS_KEY, GINT_TO_POINTER (access));
  return TRUE;
}

FmdPropertyAccess
fmd_properties_access (GDBusMethodInvocation *invocation)
{
  gpointer access = g_object_get_data (G_OBJECT (invocation), ACCESS_KEY);

  return access != NULL ? GPOINTER_TO_INT (access) : FMD_PROPERTIES_PUBLIC;
}
