/* fm-stream.h: the binary record stream of OpenStream. The daemon's ring and the viewer's
 * store keep events compact (fm-compact-event.h) and encode these records from them.
 *
 * All integers are little-endian. doc/stream-format.md is the reference for other
 * languages; this comment and that file must agree.
 *
 * Stream header (16 bytes, once, first):
 *   0  8  magic      "FMSTREAM"
 *   8  4  version    u32, 1
 *   12 4  hdr_size   u32, 16 (a later version may grow the header; readers skip hdr_size)
 *
 * Then records. Every record starts with:
 *   0  4  size       u32, total record size in bytes, this field included
 *   4  2  type       u16: 1 event, 2 gap, 3 dropped, 4 capture
 *   6  2  aux        u16, type-specific
 * Readers skip records of a type they do not know (size tells how far).
 *
 * Event record (type 1; aux = x86_64 syscall number): a fixed part, then the strings.
 * The fixed part is made from FM_EVENT_FIELDS (fm-event-fields.h) by FmRecordEventFixed
 * below: the numbers in table order, then the u16 lengths of the strings in table order,
 * with no padding; the strings follow in table order, each with one NUL. It is computed
 * rather than numbered so that a new field cannot leave an offset stale; the offsets
 * doc/stream-format.md gives readers in other languages are checked against these by
 * tests/unit/test-event-fields.c.
 *
 * Gap record (type 2, aux 0, size 24): this reader missed events because it fell behind.
 *   8  8  first_seq  u64, first sequence number missed
 *   16 8  count      u64, how many (consecutive sequence numbers)
 *
 * Dropped record (type 3, aux 0, size 16): the capture lost events before they got a
 * sequence number (kernel buffers full, unparseable backend output).
 *   8  8  total      u64, the daemon's DroppedCount now
 */
#pragma once

#include <stddef.h>
#include <string.h>

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

#define FM_STREAM_MAGIC        "FMSTREAM"
#define FM_STREAM_VERSION      1
#define FM_STREAM_HEADER_SIZE  16

#define FM_RECORD_GAP_SIZE     24
#define FM_RECORD_DROPPED_SIZE 16
#define FM_RECORD_CAPTURE_SIZE 16

/* The members a field has in the fixed part of an event record: a number where it
 * stands among the numbers, a string's length among the lengths; the syscall is the
 * record's aux. */
#define FM_RECORD_NUMBER_U64(m) guint64 m;
#define FM_RECORD_NUMBER_U32(m) guint32 m;
#define FM_RECORD_NUMBER_I64(m) gint64 m;
#define FM_RECORD_NUMBER_SYSCALL(m)
#define FM_RECORD_NUMBER_BYTES(m)
#define FM_RECORD_NUMBER_UTF8(m)
#define FM_RECORD_NUMBER_ERRNO(m)
#define FM_RECORD_NUMBER_USER(m)
#define FM_RECORD_NUMBER(id, m, type, ...) FM_RECORD_NUMBER_##type (m)

#define FM_RECORD_LENGTH_BYTES(m) guint16 m##_len;
#define FM_RECORD_LENGTH_UTF8(m) guint16 m##_len;
#define FM_RECORD_LENGTH_U64(m)
#define FM_RECORD_LENGTH_U32(m)
#define FM_RECORD_LENGTH_I64(m)
#define FM_RECORD_LENGTH_SYSCALL(m)
#define FM_RECORD_LENGTH_ERRNO(m)
#define FM_RECORD_LENGTH_USER(m)
#define FM_RECORD_LENGTH(id, m, type, ...) FM_RECORD_LENGTH_##type (m)

/* The fixed part of an event record, as a layout only: never read or written through
 * (records are unaligned little-endian bytes), just asked for offsetof and sizeof.
 * Packed, because the layout is what the members add up to, not what the compiler's
 * alignment would make of them. */
typedef struct __attribute__ ((packed)) {
  guint32 record_size;
  guint16 record_type;
  guint16 record_aux;
  FM_EVENT_FIELDS (FM_RECORD_NUMBER)
  FM_EVENT_FIELDS (FM_RECORD_LENGTH)
} FmRecordEventFixed;

#define FM_RECORD_EVENT_FIXED  sizeof (FmRecordEventFixed)
/* Upper bound of one record's size; the decoder refuses anything larger. */
#define FM_RECORD_MAX_SIZE     (FM_RECORD_EVENT_FIXED FM_EVENT_FIELDS (FM_FIELD_MAX_BYTES))

/* The member of the fixed part that holds a stored field: its value, a string's length,
 * the syscall's aux. */
#define FM_RECORD_MEMBER_U64(m) m
#define FM_RECORD_MEMBER_U32(m) m
#define FM_RECORD_MEMBER_I64(m) m
#define FM_RECORD_MEMBER_SYSCALL(m) record_aux
#define FM_RECORD_MEMBER_BYTES(m) m##_len
#define FM_RECORD_MEMBER_UTF8(m) m##_len

/* Where each stored field's member is and the bytes it takes: FM_RECORD_OFFSET_RESULT,
 * FM_RECORD_SIZE_RESULT... */
#define FM_RECORD_OFFSET(id, m, type, ...) \
  FM_FIELD_IF_STORED_##type ( \
    FM_RECORD_OFFSET_##id = offsetof (FmRecordEventFixed, FM_RECORD_MEMBER_##type (m)), \
    FM_RECORD_SIZE_##id = sizeof (((FmRecordEventFixed *) NULL)->FM_RECORD_MEMBER_##type (m)),)
enum {
  FM_EVENT_FIELDS (FM_RECORD_OFFSET)
};

typedef enum {
  FM_RECORD_EVENT = 1,
  FM_RECORD_GAP = 2,
  FM_RECORD_DROPPED = 3,
  FM_RECORD_CAPTURE = 4,
} FmRecordType;

/* The aux of a capture record: what happened to the capture the stream follows. */
typedef enum {
  FM_CAPTURE_STOPPED = 1,
  FM_CAPTURE_STARTED = 2,
} FmCaptureChange;

/* Writes the 16-byte header. */
void fm_stream_write_header (guint8 out[FM_STREAM_HEADER_SIZE]);

/* The size field of the record at @record (any alignment). */
static inline guint32
fm_record_get_size (const guint8 *record)
{
  guint32 size;

  memcpy (&size, record, sizeof size);
  return GUINT32_FROM_LE (size);
}

/* The encoded size of @event (strings clamped to the FM_*_MAX limits). */
gsize fm_record_event_size (const FmEvent *event);

/* Encodes into @out, which must hold fm_record_event_size() bytes; returns that size. */
gsize fm_record_encode_event (const FmEvent *event, guint8 *out);
/* Appends the encoding to @buf. */
void fm_record_append_event (GByteArray *buf, const FmEvent *event);
void fm_record_encode_gap (guint8 out[FM_RECORD_GAP_SIZE], guint64 first_seq, guint64 count);
void fm_record_encode_dropped (guint8 out[FM_RECORD_DROPPED_SIZE], guint64 total);
void fm_record_encode_capture (guint8          out[FM_RECORD_CAPTURE_SIZE],
                               FmCaptureChange change,
                               guint64         next_seq);

/* Decodes one complete event record (as produced by fm_record_encode_event) into a view
 * whose strings point into @data. Checks every bound, the NULs and the lengths;
 * returns FALSE with FM_ERROR_PARSE on anything malformed. */
gboolean fm_record_decode_event (const guint8 *data,
                                 gsize         len,
                                 FmEvent      *event,
                                 GError      **error);

/* Incremental stream decoder: feed it bytes as they arrive, split anywhere; it calls back
 * once per complete record. Holds at most one partial record. */
typedef struct _FmStreamDecoder FmStreamDecoder;

typedef struct {
  /* An event; the view is valid during the call only. Return FALSE to stop feeding. */
  gboolean (*event) (const FmEvent *event, gpointer user_data);
  void (*gap) (guint64 first_seq, guint64 count, gpointer user_data);
  void (*dropped) (guint64 total, gpointer user_data);
  /* The capture stopped or a new one started; its events begin at @next_seq. */
  void (*capture) (FmCaptureChange change, guint64 next_seq, gpointer user_data);
} FmStreamCallbacks;

FmStreamDecoder *fm_stream_decoder_new (const FmStreamCallbacks *callbacks,
                                        gpointer                 user_data);
void fm_stream_decoder_free (FmStreamDecoder *decoder);
/* Returns FALSE with FM_ERROR_PARSE when the stream is malformed (bad magic, unsupported
 * version, a record size out of bounds, a bad event record); the decoder is then unusable. */
gboolean fm_stream_decoder_feed (FmStreamDecoder *decoder,
                                 const guint8    *data,
                                 gsize            len,
                                 GError         **error);
/* TRUE when the decoder holds no partial header or record (a clean end of stream). */
gboolean fm_stream_decoder_at_boundary (FmStreamDecoder *decoder);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmStreamDecoder, fm_stream_decoder_free)

G_END_DECLS
