/* filemond-watchers.c: who follows the private properties; see filemond-watchers.h. */
#include "filemond-watchers.h"

#include "filemond-quota.h"

struct _FmdWatchers {
  GObject parent_instance;

  GDBusConnection *connection;
  FmdLimits *limits;
  gulong vanished_handler;
  char *object_path;

  GMutex lock;
  GHashTable *names;        /* unique name -> its uid + 1 */
  FmdQuota *quota;
  gboolean full_logged;     /* "too many watchers" said since the set was last full */
};

G_DEFINE_FINAL_TYPE (FmdWatchers, fmd_watchers, G_TYPE_OBJECT)

static void
peer_vanished_cb (FmdLimits   *limits,
                  const char  *name,
                  FmdWatchers *self)
{
  gpointer uid = NULL;
  gboolean removed;

  g_mutex_lock (&self->lock);
  removed = g_hash_table_lookup_extended (self->names, name, NULL, &uid);
  if (removed)
    {
      fmd_quota_release (self->quota, GPOINTER_TO_UINT (uid) - 1);
      g_hash_table_remove (self->names, name);
    }
  g_mutex_unlock (&self->lock);
  if (removed)
    g_debug ("watcher %s left the bus", name);
}

void
fmd_watchers_add (FmdWatchers *self,
                  const char  *unique_name,
                  guint32      uid)
{
  gboolean added = FALSE;
  gboolean full = FALSE;

  g_return_if_fail (FMD_IS_WATCHERS (self));

  if (unique_name == NULL || unique_name[0] != ':')
    return;

  g_mutex_lock (&self->lock);
  if (g_hash_table_contains (self->names, unique_name))
    ;
  else if (!fmd_quota_take (self->quota, uid, NULL))
    {
      full = !self->full_logged;
      self->full_logged = TRUE;
    }
  else
    {
      g_hash_table_insert (self->names, g_strdup (unique_name), GUINT_TO_POINTER (uid + 1));
      self->full_logged = FALSE;
      added = TRUE;
    }
  g_mutex_unlock (&self->lock);

  if (full)
    g_message ("%s is not told of the properties' changes: its user has %d connections "
               "following them already, or all %d are taken", unique_name,
               FMD_WATCHERS_PER_UID, FMD_WATCHERS_MAX);
  if (added)
    {
      g_debug ("watcher %s added", unique_name);
      /* it may have left while polkit was asked */
      fmd_limits_confirm_peer (self->limits, unique_name);
    }
}

gboolean
fmd_watchers_contains (FmdWatchers *self,
                       const char  *unique_name)
{
  gboolean found;

  g_return_val_if_fail (FMD_IS_WATCHERS (self), FALSE);

  if (unique_name == NULL)
    return FALSE;
  g_mutex_lock (&self->lock);
  found = g_hash_table_contains (self->names, unique_name);
  g_mutex_unlock (&self->lock);
  return found;
}

guint
fmd_watchers_get_n_watchers (FmdWatchers *self)
{
  guint n;

  g_return_val_if_fail (FMD_IS_WATCHERS (self), 0);

  g_mutex_lock (&self->lock);
  n = g_hash_table_size (self->names);
  g_mutex_unlock (&self->lock);
  return n;
}

void
fmd_watchers_send_changed (FmdWatchers *self,
                           const char  *interface_name,
                           GVariant    *changed)
{
  g_autoptr(GVariant) owned = g_variant_ref_sink (changed);
  g_autoptr(GVariant) parameters = NULL;
  g_autofree char **names = NULL;
  gsize bytes;

  g_return_if_fail (FMD_IS_WATCHERS (self));
  g_return_if_fail (g_variant_is_of_type (changed, G_VARIANT_TYPE_VARDICT));

  parameters = g_variant_ref_sink (g_variant_new ("(s@a{sv}as)", interface_name, owned, NULL));
  bytes = g_variant_get_size (parameters);

  /* a copy: sending may run the limits' handlers, which may remove a watcher */
  g_mutex_lock (&self->lock);
  names = (char **) g_hash_table_get_keys_as_array (self->names, NULL);
  for (guint i = 0; names[i] != NULL; i++)
    names[i] = g_strdup (names[i]);
  g_mutex_unlock (&self->lock);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *name = names[i];
      g_autoptr(GError) error = NULL;

      if (!fmd_limits_may_send (self->limits, name, bytes))
        continue;
      if (!g_dbus_connection_emit_signal (self->connection, name, self->object_path,
                                          "org.freedesktop.DBus.Properties",
                                          "PropertiesChanged", parameters, &error))
        g_debug ("PropertiesChanged to %s: %s", name, error->message);
    }
}

FmdWatchers *
fmd_watchers_new (GDBusConnection *connection,
                  FmdLimits       *limits,
                  const char      *object_path)
{
  FmdWatchers *self;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), NULL);
  g_return_val_if_fail (FMD_IS_LIMITS (limits), NULL);
  g_return_val_if_fail (object_path != NULL, NULL);

  self = g_object_new (FMD_TYPE_WATCHERS, NULL);
  self->connection = g_object_ref (connection);
  self->limits = g_object_ref (limits);
  self->object_path = g_strdup (object_path);
  self->vanished_handler = g_signal_connect (limits, "peer-vanished",
                                             G_CALLBACK (peer_vanished_cb), self);
  return self;
}

static void
fmd_watchers_dispose (GObject *object)
{
  FmdWatchers *self = FMD_WATCHERS (object);

  if (self->limits != NULL)
    fmd_limits_disconnect_vanished (self->limits, &self->vanished_handler);
  g_clear_object (&self->limits);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (fmd_watchers_parent_class)->dispose (object);
}

static void
fmd_watchers_finalize (GObject *object)
{
  FmdWatchers *self = FMD_WATCHERS (object);

  g_hash_table_unref (self->names);
  fmd_quota_free (self->quota);
  g_free (self->object_path);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (fmd_watchers_parent_class)->finalize (object);
}

static void
fmd_watchers_class_init (FmdWatchersClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fmd_watchers_dispose;
  object_class->finalize = fmd_watchers_finalize;
}

static void
fmd_watchers_init (FmdWatchers *self)
{
  g_mutex_init (&self->lock);
  self->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->quota = fmd_quota_new ("watchers", FMD_WATCHERS_MAX, FMD_WATCHERS_PER_UID,
                               FMD_WATCHERS_ROOT_RESERVE);
}
