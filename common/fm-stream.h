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
 *   4  2  type       u16: 1 event, 2 gap, 3 dropped
 *   6  2  aux        u16, type-specific
 * Readers skip records of a type they do not know (size tells how far).
 *
 * Event record (type 1; aux = x86_64 syscall number). The offsets are those of
 * FM_EVENT_FIELDS (fm-event-fields.h), which the code reads; today:
 *   8  8  seq        u64
 *   16 8  time_ns    u64, CLOCK_REALTIME
 *   24 8  duration   u64, ns
 *   32 4  pid        u32
 *   36 4  ppid       u32
 *   40 4  tid        u32
 *   44 4  uid        u32
 *   48 8  result     i64
 *   56 2  comm_len   u16 } lengths of the strings that follow, NUL excluded;
 *   58 2  path_len   u16 } each string is followed by one NUL byte and contains none.
 *   60 2  path2_len  u16 }
 *   62 2  detail_len u16 }
 *   64 .. comm NUL path NUL path2 NUL detail NUL   (the table's order)
 *   size = 64 + comm_len + path_len + path2_len + detail_len + 4
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

#include <string.h>

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

#define FM_STREAM_MAGIC        "FMSTREAM"
#define FM_STREAM_VERSION      1
#define FM_STREAM_HEADER_SIZE  16

#define FM_RECORD_EVENT_FIXED  64
#define FM_RECORD_GAP_SIZE     24
#define FM_RECORD_DROPPED_SIZE 16
#define FM_RECORD_CAPTURE_SIZE 16
/* Upper bound of one record's size; the decoder refuses anything larger. */
#define FM_RECORD_MAX_SIZE     (FM_RECORD_EVENT_FIXED FM_EVENT_FIELDS (FM_FIELD_MAX_BYTES))

/* The offset of each stored field in an event record: FM_RECORD_OFFSET_RESULT... */
#define FM_RECORD_OFFSET(id, m, type, off, ...) FM_FIELD_IF_STORED_##type (FM_RECORD_OFFSET_##id = (off),)
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
