/* fm-event.c: helpers for the FmEvent view. */
#include "fm-event.h"

#include <string.h>

static guint16
clamped_len (const char *s, gsize max)
{
  return s != NULL ? (guint16) strnlen (s, max) : 0;
}

void
fm_event_set_strings (FmEvent    *event,
                      const char *comm,
                      const char *path,
                      const char *path2,
                      const char *detail)
{
  g_return_if_fail (event != NULL);

  /* A truncated string stays a valid view only because consumers use the lengths; the
   * encoders never read past them. */
  event->comm = comm != NULL ? comm : "";
  event->comm_len = clamped_len (comm, FM_COMM_MAX - 1);
  event->path = path != NULL ? path : "";
  event->path_len = clamped_len (path, FM_PATH_MAX);
  event->path2 = path2 != NULL ? path2 : "";
  event->path2_len = clamped_len (path2, FM_PATH_MAX);
  event->detail = detail != NULL ? detail : "";
  event->detail_len = clamped_len (detail, FM_DETAIL_MAX);
  if (event->detail_len == FM_DETAIL_MAX && event->detail[FM_DETAIL_MAX] != '\0')
    {
      const char *end;

      /* detail must stay valid UTF-8 (it travels as a D-Bus string): cut before a
       * character the limit would split */
      if (!g_utf8_validate_len (event->detail, event->detail_len, &end))
        event->detail_len = (guint16) (end - event->detail);
    }
}

static gboolean
bytes_equal (const char *a, guint16 a_len, const char *b, guint16 b_len)
{
  return a_len == b_len && (a_len == 0 || memcmp (a, b, a_len) == 0);
}

gboolean
fm_event_equal (const FmEvent *a,
                const FmEvent *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return a->seq == b->seq &&
         a->time_ns == b->time_ns &&
         a->duration_ns == b->duration_ns &&
         a->pid == b->pid &&
         a->ppid == b->ppid &&
         a->tid == b->tid &&
         a->uid == b->uid &&
         a->result == b->result &&
         a->syscall_nr == b->syscall_nr &&
         bytes_equal (a->comm, a->comm_len, b->comm, b->comm_len) &&
         bytes_equal (a->path, a->path_len, b->path, b->path_len) &&
         bytes_equal (a->path2, a->path2_len, b->path2, b->path2_len) &&
         bytes_equal (a->detail, a->detail_len, b->detail, b->detail_len);
}
