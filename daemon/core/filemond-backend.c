/* filemond-backend.c: the backend base class: it holds the sink and forwards to it. */
#include "config.h"

#include "filemond-backend.h"

typedef struct {
  FmdBackendSink sink;
  gpointer user_data;
} FmdBackendPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (FmdBackend, fmd_backend, G_TYPE_OBJECT)

static void
fmd_backend_class_init (FmdBackendClass *klass)
{
}

static void
fmd_backend_init (FmdBackend *self)
{
}

void
fmd_backend_set_sink (FmdBackend           *self,
                      const FmdBackendSink *sink,
                      gpointer              user_data)
{
  FmdBackendPrivate *priv = fmd_backend_get_instance_private (self);

  g_return_if_fail (FMD_IS_BACKEND (self));
  g_return_if_fail (sink != NULL);

  priv->sink = *sink;
  priv->user_data = user_data;
}

gboolean
fmd_backend_start (FmdBackend       *self,
                   const FmdOptions *options,
                   GError          **error)
{
  g_return_val_if_fail (FMD_IS_BACKEND (self), FALSE);
  g_return_val_if_fail (options != NULL, FALSE);

  return FMD_BACKEND_GET_CLASS (self)->start (self, options, error);
}

void
fmd_backend_stop (FmdBackend *self)
{
  g_return_if_fail (FMD_IS_BACKEND (self));

  FMD_BACKEND_GET_CLASS (self)->stop (self);
}

void
fmd_backend_emit_event (FmdBackend *self, const FmEvent *event)
{
  FmdBackendPrivate *priv = fmd_backend_get_instance_private (self);

  if (priv->sink.event != NULL)
    priv->sink.event (event, priv->user_data);
}

void
fmd_backend_emit_running (FmdBackend *self)
{
  FmdBackendPrivate *priv = fmd_backend_get_instance_private (self);

  if (priv->sink.running != NULL)
    priv->sink.running (priv->user_data);
}

void
fmd_backend_emit_compiling (FmdBackend *self, const char *progress)
{
  FmdBackendPrivate *priv = fmd_backend_get_instance_private (self);

  if (priv->sink.compiling != NULL)
    priv->sink.compiling (progress, priv->user_data);
}

void
fmd_backend_emit_dropped (FmdBackend *self, guint64 count)
{
  FmdBackendPrivate *priv = fmd_backend_get_instance_private (self);

  if (count > 0 && priv->sink.dropped != NULL)
    priv->sink.dropped (count, priv->user_data);
}

void
fmd_backend_emit_failed (FmdBackend *self, const GError *error)
{
  FmdBackendPrivate *priv = fmd_backend_get_instance_private (self);

  if (priv->sink.failed != NULL)
    priv->sink.failed (error, priv->user_data);
}

void
fmd_backend_emit_stopped (FmdBackend *self)
{
  FmdBackendPrivate *priv = fmd_backend_get_instance_private (self);

  if (priv->sink.stopped != NULL)
    priv->sink.stopped (priv->user_data);
}
