/* fmv-columns.c: the event list's columns, made from the field table; see fmv-columns.h.
 *
 * The columns the viewer has words for are listed here in the order shown; the table's
 * other fields are made into columns by their type. */
#include "config.h"

#include "fm-syscalls.h"
#include "fmv-columns.h"
#include "fmv-row.h"

static char *
format_time (FmFieldId      field,
             const FmEvent *event)
{
  return fmv_format_time (event->time_ns, FALSE);
}

static char *
format_result (FmFieldId      field,
               const FmEvent *event)
{
  char buf[32];

  /* a pointer in hex (mmap), a failure as -ENAME */
  return g_strdup (fm_result_format (event->syscall_nr, event->result, buf));
}

static char *
format_duration (FmFieldId      field,
                 const FmEvent *event)
{
  return fmv_format_duration (event->duration_ns);
}

/* The second path, where a call has one (rename, link), beside the first. */
static char *
format_path (FmFieldId      field,
             const FmEvent *event)
{
  g_autofree char *path = fmv_bytes_to_display (event->path, event->path_len);
  g_autofree char *path2 = NULL;

  if (event->path2_len == 0)
    return g_steal_pointer (&path);
  path2 = fmv_bytes_to_display (event->path2, event->path2_len);
  return g_strdup_printf ("%s → %s", path, path2);
}

/* The columns the viewer has words for, in the order shown; a column with no format shows
 * fmv_field_text(). */
static const FmvColumnInfo named[] = {
  { .name = "time", .title = "Time", .field = FM_FIELD_TIME, .width = 128, .visible = TRUE,
    .numeric = TRUE, .format = format_time },
  /* comm is the process's name (its leader thread's, as the backends record it); which
   * thread made the call is the TID column's */
  { .name = "process", .title = "Process", .field = FM_FIELD_COMM, .width = 130, .visible = TRUE,
    .ellipsize = FMV_ELLIPSIZE_END },
  { .name = "pid", .title = "PID", .field = FM_FIELD_PID, .width = 72, .visible = TRUE,
    .xalign = 1, .numeric = TRUE },
  { .name = "tid", .title = "TID", .field = FM_FIELD_TID, .width = 72, .xalign = 1, .numeric = TRUE },
  { .name = "ppid", .title = "PPID", .field = FM_FIELD_PPID, .width = 72, .xalign = 1, .numeric = TRUE },
  /* sorted by uid: names are resolved on the main thread only */
  { .name = "user", .title = "User", .field = FM_FIELD_USER, .width = 90, .visible = TRUE,
    .ellipsize = FMV_ELLIPSIZE_END },
  { .name = "syscall", .title = "Syscall", .field = FM_FIELD_SYSCALL, .width = 110, .visible = TRUE },
  /* room for mmap's address in hex, "0x7fffffffffff" */
  { .name = "result", .title = "Result", .field = FM_FIELD_RESULT, .width = 130, .visible = TRUE,
    .format = format_result },
  { .name = "duration", .title = "Duration", .field = FM_FIELD_DURATION, .width = 84, .visible = TRUE,
    .xalign = 1, .numeric = TRUE, .format = format_duration },
  { .name = "path", .title = "Path", .field = FM_FIELD_PATH, .width = 320, .visible = TRUE,
    .expand = TRUE, .ellipsize = FMV_ELLIPSIZE_MIDDLE, .tooltip = TRUE, .format = format_path },
  { .name = "detail", .title = "Detail", .field = FM_FIELD_DETAIL, .width = 260, .visible = TRUE,
    .ellipsize = FMV_ELLIPSIZE_END, .tooltip = TRUE },
};

/* The fields with no column of their own, and the field whose column shows them
 * (FM_N_FIELDS: none does). */
static const struct {
  FmFieldId field;
  FmFieldId shown_in;
} shown_elsewhere[] = {
  /* the list's arrival order; the detail pane shows it */
  { FM_FIELD_SEQ, FM_N_FIELDS },
  /* the User column's sort key and filter term */
  { FM_FIELD_UID, FM_FIELD_USER },
  /* the Result column's text of a failure */
  { FM_FIELD_ERRNO, FM_FIELD_RESULT },
  /* the Path column's text after the arrow */
  { FM_FIELD_PATH2, FM_FIELD_PATH },
};

#define TEXT_U64(m) return g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) event->m);
#define TEXT_U32(m) return g_strdup_printf ("%u", (guint) event->m);
#define TEXT_I64(m) return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) event->m);
#define TEXT_SYSCALL(m) return g_strdup (fm_syscall_name (event->m, name));
#define TEXT_BYTES(m) return fmv_bytes_to_display (event->m, event->m##_len);
#define TEXT_UTF8(m) TEXT_BYTES (m)
#define TEXT_ERRNO(m) return errno_text (event->result);
#define TEXT_USER(m) return g_strdup (fmv_user_name (event->uid));
#define TEXT_CASE(id, m, type, ...) case FM_FIELD_##id: TEXT_##type (m)

static char *
errno_text (gint64 result)
{
  const char *name = result < 0 && result >= -G_MAXINT ? fm_errno_name ((int) -result) : NULL;

  if (result >= 0)
    return g_strdup ("");
  return name != NULL ? g_strdup (name) : g_strdup_printf ("%" G_GINT64_FORMAT, -result);
}

char *
fmv_field_text (FmFieldId      field,
                const FmEvent *event)
{
  char name[FM_SYSCALL_NAME_MAX];

  g_return_val_if_fail (event != NULL, NULL);

  switch (field)
    {
      FM_EVENT_FIELDS (TEXT_CASE)
    case FM_N_FIELDS:
    default:
      break;
    }
  g_return_val_if_reached (NULL);
}

/* A column for a field the viewer has no words for, by its type. */
static void
column_by_type (FmFieldId      field,
                FmvColumnInfo *column)
{
  const FmFieldInfo *info = &fm_event_fields[field];

  *column = (FmvColumnInfo) {
    .name = info->filter_name,
    .title = info->key != NULL ? info->key : info->filter_name,
    .field = field,
    .width = 90,
    .visible = TRUE,
    .format = fmv_field_text,
  };
  switch (info->type)
    {
    case FM_FIELD_TYPE_U64:
    case FM_FIELD_TYPE_I64:
      column->width = 130;
      column->xalign = 1;
      column->numeric = TRUE;
      break;
    case FM_FIELD_TYPE_U32:
      column->width = 72;
      column->xalign = 1;
      column->numeric = TRUE;
      break;
    case FM_FIELD_TYPE_SYSCALL:
      column->width = 110;
      break;
    case FM_FIELD_TYPE_BYTES:
    case FM_FIELD_TYPE_UTF8:
      column->width = 200;
      column->ellipsize = FMV_ELLIPSIZE_END;
      column->tooltip = TRUE;
      break;
    case FM_FIELD_TYPE_USER:
      column->ellipsize = FMV_ELLIPSIZE_END;
      break;
    case FM_FIELD_TYPE_ERRNO:
    default:
      break;
    }
}

static FmvColumnInfo columns[FM_N_FIELDS];
static guint n_columns;

static void
ensure_columns (void)
{
  static gsize done = 0;
  gboolean placed[FM_N_FIELDS] = { FALSE };

  if (!g_once_init_enter (&done))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (shown_elsewhere); i++)
    placed[shown_elsewhere[i].field] = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (named); i++)
    {
      g_assert (!placed[named[i].field]);
      columns[n_columns] = named[i];
      if (columns[n_columns].format == NULL)
        columns[n_columns].format = fmv_field_text;
      placed[named[i].field] = TRUE;
      n_columns++;
    }
  for (FmFieldId f = 0; f < FM_N_FIELDS; f++)
    if (!placed[f])
      column_by_type (f, &columns[n_columns++]);
  g_once_init_leave (&done, 1);
}

guint
fmv_columns_get_n (void)
{
  ensure_columns ();
  return n_columns;
}

const FmvColumnInfo *
fmv_columns_get (guint column)
{
  ensure_columns ();
  g_return_val_if_fail (column < n_columns, NULL);

  return &columns[column];
}

gboolean
fmv_columns_find_field (FmFieldId  field,
                        guint     *column)
{
  ensure_columns ();
  for (guint c = 0; c < n_columns; c++)
    if (columns[c].field == field)
      {
        *column = c;
        return TRUE;
      }
  return FALSE;
}

gboolean
fmv_columns_find_shown (FmFieldId  field,
                        guint     *column)
{
  g_return_val_if_fail (field < FM_N_FIELDS, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (shown_elsewhere); i++)
    if (shown_elsewhere[i].field == field)
      return shown_elsewhere[i].shown_in < FM_N_FIELDS &&
             fmv_columns_find_field (shown_elsewhere[i].shown_in, column);
  return fmv_columns_find_field (field, column);
}

char *
fmv_columns_action_name (guint column)
{
  return g_strdup_printf ("column-%s", fmv_columns_get (column)->name);
}

void
fmv_columns_append_chooser (GMenu *menu)
{
  g_return_if_fail (G_IS_MENU (menu));

  for (guint c = 0; c < fmv_columns_get_n (); c++)
    {
      g_autofree char *name = fmv_columns_action_name (c);
      g_autofree char *detailed = g_strdup_printf ("win.%s", name);

      g_menu_append (menu, fmv_columns_get (c)->title, detailed);
    }
}
