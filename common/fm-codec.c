/* fm-codec.c: events as the typed GVariant of the Events signal, (tttuuuuaysxayays), one
 * by one or in batches whose events share the children they repeat. The children are the
 * stored fields of FM_EVENT_FIELDS (fm-event-fields.h), expanded per field below. The
 * syscall travels by name (the number is an x86_64 detail the API does not expose). */
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

/* The children of (tttuuuuaysxayays), by index: the stored fields, in table order. */
#define CHILD(id, m, type, ...) FM_FIELD_IF_STORED_##type (CHILD_##id,)

enum {
  FM_EVENT_FIELDS (CHILD)
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

#define FIXED(id, m, type) \
  children[CHILD_##id] = fixed_child (&shared[CHILD_##id], type, &event->m, sizeof event->m);
#define TO_VARIANT_U64(id, m, limit) FIXED (id, m, G_VARIANT_TYPE_UINT64)
#define TO_VARIANT_U32(id, m, limit) FIXED (id, m, G_VARIANT_TYPE_UINT32)
#define TO_VARIANT_I64(id, m, limit) FIXED (id, m, G_VARIANT_TYPE_INT64)
#define TO_VARIANT_SYSCALL(id, m, limit) \
  name = fm_syscall_name (event->m, name_buf); \
  children[CHILD_##id] = string_child (&shared[CHILD_##id], name, strlen (name), detail_string);
/* clamped like the stream encoder, so that what one wire form carries the other can */
#define TO_VARIANT_BYTES(id, m, limit) \
  children[CHILD_##id] = string_child (&shared[CHILD_##id], event->m, \
                                       MIN (event->m##_len, (limit)), bytestring);
#define TO_VARIANT_UTF8(id, m, limit) \
  children[CHILD_##id] = string_child (&shared[CHILD_##id], event->m, \
                                       MIN (event->m##_len, (limit)), detail_string);
#define TO_VARIANT_ERRNO(id, m, limit)
#define TO_VARIANT_USER(id, m, limit)
#define TO_VARIANT(id, m, type, limit, ...) TO_VARIANT_##type (id, m, limit)

static GVariant *
event_to_variant (SharedChild   *shared,
                  const FmEvent *event)
{
  char name_buf[16];
  const char *name;
  GVariant *children[N_CHILDREN];

  FM_EVENT_FIELDS (TO_VARIANT)
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

#define FROM_VARIANT_NUMBER(id, m, format) \
  g_variant_get_child (value, CHILD_##id, format, &event->m);
#define FROM_VARIANT_U64(id, m, limit, key) FROM_VARIANT_NUMBER (id, m, "t")
#define FROM_VARIANT_U32(id, m, limit, key) FROM_VARIANT_NUMBER (id, m, "u")
#define FROM_VARIANT_I64(id, m, limit, key) FROM_VARIANT_NUMBER (id, m, "x")
#define FROM_VARIANT_SYSCALL(id, m, limit, key) \
  g_variant_get_child (value, CHILD_##id, "&s", &name); \
  if (!syscall_from_name (name, &event->m)) \
    { \
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "malformed event: unknown syscall “%s”", \
                   name); \
      return FALSE; \
    }
#define FROM_VARIANT_BYTES(id, m, limit, key) \
  if (!take_bytestring (value, CHILD_##id, (limit), &event->m, &event->m##_len)) \
    return parse_error (error, "bad " key);
#define FROM_VARIANT_UTF8(id, m, limit, key) \
  g_variant_get_child (value, CHILD_##id, "&s", &event->m); \
  len = strlen (event->m); \
  if (len > (limit)) \
    return parse_error (error, key " too long"); \
  event->m##_len = (guint16) len;
#define FROM_VARIANT_ERRNO(id, m, limit, key)
#define FROM_VARIANT_USER(id, m, limit, key)
#define FROM_VARIANT(id, m, type, limit, key, ...) FROM_VARIANT_##type (id, m, limit, key)

gboolean
fm_event_from_variant (GVariant *value,
                       FmEvent  *event,
                       GError  **error)
{
  const char *name;
  gsize len;

  g_return_val_if_fail (value != NULL && event != NULL, FALSE);

  if (!g_variant_is_of_type (value, FM_EVENT_VARIANT_TYPE))
    return parse_error (error, "not of type " FM_EVENT_VARIANT_TYPE_STRING);

  /* Serialised first: the views point into @value's data. A value built in memory (a
   * tree) is serialised by some reads of its children, which frees the children an
   * earlier view pointed into; one received from the bus is serialised already. */
  (void) g_variant_get_data (value);
  memset (event, 0, sizeof *event);
  FM_EVENT_FIELDS (FROM_VARIANT)
  return TRUE;
}
