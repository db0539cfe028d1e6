/* filemond-service.h: the org.filemond.Filemond1 object. It subclasses the skeleton that
 * gdbus-codegen made from dbus/org.filemond.Filemond1.xml, authorizes every method with
 * polkit before any handler runs, and ties the session, the ring, the Events subscribers,
 * the streams and the saves to the D-Bus API and its properties. */
#pragma once

#include <gio/gio.h>

#include "fm-dbus-generated.h"
#include "filemond-config.h"
#include "filemond-ring.h"
#include "filemond-session.h"

G_BEGIN_DECLS

#define FMD_TYPE_SERVICE (fmd_service_get_type ())
G_DECLARE_FINAL_TYPE (FmdService, fmd_service, FMD, SERVICE, FmFilemond1Skeleton)

/* Creates the service and exports it at FM_OBJECT_PATH on @connection. @config is
 * copied where needed and must outlive the service. @session_bus: the connection is a
 * session bus (manual tests): polkit is then asked about the caller's process instead of
 * its system bus name.
 *
 * Signal "idle" (no arguments): nothing has run for IdleTimeoutSec; the owner should shut
 * down. */
FmdService *fmd_service_new (GDBusConnection *connection,
                             const FmdConfig *config,
                             gboolean         session_bus,
                             GError         **error);

/* Stops the capture (waiting for the backend to be gone, at most @timeout_sec), cancels
 * saves, sends what subscribers and streams are owed and ends the streams. */
void fmd_service_shutdown_async (FmdService          *self,
                                 guint                timeout_sec,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data);
gboolean fmd_service_shutdown_finish (FmdService    *self,
                                      GAsyncResult  *result,
                                      GError       **error);

FmdSession *fmd_service_get_session (FmdService *self);
FmdRing *fmd_service_get_ring (FmdService *self);

G_END_DECLS
