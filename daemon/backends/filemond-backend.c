/* filemond-backend.c: the backend base class (holds the sink and forwards to it) and the
 * registry of backend types. */
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

/* --- the registry ---------------------------------------------------------------------- */

#ifndef HAVE_BPF
static char *
bpf_missing_probe (const FmdBackendType *type,
                   const FmdConfig      *config,
                   GObject              *notify)
{
  return g_strdup ("bpf: filemon was built without libbpf");
}

/* AvailableBackends still lists bpf, saying why it cannot run. */
const FmdBackendType fmd_backend_type_bpf = { "bpf", bpf_missing_probe, NULL, NULL, NULL };
#endif

/* SystemTap first: the backend filemon is built around, where it can run. */
static const FmdBackendType *const registry[] = {
  &fmd_backend_type_stap,
  &fmd_backend_type_bpf,
  NULL,
};

const FmdBackendType *const *
fmd_backend_types (void)
{
  return registry;
}

const FmdBackendType *
fmd_backend_types_lookup (const FmdBackendType *const *types,
                          const char                  *name)
{
  g_return_val_if_fail (types != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (gsize i = 0; types[i] != NULL; i++)
    if (g_str_equal (types[i]->name, name))
      return types[i];
  return NULL;
}

gboolean
fmd_backend_name_is_valid (const char *name)
{
  g_return_val_if_fail (name != NULL, FALSE);

  return g_str_equal (name, "auto") || fmd_backend_types_lookup (registry, name) != NULL;
}

char *
fmd_backend_names_list (void)
{
  GString *list = g_string_new ("auto");

  for (gsize i = 0; registry[i] != NULL; i++)
    g_string_append_printf (list, registry[i + 1] != NULL ? ", %s" : " or %s",
                            registry[i]->name);
  return g_string_free (list, FALSE);
}

void
fmd_backend_types_shutdown (void)
{
  for (gsize i = 0; registry[i] != NULL; i++)
    if (registry[i]->shutdown != NULL)
      registry[i]->shutdown (registry[i]);
}
