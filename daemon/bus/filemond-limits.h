/* filemond-limits.h: bounds on what any bus peer can make filemond hold.
 *
 * A GDBusConnection filter sees every message before GDBus queues it for the skeleton
 * (and before polkit is asked): there calls are refused while nothing is held for them
 * yet. Per peer (unique bus name) and in total:
 *
 * - method calls in progress (received, reply not sent): FMD_LIMIT_CALLS_PER_PEER, per
 *   user FMD_LIMIT_CALLS_PER_USER (root: none), and FMD_LIMIT_CALLS in all, of which the
 *   last FMD_LIMIT_CALLS_ROOT_RESERVE are root's; beyond them a call gets LimitsExceeded
 *   at once. Peers whose user the bus has not told yet count as one user with a smaller
 *   bound (FMD_LIMIT_CALLS_UNIDENTIFIED);
 * - calls flagged NO_REPLY_EXPECTED are ignored: nothing would tell their sender that
 *   they were refused, and counting them would need a reply that never comes;
 * - file descriptors: Save carries one, every other call none; a call with more is
 *   refused (its descriptors are closed as the message is freed);
 * - the size of a call's body: FMD_LIMIT_CALL_BYTES;
 * - bytes sent to a peer that it has not read: dbus-daemon charges the messages it queues
 *   for a slow reader to their sender, and stops reading from filemond once that reaches
 *   its max_incoming_bytes (127 MiB by default): one peer that never reads would freeze
 *   filemond for everyone. Past FMD_LIMIT_PING_AT unacknowledged bytes the peer gets an
 *   org.freedesktop.DBus.Peer.Ping: its answer proves it read everything before. A peer
 *   over FMD_LIMIT_PEER_UNREAD gets nothing more: its calls are dropped, and the
 *   subscribers skip it (fmd_limits_may_send). So does a peer with unread bytes whose
 *   user is over FMD_LIMIT_USER_UNREAD (root: no such bound), or over its share
 *   FMD_LIMIT_USER_SHARE_UNREAD while all peers together are over FMD_LIMIT_UNREAD: one
 *   user's unread replies never use up what another user's events need.
 *
 * - a call of an action polkit refused the caller's user less than FMD_LIMIT_REFUSAL_SEC
 *   ago (and that does not allow interactive authorization) is refused with NotAuthorized
 *   here, answered FMD_LIMIT_REFUSAL_DELAY_MS later: a refused user's flood never reaches
 *   polkitd or GIO's authorization threads, and cannot spin on its refusals.
 *
 * It also watches NameOwnerChanged with one match rule (dbus-daemon allows a connection
 * 512) and emits "peer-vanished" for each unique name that leaves the bus, or that
 * fmd_limits_confirm_peer() finds gone.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define FMD_LIMIT_CALLS_PER_PEER 4
#define FMD_LIMIT_CALLS_PER_USER 16
#define FMD_LIMIT_CALLS_UNIDENTIFIED 16
#define FMD_LIMIT_CALLS 64
#define FMD_LIMIT_CALLS_ROOT_RESERVE 16
#define FMD_LIMIT_CALL_BYTES (256 * 1024)
#define FMD_LIMIT_PING_AT (256 * 1024)
#define FMD_LIMIT_PEER_UNREAD (1024 * 1024)
#define FMD_LIMIT_USER_UNREAD (8 * 1024 * 1024)
#define FMD_LIMIT_UNIDENTIFIED_UNREAD (4 * 1024 * 1024)
#define FMD_LIMIT_USER_SHARE_UNREAD (4 * 1024 * 1024)
#define FMD_LIMIT_UNREAD (32 * 1024 * 1024)
/* A user that polkit refused an action has its calls of that action refused at once for
 * this long (unless they allow interactive authorization). */
#define FMD_LIMIT_REFUSAL_SEC 5
/* ... and answered this much later, holding its call slot meanwhile. */
#define FMD_LIMIT_REFUSAL_DELAY_MS 1000
/* A peer that does not answer its Ping within this time counts as stalled. */
#define FMD_LIMIT_PING_TIMEOUT_MS 10000

#define FMD_TYPE_LIMITS (fmd_limits_get_type ())
G_DECLARE_FINAL_TYPE (FmdLimits, fmd_limits, FMD, LIMITS, GObject)

/* Installs the filter on @connection. Signal "peer-vanished" (const char *name), on the
 * main context. The filter holds a reference: g_object_run_dispose() removes it. */
FmdLimits *fmd_limits_new (GDBusConnection *connection);

/* Whether a message of about @bytes to @peer keeps it within its unread bounds; when not,
 * the peer is asked (again) to prove it reads. Main context. */
gboolean fmd_limits_may_send (FmdLimits  *self,
                              const char *peer,
                              gsize       bytes);

/* Polkit refused @uid @action: its next calls of it are refused in the filter, before
 * they take a slot, for FMD_LIMIT_REFUSAL_SEC. Any thread. */
void fmd_limits_remember_refusal (FmdLimits  *self,
                                  guint32     uid,
                                  const char *action);
/* Whether polkit refused @uid @action less than FMD_LIMIT_REFUSAL_SEC ago. Any thread. */
gboolean fmd_limits_refused_lately (FmdLimits  *self,
                                    guint32     uid,
                                    const char *action);

/* A name that left the bus before its call was handled (while polkit was asked, say) sent
 * its NameOwnerChanged already: whoever keeps @name for later calls this, and the bus is
 * asked whether it is still there; when not, "peer-vanished" is emitted for it. */
void fmd_limits_confirm_peer (FmdLimits  *self,
                              const char *name);

/* Disconnects *@handler, a "peer-vanished" handler, and zeroes it; harmless when the
 * limits' dispose disconnected it already. */
void fmd_limits_disconnect_vanished (FmdLimits *self,
                                     gulong    *handler);

/* Counters for the logs and tests. */
guint fmd_limits_get_n_calls (FmdLimits *self);
guint64 fmd_limits_get_n_refused (FmdLimits *self);

G_END_DECLS
