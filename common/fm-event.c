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
  event->comm_len = clamped_len (comm, fm_event_fields[FM_FIELD_COMM].limit);
  event->path = path != NULL ? path : "";
  event->path_len = clamped_len (path, fm_event_fields[FM_FIELD_PATH].limit);
  event->path2 = path2 != NULL ? path2 : "";
  event->path2_len = clamped_len (path2, fm_event_fields[FM_FIELD_PATH2].limit);
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

#define EQUAL_U64(m) a->m == b->m &&
#define EQUAL_U32(m) a->m == b->m &&
#define EQUAL_I64(m) a->m == b->m &&
#define EQUAL_SYSCALL(m) a->m == b->m &&
#define EQUAL_BYTES(m) bytes_equal (a->m, a->m##_len, b->m, b->m##_len) &&
#define EQUAL_UTF8(m) bytes_equal (a->m, a->m##_len, b->m, b->m##_len) &&
#define EQUAL_ERRNO(m)
#define EQUAL_USER(m)
#define EQUAL(id, m, type, ...) EQUAL_##type (m)

gboolean
fm_event_equal (const FmEvent *a,
                const FmEvent *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return FM_EVENT_FIELDS (EQUAL) TRUE;
}
