/* filemond-options.c: Start's a{sv}, validated in one place so that the session and the
 * backends can trust what they read. Nothing a client sends is ignored: an unknown key or
 * a wrong type is refused, naming the key, so a typo never silently widens a capture.
 * The keys are read first, as given; then they become one filter and its kernel part
 * (build_filter()). */
#include "filemond-options.h"

#include <string.h>

#include "fm-error.h"
#include "fm-event.h"
#include "fm-filter-build.h"
#include "filemond-backend-registry.h"

typedef gboolean (*ParseFunc) (FmdOptions *options,
                               const char *key,
                               GVariant   *value,
                               GError    **error);

typedef struct {
  const char *key;
  const char *type;
  ParseFunc parse;
} OptionSpec;

static GPtrArray *
all_syscalls (void)
{
  guint n = 0;
  const FmSyscall *table = fm_syscalls_all (&n);
  GPtrArray *array = g_ptr_array_sized_new (n);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (array, (gpointer) &table[i]);
  return array;
}

FmdOptions *
fmd_options_new_default (void)
{
  FmdOptions *options = g_new0 (FmdOptions, 1);
  const char *empty[] = { NULL };

  options->backend = g_strdup ("auto");
  options->filter_text = g_strdup ("");
  options->filter = fm_filter_new ("", NULL);
  options->syscalls = all_syscalls ();
  options->pids = g_array_new (FALSE, FALSE, sizeof (guint32));
  options->uids = g_array_new (FALSE, FALSE, sizeof (guint32));
  options->comms = g_strdupv ((GStrv) empty);
  options->path_prefixes = g_strdupv ((GStrv) empty);
  return options;
}

FmdOptions *
fmd_options_copy (const FmdOptions *options)
{
  FmdOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);

  copy = g_new0 (FmdOptions, 1);
  copy->backend = g_strdup (options->backend);
  copy->filter_text = g_strdup (options->filter_text);
  copy->filter = fm_filter_ref (options->filter);
  copy->remainder = options->remainder != NULL ? fm_filter_ref (options->remainder) : NULL;
  copy->syscalls = g_ptr_array_copy (options->syscalls, NULL, NULL);
  copy->pids = g_array_copy (options->pids);
  copy->follow_children = options->follow_children;
  copy->uids = g_array_copy (options->uids);
  copy->comms = g_strdupv (options->comms);
  copy->failed_only = options->failed_only;
  copy->path_prefixes = g_strdupv (options->path_prefixes);
  return copy;
}

void
fmd_options_free (FmdOptions *options)
{
  if (options == NULL)
    return;

  g_clear_pointer (&options->backend, g_free);
  g_clear_pointer (&options->filter_text, g_free);
  g_clear_pointer (&options->filter, fm_filter_free);
  g_clear_pointer (&options->remainder, fm_filter_free);
  g_clear_pointer (&options->syscalls, g_ptr_array_unref);
  g_clear_pointer (&options->pids, g_array_unref);
  g_clear_pointer (&options->uids, g_array_unref);
  g_clear_pointer (&options->comms, g_strfreev);
  g_clear_pointer (&options->path_prefixes, g_strfreev);
  g_free (options);
}

/* The name is checked against the registry by backend_known(), right after. */
static gboolean
parse_backend (FmdOptions *options,
               const char *key,
               GVariant   *value,
               GError    **error)
{
  g_free (options->backend);
  options->backend = g_strdup (g_variant_get_string (value, NULL));
  return TRUE;
}

static gboolean
backend_known (FmdBackendRegistry  *registry,
               const char          *key,
               const char          *name,
               GError             **error)
{
  g_autofree char *names = NULL;

  if (fmd_backend_registry_name_is_valid (registry, name))
    return TRUE;
  names = fmd_backend_registry_dup_names (registry);
  g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
               "option “%s”: unknown backend “%s” (use %s)", key, name, names);
  return FALSE;
}

/* Lists are refused past a documented length before any element is looked at, so that
 * what the main loop does for a Start stays small whatever a caller sends. */
static gboolean
check_length (const char *key,
              GVariant   *value,
              gsize       max,
              GError    **error)
{
  gsize n = g_variant_n_children (value);

  if (n > max)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                   "option “%s”: %" G_GSIZE_FORMAT " elements; at most %" G_GSIZE_FORMAT
                   " are allowed", key, n, max);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_syscalls (FmdOptions *options,
                const char *key,
                GVariant   *value,
                GError    **error)
{
  g_autoptr(GPtrArray) syscalls = g_ptr_array_new ();
  g_autofree const char **names = NULL;

  if (!check_length (key, value, FMD_OPTIONS_MAX_SYSCALLS, error))
    return FALSE;
  names = g_variant_get_strv (value, NULL);

  if (names[0] == NULL)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                   "option “%s”: the list is empty; name at least one syscall, or leave the "
                   "option out to capture all of them", key);
      return FALSE;
    }

  for (gsize i = 0; names[i] != NULL; i++)
    {
      const FmSyscall *sc = fm_syscall_by_name (names[i]);

      if (sc == NULL)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "option “%s”: unknown syscall “%s” ('filemonctl start --syscalls=help' "
                       "lists those filemon traces)", key, names[i]);
          return FALSE;
        }
      if (!g_ptr_array_find (syscalls, sc, NULL))
        g_ptr_array_add (syscalls, (gpointer) sc);
    }

  g_clear_pointer (&options->syscalls, g_ptr_array_unref);
  options->syscalls = g_steal_pointer (&syscalls);
  return TRUE;
}

static gboolean
parse_ids (const char *key,
           GVariant   *value,
           GArray     *out,
           GError    **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  gsize n = 0;
  const guint32 *ids;
  gboolean is_pids = g_str_equal (key, "pids");

  if (!check_length (key, value, FMD_OPTIONS_MAX_IDS, error))
    return FALSE;
  ids = g_variant_get_fixed_array (value, &n, sizeof (guint32));

  for (gsize i = 0; i < n; i++)
    {
      /* pid 0 is the idle task and (uid_t) -1 means "unchanged" to chown: neither can be
       * the subject of a file syscall, so either is a client mistake. */
      if ((is_pids && ids[i] == 0) || ids[i] == G_MAXUINT32)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "option “%s”: %u is not a valid %s", key, ids[i],
                       is_pids ? "process id" : "user id");
          return FALSE;
        }
      if (g_hash_table_add (seen, GUINT_TO_POINTER (ids[i])))
        g_array_append_val (out, ids[i]);
    }
  return TRUE;
}

static gboolean
parse_pids (FmdOptions *options,
            const char *key,
            GVariant   *value,
            GError    **error)
{
  g_array_set_size (options->pids, 0);
  return parse_ids (key, value, options->pids, error);
}

static gboolean
parse_uids (FmdOptions *options,
            const char *key,
            GVariant   *value,
            GError    **error)
{
  g_array_set_size (options->uids, 0);
  return parse_ids (key, value, options->uids, error);
}

static gboolean
parse_follow_children (FmdOptions *options,
                       const char *key,
                       GVariant   *value,
                       GError    **error)
{
  options->follow_children = g_variant_get_boolean (value);
  return TRUE;
}

static gboolean
parse_failed_only (FmdOptions *options,
                   const char *key,
                   GVariant   *value,
                   GError    **error)
{
  options->failed_only = g_variant_get_boolean (value);
  return TRUE;
}

static gboolean
parse_comms (FmdOptions *options,
             const char *key,
             GVariant   *value,
             GError    **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree const char **names = NULL;

  if (!check_length (key, value, FMD_OPTIONS_MAX_COMMS, error))
    return FALSE;
  names = g_variant_get_strv (value, NULL);

  for (gsize i = 0; names[i] != NULL; i++)
    {
      gsize len = strlen (names[i]);

      if (len == 0 || len > FM_COMM_MAX - 1)
        {
          /* the name is shown cut short: it may be any size up to the call's bound */
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "option “%s”: “%.*s%s” is not a process name (1 to %d bytes, as in "
                       "/proc/PID/comm)", key, 64, names[i], len > 64 ? "…" : "",
                       FM_COMM_MAX - 1);
          return FALSE;
        }
      if (g_hash_table_add (seen, (gpointer) names[i]))
        g_strv_builder_add (builder, names[i]);
    }

  g_strfreev (options->comms);
  options->comms = g_strv_builder_end (builder);
  return TRUE;
}

static gboolean
parse_path_prefixes (FmdOptions *options,
                     const char *key,
                     GVariant   *value,
                     GError    **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree const char **prefixes = NULL;

  if (!check_length (key, value, FMD_OPTIONS_MAX_PREFIXES, error))
    return FALSE;
  prefixes = g_variant_get_strv (value, NULL);

  for (gsize i = 0; prefixes[i] != NULL; i++)
    {
      char *canonical;

      if (strlen (prefixes[i]) > FMD_OPTIONS_MAX_PREFIX_BYTES)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "option “%s”: a prefix of %" G_GSIZE_FORMAT " bytes; at most %d are "
                       "allowed (PATH_MAX)", key, strlen (prefixes[i]),
                       FMD_OPTIONS_MAX_PREFIX_BYTES);
          return FALSE;
        }
      /* ".." is refused: the kernel side reports resolved paths, so a prefix with ".."
       * would never match */
      canonical = fm_path_prefix_canonical (prefixes[i]);
      if (canonical == NULL)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "option “%s”: “%s” is not an absolute path without “..”", key,
                       prefixes[i]);
          return FALSE;
        }
      if (!g_hash_table_add (seen, canonical))
        continue;
      g_strv_builder_add (builder, canonical);
    }

  g_strfreev (options->path_prefixes);
  options->path_prefixes = g_strv_builder_end (builder);
  return TRUE;
}

static gboolean
parse_filter (FmdOptions *options,
              const char *key,
              GVariant   *value,
              GError    **error)
{
  gsize len = 0;
  const char *text = g_variant_get_string (value, &len);

  if (len > FMD_OPTIONS_MAX_FILTER_BYTES)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                   "option “%s”: %" G_GSIZE_FORMAT " bytes; at most %d are allowed", key,
                   len, FMD_OPTIONS_MAX_FILTER_BYTES);
      return FALSE;
    }
  g_free (options->filter_text);
  options->filter_text = g_strdup (text);
  return TRUE;
}

static const OptionSpec option_specs[] = {
  { "backend", "s", parse_backend },
  { "filter", "s", parse_filter },
  { "syscalls", "as", parse_syscalls },
  { "pids", "au", parse_pids },
  { "follow-children", "b", parse_follow_children },
  { "uids", "au", parse_uids },
  { "comms", "as", parse_comms },
  { "failed-only", "b", parse_failed_only },
  { "path-prefixes", "as", parse_path_prefixes },
};

/* The older keys as conjuncts of the filter; pids with follow-children stay out: the
 * processes started later are known to the backend only. */
static FmFilter *
with_keys (FmFilter          *filter,
           const FmdOptions  *options)
{
  guint n_all = 0;

  fm_syscalls_all (&n_all);
  if (options->syscalls->len < n_all)
    {
      g_autofree guint32 *nrs = g_new (guint32, options->syscalls->len);

      for (guint i = 0; i < options->syscalls->len; i++)
        nrs[i] = ((const FmSyscall *) g_ptr_array_index (options->syscalls, i))->nr;
      filter = fm_filter_new_and (filter, fm_filter_new_any_number (FM_FIELD_SYSCALL, nrs,
                                                                    options->syscalls->len));
    }
  if (options->pids->len > 0 && !options->follow_children)
    filter = fm_filter_new_and (filter, fm_filter_new_any_number (FM_FIELD_PID,
                                                                  (guint32 *) options->pids->data,
                                                                  options->pids->len));
  if (options->uids->len > 0)
    filter = fm_filter_new_and (filter, fm_filter_new_any_number (FM_FIELD_UID,
                                                                  (guint32 *) options->uids->data,
                                                                  options->uids->len));
  if (options->comms[0] != NULL)
    filter = fm_filter_new_and (filter, fm_filter_new_any_text (FM_FIELD_COMM,
                                                                (const char *const *) options->comms));
  if (options->failed_only)
    filter = fm_filter_new_and (filter, fm_filter_new_failed ());
  if (options->path_prefixes[0] != NULL)
    filter = fm_filter_new_and (filter, fm_filter_new_below ((const char *const *) options->path_prefixes));
  return filter;
}

static GStrv
strv_of (GPtrArray *texts)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; texts != NULL && i < texts->len; i++)
    g_strv_builder_add (builder, texts->pdata[i]);
  return g_strv_builder_end (builder);
}

static gboolean
has_id (GArray  *ids,
        guint32  id)
{
  for (guint i = 0; i < ids->len; i++)
    if (g_array_index (ids, guint32, i) == id)
      return TRUE;
  return FALSE;
}

/* The one filter, from the "filter" key and the older keys, and the kernel part of it in
 * the fields the backends read. */
static gboolean
build_filter (FmdOptions  *options,
              GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(FmFilterKernel) kernel = NULL;
  FmFilter *filter = fm_filter_new (options->filter_text, &local_error);

  if (filter == NULL)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS, "option “filter”: %s",
                   local_error->message);
      return FALSE;
    }
  /* the default filter is shared by nothing yet: it goes, the new one takes its place */
  g_clear_pointer (&options->filter, fm_filter_free);
  options->filter = with_keys (filter, options);

  kernel = fm_filter_kernel_part (options->filter);
  if (kernel->matches_nothing)
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                           "the filter and the options together can match no event (e.g. "
                           "two different pids both required, or a process name longer "
                           "than 15 bytes)");
      return FALSE;
    }
  /* the syscalls key's order (or the table's) is kept: only those the filter excludes go */
  for (guint i = 0; kernel->syscalls != NULL && i < options->syscalls->len;)
    {
      guint32 nr = ((const FmSyscall *) g_ptr_array_index (options->syscalls, i))->nr;

      if (!has_id (kernel->syscalls, nr))
        g_ptr_array_remove_index (options->syscalls, i);
      else
        i++;
    }
  if (!options->follow_children)
    {
      g_array_set_size (options->pids, 0);
      if (kernel->pids != NULL)
        g_array_append_vals (options->pids, kernel->pids->data, kernel->pids->len);
    }
  g_array_set_size (options->uids, 0);
  if (kernel->uids != NULL)
    g_array_append_vals (options->uids, kernel->uids->data, kernel->uids->len);
  g_strfreev (options->comms);
  options->comms = strv_of (kernel->comms);
  options->failed_only = kernel->failed_only;
  g_strfreev (options->path_prefixes);
  options->path_prefixes = strv_of (kernel->path_prefixes);
  /* with follow-children the backend takes the pids key's processes and their children,
   * not the filter's pids */
  g_clear_pointer (&options->remainder, fm_filter_free);
  options->remainder = fm_filter_kernel_remainder (options->filter,
                                                   FM_FILTER_TRAIT_SYSCALL | FM_FILTER_TRAIT_UID
                                                   | FM_FILTER_TRAIT_FAILED
                                                   | (options->follow_children ? 0 : FM_FILTER_TRAIT_PID));
  return TRUE;
}

FmdOptions *
fmd_options_new_from_variant (GVariant            *asv,
                              FmdBackendRegistry  *registry,
                              GError             **error)
{
  g_autoptr(FmdOptions) options = fmd_options_new_default ();
  GVariantIter iter;
  const char *key;
  GVariant *next_value;

  g_return_val_if_fail (asv != NULL, NULL);
  g_return_val_if_fail (g_variant_is_of_type (asv, G_VARIANT_TYPE_VARDICT), NULL);
  g_return_val_if_fail (FMD_IS_BACKEND_REGISTRY (registry), NULL);

  g_variant_iter_init (&iter, asv);
  while (g_variant_iter_next (&iter, "{&sv}", &key, &next_value))
    {
      g_autoptr(GVariant) value = next_value;
      const OptionSpec *spec = NULL;

      for (gsize i = 0; i < G_N_ELEMENTS (option_specs); i++)
        if (g_str_equal (option_specs[i].key, key))
          spec = &option_specs[i];

      if (spec == NULL)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "unknown option “%s” (known: backend, filter, syscalls, pids, "
                       "follow-children, uids, comms, failed-only, path-prefixes)", key);
          return NULL;
        }

      if (!g_variant_is_of_type (value, G_VARIANT_TYPE (spec->type)))
        {
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "option “%s” must be of type “%s”, not “%s”", key, spec->type,
                       g_variant_get_type_string (value));
          return NULL;
        }

      if (!spec->parse (options, key, value, error) ||
          (spec->parse == parse_backend &&
           !backend_known (registry, key, options->backend, error)))
        return NULL;
    }

  if (options->follow_children && options->pids->len == 0)
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                           "option “follow-children” needs “pids”: name the processes "
                           "whose children to follow");
      return NULL;
    }

  if (!build_filter (options, error))
    return NULL;
  return g_steal_pointer (&options);
}

static GVariant *
ids_to_variant (GArray *ids)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, ids->data, ids->len,
                                    sizeof (guint32));
}

GVariant *
fmd_options_to_variant (const FmdOptions *options)
{
  GVariantBuilder builder;
  GVariantBuilder names;

  g_return_val_if_fail (options != NULL, NULL);

  g_variant_builder_init (&names, G_VARIANT_TYPE_STRING_ARRAY);
  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);
      g_variant_builder_add (&names, "s", sc->name);
    }

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&builder, "{sv}", "backend",
                         g_variant_new_string (options->backend));
  g_variant_builder_add (&builder, "{sv}", "filter",
                         g_variant_new_string (options->filter_text));
  g_variant_builder_add (&builder, "{sv}", "syscalls", g_variant_builder_end (&names));
  g_variant_builder_add (&builder, "{sv}", "pids", ids_to_variant (options->pids));
  g_variant_builder_add (&builder, "{sv}", "follow-children",
                         g_variant_new_boolean (options->follow_children));
  g_variant_builder_add (&builder, "{sv}", "uids", ids_to_variant (options->uids));
  g_variant_builder_add (&builder, "{sv}", "comms",
                         g_variant_new_strv ((const char * const *) options->comms, -1));
  g_variant_builder_add (&builder, "{sv}", "failed-only",
                         g_variant_new_boolean (options->failed_only));
  g_variant_builder_add (&builder, "{sv}", "path-prefixes",
                         g_variant_new_strv ((const char * const *) options->path_prefixes, -1));
  return g_variant_builder_end (&builder);
}

gboolean
fmd_options_has_syscall (const FmdOptions *options,
                         guint             nr)
{
  g_return_val_if_fail (options != NULL, FALSE);

  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);
      if (sc->nr == nr)
        return TRUE;
    }
  return FALSE;
}
