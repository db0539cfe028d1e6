/* filemond-bus-name.c: the connection and the name; see filemond-bus-name.h. */
#include "config.h"

#include "filemond-bus-name.h"

#include "fm-error.h"
#include "fm-names.h"

struct _FmdBusName {
  GObject parent_instance;

  GDBusConnection *connection;
  guint owner_id;
  gboolean acquired;
};

enum {
  SIGNAL_ACQUIRED,
  SIGNAL_LOST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (FmdBusName, fmd_bus_name, G_TYPE_OBJECT)

GDBusConnection *
fmd_bus_connect (gboolean   session_bus,
                 GError   **error)
{
  GDBusConnection *connection;

  (void) fm_error_quark ();

  connection = g_bus_get_sync (session_bus ? G_BUS_TYPE_SESSION : G_BUS_TYPE_SYSTEM, NULL,
                               error);
  /* the daemon decides how to end, after stopping its capture */
  if (connection != NULL)
    g_dbus_connection_set_exit_on_close (connection, FALSE);
  return connection;
}

static void
lost (FmdBusName *self,
      const char *why,
      int         exit_status)
{
  g_signal_emit (self, signals[SIGNAL_LOST], 0, why, exit_status);
}

static void
name_acquired_cb (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  FmdBusName *self = user_data;

  self->acquired = TRUE;
  g_signal_emit (self, signals[SIGNAL_ACQUIRED], 0, name);
}

static void
name_lost_cb (GDBusConnection *connection,
              const char      *name,
              gpointer         user_data)
{
  FmdBusName *self = user_data;

  if (connection == NULL)
    lost (self, "the connection to the bus is gone", 1);
  else if (self->acquired)
    lost (self, "another filemond replaced this one", 0);
  else
    {
      g_warning ("cannot own the bus name %s: another filemond runs (start with --replace "
                 "to take over) or the bus policy does not allow it", name);
      lost (self, "no bus name", 1);
    }
}

static void
connection_closed_cb (GDBusConnection *connection,
                      gboolean         remote_peer_vanished,
                      GError          *error,
                      FmdBusName      *self)
{
  lost (self, "the connection to the bus closed", 1);
}

FmdBusName *
fmd_bus_name_new (GDBusConnection *connection,
                  gboolean         replace)
{
  FmdBusName *self;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), NULL);

  self = g_object_new (FMD_TYPE_BUS_NAME, NULL);
  self->connection = g_object_ref (connection);
  g_signal_connect_object (connection, "closed", G_CALLBACK (connection_closed_cb), self, 0);
  self->owner_id = g_bus_own_name_on_connection (connection, FM_BUS_NAME,
                                                 G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT |
                                                 (replace ? G_BUS_NAME_OWNER_FLAGS_REPLACE : 0),
                                                 name_acquired_cb, name_lost_cb, self, NULL);
  return self;
}

void
fmd_bus_name_release (FmdBusName *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (FMD_IS_BUS_NAME (self));

  g_clear_handle_id (&self->owner_id, g_bus_unown_name);
  if (!g_dbus_connection_is_closed (self->connection) &&
      !g_dbus_connection_flush_sync (self->connection, NULL, &error))
    g_debug ("cannot flush the bus connection: %s", error->message);
}

static void
fmd_bus_name_dispose (GObject *object)
{
  FmdBusName *self = FMD_BUS_NAME (object);

  g_clear_handle_id (&self->owner_id, g_bus_unown_name);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (fmd_bus_name_parent_class)->dispose (object);
}

static void
fmd_bus_name_class_init (FmdBusNameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fmd_bus_name_dispose;

  signals[SIGNAL_ACQUIRED] = g_signal_new ("acquired", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_LOST] = g_signal_new ("lost", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING,
                                       G_TYPE_INT);
}

static void
fmd_bus_name_init (FmdBusName *self)
{
}
