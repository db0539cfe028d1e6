/* filemonctl-status.c: `filemonctl status`: the daemon's properties, for people. Anybody
 * may read the public ones (whether a capture runs, the backends, the buffer's size); the
 * options and counters are shown to callers polkit allows org.filemond.subscribe, for
 * they tell what the capture looks at and how much it sees (doc/security.md). */
#include <stdio.h>

#include "filemonctl-common.h"
#include "fm-escape.h"
#include "fm-names.h"
#include "fm-syscalls.h"

static void
print_available (FmFilemond1 *proxy)
{
  GVariant *available = fm_filemond1_get_available_backends (proxy);
  GVariantIter iter;
  const char *name, *reason;

  if (available == NULL)
    return;
  g_variant_iter_init (&iter, available);
  while (g_variant_iter_next (&iter, "{&s&s}", &name, &reason))
    {
      if (reason[0] == '\0')
        printf ("              %s: usable\n", name);
      else
        {
          g_autofree char *escaped = fm_escape_text (reason);

          printf ("              %s: not usable: %s\n", name, escaped);
        }
    }
}

/* The options of the capture, without the defaults the daemon filled in (empty lists,
 * false flags, every syscall), so that what the user chose stands out. */
static void
print_options (FmFilemond1 *proxy)
{
  GVariant *options = fm_filemond1_get_options (proxy);
  g_autoptr(GString) line = g_string_new (NULL);
  GVariantIter iter;
  const char *key;
  GVariant *next_value;
  guint n_syscalls;

  if (options == NULL || !g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT))
    return;
  (void) fm_syscalls_all (&n_syscalls);
  g_variant_iter_init (&iter, options);
  while (g_variant_iter_next (&iter, "{&sv}", &key, &next_value))
    {
      g_autoptr(GVariant) value = next_value;
      g_autofree char *text = NULL;

      if ((g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN) && !g_variant_get_boolean (value)) ||
          (g_variant_is_container (value) && g_variant_n_children (value) == 0))
        continue;
      if (g_str_equal (key, "syscalls") && g_variant_n_children (value) >= n_syscalls)
        text = g_strdup ("all");
      else
        text = g_variant_print (value, FALSE);
      if (line->len > 0)
        g_string_append (line, ", ");
      g_string_append_printf (line, "%s=%s", key, text);
    }
  if (line->len > 0)
    printf ("Options:      %s\n", line->str);
}

static void
print_started (guint64 started_usec)
{
  g_autoptr(GDateTime) when = NULL;
  g_autofree char *text = NULL;
  gint64 ago;

  if (started_usec == 0)
    {
      printf ("Started at:   never\n");
      return;
    }
  when = g_date_time_new_from_unix_local ((gint64) (started_usec / G_USEC_PER_SEC));
  text = when != NULL ? g_date_time_format (when, "%Y-%m-%d %H:%M:%S %Z") : g_strdup ("?");
  ago = (g_get_real_time () - (gint64) started_usec) / G_USEC_PER_SEC;
  if (ago >= 0)
    printf ("Started at:   %s (%" G_GINT64_FORMAT " s ago)\n", text, ago);
  else
    printf ("Started at:   %s\n", text);
}

/* GetAll gives a caller without the authorization the public properties only. */
static gboolean
private_shown (FmFilemond1 *proxy)
{
  g_autoptr(GVariant) count = g_dbus_proxy_get_cached_property (G_DBUS_PROXY (proxy),
                                                                "EventCount");

  return count != NULL;
}

int
fmctl_cmd_status (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(FmFilemond1) proxy = NULL;
  g_autoptr(GError) error = NULL;
  const char *state, *backend, *last_error;
  guint64 buffered, capacity;

  g_option_context_set_summary (context, "Shows filemond's state, backend, counters and "
                                "buffer.");
  if (!fmctl_parse_options (context, "status", &argc, &argv))
    return FMCTL_EXIT_USAGE;
  if (argc > 1)
    return fmctl_usage_error ("status", "unexpected argument '%s'", argv[1]);

  proxy = fmctl_connect (&error);
  if (proxy == NULL)
    return fmctl_error_exit ("status", error);

  state = fm_filemond1_get_state (proxy);
  if (state == NULL)
    {
      /* the properties were not loaded: the daemon answered nothing */
      g_set_error (&error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY, "no properties");
      return fmctl_error_exit ("status", error);
    }
  backend = fm_filemond1_get_backend (proxy);
  last_error = fm_filemond1_get_last_error (proxy);
  buffered = fm_filemond1_get_buffered_count (proxy);
  capacity = fm_filemond1_get_buffer_capacity (proxy);

  printf ("State:        %s\n", state);
  printf ("Backend:      %s\n", backend != NULL && backend[0] != '\0' ? backend : "none yet");
  printf ("Backends:\n");
  print_available (proxy);
  if (!private_shown (proxy))
    {
      printf ("Buffer:       %" G_GUINT64_FORMAT " events at most\n", capacity);
      printf ("Options and counters: not shown: they need the org.filemond.subscribe "
              "authorization (ask an administrator to add you to the “%s” group)\n",
              FM_GROUP_NAME);
      printf ("Version:      %s\n", fm_filemond1_get_version (proxy) ? fm_filemond1_get_version (proxy) : "?");
      return fflush (stdout) == 0 ? FMCTL_EXIT_OK : FMCTL_EXIT_ERROR;
    }
  print_options (proxy);
  print_started (fm_filemond1_get_started_at (proxy));
  printf ("Events:       %" G_GUINT64_FORMAT " captured\n", fm_filemond1_get_event_count (proxy));
  printf ("Dropped:      %" G_GUINT64_FORMAT " (lost before the buffer)\n",
          fm_filemond1_get_dropped_count (proxy));
  printf ("Filtered:     %" G_GUINT64_FORMAT " (delivered, then dropped by the filter in filemond)\n",
          fm_filemond1_get_filtered_count (proxy));
  printf ("Overwritten:  %" G_GUINT64_FORMAT " (oldest events the full buffer replaced)\n",
          fm_filemond1_get_overwritten_count (proxy));
  printf ("Buffer:       %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " events (%u%%)",
          buffered, capacity,
          capacity > 0 ? (guint) (buffered * 100 / capacity) : 0);
  if (buffered > 0)
    printf (", from seq %" G_GUINT64_FORMAT, fm_filemond1_get_first_seq (proxy));
  printf ("\n");
  if (last_error != NULL && last_error[0] != '\0')
    {
      g_autofree char *escaped = fm_escape_text (last_error);

      printf ("Last error:   %s\n", escaped);
    }
  printf ("Version:      %s\n", fm_filemond1_get_version (proxy) ? fm_filemond1_get_version (proxy) : "?");
  if (fflush (stdout) != 0)
    return FMCTL_EXIT_ERROR;
  return FMCTL_EXIT_OK;
}
