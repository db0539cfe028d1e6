/* filemond-bus-name.h: filemond's connection to the bus and its name on it.
 *
 * Signals: "acquired" (const char *name): the name is filemond's, clients can reach it;
 * "lost" (const char *why, int exit_status): the name or the connection is gone, or was
 * never had, and the daemon should end with @exit_status. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define FMD_TYPE_BUS_NAME (fmd_bus_name_get_type ())
G_DECLARE_FINAL_TYPE (FmdBusName, fmd_bus_name, FMD, BUS_NAME, GObject)

/* Connects to the system bus (@session_bus: the session bus, for manual tests) and
 * registers the D-Bus names of filemond's errors, before any reply carries one. */
GDBusConnection *fmd_bus_connect (gboolean   session_bus,
                                  GError   **error);

/* Asks for FM_BUS_NAME on @connection, allowing a later filemond to replace this one;
 * @replace: take it over from a running one. */
FmdBusName *fmd_bus_name_new (GDBusConnection *connection,
                              gboolean         replace);

/* Gives the name back and flushes what the connection still has to send. */
void fmd_bus_name_release (FmdBusName *self);

G_END_DECLS
