/* filemond-config.c: reads filemond.conf. Strict on purpose: a typo in a key name would
 * otherwise silently leave a default in place, so unknown groups and keys are errors. */
#include "config.h"

#include "filemond-config.h"

#include <string.h>
#include <gio/gio.h>

#include "filemond-backend-registry.h"
#include "fm-error.h"
#include "fm-names.h"

#define KIB ((guint64) 1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)

typedef enum {
  KEY_COUNT,       /* a plain unsigned number */
  KEY_BYTES,       /* a number with an optional K/M/G suffix */
  KEY_ABS_PATH,
  KEY_BACKEND,
  KEY_BOOL,
} KeyKind;

typedef struct {
  const char *group;
  const char *key;
  KeyKind kind;
  guint64 min;
  guint64 max;
  gsize offset;       /* into FmdConfig */
  gsize size;         /* of the field, for numbers */
  const char *help;   /* filemond.conf(5) is generated from it (filemond-conf-gen.c) */
} KeySpec;

#define NUM(g, k, kind, lo, hi, field, help) \
  { g, k, kind, lo, hi, G_STRUCT_OFFSET (FmdConfig, field), sizeof (((FmdConfig *) 0)->field), help }
#define STR(g, k, kind, field, help) \
  { g, k, kind, 0, 0, G_STRUCT_OFFSET (FmdConfig, field), 0, help }

/* The one table of keys: the parser, the man page and its test read it. */
static const KeySpec keys[] = {
  NUM ("Buffer", "Events", KEY_COUNT, 1000, 100000000, buffer_events,
       "Most events the ring buffer keeps. When it is full, the oldest go and are counted "
       "in the OverwrittenCount property."),
  NUM ("Buffer", "Bytes", KEY_BYTES, MIB, 64 * GIB, buffer_bytes,
       "Most bytes the ring buffer keeps, events encoded. Whichever of Events and Bytes is "
       "reached first makes the oldest events go."),
  NUM ("Daemon", "IdleTimeoutSec", KEY_COUNT, 0, 86400, idle_timeout_sec,
       "Exit after this many seconds with no capture, no subscriber and no open stream; "
       "D-Bus activation starts filemond again on the next call. 0 means never exit when "
       "idle. The buffered events of a stopped capture are lost when it exits."),
  NUM ("Daemon", "SaveStallSec", KEY_COUNT, 1, 3600, save_stall_sec,
       "A Save whose reader takes nothing for this many seconds is abandoned (the call "
       "fails with Io), so that a reader that never reads cannot hold a save slot."),
  STR ("Daemon", "DefaultBackend", KEY_BACKEND, default_backend,
       "What Start's backend \"auto\" (or no backend) means: auto (stap when it can run "
       "here, else bpf), stap or bpf."),
  NUM ("Subscribers", "QueueEvents", KEY_COUNT, 16, 16777216, subscriber_queue_events,
       "Most events queued for one subscriber of the Events signal; one that keeps "
       "overflowing is unsubscribed."),
  NUM ("Subscribers", "StreamBufferBytes", KEY_BYTES, 64 * KIB, 16 * MIB, stream_buffer_bytes,
       "Most bytes buffered for one OpenStream reader, kernel memory held whether or not "
       "the reader reads; a reader that falls further behind gets a gap record with the "
       "exact count of what it missed."),
  STR ("Stap", "Path", KEY_ABS_PATH, stap_path,
       "The SystemTap driver (an absolute path)."),
  NUM ("Stap", "BufferMB", KEY_COUNT, 1, 4095, stap_buffer_mb,
       "stap -s: the kernel-side buffer of the SystemTap module in MiB."),
  STR ("Stap", "CheckKernel", KEY_BOOL, stap_check_kernel,
       "Before using stap, check that the kernel can load its modules (module support and "
       "a build tree under /lib/modules); false trusts Path alone (a stap wrapper that runs "
       "elsewhere, or a test's stand-in)."),
  NUM ("Bpf", "RingBufferMB", KEY_COUNT, 1, 4095, bpf_ringbuf_mb,
       "The BPF ring buffer in MiB, rounded up to a power of two: the events recorded while "
       "filemond waits for a CPU, about 4 400 a MiB. Raise it where DroppedCount grows "
       "during bursts; each MiB counts twice in filemond's resident memory."),
};

/* "268435456" -> "256M": the largest suffix that divides exactly. */
static char *
format_bytes (guint64 n)
{
  if (n != 0 && n % GIB == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "G", n / GIB);
  if (n != 0 && n % MIB == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "M", n / MIB);
  if (n != 0 && n % KIB == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "K", n / KIB);
  return g_strdup_printf ("%" G_GUINT64_FORMAT, n);
}

static char *
format_number (const KeySpec *spec,
               guint64        n)
{
  return spec->kind == KEY_BYTES ? format_bytes (n)
                                 : g_strdup_printf ("%" G_GUINT64_FORMAT, n);
}

gboolean
fmd_config_key_info (guint               index,
                     FmdBackendRegistry *registry,
                     FmdConfigKey       *info)
{
  g_autoptr(FmdConfig) defaults = NULL;
  const KeySpec *spec;
  const guint8 *field;

  g_return_val_if_fail (info != NULL, FALSE);

  if (index >= G_N_ELEMENTS (keys))
    return FALSE;

  spec = &keys[index];
  defaults = fmd_config_new_default ();
  field = (const guint8 *) defaults + spec->offset;
  info->group = spec->group;
  info->key = spec->key;
  info->help = spec->help;
  info->range = NULL;

  switch (spec->kind)
    {
    case KEY_COUNT:
    case KEY_BYTES:
      {
        guint64 n = spec->size == sizeof (guint64) ? *(const guint64 *) field
                                                   : *(const guint *) field;
        g_autofree char *lo = format_number (spec, spec->min);
        g_autofree char *hi = format_number (spec, spec->max);

        info->default_value = format_number (spec, n);
        info->range = g_strdup_printf ("%s .. %s", lo, hi);
        if (spec->kind == KEY_BYTES)
          info->value_kind = "SIZE";
        else
          info->value_kind = "NUMBER";
        break;
      }
    case KEY_ABS_PATH:
      info->default_value = g_strdup (*(char * const *) field);
      info->value_kind = "PATH";
      break;
    case KEY_BACKEND:
      info->default_value = g_strdup (*(char * const *) field);
      info->range = fmd_backend_registry_dup_names (registry);
      info->value_kind = "BACKEND";
      break;
    case KEY_BOOL:
      info->default_value = g_strdup (*(const gboolean *) field ? "true" : "false");
      info->range = g_strdup ("true, false");
      info->value_kind = "BOOLEAN";
      break;
    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

void
fmd_config_key_clear (FmdConfigKey *info)
{
  g_clear_pointer (&info->default_value, g_free);
  g_clear_pointer (&info->range, g_free);
}

const char *
fmd_config_default_path (void)
{
  return FILEMON_SYSCONFDIR "/" FM_CONFIG_FILE;
}

FmdConfig *
fmd_config_new_default (void)
{
  FmdConfig *config = g_new0 (FmdConfig, 1);

  config->buffer_events = 1000000;
  config->buffer_bytes = 256 * MIB;
  config->idle_timeout_sec = 60;
  config->save_stall_sec = 30;
  config->default_backend = g_strdup ("auto");
  config->subscriber_queue_events = 65536;
  config->stream_buffer_bytes = 1 * MIB;
  config->stap_path = g_strdup (FILEMON_STAP_PATH);
  config->stap_buffer_mb = 64;
  config->stap_check_kernel = TRUE;
  config->bpf_ringbuf_mb = FMD_CONFIG_BPF_RINGBUF_MB;

  return config;
}

void
fmd_config_free (FmdConfig *config)
{
  if (config == NULL)
    return;

  g_free (config->default_backend);
  g_free (config->stap_path);
  g_free (config);
}

static const KeySpec *
find_key (const char *group,
          const char *key)
{
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_str_equal (keys[i].group, group) && g_str_equal (keys[i].key, key))
      return &keys[i];
  return NULL;
}

static gboolean
group_known (const char *group)
{
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_str_equal (keys[i].group, group))
      return TRUE;
  return FALSE;
}

/* "256M" -> 268435456. Only digits and one optional suffix; no sign, no spaces inside,
 * no overflow. */
static gboolean
parse_number (const char *text,
              gboolean    allow_suffix,
              guint64    *out)
{
  guint64 value = 0;
  guint64 multiplier = 1;
  const char *p = text;

  if (!g_ascii_isdigit (*p))
    return FALSE;

  for (; g_ascii_isdigit (*p); p++)
    {
      guint digit = *p - '0';

      if (value > (G_MAXUINT64 - digit) / 10)
        return FALSE;
      value = value * 10 + digit;
    }

  if (*p != '\0')
    {
      if (!allow_suffix || p[1] != '\0')
        return FALSE;
      switch (*p)
        {
        case 'K': case 'k': multiplier = KIB; break;
        case 'M': case 'm': multiplier = MIB; break;
        case 'G': case 'g': multiplier = GIB; break;
        default: return FALSE;
        }
    }

  if (value > G_MAXUINT64 / multiplier)
    return FALSE;

  *out = value * multiplier;
  return TRUE;
}

static gboolean
apply_key (FmdConfig           *config,
           FmdBackendRegistry  *registry,
           const KeySpec       *spec,
           const char          *raw,
           const char          *origin,
           GError             **error)
{
  g_autofree char *value = g_strstrip (g_strdup (raw));
  guint8 *field = (guint8 *) config + spec->offset;

  switch (spec->kind)
    {
    case KEY_COUNT:
    case KEY_BYTES:
      {
        guint64 n;

        if (!parse_number (value, spec->kind == KEY_BYTES, &n))
          {
            g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                         "%s: [%s] %s=%s is not %s", origin, spec->group, spec->key, value,
                         spec->kind == KEY_BYTES ? "a size (a number with an optional K, M or G suffix)"
                                                 : "a non-negative number");
            return FALSE;
          }
        if (n < spec->min || n > spec->max)
          {
            g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                         "%s: [%s] %s=%s is out of range (%" G_GUINT64_FORMAT " .. %" G_GUINT64_FORMAT ")",
                         origin, spec->group, spec->key, value, spec->min, spec->max);
            return FALSE;
          }
        if (spec->size == sizeof (guint64))
          *(guint64 *) field = n;
        else
          *(guint *) field = (guint) n;
        return TRUE;
      }

    case KEY_ABS_PATH:
      if (!g_path_is_absolute (value))
        {
          g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                       "%s: [%s] %s=%s is not an absolute path", origin, spec->group,
                       spec->key, value);
          return FALSE;
        }
      g_free (*(char **) field);
      *(char **) field = g_steal_pointer (&value);
      return TRUE;

    case KEY_BACKEND:
      if (!fmd_backend_registry_name_is_valid (registry, value))
        {
          g_autofree char *names = fmd_backend_registry_dup_names (registry);

          g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                       "%s: [%s] %s=%s is not one of %s", origin, spec->group, spec->key,
                       value, names);
          return FALSE;
        }
      g_free (*(char **) field);
      *(char **) field = g_steal_pointer (&value);
      return TRUE;

    case KEY_BOOL:
      if (g_strcmp0 (value, "true") != 0 && g_strcmp0 (value, "false") != 0)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                       "%s: [%s] %s=%s is not true or false", origin, spec->group,
                       spec->key, value);
          return FALSE;
        }
      *(gboolean *) field = g_str_equal (value, "true");
      return TRUE;

    default:
      g_assert_not_reached ();
    }
}

/* GKeyFile skips localized keys ("Events[de]=") when listing a group, so a typo of that
 * shape would pass unseen: look for one in the text itself. */
static gboolean
check_no_localized_keys (const char *data,
                         gsize       len,
                         const char *origin,
                         GError    **error)
{
  g_autofree char *copy = g_strndup (data, len);
  g_auto(GStrv) lines = g_strsplit (copy, "\n", -1);

  for (gsize i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *eq;

      while (g_ascii_isspace (*line))
        line++;
      if (*line == '#' || *line == '[' || *line == '\0')
        continue;
      eq = strchr (line, '=');
      if (eq != NULL && memchr (line, '[', eq - line) != NULL)
        {
          g_autofree char *key = g_strstrip (g_strndup (line, eq - line));
          g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "%s:%" G_GSIZE_FORMAT ": unknown key %s",
                       origin, i + 1, key);
          return FALSE;
        }
    }
  return TRUE;
}

FmdConfig *
fmd_config_load_from_data (const char          *data,
                           gsize                len,
                           const char          *origin,
                           FmdBackendRegistry  *registry,
                           GError             **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(FmdConfig) config = fmd_config_new_default ();
  g_autoptr(GError) local_error = NULL;
  g_auto(GStrv) groups = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (origin != NULL, NULL);
  g_return_val_if_fail (FMD_IS_BACKEND_REGISTRY (registry), NULL);

  if (!g_key_file_load_from_data (keyfile, data, len, G_KEY_FILE_NONE, &local_error))
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "%s: %s", origin, local_error->message);
      return NULL;
    }
  if (!check_no_localized_keys (data, len, origin, error))
    return NULL;

  groups = g_key_file_get_groups (keyfile, NULL);
  for (gsize g = 0; groups[g] != NULL; g++)
    {
      g_auto(GStrv) names = NULL;

      if (!group_known (groups[g]))
        {
          g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                       "%s: unknown group [%s] (known: Buffer, Daemon, Subscribers, Stap, Bpf)",
                       origin, groups[g]);
          return NULL;
        }

      names = g_key_file_get_keys (keyfile, groups[g], NULL, NULL);
      for (gsize k = 0; names != NULL && names[k] != NULL; k++)
        {
          const KeySpec *spec = find_key (groups[g], names[k]);
          g_autofree char *raw = NULL;

          if (spec == NULL)
            {
              g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "%s: unknown key %s in [%s]",
                           origin, names[k], groups[g]);
              return NULL;
            }

          /* The raw value: no escape processing, no locale lookups. */
          raw = g_key_file_get_value (keyfile, groups[g], names[k], NULL);
          if (raw == NULL || !apply_key (config, registry, spec, raw, origin, error))
            return NULL;
        }
    }

  return g_steal_pointer (&config);
}

FmdConfig *
fmd_config_load (const char          *path,
                 FmdBackendRegistry  *registry,
                 GError             **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &data, &len, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return fmd_config_new_default ();

      g_set_error (error, FM_ERROR, FM_ERROR_IO, "%s", local_error->message);
      return NULL;
    }

  return fmd_config_load_from_data (data, len, path, registry, error);
}
