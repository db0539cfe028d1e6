/* filemond-save-slots.c: how many saves may run; see filemond-save-slots.h. */
#include "config.h"

#include "filemond-save-slots.h"

#include <gio/gio.h>

#include "filemond-quota.h"

#define MAX_SAVES 16
#define MAX_SAVES_PER_UID 4
#define MAX_SAVES_ROOT_RESERVE 4
#define MAX_SAVES_PER_PEER 2

struct _FmdSaveSlots {
  GHashTable *by_peer;   /* unique name -> number of its saves in progress */
  FmdQuota *quota;
};

FmdSaveSlots *
fmd_save_slots_new (void)
{
  FmdSaveSlots *self = g_new0 (FmdSaveSlots, 1);

  self->by_peer = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->quota = fmd_quota_new ("saves", MAX_SAVES, MAX_SAVES_PER_UID, MAX_SAVES_ROOT_RESERVE);
  return self;
}

void
fmd_save_slots_free (FmdSaveSlots *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_peer);
  fmd_quota_free (self->quota);
  g_free (self);
}

static guint
peer_saves (FmdSaveSlots *self,
            const char   *peer)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->by_peer, peer));
}

static void
count_save (FmdSaveSlots *self,
            const char   *peer,
            int           delta)
{
  guint n = peer_saves (self, peer) + delta;

  if (n == 0)
    g_hash_table_remove (self->by_peer, peer);
  else
    g_hash_table_insert (self->by_peer, g_strdup (peer), GUINT_TO_POINTER (n));
}

gboolean
fmd_save_slots_take (FmdSaveSlots  *self,
                     const char    *peer,
                     guint32        uid,
                     GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (peer != NULL, FALSE);

  if (peer_saves (self, peer) >= MAX_SAVES_PER_PEER)
    {
      g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED,
                   "this connection has %d saves in progress already, the most one may; "
                   "try again when one has finished", MAX_SAVES_PER_PEER);
      return FALSE;
    }
  if (!fmd_quota_take (self->quota, uid, error))
    return FALSE;
  count_save (self, peer, +1);
  return TRUE;
}

void
fmd_save_slots_release (FmdSaveSlots *self,
                        const char   *peer,
                        guint32       uid)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (peer_saves (self, peer) > 0);

  count_save (self, peer, -1);
  fmd_quota_release (self->quota, uid);
}

guint
fmd_save_slots_get_n_taken (FmdSaveSlots *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return fmd_quota_get_n_taken (self->quota);
}
