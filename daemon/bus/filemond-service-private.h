/* filemond-service-private.h: FmdService's instance, shared by its two files:
 * filemond-service.c (authorization, the method handlers, the session's state as
 * properties) and filemond-service-properties.c (who reads which property). */
#pragma once

#include "filemond-service.h"

#include "filemond-limits.h"
#include "filemond-save-slots.h"
#include "filemond-stream.h"
#include "filemond-subscribers.h"
#include "filemond-watchers.h"

G_BEGIN_DECLS

struct _FmdService {
  FmFilemond1Skeleton parent_instance;

  GDBusConnection *connection;
  const FmdConfig *config;
  gboolean session_bus;

  FmdLimits *limits;
  FmdRing *ring;
  FmdSession *session;
  FmdSubscribers *subscribers;
  FmdStreams *streams;
  FmdWatchers *watchers;
  GHashTable *private_changed;  /* D-Bus names of private properties changed since sent */
  guint private_changed_id;

  GCancellable *saves_cancellable;
  FmdSaveSlots *save_slots;

  guint ring_watch;
  guint counters_id;
  gboolean busy;            /* what notify::busy last said */
  gboolean capturing;       /* what watchers were last told */
};

/* The skeleton's vtable without get_property or set_property: GDBus then routes Get and
 * GetAll to method_call, past the authorization, and refuses Set itself (every property
 * is read-only). */
GDBusInterfaceVTable *fmd_service_properties_vtable (GDBusInterfaceSkeleton *skeleton);

/* The caller, allowed to subscribe, follows the private properties from now on. */
void fmd_service_add_watcher (FmdService            *self,
                              GDBusMethodInvocation *invocation);

/* Connected to the service's own notify: sends the private properties' changes to the
 * watchers. */
void fmd_service_private_notify_cb (FmdService *self,
                                    GParamSpec *pspec);

G_END_DECLS
