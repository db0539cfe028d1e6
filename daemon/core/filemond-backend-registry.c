/* filemond-backend-registry.c: the backend types of a daemon; see
 * filemond-backend-registry.h. */
#include "config.h"

#include "filemond-backend-registry.h"

struct _FmdBackendRegistry {
  GObject parent_instance;

  GPtrArray *types;   /* FmdBackendType, in the order "auto" tries them */
};

enum {
  SIGNAL_PROBE_REQUEST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (FmdBackendRegistry, fmd_backend_registry, G_TYPE_OBJECT)

FmdBackendRegistry *
fmd_backend_registry_new (void)
{
  return g_object_new (FMD_TYPE_BACKEND_REGISTRY, NULL);
}

static void
type_probe_request_cb (FmdBackendType     *type,
                       FmdBackendRegistry *self)
{
  g_signal_emit (self, signals[SIGNAL_PROBE_REQUEST], 0, type);
}

void
fmd_backend_registry_add (FmdBackendRegistry *self,
                          FmdBackendType     *type)
{
  g_return_if_fail (FMD_IS_BACKEND_REGISTRY (self));
  g_return_if_fail (FMD_IS_BACKEND_TYPE (type));
  g_return_if_fail (fmd_backend_registry_lookup (self, fmd_backend_type_get_name (type)) == NULL);

  g_ptr_array_add (self->types, g_object_ref (type));
  g_signal_connect_object (type, "probe-request", G_CALLBACK (type_probe_request_cb), self, 0);
}

guint
fmd_backend_registry_get_n_types (FmdBackendRegistry *self)
{
  g_return_val_if_fail (FMD_IS_BACKEND_REGISTRY (self), 0);

  return self->types->len;
}

FmdBackendType *
fmd_backend_registry_nth (FmdBackendRegistry *self,
                          guint               index)
{
  g_return_val_if_fail (FMD_IS_BACKEND_REGISTRY (self), NULL);
  g_return_val_if_fail (index < self->types->len, NULL);

  return g_ptr_array_index (self->types, index);
}

FmdBackendType *
fmd_backend_registry_lookup (FmdBackendRegistry *self,
                             const char         *name)
{
  g_return_val_if_fail (FMD_IS_BACKEND_REGISTRY (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->types->len; i++)
    {
      FmdBackendType *type = g_ptr_array_index (self->types, i);

      if (g_str_equal (fmd_backend_type_get_name (type), name))
        return type;
    }
  return NULL;
}

gboolean
fmd_backend_registry_name_is_valid (FmdBackendRegistry *self,
                                    const char         *name)
{
  g_return_val_if_fail (FMD_IS_BACKEND_REGISTRY (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  return g_str_equal (name, "auto") || fmd_backend_registry_lookup (self, name) != NULL;
}

char *
fmd_backend_registry_dup_names (FmdBackendRegistry *self)
{
  GString *list = g_string_new ("auto");

  g_return_val_if_fail (FMD_IS_BACKEND_REGISTRY (self), NULL);

  for (guint i = 0; i < self->types->len; i++)
    g_string_append_printf (list, i + 1 < self->types->len ? ", %s" : " or %s",
                            fmd_backend_type_get_name (g_ptr_array_index (self->types, i)));
  return g_string_free (list, FALSE);
}

/* The types go with the registry: each releases what it kept between captures. */
static void
fmd_backend_registry_dispose (GObject *object)
{
  FmdBackendRegistry *self = FMD_BACKEND_REGISTRY (object);

  for (guint i = 0; self->types != NULL && i < self->types->len; i++)
    {
      FmdBackendType *type = g_ptr_array_index (self->types, i);

      g_signal_handlers_disconnect_by_data (type, self);
      g_object_run_dispose (G_OBJECT (type));
    }
  g_clear_pointer (&self->types, g_ptr_array_unref);

  G_OBJECT_CLASS (fmd_backend_registry_parent_class)->dispose (object);
}

static void
fmd_backend_registry_class_init (FmdBackendRegistryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fmd_backend_registry_dispose;

  signals[SIGNAL_PROBE_REQUEST] = g_signal_new ("probe-request", G_TYPE_FROM_CLASS (klass),
                                                G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                G_TYPE_NONE, 1, FMD_TYPE_BACKEND_TYPE);
}

static void
fmd_backend_registry_init (FmdBackendRegistry *self)
{
  self->types = g_ptr_array_new_with_free_func (g_object_unref);
}
