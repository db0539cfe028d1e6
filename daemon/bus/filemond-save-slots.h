/* filemond-save-slots.h: admission of Save calls. A save holds a thread, a descriptor and
 * a snapshot of the ring until its reader has it all (or took nothing for SaveStallSec),
 * so how many run at once is bounded in all, per user (the last few slots are root's:
 * filemond-quota.h) and per connection, so that no caller can take every slot.
 *
 * Main loop only.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FmdSaveSlots FmdSaveSlots;

FmdSaveSlots *fmd_save_slots_new (void);
void fmd_save_slots_free (FmdSaveSlots *self);

/* Takes a slot for a save of @peer (a unique bus name, "" on a peer-to-peer connection)
 * whose caller is @uid; FALSE with G_DBUS_ERROR_LIMITS_EXCEEDED saying which bound. */
gboolean fmd_save_slots_take (FmdSaveSlots  *self,
                              const char    *peer,
                              guint32        uid,
                              GError       **error);
/* Gives back what fmd_save_slots_take() took for @peer and @uid. */
void fmd_save_slots_release (FmdSaveSlots *self,
                             const char   *peer,
                             guint32       uid);
/* Saves in progress. */
guint fmd_save_slots_get_n_taken (FmdSaveSlots *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdSaveSlots, fmd_save_slots_free)

G_END_DECLS
