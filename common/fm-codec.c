/* fm-codec.c: events as the typed GVariant of the Events signal, (tttuuuuaysxayays).
 * The syscall travels by name (the number is an x86_64 detail the API does not expose). */
#include "fm-codec.h"

#include <stdlib.h>
#include <string.h>

#include "fm-error.h"
#include "fm-syscalls.h"

/* A bytestring child ("ay", NUL-terminated by convention) of exactly @len bytes. */
static GVariant *
bytestring (const char *s, guint16 len)
{
  g_autoptr(GBytes) bytes = NULL;

  if (s[len] == '\0')
    return g_variant_new_bytestring (s);
  /* a truncated view does not end at @len: copy it to add the terminator */
  bytes = g_bytes_new_take (g_strndup (s, len), (gsize) len + 1);
  return g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, bytes, TRUE);
}

static GVariant *
detail_string (const char *s, guint16 len)
{
  if (s[len] == '\0')
    return g_variant_new_string (s);
  return g_variant_new_take_string (g_strndup (s, len));
}

GVariant *
fm_event_to_variant (const FmEvent *event)
{
  char name_buf[16];
  GVariant *children[13];

  g_return_val_if_fail (event != NULL, NULL);

  children[0] = g_variant_new_uint64 (event->seq);
  children[1] = g_variant_new_uint64 (event->time_ns);
  children[2] = g_variant_new_uint64 (event->duration_ns);
  children[3] = g_variant_new_uint32 (event->pid);
  children[4] = g_variant_new_uint32 (event->ppid);
  children[5] = g_variant_new_uint32 (event->tid);
  children[6] = g_variant_new_uint32 (event->uid);
  /* clamped like the stream encoder, so that what one wire form carries the other can */
  children[7] = bytestring (event->comm, MIN (event->comm_len, FM_COMM_MAX - 1));
  children[8] = g_variant_new_string (fm_syscall_name (event->syscall_nr, name_buf));
  children[9] = g_variant_new_int64 (event->result);
  children[10] = bytestring (event->path, MIN (event->path_len, FM_PATH_MAX));
  children[11] = bytestring (event->path2, MIN (event->path2_len, FM_PATH_MAX));
  children[12] = detail_string (event->detail, MIN (event->detail_len, FM_DETAIL_MAX));
  return g_variant_new_tuple (children, G_N_ELEMENTS (children));
}

static gboolean
parse_error (GError **error, const char *what)
{
  g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "malformed event: %s", what);
  return FALSE;
}

/* A bytestring child as a view: it must end with its NUL, hold no other, and fit @max. */
static gboolean
take_bytestring (GVariant *value, gsize index, gsize max, const char **out, guint16 *len)
{
  g_autoptr(GVariant) child = g_variant_get_child_value (value, index);
  gsize size;
  const char *data = g_variant_get_fixed_array (child, &size, 1);

  if (size == 0)
    {
      *out = "";
      *len = 0;
      return TRUE;
    }
  if (data[size - 1] != '\0' || memchr (data, '\0', size - 1) != NULL || size - 1 > max)
    return FALSE;
  /* the child shares @value's memory, which the caller keeps alive */
  *out = data;
  *len = (guint16) (size - 1);
  return TRUE;
}

/* "syscall_N" names a syscall the table does not know; anything else must be in it. */
static gboolean
syscall_from_name (const char *name, guint16 *nr)
{
  const FmSyscall *sc = fm_syscall_by_name (name);
  const char *digits;
  char *end;
  guint64 n;

  if (sc != NULL)
    {
      *nr = sc->nr;
      return TRUE;
    }
  if (!g_str_has_prefix (name, "syscall_"))
    return FALSE;
  digits = name + strlen ("syscall_");
  if (!g_ascii_isdigit (*digits))
    return FALSE;
  n = g_ascii_strtoull (digits, &end, 10);
  if (*end != '\0' || n > G_MAXUINT16)
    return FALSE;
  *nr = (guint16) n;
  return TRUE;
}

gboolean
fm_event_from_variant (GVariant *value,
                       FmEvent  *event,
                       GError  **error)
{
  const char *syscall;
  gsize detail_len;

  g_return_val_if_fail (value != NULL && event != NULL, FALSE);

  if (!g_variant_is_of_type (value, FM_EVENT_VARIANT_TYPE))
    return parse_error (error, "not of type " FM_EVENT_VARIANT_TYPE_STRING);

  memset (event, 0, sizeof *event);
  g_variant_get_child (value, 0, "t", &event->seq);
  g_variant_get_child (value, 1, "t", &event->time_ns);
  g_variant_get_child (value, 2, "t", &event->duration_ns);
  g_variant_get_child (value, 3, "u", &event->pid);
  g_variant_get_child (value, 4, "u", &event->ppid);
  g_variant_get_child (value, 5, "u", &event->tid);
  g_variant_get_child (value, 6, "u", &event->uid);
  g_variant_get_child (value, 8, "&s", &syscall);
  g_variant_get_child (value, 9, "x", &event->result);
  g_variant_get_child (value, 12, "&s", &event->detail);

  if (!take_bytestring (value, 7, FM_COMM_MAX - 1, &event->comm, &event->comm_len))
    return parse_error (error, "bad comm");
  if (!take_bytestring (value, 10, FM_PATH_MAX, &event->path, &event->path_len))
    return parse_error (error, "bad path");
  if (!take_bytestring (value, 11, FM_PATH_MAX, &event->path2, &event->path2_len))
    return parse_error (error, "bad path2");
  detail_len = strlen (event->detail);
  if (detail_len > FM_DETAIL_MAX)
    return parse_error (error, "detail too long");
  event->detail_len = (guint16) detail_len;
  if (!syscall_from_name (syscall, &event->syscall_nr))
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "malformed event: unknown syscall “%s”",
                   syscall);
      return FALSE;
    }
  return TRUE;
}
