/* fm-codec.c: events as the typed GVariant of the Events signal, (tttuuuuaysxayays), one
 * by one or in batches whose events share the children they repeat. The syscall travels
 * by name (the number is an x86_64 detail the API does not expose). */
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

/* The children of (tttuuuuaysxayays), by index. */
enum {
  CHILD_SEQ,
  CHILD_TIME,
  CHILD_DURATION,
  CHILD_PID,
  CHILD_PPID,
  CHILD_TID,
  CHILD_UID,
  CHILD_COMM,
  CHILD_SYSCALL,
  CHILD_RESULT,
  CHILD_PATH,
  CHILD_PATH2,
  CHILD_DETAIL,
  N_CHILDREN
};

/* The child last made for one index. A GVariant is immutable, so the next event shares it
 * when it holds the same value: one process's events mostly repeat their pid, comm,
 * syscall, result and path, and each child made costs three allocations, their release
 * (often in GDBus's worker thread, after the send) and cache misses all along: sharing
 * halves the CPU filemond spends on a batch (tests/daemon/bench-signal-batch.c). */
typedef struct {
  GVariant *value;
  guint64 number;       /* a fixed-size child's value */
  const char *bytes;    /* a string child's contents without the NUL, in @value's data */
  gsize len;
} SharedChild;

struct _FmBatchBuilder {
  GPtrArray *items;     /* (tttuuuuaysxayays), owned */
  SharedChild shared[N_CHILDREN];
};

static void
shared_child_set (SharedChild *shared,
                  GVariant    *value)
{
  g_clear_pointer (&shared->value, g_variant_unref);
  shared->value = g_variant_ref_sink (value);
}

/* A child of fixed-size @type holding the @size bytes at @data (an event field, in host
 * order as GVariant keeps it). Borrowed from @shared. */
static GVariant *
fixed_child (SharedChild        *shared,
             const GVariantType *type,
             gconstpointer       data,
             gsize               size)
{
  guint64 number = 0;

  g_assert (size <= sizeof number);
  memcpy (&number, data, size);
  if (shared->value == NULL || shared->number != number)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (data, size);

      shared_child_set (shared, g_variant_new_from_bytes (type, bytes, TRUE));
      shared->number = number;
    }
  return shared->value;
}

/* A string child (s, or ay with its NUL) that @make makes of the @len bytes at @s.
 * Borrowed from @shared. */
static GVariant *
string_child (SharedChild  *shared,
              const char   *s,
              guint16       len,
              GVariant   *(*make) (const char *s, guint16 len))
{
  /* Bytes with a NUL inside make a child that depends on more than them (whether the view
   * ends with a NUL too): never shared. */
  if (shared->value == NULL || shared->len != len || memcmp (shared->bytes, s, len) != 0 ||
      memchr (s, '\0', len) != NULL)
    {
      shared_child_set (shared, make (s, len));
      shared->bytes = g_variant_get_data (shared->value);
      shared->len = g_variant_get_size (shared->value) - 1;
    }
  return shared->value;
}

static void
shared_children_clear (SharedChild *shared)
{
  for (guint i = 0; i < N_CHILDREN; i++)
    g_clear_pointer (&shared[i].value, g_variant_unref);
}

static GVariant *
event_to_variant (SharedChild   *shared,
                  const FmEvent *event)
{
  char name_buf[16];
  const char *name = fm_syscall_name (event->syscall_nr, name_buf);
  GVariant *children[N_CHILDREN];

#define FIXED(index, type, field) \
  fixed_child (&shared[index], type, &event->field, sizeof event->field)
  children[CHILD_SEQ] = FIXED (CHILD_SEQ, G_VARIANT_TYPE_UINT64, seq);
  children[CHILD_TIME] = FIXED (CHILD_TIME, G_VARIANT_TYPE_UINT64, time_ns);
  children[CHILD_DURATION] = FIXED (CHILD_DURATION, G_VARIANT_TYPE_UINT64, duration_ns);
  children[CHILD_PID] = FIXED (CHILD_PID, G_VARIANT_TYPE_UINT32, pid);
  children[CHILD_PPID] = FIXED (CHILD_PPID, G_VARIANT_TYPE_UINT32, ppid);
  children[CHILD_TID] = FIXED (CHILD_TID, G_VARIANT_TYPE_UINT32, tid);
  children[CHILD_UID] = FIXED (CHILD_UID, G_VARIANT_TYPE_UINT32, uid);
  children[CHILD_RESULT] = FIXED (CHILD_RESULT, G_VARIANT_TYPE_INT64, result);
#undef FIXED
  /* clamped like the stream encoder, so that what one wire form carries the other can */
  children[CHILD_COMM] = string_child (&shared[CHILD_COMM], event->comm,
                                       MIN (event->comm_len, FM_COMM_MAX - 1), bytestring);
  children[CHILD_SYSCALL] = string_child (&shared[CHILD_SYSCALL], name, strlen (name),
                                          detail_string);
  children[CHILD_PATH] = string_child (&shared[CHILD_PATH], event->path,
                                       MIN (event->path_len, FM_PATH_MAX), bytestring);
  children[CHILD_PATH2] = string_child (&shared[CHILD_PATH2], event->path2,
                                        MIN (event->path2_len, FM_PATH_MAX), bytestring);
  children[CHILD_DETAIL] = string_child (&shared[CHILD_DETAIL], event->detail,
                                         MIN (event->detail_len, FM_DETAIL_MAX), detail_string);
  return g_variant_new_tuple (children, N_CHILDREN);
}

GVariant *
fm_event_to_variant (const FmEvent *event)
{
  SharedChild shared[N_CHILDREN] = { { 0 } };
  GVariant *value;

  g_return_val_if_fail (event != NULL, NULL);

  value = event_to_variant (shared, event);
  shared_children_clear (shared);
  return value;
}

FmBatchBuilder *
fm_batch_builder_new (void)
{
  FmBatchBuilder *self = g_new0 (FmBatchBuilder, 1);

  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  return self;
}

void
fm_batch_builder_free (FmBatchBuilder *self)
{
  g_return_if_fail (self != NULL);

  g_ptr_array_unref (self->items);
  shared_children_clear (self->shared);
  g_free (self);
}

void
fm_batch_builder_add (FmBatchBuilder *self,
                      const FmEvent  *event)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (event != NULL);

  g_ptr_array_add (self->items, g_variant_ref_sink (event_to_variant (self->shared, event)));
}

GVariant *
fm_batch_builder_end (FmBatchBuilder *self)
{
  GVariant *batch;

  g_return_val_if_fail (self != NULL, NULL);

  batch = g_variant_new_array (FM_EVENT_VARIANT_TYPE, (GVariant **) self->items->pdata,
                               self->items->len);
  g_ptr_array_set_size (self->items, 0);
  return batch;
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
