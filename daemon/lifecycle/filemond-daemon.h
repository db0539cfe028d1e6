/* filemond-daemon.h: filemond as a process: what it owns (the ring and the capture
 * session), when it is ready, when it exits (SIGTERM, SIGINT, IdleTimeoutSec of nothing,
 * the bus gone) and how (the capture stopped and the clients served first), and what it
 * tells systemd (READY, STATUS with the counters, WATCHDOG, STOPPING).
 *
 * It knows the D-Bus side only as FmdService's busy state and counts. */
#pragma once

#include <glib-object.h>

#include "filemond-config.h"
#include "filemond-ring.h"
#include "filemond-service.h"
#include "filemond-session.h"

G_BEGIN_DECLS

#define FMD_TYPE_DAEMON (fmd_daemon_get_type ())
G_DECLARE_FINAL_TYPE (FmdDaemon, fmd_daemon, FMD, DAEMON, GObject)

/* @config must outlive the daemon; its session chooses backends from @registry. */
FmdDaemon *fmd_daemon_new (const FmdConfig    *config,
                           FmdBackendRegistry *registry);

FmdSession *fmd_daemon_get_session (FmdDaemon *self);
FmdRing *fmd_daemon_get_ring (FmdDaemon *self);

/* The clients' side, whose activity keeps the daemon from idling and whose clients are
 * served before it exits. A reference is kept until the daemon is disposed. */
void fmd_daemon_set_service (FmdDaemon  *self,
                             FmdService *service);

/* Clients can reach the daemon as @name: tells systemd it is ready. */
void fmd_daemon_ready (FmdDaemon  *self,
                       const char *name);

/* Begins the exit: stops the capture (waiting at most a bounded time for the backend to be
 * gone), cancels saves, serves subscribers and streams what they are owed, then ends
 * fmd_daemon_run() with @exit_status. Later calls change nothing. */
void fmd_daemon_quit (FmdDaemon  *self,
                      int         exit_status,
                      const char *why);

/* Runs the main loop until the exit is done; handles SIGTERM and SIGINT (exit status 0).
 * Returns the exit status. */
int fmd_daemon_run (FmdDaemon *self);

G_END_DECLS
