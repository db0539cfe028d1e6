/* fmv-live-private.h: what fmv-live-calls.c needs from fmv-live.c. */
#pragma once

#include "fm-dbus-generated.h"
#include "fmv-live.h"

G_BEGIN_DECLS

/* The daemon's proxy, NULL while there is no daemon. */
FmFilemond1 *fmv_live_get_proxy (FmvLive *self);

G_END_DECLS
