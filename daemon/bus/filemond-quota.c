/* filemond-quota.c: slots per uid with a reserve for root; see filemond-quota.h. */
#include "filemond-quota.h"

#include <gio/gio.h>

struct _FmdQuota {
  char *what;
  guint max;
  guint per_uid;
  guint root_reserve;
  guint n_taken;
  guint n_taken_by_others;   /* not root's */
  GHashTable *by_uid;        /* uid -> slots it holds */
};

FmdQuota *
fmd_quota_new (const char *what,
               guint       max,
               guint       per_uid,
               guint       root_reserve)
{
  FmdQuota *quota;

  g_return_val_if_fail (what != NULL, NULL);
  g_return_val_if_fail (root_reserve < max, NULL);

  quota = g_new0 (FmdQuota, 1);
  quota->what = g_strdup (what);
  quota->max = max;
  quota->per_uid = per_uid;
  quota->root_reserve = root_reserve;
  quota->by_uid = g_hash_table_new (g_direct_hash, g_direct_equal);
  return quota;
}

void
fmd_quota_free (FmdQuota *quota)
{
  if (quota == NULL)
    return;
  g_hash_table_unref (quota->by_uid);
  g_free (quota->what);
  g_free (quota);
}

guint
fmd_quota_get_n_taken_by (FmdQuota *quota,
                          guint32   uid)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (quota->by_uid, GUINT_TO_POINTER (uid)));
}

guint
fmd_quota_get_n_taken (FmdQuota *quota)
{
  return quota->n_taken;
}

gboolean
fmd_quota_take (FmdQuota  *quota,
                guint32    uid,
                GError   **error)
{
  guint held = fmd_quota_get_n_taken_by (quota, uid);

  if (quota->n_taken >= quota->max)
    {
      g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED,
                   "all %u %s are in use; try again when one has ended", quota->max,
                   quota->what);
      return FALSE;
    }
  if (uid != 0 && held >= quota->per_uid)
    {
      g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED,
                   "your user holds %u %s already, the most one user may; end one first",
                   held, quota->what);
      return FALSE;
    }
  if (uid != 0 && quota->n_taken_by_others >= quota->max - quota->root_reserve)
    {
      g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED,
                   "%u %s are in use; the last %u are kept for root; try again when one "
                   "has ended", quota->n_taken, quota->what, quota->root_reserve);
      return FALSE;
    }

  quota->n_taken++;
  if (uid != 0)
    quota->n_taken_by_others++;
  g_hash_table_insert (quota->by_uid, GUINT_TO_POINTER (uid), GUINT_TO_POINTER (held + 1));
  return TRUE;
}

void
fmd_quota_release (FmdQuota *quota,
                   guint32   uid)
{
  guint held = fmd_quota_get_n_taken_by (quota, uid);

  g_return_if_fail (held > 0);

  quota->n_taken--;
  if (uid != 0)
    quota->n_taken_by_others--;
  if (held == 1)
    g_hash_table_remove (quota->by_uid, GUINT_TO_POINTER (uid));
  else
    g_hash_table_insert (quota->by_uid, GUINT_TO_POINTER (uid), GUINT_TO_POINTER (held - 1));
}
