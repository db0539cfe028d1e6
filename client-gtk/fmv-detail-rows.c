/* fmv-detail-rows.c: the Event tab's rows: their labels and texts; see fmv-detail-rows.h. */
#include "config.h"

#include <string.h>

#include "fm-syscalls.h"
#include "fmv-columns.h"
#include "fmv-command-line.h"
#include "fmv-detail-rows.h"
#include "fmv-filter-term.h"
#include "fmv-process-text.h"
#include "fmv-row.h"

/* The labels the viewer has for the fields; another field's is its jsonl key. */
static const char *const labels[FMV_DETAIL_N_ROWS] = {
  [FM_FIELD_SEQ] = "Sequence",
  [FM_FIELD_TIME] = "Time",
  [FM_FIELD_DURATION] = "Duration",
  [FM_FIELD_PID] = "PID",
  [FM_FIELD_PPID] = "Parent PID",
  [FM_FIELD_TID] = "Thread ID",
  [FM_FIELD_UID] = "User",
  [FM_FIELD_COMM] = "Process",
  [FM_FIELD_SYSCALL] = "Syscall",
  [FM_FIELD_RESULT] = "Result",
  [FM_FIELD_PATH] = "Path",
  [FM_FIELD_PATH2] = "Second path",
  [FM_FIELD_DETAIL] = "Detail",
  [FMV_DETAIL_ROW_COMMAND] = "Command line",
};

gboolean
fmv_detail_row_exists (guint r)
{
  g_return_val_if_fail (r < FMV_DETAIL_N_ROWS, FALSE);

  return r == FMV_DETAIL_ROW_COMMAND || fm_field_is_stored (&fm_event_fields[r]);
}

const char *
fmv_detail_row_label (guint r)
{
  g_return_val_if_fail (r < FMV_DETAIL_N_ROWS, NULL);

  if (labels[r] != NULL)
    return labels[r];
  return fm_event_fields[r].key != NULL ? fm_event_fields[r].key : fm_event_fields[r].filter_name;
}

gboolean
fmv_detail_row_filter_field (guint      r,
                             FmFieldId *field)
{
  g_return_val_if_fail (r < FMV_DETAIL_N_ROWS, FALSE);

  if (r == FMV_DETAIL_ROW_COMMAND || !fmv_filter_term_offered (r))
    return FALSE;
  *field = r;
  return TRUE;
}

static char *
format_duration (guint64 ns)
{
  if (ns == 0)
    return g_strdup ("unknown");
  return fmv_format_duration (ns);
}

/* An exec's command line as shell words, and @rest the detail's other fields; NULL for
 * other events and details without an argv list. */
static char *
exec_command_line (const FmEvent *ev,
                   char         **rest)
{
  const FmSyscall *sc = fm_syscall_by_nr (ev->syscall_nr);

  *rest = NULL;
  if (sc == NULL || (sc->traits & FM_TRAIT_EXEC) == 0)
    return NULL;
  return fmv_command_line_from_detail (ev->detail, ev->detail_len, rest);
}

char *
fmv_detail_row_text (guint          r,
                     const FmEvent *ev)
{
  char buf[32];
  char name[FM_SYSCALL_NAME_MAX];

  g_return_val_if_fail (r < FMV_DETAIL_N_ROWS, NULL);
  g_return_val_if_fail (ev != NULL, NULL);

  switch (r)
    {
    case FM_FIELD_TIME:
      return fmv_format_time (ev->time_ns, TRUE);
    case FM_FIELD_DURATION:
      return format_duration (ev->duration_ns);
    case FM_FIELD_PPID:
      return ev->ppid ? g_strdup_printf ("%u", ev->ppid) : g_strdup ("unknown");
    case FM_FIELD_UID:
      return fmv_format_user (ev->uid);
    case FM_FIELD_SYSCALL:
      return g_strdup_printf ("%s (%u)", fm_syscall_name (ev->syscall_nr, name), ev->syscall_nr);
    case FM_FIELD_RESULT:
      if (ev->result < 0 && ev->result >= -G_MAXINT)
        return g_strdup_printf ("%s (%s)", fm_result_format (ev->syscall_nr, ev->result, buf),
                                g_strerror ((int) -ev->result));
      return g_strdup (fm_result_format (ev->syscall_nr, ev->result, buf));
    case FM_FIELD_PATH2:
      return ev->path2_len > 0 ? fmv_bytes_to_display (ev->path2, ev->path2_len) : NULL;
    case FMV_DETAIL_ROW_COMMAND:
      {
        g_autofree char *rest = NULL;

        return exec_command_line (ev, &rest);
      }
    case FM_FIELD_DETAIL:
      {
        g_autofree char *rest = NULL;
        g_autofree char *command_line = exec_command_line (ev, &rest);

        if (command_line == NULL)
          return fmv_bytes_to_display (ev->detail, ev->detail_len);
        return *rest != '\0' ? fmv_bytes_to_display (rest, strlen (rest)) : NULL;
      }
    default:
      return fmv_detail_row_exists (r) ? fmv_field_text (r, ev) : NULL;
    }
}
