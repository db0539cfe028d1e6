/* filemond-subscribers.h: the Events signal receivers.
 *
 * Each subscriber is a unique bus name with a cursor into the ring. Batches of up to 256
 * events go to each subscriber alone (the signal's destination), every 50 ms or as soon
 * as 256 are waiting. A signal costs far more than a stream record (a GVariant tree an
 * event here, validation and routing in dbus-daemon, parsing in the receiver) and
 * dbus-daemon gives no back-pressure, so each subscriber gets at most
 * FMD_SUBSCRIBER_MAX_RATE events a second (above what one subscriber receives on the
 * 2-core machines of bench/README.md, ~150 000)
 * and at most QueueEvents waiting: beyond that the oldest are skipped and reported with
 * a Dropped signal; a subscriber that overflows without pause for
 * FMD_SUBSCRIBER_OVERFLOW_LIMIT_SEC is dropped with Dropped(count, true). A subscriber
 * that leaves the bus is dropped at once (FmdLimits tells, from one NameOwnerChanged match
 * for all of them: a match rule per subscriber would stop at dbus-daemon's 512 a
 * connection). A subscriber that does not read what it was sent (FmdLimits) gets nothing
 * more; its queue overflows and it is dropped as above. At most FMD_SUBSCRIBERS_MAX at a
 * time.
 */
#pragma once

#include <gio/gio.h>

#include "filemond-limits.h"
#include "filemond-ring.h"

G_BEGIN_DECLS

#define FMD_SUBSCRIBER_MAX_RATE 200000
#define FMD_SUBSCRIBER_BATCH 256
#define FMD_SUBSCRIBER_INTERVAL_MS 50
#define FMD_SUBSCRIBER_OVERFLOW_LIMIT_SEC 5
/* Subscribers in all, per user, and kept for root (filemond-quota.h). */
#define FMD_SUBSCRIBERS_MAX 64
#define FMD_SUBSCRIBERS_PER_UID 16
#define FMD_SUBSCRIBERS_ROOT_RESERVE 8
/* What an event adds to a signal, roughly, for the unread-bytes accounting. */
#define FMD_SUBSCRIBER_EVENT_BYTES 128

#define FMD_TYPE_SUBSCRIBERS (fmd_subscribers_get_type ())
G_DECLARE_FINAL_TYPE (FmdSubscribers, fmd_subscribers, FMD, SUBSCRIBERS, GObject)

/* @ring must outlive the object. Property "n-subscribers" (guint) notifies changes. */
FmdSubscribers *fmd_subscribers_new (GDBusConnection *connection,
                                     FmdLimits       *limits,
                                     FmdRing         *ring,
                                     guint            queue_events);

/* Adds @unique_name, of user @uid; it receives events appended from now on. Adding twice
 * is harmless. G_DBUS_ERROR_LIMITS_EXCEEDED past the bounds above. */
gboolean fmd_subscribers_add (FmdSubscribers *self,
                              const char     *unique_name,
                              guint32         uid,
                              GError        **error);
/* Tells every subscriber that the capture stopped or (@running) a new one started. */
void fmd_subscribers_capture_changed (FmdSubscribers *self,
                                      gboolean        running);
/* Removes @unique_name; harmless when it is not subscribed. */
void fmd_subscribers_remove (FmdSubscribers *self,
                             const char     *unique_name);
gboolean fmd_subscribers_contains (FmdSubscribers *self,
                                   const char     *unique_name);
guint fmd_subscribers_get_n_subscribers (FmdSubscribers *self);

/* Sends what is waiting now, rate limit aside (at shutdown). */
void fmd_subscribers_flush (FmdSubscribers *self);

G_END_DECLS
