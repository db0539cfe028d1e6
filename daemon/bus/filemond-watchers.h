/* filemond-watchers.h: the connections that follow filemond's private properties.
 *
 * The private properties (EmitsChangedSignal=false in the XML: Options, the counters,
 * FirstSeq, StartedAt, LastError, Progress) say what the capture looks at and how much
 * it sees: a broadcast PropertiesChanged would tell every connection on the bus (an
 * outsider with a match rule on Options and EventCount learned the capture's path filter
 * and counted the opens of that file). So the skeleton leaves them out of its broadcast,
 * and each watcher gets their changes in a PropertiesChanged sent to it alone.
 *
 * A watcher is a unique name that polkit allowed org.filemond.subscribe: through
 * Subscribe, OpenStream, or a Get or GetAll that was given private properties. It stays
 * one until it leaves the bus (FmdLimits tells), and its authorization is remembered
 * that long: its later Gets ask polkit nothing, as its subscription or stream does not
 * either. At most FMD_WATCHERS_MAX, FMD_WATCHERS_PER_UID a user, the last
 * FMD_WATCHERS_ROOT_RESERVE root's (filemond-quota.h: one user's connections cannot
 * leave root's viewer without its counters); an authorized caller beyond them still reads the
 * properties, it is only not told of their changes. The set is read from GIO's
 * authorization thread, hence the lock. Sending skips a watcher that does not read what
 * it was sent (fmd_limits_may_send).
 */
#pragma once

#include <gio/gio.h>

#include "filemond-limits.h"

G_BEGIN_DECLS

/* 64 subscribers, 32 streams, and as many again for proxies that only look. */
#define FMD_WATCHERS_MAX 192
#define FMD_WATCHERS_PER_UID 32
#define FMD_WATCHERS_ROOT_RESERVE 32

#define FMD_TYPE_WATCHERS (fmd_watchers_get_type ())
G_DECLARE_FINAL_TYPE (FmdWatchers, fmd_watchers, FMD, WATCHERS, GObject)

FmdWatchers *fmd_watchers_new (GDBusConnection *connection,
                               FmdLimits       *limits,
                               const char      *object_path);

/* Main context. @uid: the connection's user. Adding twice is harmless; a name that is
 * not a unique name (a peer-to-peer connection has none) is not added. */
void fmd_watchers_add (FmdWatchers *self,
                       const char  *unique_name,
                       guint32      uid);
/* Any thread. */
gboolean fmd_watchers_contains (FmdWatchers *self,
                                const char  *unique_name);
guint fmd_watchers_get_n_watchers (FmdWatchers *self);

/* Sends org.freedesktop.DBus.Properties.PropertiesChanged(@interface_name, @changed,
 * []) to each watcher alone. @changed is an a{sv}, consumed if floating. Main context. */
void fmd_watchers_send_changed (FmdWatchers *self,
                                const char  *interface_name,
                                GVariant    *changed);

G_END_DECLS
