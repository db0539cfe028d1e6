/* fm-stream.c: the binary record stream of OpenStream (layout in fm-stream.h and
 * doc/stream-format.md): encoders, a strict decoder of one record, and an incremental
 * decoder that accepts the stream split anywhere.
 *
 * Integers are stored little-endian through memcpy, so neither the host's byte order nor
 * the alignment of a record inside a buffer matters. */
#include "fm-stream.h"

#include <string.h>

#include "fm-error.h"

static inline void
put_u16 (guint8 *p, guint16 v)
{
  v = GUINT16_TO_LE (v);
  memcpy (p, &v, sizeof v);
}

static inline void
put_u32 (guint8 *p, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, sizeof v);
}

static inline void
put_u64 (guint8 *p, guint64 v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p, &v, sizeof v);
}

static inline guint16
get_u16 (const guint8 *p)
{
  guint16 v;

  memcpy (&v, p, sizeof v);
  return GUINT16_FROM_LE (v);
}

static inline guint32
get_u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return GUINT32_FROM_LE (v);
}

static inline guint64
get_u64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, sizeof v);
  return GUINT64_FROM_LE (v);
}

void
fm_stream_write_header (guint8 out[FM_STREAM_HEADER_SIZE])
{
  memcpy (out, FM_STREAM_MAGIC, 8);
  put_u32 (out + 8, FM_STREAM_VERSION);
  put_u32 (out + 12, FM_STREAM_HEADER_SIZE);
}

/* The expansions of FM_EVENT_FIELDS (fm-event-fields.h) that make the record's code,
 * one macro per TYPE: a field of a derived type has no part in a record. */

/* The syscall is the record head's aux, which has room for one. */
#define SYSCALLS_U64
#define SYSCALLS_U32
#define SYSCALLS_I64
#define SYSCALLS_SYSCALL + 1
#define SYSCALLS_BYTES
#define SYSCALLS_UTF8
#define SYSCALLS_ERRNO
#define SYSCALLS_USER
#define SYSCALLS(id, m, type, ...) SYSCALLS_##type
G_STATIC_ASSERT (0 FM_EVENT_FIELDS (SYSCALLS) == 1);

/* What every record starts with, and the sizes of the records that have one, are not
 * made from the table: readers everywhere rely on them whatever the event holds. */
G_STATIC_ASSERT (offsetof (FmRecordEventFixed, record_size) == 0);
G_STATIC_ASSERT (offsetof (FmRecordEventFixed, record_type) == 4);
G_STATIC_ASSERT (offsetof (FmRecordEventFixed, record_aux) == 6);

/* The length a string field takes in the record: clamped to its limit. */
#define CLAMPED(m, limit) ((guint16) MIN (event->m##_len, (limit)))

#define STRINGS_SIZE_BYTES(m, limit) + CLAMPED (m, limit) + 1
#define STRINGS_SIZE_UTF8(m, limit) + CLAMPED (m, limit) + 1
#define STRINGS_SIZE_U64(m, limit)
#define STRINGS_SIZE_U32(m, limit)
#define STRINGS_SIZE_I64(m, limit)
#define STRINGS_SIZE_SYSCALL(m, limit)
#define STRINGS_SIZE_ERRNO(m, limit)
#define STRINGS_SIZE_USER(m, limit)
#define STRINGS_SIZE(id, m, type, limit, ...) STRINGS_SIZE_##type (m, limit)

/* Inlined where it runs per event (the checked decoder); the function is for others. */
static inline gsize
event_size (const FmEvent *event)
{
  return FM_RECORD_EVENT_FIXED FM_EVENT_FIELDS (STRINGS_SIZE);
}

gsize
fm_record_event_size (const FmEvent *event)
{
  return event_size (event);
}

static guint8 *
put_string (guint8 *p, const char *s, guint16 len)
{
  if (len > 0)
    memcpy (p, s, len);
  p[len] = '\0';
  return p + len + 1;
}

#define ENCODE_U64(m, off, limit) put_u64 (out + (off), event->m);
#define ENCODE_U32(m, off, limit) put_u32 (out + (off), event->m);
#define ENCODE_I64(m, off, limit) put_u64 (out + (off), (guint64) event->m);
#define ENCODE_SYSCALL(m, off, limit) put_u16 (out + (off), event->m);
#define ENCODE_BYTES(m, off, limit) \
  put_u16 (out + (off), CLAMPED (m, limit)); \
  p = put_string (p, event->m, CLAMPED (m, limit));
#define ENCODE_UTF8(m, off, limit) ENCODE_BYTES (m, off, limit)
#define ENCODE_ERRNO(m, off, limit)
#define ENCODE_USER(m, off, limit)
#define ENCODE(id, m, type, limit, ...) ENCODE_##type (m, FM_RECORD_OFFSET_##id, limit)

gsize
fm_record_encode_event (const FmEvent *event,
                        guint8        *out)
{
  guint8 *p = out + FM_RECORD_EVENT_FIXED;
  gsize size;

  put_u16 (out + 4, FM_RECORD_EVENT);
  FM_EVENT_FIELDS (ENCODE)
  /* where the strings end, so each length is clamped once */
  size = (gsize) (p - out);
  put_u32 (out, (guint32) size);
  return size;
}

void
fm_record_append_event (GByteArray    *buf,
                        const FmEvent *event)
{
  gsize size = fm_record_event_size (event);
  guint old_len = buf->len;

  g_byte_array_set_size (buf, old_len + size);
  fm_record_encode_event (event, buf->data + old_len);
}

/* The 8 bytes every record starts with. */
static void
put_record_head (guint8       *out,
                 guint32       size,
                 FmRecordType  type,
                 guint16       aux)
{
  put_u32 (out, size);
  put_u16 (out + 4, type);
  put_u16 (out + 6, aux);
}

void
fm_record_encode_gap (guint8  out[FM_RECORD_GAP_SIZE],
                      guint64 first_seq,
                      guint64 count)
{
  put_record_head (out, FM_RECORD_GAP_SIZE, FM_RECORD_GAP, 0);
  put_u64 (out + 8, first_seq);
  put_u64 (out + 16, count);
}

void
fm_record_encode_dropped (guint8  out[FM_RECORD_DROPPED_SIZE],
                          guint64 total)
{
  put_record_head (out, FM_RECORD_DROPPED_SIZE, FM_RECORD_DROPPED, 0);
  put_u64 (out + 8, total);
}

void
fm_record_encode_capture (guint8          out[FM_RECORD_CAPTURE_SIZE],
                          FmCaptureChange change,
                          guint64         next_seq)
{
  put_record_head (out, FM_RECORD_CAPTURE_SIZE, FM_RECORD_CAPTURE, change);
  put_u64 (out + 8, next_seq);
}

static gboolean
parse_error (GError **error, const char *what)
{
  g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "malformed stream record: %s", what);
  return FALSE;
}

/* Takes one string of @len bytes at *p, which must be followed by its NUL and contain none. */
static gboolean
take_string (const guint8 **p, guint16 len, const char **out)
{
  if ((*p)[len] != '\0' || (len > 0 && memchr (*p, '\0', len) != NULL))
    return FALSE;
  *out = (const char *) *p;
  *p += len + 1;
  return TRUE;
}

/* The view: numbers read at their offsets, strings in table order after the fixed part. */
#define VIEW_U64(m, off) event->m = get_u64 (data + (off));
#define VIEW_U32(m, off) event->m = get_u32 (data + (off));
#define VIEW_I64(m, off) event->m = (gint64) get_u64 (data + (off));
#define VIEW_SYSCALL(m, off) event->m = get_u16 (data + (off));
#define VIEW_BYTES(m, off) \
  event->m##_len = get_u16 (data + (off)); \
  event->m = strings; \
  strings += event->m##_len + 1;
#define VIEW_UTF8(m, off) VIEW_BYTES (m, off)
#define VIEW_ERRNO(m, off)
#define VIEW_USER(m, off)
#define VIEW(id, m, type, ...) VIEW_##type (m, FM_RECORD_OFFSET_##id)

static inline void
view_event (const guint8 *data,
            FmEvent      *event)
{
  const char *strings = (const char *) data + FM_RECORD_EVENT_FIXED;

  FM_EVENT_FIELDS (VIEW)
}

/* The checks of a string field: within its limit, its NUL where its length says. */
#define CHECK_LIMIT_BYTES(m, limit) || event->m##_len > (limit)
#define CHECK_LIMIT_UTF8(m, limit) || event->m##_len > (limit)
#define CHECK_LIMIT_U64(m, limit)
#define CHECK_LIMIT_U32(m, limit)
#define CHECK_LIMIT_I64(m, limit)
#define CHECK_LIMIT_SYSCALL(m, limit)
#define CHECK_LIMIT_ERRNO(m, limit)
#define CHECK_LIMIT_USER(m, limit)
#define CHECK_LIMIT(id, m, type, limit, ...) CHECK_LIMIT_##type (m, limit)

#define CHECK_STRING_BYTES(m) || !take_string (&p, event->m##_len, &event->m)
#define CHECK_STRING_UTF8(m) || !take_string (&p, event->m##_len, &event->m)
#define CHECK_STRING_U64(m)
#define CHECK_STRING_U32(m)
#define CHECK_STRING_I64(m)
#define CHECK_STRING_SYSCALL(m)
#define CHECK_STRING_ERRNO(m)
#define CHECK_STRING_USER(m)
#define CHECK_STRING(id, m, type, ...) CHECK_STRING_##type (m)

gboolean
fm_record_decode_event (const guint8 *data,
                        gsize         len,
                        FmEvent      *event,
                        GError      **error)
{
  static const FmEvent empty;   /* the shortest record: every string empty */
  const guint8 *p;
  gsize size;

  if (len < event_size (&empty))
    return parse_error (error, "event record too short");
  size = get_u32 (data);
  if (size != len)
    return parse_error (error, "event record size does not match its length");
  if (get_u16 (data + 4) != FM_RECORD_EVENT)
    return parse_error (error, "not an event record");

  view_event (data, event);
  if (FALSE FM_EVENT_FIELDS (CHECK_LIMIT))
    return parse_error (error, "string longer than its limit");
  if (event_size (event) != size)
    return parse_error (error, "string lengths do not add up to the record size");

  p = data + FM_RECORD_EVENT_FIXED;
  if (FALSE FM_EVENT_FIELDS (CHECK_STRING))
    return parse_error (error, "string not terminated where its length says");
  return TRUE;
}

/* ---- incremental decoder ------------------------------------------------------------ */

struct _FmStreamDecoder {
  FmStreamCallbacks callbacks;
  gpointer user_data;
  gboolean have_header;
  gboolean broken;
  gsize header_skip;     /* bytes of a longer (future) header still to skip */
  /* the partial header or record carried between feeds: at most FM_RECORD_MAX_SIZE */
  guint8 *partial;
  gsize partial_len;
};

FmStreamDecoder *
fm_stream_decoder_new (const FmStreamCallbacks *callbacks,
                       gpointer                 user_data)
{
  FmStreamDecoder *decoder = g_new0 (FmStreamDecoder, 1);

  g_return_val_if_fail (callbacks != NULL, NULL);
  decoder->callbacks = *callbacks;
  decoder->user_data = user_data;
  decoder->partial = g_malloc (FM_RECORD_MAX_SIZE);
  return decoder;
}

void
fm_stream_decoder_free (FmStreamDecoder *decoder)
{
  if (decoder == NULL)
    return;
  g_free (decoder->partial);
  g_free (decoder);
}

static gboolean
fail (FmStreamDecoder *decoder, GError **error, const char *what)
{
  decoder->broken = TRUE;
  g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "malformed stream: %s", what);
  return FALSE;
}

static gboolean
check_header (FmStreamDecoder *decoder, const guint8 *h, GError **error)
{
  guint32 hdr_size;

  if (memcmp (h, FM_STREAM_MAGIC, 8) != 0)
    return fail (decoder, error, "bad magic (not a filemon stream)");
  if (get_u32 (h + 8) != FM_STREAM_VERSION)
    return fail (decoder, error, "unsupported version");
  hdr_size = get_u32 (h + 12);
  if (hdr_size < FM_STREAM_HEADER_SIZE || hdr_size > 4096)
    return fail (decoder, error, "bad header size");
  decoder->header_skip = hdr_size - FM_STREAM_HEADER_SIZE;
  decoder->have_header = TRUE;
  return TRUE;
}

/* Dispatches one complete record; FALSE when it is malformed or a callback said stop
 * (*stop set then). */
static gboolean
dispatch (FmStreamDecoder *decoder,
          const guint8    *rec,
          gsize            size,
          gboolean        *stop,
          GError         **error)
{
  switch (get_u16 (rec + 4))
    {
    case FM_RECORD_EVENT:
      {
        FmEvent event;
        g_autoptr(GError) local = NULL;

        if (!fm_record_decode_event (rec, size, &event, &local))
          return fail (decoder, error, local->message);
        if (decoder->callbacks.event != NULL &&
            !decoder->callbacks.event (&event, decoder->user_data))
          {
            *stop = TRUE;
            return FALSE;
          }
        return TRUE;
      }
    case FM_RECORD_GAP:
      if (size != FM_RECORD_GAP_SIZE)
        return fail (decoder, error, "gap record of the wrong size");
      if (decoder->callbacks.gap != NULL)
        decoder->callbacks.gap (get_u64 (rec + 8), get_u64 (rec + 16), decoder->user_data);
      return TRUE;
    case FM_RECORD_DROPPED:
      if (size != FM_RECORD_DROPPED_SIZE)
        return fail (decoder, error, "dropped record of the wrong size");
      if (decoder->callbacks.dropped != NULL)
        decoder->callbacks.dropped (get_u64 (rec + 8), decoder->user_data);
      return TRUE;
    case FM_RECORD_CAPTURE:
      if (size != FM_RECORD_CAPTURE_SIZE)
        return fail (decoder, error, "capture record of the wrong size");
      /* a change this version does not know is skipped, as an unknown type is */
      if (decoder->callbacks.capture != NULL &&
          (get_u16 (rec + 6) == FM_CAPTURE_STOPPED || get_u16 (rec + 6) == FM_CAPTURE_STARTED))
        decoder->callbacks.capture (get_u16 (rec + 6), get_u64 (rec + 8), decoder->user_data);
      return TRUE;
    default:
      /* a record type from a later version: its size says how far to skip */
      return TRUE;
    }
}

static gboolean
check_size (FmStreamDecoder *decoder, guint32 size, GError **error)
{
  if (size < 8 || size > FM_RECORD_MAX_SIZE)
    return fail (decoder, error, "record size out of bounds");
  return TRUE;
}

gboolean
fm_stream_decoder_feed (FmStreamDecoder *decoder,
                        const guint8    *data,
                        gsize            len,
                        GError         **error)
{
  gboolean stop = FALSE;

  g_return_val_if_fail (decoder != NULL, FALSE);
  if (decoder->broken)
    return fail (decoder, error, "decoder already failed");

  while (len > 0)
    {
      if (!decoder->have_header)
        {
          gsize take = MIN (len, FM_STREAM_HEADER_SIZE - decoder->partial_len);

          memcpy (decoder->partial + decoder->partial_len, data, take);
          decoder->partial_len += take;
          data += take;
          len -= take;
          if (decoder->partial_len < FM_STREAM_HEADER_SIZE)
            return TRUE;
          decoder->partial_len = 0;
          if (!check_header (decoder, decoder->partial, error))
            return FALSE;
          continue;
        }
      if (decoder->header_skip > 0)
        {
          gsize skip = MIN (len, decoder->header_skip);

          decoder->header_skip -= skip;
          data += skip;
          len -= skip;
          continue;
        }

      if (decoder->partial_len > 0)
        {
          /* complete the carried record: first its size field, then the rest */
          gsize need, take;
          guint32 size;

          if (decoder->partial_len < 8)
            {
              take = MIN (len, 8 - decoder->partial_len);
              memcpy (decoder->partial + decoder->partial_len, data, take);
              decoder->partial_len += take;
              data += take;
              len -= take;
              if (decoder->partial_len < 8)
                return TRUE;
            }
          size = get_u32 (decoder->partial);
          if (!check_size (decoder, size, error))
            return FALSE;
          need = size - decoder->partial_len;
          take = MIN (len, need);
          memcpy (decoder->partial + decoder->partial_len, data, take);
          decoder->partial_len += take;
          data += take;
          len -= take;
          if (decoder->partial_len < size)
            return TRUE;
          decoder->partial_len = 0;
          if (!dispatch (decoder, decoder->partial, size, &stop, error))
            return stop;
          continue;
        }

      /* records lying wholly in @data are decoded in place, without a copy */
      while (len >= 8)
        {
          guint32 size = get_u32 (data);

          if (!check_size (decoder, size, error))
            return FALSE;
          if (size > len)
            break;
          if (!dispatch (decoder, data, size, &stop, error))
            return stop;
          data += size;
          len -= size;
        }
      if (len > 0)
        {
          memcpy (decoder->partial, data, len);
          decoder->partial_len = len;
          if (len >= 8 && !check_size (decoder, get_u32 (data), error))
            return FALSE;
          return TRUE;
        }
    }
  return TRUE;
}

gboolean
fm_stream_decoder_at_boundary (FmStreamDecoder *decoder)
{
  g_return_val_if_fail (decoder != NULL, FALSE);
  return decoder->have_header && decoder->header_skip == 0 && decoder->partial_len == 0 &&
         !decoder->broken;
}
