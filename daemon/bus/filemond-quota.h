/* filemond-quota.h: slots of one kind (streams, saves, subscribers) shared by everyone on
 * the bus, counted per user.
 *
 * A limit per connection would not hold: a user opens as many connections as it likes,
 * and nine connections of one member would take all the streams and refuse root's
 * `watch`. A quota has a total, a share that no single uid can exceed, and a reserve
 * that only root can use, so that root's slots are never all taken by others. Root
 * itself is bound by the total only. The uid is the caller's as the bus saw it
 * (fmd_auth_get_caller_uid()), never what a client claims.
 *
 * Main loop only.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FmdQuota FmdQuota;

/* @what names a slot in messages ("streams"). @root_reserve < @max. */
FmdQuota *fmd_quota_new (const char *what,
                         guint       max,
                         guint       per_uid,
                         guint       root_reserve);
void fmd_quota_free (FmdQuota *quota);

/* Takes a slot for @uid; FALSE with G_DBUS_ERROR_LIMITS_EXCEEDED saying which bound. */
gboolean fmd_quota_take (FmdQuota  *quota,
                         guint32    uid,
                         GError   **error);
void fmd_quota_release (FmdQuota *quota,
                        guint32   uid);
guint fmd_quota_get_n_taken (FmdQuota *quota);
guint fmd_quota_get_n_taken_by (FmdQuota *quota,
                                guint32   uid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdQuota, fmd_quota_free)

G_END_DECLS
