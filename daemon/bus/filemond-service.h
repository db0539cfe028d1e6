/* filemond-service.h: the org.filemond.Filemond1 object. It subclasses the skeleton that
 * gdbus-codegen made from dbus/org.filemond.Filemond1.xml, authorizes every method with
 * polkit before any handler runs, and ties the session, the ring, the Events subscribers,
 * the streams and the saves to the D-Bus API and its properties.
 *
 * The process around it (idle exit, the watchdog, sd_notify, shutdown) is the daemon's
 * (lifecycle/filemond-daemon.h), which reads what it needs here. */
#pragma once

#include <gio/gio.h>

#include "fm-dbus-generated.h"
#include "filemond-config.h"
#include "filemond-ring.h"
#include "filemond-session.h"

G_BEGIN_DECLS

#define FMD_TYPE_SERVICE (fmd_service_get_type ())
G_DECLARE_FINAL_TYPE (FmdService, fmd_service, FMD, SERVICE, FmFilemond1Skeleton)

/* Creates the service and exports it at FM_OBJECT_PATH on @connection. @config, @session
 * and @ring must outlive the service. @session_bus: the connection is a session bus
 * (manual tests): polkit is then asked about the caller's process instead of its system
 * bus name.
 *
 * Property "busy" (boolean, notified on change): a subscriber, a stream or a save is
 * there, so the daemon is not idle whatever the capture does. */
FmdService *fmd_service_new (GDBusConnection *connection,
                             const FmdConfig *config,
                             FmdSession      *session,
                             FmdRing         *ring,
                             gboolean         session_bus,
                             GError         **error);

gboolean fmd_service_is_busy (FmdService *self);
guint fmd_service_get_n_subscribers (FmdService *self);
guint fmd_service_get_n_streams (FmdService *self);

/* Publishes the counters now, without waiting for the next throttled update (a capture
 * whose filter drops every call appends nothing to the ring, which is what triggers one). */
void fmd_service_update_counters (FmdService *self);

/* For shutdown: ends the saves in progress (each answered with an Io error), then, once
 * the capture is stopped, sends what subscribers and streams are owed and ends the
 * streams. */
void fmd_service_cancel_saves (FmdService *self);
void fmd_service_close_clients (FmdService *self);

G_END_DECLS
