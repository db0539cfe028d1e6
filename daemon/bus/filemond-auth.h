/* filemond-auth.h: polkit authorization of filemond's methods, in one place.
 *
 * A method -> polkit action table with default deny: a method missing from the table, a
 * caller without a bus name or a polkitd that cannot be asked all mean refused. The
 * subject is the caller's system bus name; interactive authentication is allowed only
 * when the caller set ALLOW_INTERACTIVE_AUTHORIZATION on its message. Root is checked
 * like anybody else (polkit allows it).
 *
 * Properties (org.freedesktop.DBus.Properties Get and GetAll) have a rule of their own:
 * the public ones are anybody's, the private ones (EmitsChangedSignal=false in the XML:
 * what the capture looks at and how much it sees) need org.filemond.subscribe. A Get of
 * a private property is refused like a method; a GetAll is never refused for it, it gives
 * the public properties only.
 */
#pragma once

#include <gio/gio.h>

#include "filemond-limits.h"

G_BEGIN_DECLS

/* For GDBusInterfaceSkeleton's g_authorize_method, which GIO calls in a worker thread:
 * blocks until polkit answered. TRUE when authorized; otherwise @invocation has been
 * answered with org.filemond.Filemond1.Error.NotAuthorized and FALSE is returned.
 * @session_bus: @connection is a session bus (manual tests), whose names polkit does not
 * know: the calling process is then the subject. A refusal is told to @limits, which
 * refuses the same user's next calls of that action at once for a while. */
gboolean fmd_authorize_method (GDBusConnection       *connection,
                               gboolean               session_bus,
                               FmdLimits             *limits,
                               GDBusMethodInvocation *invocation);

/* The polkit action of @method; NULL for a method the table does not name. */
const char *fmd_auth_action_for_method (const char *method);

/* The uid of the caller of an authorized method call, as the bus daemon told it during
 * the check. */
guint32 fmd_auth_get_caller_uid (GDBusMethodInvocation *invocation);
/* The same, FALSE when polkit was not asked about @invocation (a property read by a
 * caller known to be authorized). */
gboolean fmd_auth_lookup_caller_uid (GDBusMethodInvocation *invocation,
                                     guint32               *uid);

typedef enum {
  FMD_PROPERTIES_PUBLIC,
  FMD_PROPERTIES_ALL,
} FmdPropertyAccess;

/* Whether @info is a private property (its changes are not broadcast). */
gboolean fmd_property_is_private (const GDBusPropertyInfo *info);

/* Whether @invocation is a call of org.freedesktop.DBus.Properties. */
gboolean fmd_is_properties_call (GDBusMethodInvocation *invocation);

/* As fmd_authorize_method, for a Properties call. @watcher: the caller was authorized
 * before (a known watcher), polkit is not asked again. When it returns TRUE,
 * fmd_properties_access() tells the handler what the caller may read; a Get of a private
 * property by a caller polkit refuses is answered NotAuthorized here. */
gboolean fmd_authorize_properties (GDBusConnection       *connection,
                                   gboolean               session_bus,
                                   FmdLimits             *limits,
                                   GDBusMethodInvocation *invocation,
                                   gboolean               watcher);

/* What fmd_authorize_properties() allowed @invocation (public only when it was not
 * asked). */
FmdPropertyAccess fmd_properties_access (GDBusMethodInvocation *invocation);

G_END_DECLS
