/* fuzz-options.c: Start's option validation on arbitrary a{sv} values, as a client could
 * send them (GVariant serialised data, not necessarily in normal form). */
#include "filemond-backends.h"
#include "filemond-options.h"
#include "fuzz-target.h"

/* made once: every input is checked against the same backends */
static FmdBackendRegistry *
registry (void)
{
  static FmdBackendRegistry *backends;

  if (backends == NULL)
    backends = fmd_backends_new_registry ();
  return backends;
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GVariant) asv = g_variant_ref_sink (
      g_variant_new_from_bytes (G_VARIANT_TYPE_VARDICT, bytes, FALSE));
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = fmd_options_new_from_variant (asv, registry (), &error);

  if (options == NULL)
    {
      g_assert_nonnull (error);
      return 0;
    }
  /* what was accepted describes itself and validates again */
  {
    g_autoptr(GVariant) described = g_variant_ref_sink (fmd_options_to_variant (options));
    g_autoptr(FmdOptions) again = fmd_options_new_from_variant (described, registry (), &error);

    g_assert_no_error (error);
    g_assert_nonnull (again);
  }
  return 0;
}
