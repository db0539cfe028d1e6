/* fmv-live.h: the viewer's connection to filemond: watches the daemon's name on the system
 * bus, reads its event stream (OpenStream) into an FmvStore, reconnects when the daemon
 * comes back, and carries Start, Stop and Save with interactive polkit authorization. */
#pragma once

#include <gio/gio.h>

#include "fmv-store.h"

G_BEGIN_DECLS

typedef enum {
  FMV_LIVE_CONNECTING,   /* looking for the bus and the daemon */
  FMV_LIVE_NO_BUS,       /* no system bus to talk to */
  FMV_LIVE_ABSENT,       /* the daemon is not running (and cannot be activated) */
  FMV_LIVE_REFUSED,      /* polkit refused to let this user watch events */
  FMV_LIVE_NO_AUTHORITY, /* polkit could not be asked; retrying */
  FMV_LIVE_FAILED,       /* the stream could not be opened; retrying */
  FMV_LIVE_CONNECTED,    /* events flow */
} FmvLiveStatus;

/* What the viewer says when filemond cannot ask polkit (AuthorizationUnavailable): not
 * the advice to join the group, which would not help. */
#define FMV_LIVE_POLKIT_DOWN_TEXT \
  "filemond cannot ask polkit who may watch file activity, so it allows nobody; polkit " \
  "may not be running. An administrator can start it with “systemctl start polkit”."

#define FMV_TYPE_LIVE (fmv_live_get_type ())
G_DECLARE_FINAL_TYPE (FmvLive, fmv_live, FMV, LIVE, GObject)

/* Events go into @store. Nothing happens until fmv_live_connect(). */
FmvLive *fmv_live_new (FmvStore *store);
/* Later events go into @store (Clear). */
void fmv_live_set_store (FmvLive  *self,
                         FmvStore *store);
/* Starts watching the bus; calling it again retries at once (after a refusal). */
void fmv_live_connect (FmvLive *self);

/* Properties: "status" (FmvLiveStatus as int), "message" (what the status means, for
 * people), "state" and "backend" (the daemon's), "dropped" (the daemon's DroppedCount),
 * "missed" (events this viewer's stream lost: gap records), "received". The signal
 * "appended" is emitted after each batch of events went into the store. */
FmvLiveStatus fmv_live_get_status (FmvLive *self);
const char *fmv_live_get_message (FmvLive *self);
const char *fmv_live_get_state (FmvLive *self);
const char *fmv_live_get_backend (FmvLive *self);
/* The daemon's AvailableBackends (a{ss}: name -> "" or why it cannot run), NULL when not
 * connected. */
GVariant *fmv_live_get_available_backends (FmvLive *self);
guint64 fmv_live_get_dropped (FmvLive *self);
guint64 fmv_live_get_missed (FmvLive *self);
/* Of those, the ones numbered @first_seq to @last_seq (both included). */
guint64 fmv_live_count_missed_within (FmvLive *self,
                                      guint64  first_seq,
                                      guint64  last_seq);
guint64 fmv_live_get_received (FmvLive *self);
/* While the stream still replays what the daemon had buffered when the viewer connected
 * (up to its whole ring, a million events): TRUE, with how many of how many came
 * (events missed count as come). FALSE once it is live. */
gboolean fmv_live_get_replay_progress (FmvLive *self,
                                       guint64 *done,
                                       guint64 *total);

/* Start(@options), Stop(): each may ask for a password
 * through the session's polkit agent. Errors are FM_ERROR codes
 * (FM_ERROR_NOT_AUTHORIZED when refused) or GIO/D-Bus ones, with the remote prefix gone. */
void fmv_live_start_async (FmvLive             *self,
                           GVariant            *options,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data);
gboolean fmv_live_start_finish (FmvLive       *self,
                                GAsyncResult  *result,
                                GError       **error);
void fmv_live_stop_async (FmvLive             *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data);
gboolean fmv_live_stop_finish (FmvLive       *self,
                               GAsyncResult  *result,
                               GError       **error);

G_END_DECLS
