/* filemond-backend-type.c: the base of every backend type; see filemond-backend-type.h. */
#include "config.h"

#include "filemond-backend-type.h"

typedef struct {
  char *name;
} FmdBackendTypePrivate;

enum {
  PROP_0,
  PROP_NAME,
  N_PROPS
};

enum {
  SIGNAL_PROBE_REQUEST,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (FmdBackendType, fmd_backend_type, G_TYPE_OBJECT)

const char *
fmd_backend_type_get_name (FmdBackendType *self)
{
  FmdBackendTypePrivate *priv = fmd_backend_type_get_instance_private (self);

  g_return_val_if_fail (FMD_IS_BACKEND_TYPE (self), NULL);

  return priv->name;
}

FmdProbeResult
fmd_backend_type_probe (FmdBackendType   *self,
                        const FmdConfig  *config,
                        char            **reason)
{
  FmdProbeResult result;
  char *why = NULL;

  g_return_val_if_fail (FMD_IS_BACKEND_TYPE (self), FMD_PROBE_FAIL);
  g_return_val_if_fail (config != NULL, FMD_PROBE_FAIL);
  g_return_val_if_fail (reason != NULL && *reason == NULL, FMD_PROBE_FAIL);

  result = FMD_BACKEND_TYPE_GET_CLASS (self)->probe (self, config, &why);
  g_assert ((result == FMD_PROBE_FAIL) == (why != NULL));
  *reason = why;
  return result;
}

FmdBackend *
fmd_backend_type_create (FmdBackendType  *self,
                         const FmdConfig *config)
{
  FmdBackendTypeClass *klass;

  g_return_val_if_fail (FMD_IS_BACKEND_TYPE (self), NULL);
  g_return_val_if_fail (config != NULL, NULL);

  klass = FMD_BACKEND_TYPE_GET_CLASS (self);
  return klass->create != NULL ? klass->create (self, config) : NULL;
}

void
fmd_backend_type_request_probe (FmdBackendType *self)
{
  g_return_if_fail (FMD_IS_BACKEND_TYPE (self));

  g_signal_emit (self, signals[SIGNAL_PROBE_REQUEST], 0);
}

static void
fmd_backend_type_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  FmdBackendTypePrivate *priv = fmd_backend_type_get_instance_private (FMD_BACKEND_TYPE (object));

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, priv->name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fmd_backend_type_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  FmdBackendTypePrivate *priv = fmd_backend_type_get_instance_private (FMD_BACKEND_TYPE (object));

  switch (prop_id)
    {
    case PROP_NAME:
      g_free (priv->name);
      priv->name = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fmd_backend_type_finalize (GObject *object)
{
  FmdBackendTypePrivate *priv = fmd_backend_type_get_instance_private (FMD_BACKEND_TYPE (object));

  g_free (priv->name);

  G_OBJECT_CLASS (fmd_backend_type_parent_class)->finalize (object);
}

static void
fmd_backend_type_class_init (FmdBackendTypeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = fmd_backend_type_get_property;
  object_class->set_property = fmd_backend_type_set_property;
  object_class->finalize = fmd_backend_type_finalize;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, "",
                                               G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                               G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_PROBE_REQUEST] = g_signal_new ("probe-request", G_TYPE_FROM_CLASS (klass),
                                                G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                G_TYPE_NONE, 0);
}

static void
fmd_backend_type_init (FmdBackendType *self)
{
}
