/* filemond-service-properties.c: who reads which property of the D-Bus object.
 *
 * The skeleton's vtable is replaced by one without a get_property function, so that GDBus
 * hands Get and GetAll to method_call, through the same worker-thread authorization as
 * the methods (filemond-service.c), and the handler here answers them with what the
 * caller may read (filemond-auth.h). The private properties' changes go to the watchers
 * alone (filemond-watchers.h); the skeleton broadcasts only the public ones.
 */
#include "config.h"

#include "filemond-service-private.h"

#include "filemond-auth.h"
#include "fm-names.h"

static const GDBusInterfaceVTable *
skeleton_vtable (FmdService *self)
{
  GDBusInterfaceSkeletonClass *skeleton_class =
    G_DBUS_INTERFACE_SKELETON_CLASS (g_type_class_peek (FM_TYPE_FILEMOND1_SKELETON));

  return skeleton_class->get_vtable (G_DBUS_INTERFACE_SKELETON (self));
}

/* A new reference (the skeleton's function may return a floating one or not). */
static GVariant *
property_value (FmdService *self,
                const char *name)
{
  return g_variant_take_ref (skeleton_vtable (self)->get_property (self->connection, NULL,
                                                                   FM_OBJECT_PATH, FM_INTERFACE,
                                                                   name, NULL, self));
}

void
fmd_service_add_watcher (FmdService            *self,
                         GDBusMethodInvocation *invocation)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  guint32 uid;

  /* one that follows them already asked polkit nothing this time */
  if (sender != NULL && fmd_auth_lookup_caller_uid (invocation, &uid))
    fmd_watchers_add (self->watchers, sender, uid);
}

/* Get and GetAll, once fmd_authorize_properties() let them through. */
static void
handle_properties (FmdService            *self,
                   GDBusMethodInvocation *invocation)
{
  FmdPropertyAccess access = fmd_properties_access (invocation);
  GDBusInterfaceInfo *info = fm_filemond1_interface_info ();
  GVariantBuilder all;

  if (access == FMD_PROPERTIES_ALL)
    fmd_service_add_watcher (self, invocation);

  if (g_str_equal (g_dbus_method_invocation_get_method_name (invocation), "Get"))
    {
      const GDBusPropertyInfo *property = g_dbus_method_invocation_get_property_info (invocation);
      g_autoptr(GVariant) value = NULL;

      /* the authorization answered a refused Get of a private property itself */
      g_assert (property != NULL);
      g_assert (access == FMD_PROPERTIES_ALL || !fmd_property_is_private (property));
      value = property_value (self, property->name);
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(v)", value));
      return;
    }

  g_variant_builder_init (&all, G_VARIANT_TYPE_VARDICT);
  for (guint i = 0; info->properties[i] != NULL; i++)
    if (access == FMD_PROPERTIES_ALL || !fmd_property_is_private (info->properties[i]))
      {
        g_autoptr(GVariant) value = property_value (self, info->properties[i]->name);

        g_variant_builder_add (&all, "{sv}", info->properties[i]->name, value);
      }
  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(a{sv})", &all));
}

static void
service_method_call (GDBusConnection       *connection,
                     const char            *sender,
                     const char            *object_path,
                     const char            *interface_name,
                     const char            *method_name,
                     GVariant              *parameters,
                     GDBusMethodInvocation *invocation,
                     gpointer               user_data)
{
  FmdService *self = FMD_SERVICE (user_data);

  if (fmd_is_properties_call (invocation))
    handle_properties (self, invocation);
  else
    skeleton_vtable (self)->method_call (connection, sender, object_path, interface_name,
                                         method_name, parameters, invocation, user_data);
}

GDBusInterfaceVTable *
fmd_service_properties_vtable (GDBusInterfaceSkeleton *skeleton)
{
  static GDBusInterfaceVTable vtable = { service_method_call, NULL, NULL, { NULL } };

  return &vtable;
}

static gboolean
send_private_changed_cb (gpointer user_data)
{
  FmdService *self = user_data;
  GVariantBuilder changed;
  GHashTableIter iter;
  gpointer name;

  self->private_changed_id = 0;
  g_variant_builder_init (&changed, G_VARIANT_TYPE_VARDICT);
  g_hash_table_iter_init (&iter, self->private_changed);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      g_autoptr(GVariant) value = property_value (self, name);

      g_variant_builder_add (&changed, "{sv}", (const char *) name, value);
    }
  g_hash_table_remove_all (self->private_changed);
  fmd_watchers_send_changed (self->watchers, FM_INTERFACE, g_variant_builder_end (&changed));
  return G_SOURCE_REMOVE;
}

/* The skeleton broadcasts the changes of the public properties; those of the private
 * ones, which it leaves out, are sent to the watchers, gathered in the same way: one
 * signal for all the changes of one main loop iteration. */
void
fmd_service_private_notify_cb (FmdService *self,
                               GParamSpec *pspec)
{
  const GDBusPropertyInfo *info;

  info = g_dbus_interface_info_lookup_property (fm_filemond1_interface_info (),
                                                g_param_spec_get_nick (pspec));
  if (info == NULL || !fmd_property_is_private (info))
    return;
  /* the names are the interface info's, static */
  g_hash_table_add (self->private_changed, info->name);
  /* at the skeleton's priority: a busy capture keeps default-priority sources ready and
   * would starve an idle one */
  if (self->private_changed_id == 0)
    self->private_changed_id = g_idle_add_full (G_PRIORITY_DEFAULT, send_private_changed_cb,
                                                self, NULL);
}
