/* fmv-row.c: one row of the event list as a GObject with a text property per column
 * (fmv-columns.h), created on demand by the list model; and the formatting the columns
 * and the detail pane share. */
#include "config.h"

#include <pwd.h>

#include "fm-escape.h"
#include "fmv-columns.h"
#include "fmv-row.h"

struct _FmvRow
{
  GObject parent_instance;

  FmvStore *store;
  guint row;
};

/* A string property per column (fmv-columns.h), its id the column's index + 1, then
 * "failed". */
#define PROP_FAILED (fmv_columns_get_n () + 1)


G_DEFINE_FINAL_TYPE (FmvRow, fmv_row, G_TYPE_OBJECT)

char *
fmv_bytes_to_display (const char *bytes,
                      gsize       len)
{
  /* the rule every other text form follows: a control or bidi character in a name would
   * otherwise act on the list, or reorder the row around it */
  return fm_escape_bytes (bytes, len);
}

/* The time of day of second @sec, kept for the last second asked. The Time cells ask for
 * every row they show, and g_date_time_new_from_unix_local() looks the local zone up again
 * on each call (GLib 2.74 drops its cached zone whenever TZ is unset: a stat, a readlink
 * and another stat); the rows on screen share a few seconds. In a full capture those calls
 * were also the viewer's own events, a few thousand a second fed back into its list. */
static const char *
time_of_day (gint64 sec)
{
  static __thread gint64 cached_sec = G_MININT64;
  static __thread char cached[16];

  if (sec != cached_sec)
    {
      g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local (sec);
      g_autofree char *text = dt ? g_date_time_format (dt, "%H:%M:%S") : NULL;

      if (text == NULL)
        return NULL;
      g_strlcpy (cached, text, sizeof cached);
      cached_sec = sec;
    }
  return cached;
}

char *
fmv_format_time (guint64  time_ns,
                 gboolean with_date)
{
  gint64 sec = (gint64) (time_ns / G_GUINT64_CONSTANT (1000000000));
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *base = NULL;
  g_autofree char *zone = NULL;

  if (!with_date)
    {
      const char *tod = time_of_day (sec);

      if (tod == NULL)
        return g_strdup ("?");
      return g_strdup_printf ("%s.%06" G_GUINT64_FORMAT, tod,
                              (time_ns % G_GUINT64_CONSTANT (1000000000)) / 1000);
    }

  dt = g_date_time_new_from_unix_local (sec);
  if (dt == NULL)
    return g_strdup ("?");
  base = g_date_time_format (dt, "%Y-%m-%d %H:%M:%S");
  zone = g_date_time_format (dt, "%z");
  return g_strdup_printf ("%s.%09" G_GUINT64_FORMAT " %s", base,
                          time_ns % G_GUINT64_CONSTANT (1000000000), zone);
}

FmvStore *
fmv_row_get_store (FmvRow *self)
{
  g_return_val_if_fail (FMV_IS_ROW (self), NULL);

  return self->store;
}

guint
fmv_row_get_row (FmvRow *self)
{
  g_return_val_if_fail (FMV_IS_ROW (self), 0);

  return self->row;
}

const FmEvent *
fmv_row_get_event (FmvRow        *self,
                   FmvStoreEvent *stored)
{
  g_return_val_if_fail (FMV_IS_ROW (self), NULL);

  /* A row object may outlive its row (the store's depth): it then reads as empty. */
  fmv_store_get_event_if_held (self->store, self->row, stored);
  return &stored->event;
}

gboolean
fmv_row_get_failed (FmvRow *self)
{
  FmvStoreEvent stored;

  g_return_val_if_fail (FMV_IS_ROW (self), FALSE);

  return fmv_store_get_event_if_held (self->store, self->row, &stored) && stored.event.result < 0;
}

char *
fmv_format_duration (guint64 ns)
{
  if (ns == 0)
    return g_strdup ("");   /* unknown, not zero */
  if (ns < 1000)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
  if (ns < 1000000)
    return g_strdup_printf ("%.1f µs", ns / 1e3);
  if (ns < G_GUINT64_CONSTANT (1000000000))
    return g_strdup_printf ("%.2f ms", ns / 1e6);
  return g_strdup_printf ("%.3f s", ns / 1e9);
}

/* Names for uids, looked up once each (NSS may be slow: LDAP, sssd) and kept for the
 * process's life; rows are formatted on the main thread only. */
const char *
fmv_user_name (guint32 uid)
{
  static GHashTable *names;
  const char *name;

  if (names == NULL)
    names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  name = g_hash_table_lookup (names, GUINT_TO_POINTER (uid));
  if (name == NULL)
    {
      struct passwd pw, *found = NULL;
      char buf[4096];
      char *text;

      if (getpwuid_r (uid, &pw, buf, sizeof buf, &found) == 0 && found != NULL)
        text = g_strdup (found->pw_name);
      else
        text = g_strdup_printf ("%u", uid);
      g_hash_table_insert (names, GUINT_TO_POINTER (uid), text);
      name = text;
    }
  return name;
}

static void
fmv_row_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  FmvRow *self = FMV_ROW (object);
  FmvStoreEvent stored;
  const FmEvent *ev;

  ev = fmv_row_get_event (self, &stored);
  if (prop_id == PROP_FAILED)
    g_value_set_boolean (value, ev->result < 0);
  else if (prop_id >= 1 && prop_id <= fmv_columns_get_n ())
    {
      const FmvColumnInfo *column = fmv_columns_get (prop_id - 1);

      g_value_take_string (value, column->format (column->field, ev));
    }
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
fmv_row_finalize (GObject *object)
{
  FmvRow *self = FMV_ROW (object);

  g_clear_object (&self->store);

  G_OBJECT_CLASS (fmv_row_parent_class)->finalize (object);
}

static void
fmv_row_class_init (FmvRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = fmv_row_get_property;
  object_class->finalize = fmv_row_finalize;

  for (guint c = 0; c < fmv_columns_get_n (); c++)
    g_object_class_install_property (object_class, c + 1,
                                     g_param_spec_string (fmv_columns_get (c)->name, NULL, NULL, NULL,
                                                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (object_class, PROP_FAILED,
                                   g_param_spec_boolean ("failed", NULL, NULL, FALSE,
                                                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
fmv_row_init (FmvRow *self)
{
}

FmvRow *
fmv_row_new (FmvStore *store,
             guint     row)
{
  FmvRow *self;

  g_return_val_if_fail (FMV_IS_STORE (store), NULL);

  self = g_object_new (FMV_TYPE_ROW, NULL);
  self->store = g_object_ref (store);
  self->row = row;
  return self;
}
