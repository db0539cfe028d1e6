/* test-stream-format.c: the binary record stream of OpenStream: events survive encoding byte for
 * byte, the incremental decoder gives the same callbacks however the stream is split, and
 * malformed input is refused with FM_ERROR_PARSE instead of being half-read. */
#include <string.h>

#include "fm-error.h"
#include "fm-stream.h"
#include "fm-syscalls.h"

static FmEvent
sample_event (void)
{
  FmEvent e = { .seq = 12, .time_ns = G_GUINT64_CONSTANT (1764851696789012345),
                .duration_ns = 1500, .pid = 812, .ppid = 1, .tid = 813, .uid = 0,
                .result = -13 };

  e.syscall_nr = fm_syscall_by_name ("openat")->nr;
  fm_event_set_strings (&e, "sshd", "/etc/shadow", NULL, "O_RDONLY|O_CLOEXEC");
  return e;
}

/* ---- what the decoder reported, as one comparable text ---------------------------- */

typedef struct {
  GString *log;
  guint events;
  gboolean stop_after_first;
} Log;

/* "event HEX\n": an event is logged as the hex of its encoding, so equal text means every
 * field and every string byte is equal. */
static void
append_event_line (GString *out, const guint8 *rec, gsize len)
{
  static const char digits[] = "0123456789abcdef";

  g_string_append (out, "event ");
  for (gsize i = 0; i < len; i++)
    {
      g_string_append_c (out, digits[rec[i] >> 4]);
      g_string_append_c (out, digits[rec[i] & 0xf]);
    }
  g_string_append_c (out, '\n');
}

static gboolean
on_event (const FmEvent *event, gpointer user_data)
{
  Log *log = user_data;
  g_autoptr(GByteArray) rec = g_byte_array_new ();

  fm_record_append_event (rec, event);
  append_event_line (log->log, rec->data, rec->len);
  log->events++;
  return !log->stop_after_first;
}

static void
on_gap (guint64 first_seq, guint64 count, gpointer user_data)
{
  Log *log = user_data;

  g_string_append_printf (log->log, "gap %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
                          first_seq, count);
}

static void
on_dropped (guint64 total, gpointer user_data)
{
  Log *log = user_data;

  g_string_append_printf (log->log, "dropped %" G_GUINT64_FORMAT "\n", total);
}

static void
on_capture (FmCaptureChange change, guint64 next_seq, gpointer user_data)
{
  Log *log = user_data;

  g_string_append_printf (log->log, "capture %s %" G_GUINT64_FORMAT "\n",
                          change == FM_CAPTURE_STOPPED ? "stopped" : "started", next_seq);
}

static const FmStreamCallbacks callbacks = { on_event, on_gap, on_dropped, on_capture };

static void
append_header (GByteArray *buf)
{
  guint8 h[FM_STREAM_HEADER_SIZE];

  fm_stream_write_header (h);
  g_byte_array_append (buf, h, sizeof h);
}

static void
append_gap (GByteArray *buf, guint64 first_seq, guint64 count)
{
  guint8 r[FM_RECORD_GAP_SIZE];

  fm_record_encode_gap (r, first_seq, count);
  g_byte_array_append (buf, r, sizeof r);
}

static void
append_dropped (GByteArray *buf, guint64 total)
{
  guint8 r[FM_RECORD_DROPPED_SIZE];

  fm_record_encode_dropped (r, total);
  g_byte_array_append (buf, r, sizeof r);
}

/* A record of a type from a later version: size, type, aux, then @payload_len bytes. */
static void
append_unknown (GByteArray *buf, guint16 type, gsize payload_len)
{
  guint32 size = GUINT32_TO_LE ((guint32) (8 + payload_len));
  guint16 le_type = GUINT16_TO_LE (type), aux = GUINT16_TO_LE (7);

  g_byte_array_append (buf, (const guint8 *) &size, 4);
  g_byte_array_append (buf, (const guint8 *) &le_type, 2);
  g_byte_array_append (buf, (const guint8 *) &aux, 2);
  for (gsize i = 0; i < payload_len; i++)
    {
      /* bytes that would look like records if the decoder did not skip them */
      guint8 b = (guint8) (i % 3 == 0 ? 0x01 : 0xff);

      g_byte_array_append (buf, &b, 1);
    }
}

/* Feeds @data in pieces ending at each offset in @cuts (ascending, then @len); the
 * decoder must accept all of it and end at a record boundary. */
static char *
decode_pieces (const guint8 *data, gsize len, const gsize *cuts, guint n_cuts)
{
  Log log = { g_string_new (NULL), 0, FALSE };
  g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&callbacks, &log);
  gsize at = 0;

  for (guint i = 0; i <= n_cuts; i++)
    {
      g_autoptr(GError) error = NULL;
      gsize end = i < n_cuts ? cuts[i] : len;

      if (!fm_stream_decoder_feed (decoder, data + at, end - at, &error))
        g_error ("feed [%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT "): %s", at, end,
                 error != NULL ? error->message : "stopped");
      g_assert_no_error (error);
      at = end;
    }
  g_assert_true (fm_stream_decoder_at_boundary (decoder));
  return g_string_free (log.log, FALSE);
}

static char *
decode_whole (const guint8 *data, gsize len)
{
  return decode_pieces (data, len, NULL, 0);
}

/* ---- round trips ------------------------------------------------------------------ */

/* Encodes @e, checks the record decodes (alone and inside a stream) to an equal event. */
static void
assert_round_trip (const FmEvent *e)
{
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  FmEvent back;

  fm_record_append_event (rec, e);
  g_assert_cmpuint (rec->len, ==, fm_record_event_size (e));
  g_assert_cmpuint (rec->len, <=, FM_RECORD_MAX_SIZE);
  g_assert_true (fm_record_decode_event (rec->data, rec->len, &back, &error));
  g_assert_no_error (error);
  g_assert_true (fm_event_equal (e, &back));
  /* the views are C strings too: each ends with its NUL */
  g_assert_cmpint (back.comm[back.comm_len], ==, '\0');
  g_assert_cmpint (back.path[back.path_len], ==, '\0');
  g_assert_cmpint (back.path2[back.path2_len], ==, '\0');
  g_assert_cmpint (back.detail[back.detail_len], ==, '\0');

  append_header (stream);
  g_byte_array_append (stream, rec->data, rec->len);
  got = decode_whole (stream->data, stream->len);
  {
    g_autoptr(GString) want = g_string_new (NULL);

    append_event_line (want, rec->data, rec->len);
    expected = g_string_free (g_steal_pointer (&want), FALSE);
  }
  g_assert_cmpstr (got, ==, expected);
}

static void
test_round_trip_empty_strings (void)
{
  FmEvent e = sample_event ();

  fm_event_set_strings (&e, NULL, NULL, NULL, NULL);
  g_assert_cmpuint (fm_record_event_size (&e), ==, FM_RECORD_EVENT_FIXED + 4);
  assert_round_trip (&e);

  /* every integer at its extremes */
  e.seq = e.time_ns = e.duration_ns = G_MAXUINT64;
  e.pid = e.ppid = e.tid = e.uid = G_MAXUINT32;
  e.result = G_MININT64;
  e.syscall_nr = G_MAXUINT16;
  assert_round_trip (&e);
  e.result = G_MAXINT64;
  e.syscall_nr = 0;
  assert_round_trip (&e);
}

static void
test_round_trip_long_path (void)
{
  g_autofree char *path = g_malloc (FM_PATH_MAX + 100);
  FmEvent e = sample_event ();

  memset (path, 'a', FM_PATH_MAX + 99);
  path[0] = '/';
  path[FM_PATH_MAX + 99] = '\0';
  fm_event_set_strings (&e, "0123456789abcdefXYZ", path, path, NULL);
  /* longer strings are clamped to the limits, and the clamped view round-trips */
  g_assert_cmpuint (e.path_len, ==, FM_PATH_MAX);
  g_assert_cmpuint (e.comm_len, ==, FM_COMM_MAX - 1);
  assert_round_trip (&e);
}

static void
test_round_trip_non_utf8 (void)
{
  FmEvent e = sample_event ();

  fm_event_set_strings (&e, "\xff\xfe" "comm\x80", "/tmp/caf\xe9/\xc0\xaf/\xed\xa0\x80",
                        "\x80\x81\xfe\xff", "O_RDONLY");
  assert_round_trip (&e);
}

static void
test_round_trip_every_byte (void)
{
  char path[256];
  char comm[FM_COMM_MAX];
  FmEvent e = sample_event ();

  for (int i = 1; i <= 0xff; i++)
    path[i - 1] = (char) i;
  path[255] = '\0';
  for (int i = 0; i < FM_COMM_MAX - 1; i++)
    comm[i] = (char) (0xf1 + i);
  comm[FM_COMM_MAX - 1] = '\0';
  fm_event_set_strings (&e, comm, path, path + 128, "detail");
  g_assert_cmpuint (e.path_len, ==, 255);
  assert_round_trip (&e);
}

/* ---- a stream of every record kind, split anywhere -------------------------------- */

typedef struct {
  GByteArray *stream;
  GPtrArray *boundaries;  /* offsets (as pointers) where a record or the header ends */
} Fixture;

static void
mark (Fixture *f)
{
  g_ptr_array_add (f->boundaries, GSIZE_TO_POINTER ((gsize) f->stream->len));
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autofree char *long_path = g_malloc (FM_PATH_MAX + 1);
  FmEvent e = sample_event ();

  (void) data;
  f->stream = g_byte_array_new ();
  f->boundaries = g_ptr_array_new ();
  memset (long_path, 'p', FM_PATH_MAX);
  long_path[FM_PATH_MAX] = '\0';

  append_header (f->stream); mark (f);
  fm_record_append_event (f->stream, &e); mark (f);
  append_unknown (f->stream, 99, 37); mark (f);
  e.seq = 13;
  e.result = 3;
  e.syscall_nr = 9999;
  fm_event_set_strings (&e, "", long_path, "/b\xff", "");
  fm_record_append_event (f->stream, &e); mark (f);
  append_gap (f->stream, 14, 1000); mark (f);
  append_unknown (f->stream, 0, 0); mark (f);   /* a bare 8-byte record */
  append_dropped (f->stream, 42); mark (f);
  append_unknown (f->stream, G_MAXUINT16, FM_RECORD_MAX_SIZE - 8); mark (f);
  e.seq = 1014;
  fm_event_set_strings (&e, "x", NULL, NULL, "d");
  fm_record_append_event (f->stream, &e); mark (f);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  (void) data;
  g_byte_array_unref (f->stream);
  g_ptr_array_unref (f->boundaries);
}

static void
test_stream_whole (Fixture *f, gconstpointer data)
{
  g_autofree char *got = decode_whole (f->stream->data, f->stream->len);
  g_auto(GStrv) lines = g_strsplit (got, "\n", -1);

  (void) data;
  /* three events, the gap and the dropped count, in order; unknown records skipped */
  g_assert_cmpuint (g_strv_length (lines), ==, 6);
  g_assert_true (g_str_has_prefix (lines[0], "event "));
  g_assert_true (g_str_has_prefix (lines[1], "event "));
  g_assert_cmpstr (lines[2], ==, "gap 14 1000");
  g_assert_cmpstr (lines[3], ==, "dropped 42");
  g_assert_true (g_str_has_prefix (lines[4], "event "));
  g_assert_cmpstr (lines[5], ==, "");
}

static void
test_stream_any_split (Fixture *f, gconstpointer data)
{
  g_autofree char *whole = decode_whole (f->stream->data, f->stream->len);

  (void) data;
  for (gsize cut = 0; cut <= f->stream->len; cut++)
    {
      g_autofree char *got = decode_pieces (f->stream->data, f->stream->len, &cut, 1);

      if (g_strcmp0 (got, whole) != 0)
        g_error ("split at %" G_GSIZE_FORMAT " gives different records", cut);
    }
}

static void
test_stream_byte_by_byte (Fixture *f, gconstpointer data)
{
  g_autofree char *whole = decode_whole (f->stream->data, f->stream->len);
  g_autofree gsize *cuts = g_new (gsize, f->stream->len);
  g_autofree char *got = NULL;

  (void) data;
  for (gsize i = 0; i < f->stream->len; i++)
    cuts[i] = i;
  got = decode_pieces (f->stream->data, f->stream->len, cuts, (guint) f->stream->len);
  g_assert_cmpstr (got, ==, whole);
}

static void
test_stream_at_boundary (Fixture *f, gconstpointer data)
{
  Log log = { g_string_new (NULL), 0, FALSE };
  g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&callbacks, &log);
  guint next = 0;

  (void) data;
  /* nothing read yet: the header is still missing, so this is no clean end */
  g_assert_false (fm_stream_decoder_at_boundary (decoder));
  for (gsize i = 0; i < f->stream->len; i++)
    {
      g_autoptr(GError) error = NULL;
      gboolean boundary;

      g_assert_true (fm_stream_decoder_feed (decoder, f->stream->data + i, 1, &error));
      g_assert_no_error (error);
      boundary = next < f->boundaries->len &&
                 GPOINTER_TO_SIZE (g_ptr_array_index (f->boundaries, next)) == i + 1;
      if (boundary)
        next++;
      if (fm_stream_decoder_at_boundary (decoder) != boundary)
        g_error ("after %" G_GSIZE_FORMAT " bytes: at_boundary should be %d", i + 1, boundary);
    }
  g_assert_cmpuint (next, ==, f->boundaries->len);
  g_string_free (log.log, TRUE);
}

static void
test_stream_longer_header_is_skipped (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GByteArray) plain = g_byte_array_new ();
  guint32 hdr_size = GUINT32_TO_LE (FM_STREAM_HEADER_SIZE + 20);
  FmEvent e = sample_event ();
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  g_autofree gsize *cuts = NULL;

  append_header (plain);
  append_gap (plain, 1, 2);
  fm_record_append_event (plain, &e);
  want = decode_whole (plain->data, plain->len);

  /* a later version's header with 20 more bytes, which look like a record */
  append_header (stream);
  memcpy (stream->data + 12, &hdr_size, 4);
  append_dropped (stream, 7);
  g_byte_array_append (stream, (const guint8 *) "\x04\x00\x00\x00", 4);
  append_gap (stream, 1, 2);
  fm_record_append_event (stream, &e);
  cuts = g_new (gsize, stream->len);
  for (gsize i = 0; i < stream->len; i++)
    cuts[i] = i;
  got = decode_pieces (stream->data, stream->len, cuts, (guint) stream->len);
  g_assert_cmpstr (got, ==, want);
}

static void
test_stream_callback_stops (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  Log log = { g_string_new (NULL), 0, TRUE };
  g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&callbacks, &log);
  g_autoptr(GError) error = NULL;
  FmEvent e = sample_event ();

  append_header (stream);
  fm_record_append_event (stream, &e);
  fm_record_append_event (stream, &e);
  append_gap (stream, 1, 1);
  /* stopping is not an error, and nothing more is reported from that feed */
  g_assert_true (fm_stream_decoder_feed (decoder, stream->data, stream->len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (log.events, ==, 1);
  g_assert_null (strstr (log.log->str, "gap"));
  g_string_free (log.log, TRUE);
}

/* ---- malformed input -------------------------------------------------------------- */

static void
put_u32_at (GByteArray *buf, gsize at, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (buf->data + at, &v, 4);
}

static void
put_u16_at (GByteArray *buf, gsize at, guint16 v)
{
  v = GUINT16_TO_LE (v);
  memcpy (buf->data + at, &v, 2);
}

typedef enum {
  BAD_MAGIC,
  BAD_VERSION,
  BAD_HEADER_SIZE,
  SIZE_ZERO,
  SIZE_BELOW_8,
  SIZE_ABOVE_MAX,
  SIZE_MAX_U32,
  EVENT_BELOW_FIXED,
  STRING_WITHOUT_NUL,
  STRING_WITH_INNER_NUL,
  LENGTHS_TOO_LONG,
  LENGTHS_TOO_SHORT,
  COMM_OVER_LIMIT,
  PATH_OVER_LIMIT,
  GAP_WRONG_SIZE,
  DROPPED_WRONG_SIZE,
  N_BAD,
} Bad;

static const char *const bad_names[N_BAD] = {
  "bad magic", "version 2", "header size below 16", "record size 0", "record size 7",
  "record size above FM_RECORD_MAX_SIZE", "record size 0xffffffff",
  "event record shorter than its fixed part", "string without its NUL",
  "string holding a NUL", "lengths add up to more than the size",
  "lengths add up to less than the size", "comm over its limit", "path over its limit",
  "gap record of 16 bytes", "dropped record of 24 bytes",
};

/* A good stream (header, a gap, an event) with one defect; *rec_at gets where the
 * defective record starts (0 for the header). */
static GByteArray *
bad_stream (Bad bad, gsize *rec_at)
{
  GByteArray *s = g_byte_array_new ();
  FmEvent e = sample_event ();
  gsize ev;

  append_header (s);
  append_gap (s, 1, 1);
  ev = s->len;
  fm_record_append_event (s, &e);
  *rec_at = ev;

  switch (bad)
    {
    case BAD_MAGIC: s->data[0] = 'X'; *rec_at = 0; break;
    case BAD_VERSION: put_u32_at (s, 8, 2); *rec_at = 0; break;
    case BAD_HEADER_SIZE: put_u32_at (s, 12, 8); *rec_at = 0; break;
    case SIZE_ZERO: put_u32_at (s, ev, 0); break;
    case SIZE_BELOW_8: put_u32_at (s, ev, 7); break;
    case SIZE_ABOVE_MAX:
      g_byte_array_set_size (s, ev + FM_RECORD_MAX_SIZE + 1);
      memset (s->data + ev, 0, FM_RECORD_MAX_SIZE + 1);
      put_u32_at (s, ev, FM_RECORD_MAX_SIZE + 1);
      put_u16_at (s, ev + 4, FM_RECORD_EVENT);
      break;
    case SIZE_MAX_U32: put_u32_at (s, ev, G_MAXUINT32); break;
    case EVENT_BELOW_FIXED:
      put_u32_at (s, ev, FM_RECORD_EVENT_FIXED - 1);
      g_byte_array_set_size (s, ev + FM_RECORD_EVENT_FIXED - 1);
      break;
    case STRING_WITHOUT_NUL:
      /* the NUL after "sshd" becomes a byte of comm */
      s->data[ev + FM_RECORD_EVENT_FIXED + 4] = 'x';
      break;
    case STRING_WITH_INNER_NUL: s->data[ev + FM_RECORD_EVENT_FIXED + 1] = '\0'; break;
    case LENGTHS_TOO_LONG: put_u16_at (s, ev + FM_RECORD_OFFSET_PATH, (guint16) (e.path_len + 1)); break;
    case LENGTHS_TOO_SHORT: put_u16_at (s, ev + FM_RECORD_OFFSET_DETAIL, (guint16) (e.detail_len - 1)); break;
    case COMM_OVER_LIMIT:
      {
        /* a consistent record whose comm is one byte over: only the limit is wrong */
        FmEvent big = e;
        char comm[FM_COMM_MAX + 1];
        gsize size;

        memset (comm, 'c', FM_COMM_MAX);
        comm[FM_COMM_MAX] = '\0';
        big.comm = comm;
        big.comm_len = FM_COMM_MAX - 1;
        g_byte_array_set_size (s, ev);
        fm_record_append_event (s, &big);
        g_byte_array_set_size (s, s->len + 1);
        memmove (s->data + ev + FM_RECORD_EVENT_FIXED + 1, s->data + ev + FM_RECORD_EVENT_FIXED,
                 s->len - 1 - ev - FM_RECORD_EVENT_FIXED);
        s->data[ev + FM_RECORD_EVENT_FIXED] = 'c';
        size = s->len - ev;
        put_u32_at (s, ev, (guint32) size);
        put_u16_at (s, ev + FM_RECORD_OFFSET_COMM, FM_COMM_MAX);
        break;
      }
    case PATH_OVER_LIMIT:
      {
        gsize extra = 10;
        gsize path_at = ev + FM_RECORD_EVENT_FIXED + e.comm_len + 1;
        gsize old_len = s->len;

        g_byte_array_set_size (s, old_len + FM_PATH_MAX + extra - e.path_len);
        memmove (s->data + path_at + FM_PATH_MAX + extra, s->data + path_at + e.path_len,
                 old_len - path_at - e.path_len);
        memset (s->data + path_at, 'p', FM_PATH_MAX + extra);
        put_u32_at (s, ev, (guint32) (s->len - ev));
        put_u16_at (s, ev + FM_RECORD_OFFSET_PATH, (guint16) (FM_PATH_MAX + extra));
        break;
      }
    case GAP_WRONG_SIZE: put_u32_at (s, FM_STREAM_HEADER_SIZE, 16); *rec_at = FM_STREAM_HEADER_SIZE; break;
    case DROPPED_WRONG_SIZE:
      put_u16_at (s, FM_STREAM_HEADER_SIZE + 4, FM_RECORD_DROPPED);
      *rec_at = FM_STREAM_HEADER_SIZE;
      break;
    case N_BAD:
      g_assert_not_reached ();
    }
  return s;
}

/* Feeds @s in pieces of @piece bytes; the decoder must refuse it with FM_ERROR_PARSE,
 * report nothing of the bad record, and stay refused. */
static void
assert_refused (GByteArray *s, gsize rec_at, gsize piece)
{
  Log log = { g_string_new (NULL), 0, FALSE };
  g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&callbacks, &log);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) again = NULL;
  gboolean ok = TRUE;

  for (gsize at = 0; ok && at < s->len; at += piece)
    ok = fm_stream_decoder_feed (decoder, s->data + at, MIN (piece, s->len - at), &error);
  if (ok)
    g_error ("accepted (pieces of %" G_GSIZE_FORMAT ")", piece);
  g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  /* the records before the bad one were reported, the bad one and later ones not */
  g_assert_cmpuint (log.events, ==, 0);
  if (rec_at > FM_STREAM_HEADER_SIZE)
    g_assert_cmpstr (log.log->str, ==, "gap 1 1\n");
  else
    g_assert_cmpstr (log.log->str, ==, "");
  g_assert_false (fm_stream_decoder_at_boundary (decoder));
  g_assert_false (fm_stream_decoder_feed (decoder, s->data, 1, &again));
  g_assert_error (again, FM_ERROR, FM_ERROR_PARSE);
  g_string_free (log.log, TRUE);
}

static void
test_malformed_refused (void)
{
  for (int bad = 0; bad < N_BAD; bad++)
    {
      gsize rec_at = 0;
      g_autoptr(GByteArray) s = bad_stream ((Bad) bad, &rec_at);

      g_test_message ("%s", bad_names[bad]);
      assert_refused (s, rec_at, s->len);
      assert_refused (s, rec_at, 1);
      assert_refused (s, rec_at, 7);
    }
}

/* The single-record decoder refuses the same defects in an event record. */
static void
test_malformed_event_record (void)
{
  static const Bad event_bad[] = {
    EVENT_BELOW_FIXED, STRING_WITHOUT_NUL, STRING_WITH_INNER_NUL, LENGTHS_TOO_LONG,
    LENGTHS_TOO_SHORT, COMM_OVER_LIMIT, PATH_OVER_LIMIT,
  };

  for (guint i = 0; i < G_N_ELEMENTS (event_bad); i++)
    {
      gsize rec_at = 0;
      g_autoptr(GByteArray) s = bad_stream (event_bad[i], &rec_at);
      g_autoptr(GError) error = NULL;
      FmEvent e;

      g_test_message ("%s", bad_names[event_bad[i]]);
      g_assert_false (fm_record_decode_event (s->data + rec_at, s->len - rec_at, &e, &error));
      g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
    }

  /* a good record refused when the length given is not its size, or it is not an event */
  {
    g_autoptr(GByteArray) rec = g_byte_array_new ();
    FmEvent e = sample_event ();
    FmEvent back;
    g_autoptr(GError) e1 = NULL;
    g_autoptr(GError) e2 = NULL;
    g_autoptr(GError) e3 = NULL;

    fm_record_append_event (rec, &e);
    g_assert_false (fm_record_decode_event (rec->data, rec->len - 1, &back, &e1));
    g_assert_error (e1, FM_ERROR, FM_ERROR_PARSE);
    g_byte_array_append (rec, (const guint8 *) "", 1);
    g_assert_false (fm_record_decode_event (rec->data, rec->len, &back, &e2));
    g_assert_error (e2, FM_ERROR, FM_ERROR_PARSE);
    g_byte_array_set_size (rec, rec->len - 1);
    put_u16_at (rec, 4, FM_RECORD_GAP);
    g_assert_false (fm_record_decode_event (rec->data, rec->len, &back, &e3));
    g_assert_error (e3, FM_ERROR, FM_ERROR_PARSE);
  }
}

/* Every truncation of a good stream is accepted but is not a clean end. */
static void
test_truncated_is_not_a_boundary (Fixture *f, gconstpointer data)
{
  guint next = 0;

  (void) data;
  for (gsize len = 0; len < f->stream->len; len++)
    {
      Log log = { g_string_new (NULL), 0, FALSE };
      g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&callbacks, &log);
      g_autoptr(GError) error = NULL;
      gboolean boundary = next < f->boundaries->len &&
                          GPOINTER_TO_SIZE (g_ptr_array_index (f->boundaries, next)) == len;

      if (boundary)
        next++;
      g_assert_true (fm_stream_decoder_feed (decoder, f->stream->data, len, &error));
      g_assert_no_error (error);
      g_assert_true (fm_stream_decoder_at_boundary (decoder) == boundary);
      g_string_free (log.log, TRUE);
    }
}

/* ---- the exact bytes, as doc/stream-format.md gives them ---------------------------- */

/* The round trips above would pass with a layout that is wrong in both directions alike;
 * these pin the bytes other languages read. */
static void
test_layout_header (void)
{
  static const guint8 want[FM_STREAM_HEADER_SIZE] = {
    'F', 'M', 'S', 'T', 'R', 'E', 'A', 'M', 1, 0, 0, 0, 16, 0, 0, 0,
  };
  guint8 h[FM_STREAM_HEADER_SIZE];

  fm_stream_write_header (h);
  g_assert_cmpmem (h, sizeof h, want, sizeof want);
}

static void
test_layout_event (void)
{
  FmEvent e = { .seq = 0x0102030405060708, .time_ns = 0x1112131415161718,
                .duration_ns = 0x2122232425262728, .pid = 0x31323334, .ppid = 0x41424344,
                .tid = 0x51525354, .uid = 0x61626364, .result = -2, .syscall_nr = 257 };
  static const guint8 want[] = {
    76, 0, 0, 0, 1, 0, 0x01, 0x01,
    0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
    0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11,
    0x28, 0x27, 0x26, 0x25, 0x24, 0x23, 0x22, 0x21,
    0x34, 0x33, 0x32, 0x31, 0x44, 0x43, 0x42, 0x41,
    0x54, 0x53, 0x52, 0x51, 0x64, 0x63, 0x62, 0x61,
    0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    2, 0, 3, 0, 0, 0, 3, 0,
    'l', 's', 0, '/', 'e', 't', 0, 0, 'x', '=', '1', 0,
  };
  guint8 out[sizeof want + 1];
  FmEvent back;
  g_autoptr(GError) error = NULL;

  fm_event_set_strings (&e, "ls", "/et", NULL, "x=1");
  g_assert_cmpuint (fm_record_event_size (&e), ==, sizeof want);
  /* at an odd address: neither side may depend on alignment */
  g_assert_cmpuint (fm_record_encode_event (&e, out + 1), ==, sizeof want);
  g_assert_cmpmem (out + 1, sizeof want, want, sizeof want);
  g_assert_true (fm_record_decode_event (out + 1, sizeof want, &back, &error));
  g_assert_no_error (error);
  g_assert_true (fm_event_equal (&e, &back));
}

static void
test_layout_gap_and_dropped (void)
{
  static const guint8 gap_want[FM_RECORD_GAP_SIZE] = {
    24, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x20, 0, 0, 0, 0, 0, 0x80,
  };
  static const guint8 dropped_want[FM_RECORD_DROPPED_SIZE] = {
    16, 0, 0, 0, 3, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
  };
  guint8 gap[FM_RECORD_GAP_SIZE];
  guint8 dropped[FM_RECORD_DROPPED_SIZE];

  fm_record_encode_gap (gap, 5, G_GUINT64_CONSTANT (0x8000000000002010));
  g_assert_cmpmem (gap, sizeof gap, gap_want, sizeof gap_want);
  fm_record_encode_dropped (dropped, G_GUINT64_CONSTANT (0xfeffffffffffffff));
  g_assert_cmpmem (dropped, sizeof dropped, dropped_want, sizeof dropped_want);
}

/* ---- the decoder does not copy what it can read in place ---------------------------- */

typedef struct {
  const guint8 *fed;
  gsize fed_len;
  guint events, in_place;
} Where;

static gboolean
on_event_where (const FmEvent *event, gpointer user_data)
{
  Where *w = user_data;
  const guint8 *p = (const guint8 *) event->comm;

  w->events++;
  if (p >= w->fed && p < w->fed + w->fed_len)
    w->in_place++;
  return TRUE;
}

static void
test_stream_whole_records_in_place (void)
{
  static const FmStreamCallbacks where_callbacks = { on_event_where, NULL, NULL };
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  Where w = { 0 };
  g_autoptr(FmStreamDecoder) decoder = fm_stream_decoder_new (&where_callbacks, &w);
  g_autoptr(GError) error = NULL;
  FmEvent e = sample_event ();
  gsize cut;

  append_header (stream);
  for (guint i = 0; i < 4; i++)
    fm_record_append_event (stream, &e);
  /* the second feed starts inside the second record: that one is carried (a copy), the
   * two after it lie wholly in the feed and are read where they are */
  cut = FM_STREAM_HEADER_SIZE + fm_record_event_size (&e) + 10;
  w.fed = stream->data;
  w.fed_len = cut;
  g_assert_true (fm_stream_decoder_feed (decoder, stream->data, cut, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (w.events, ==, 1);
  g_assert_cmpuint (w.in_place, ==, 1);
  w.fed = stream->data + cut;
  w.fed_len = stream->len - cut;
  g_assert_true (fm_stream_decoder_feed (decoder, w.fed, w.fed_len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (w.events, ==, 4);
  g_assert_cmpuint (w.in_place, ==, 3);
}

/* ---- the event helpers -------------------------------------------------------------- */

static void
test_event_detail_cut_on_a_character (void)
{
  /* 1023 ASCII bytes, then a 3-byte character the 1024-byte limit would split */
  g_autofree char *ascii = g_strnfill (FM_DETAIL_MAX - 1, 'd');
  g_autofree char *detail = g_strconcat (ascii, "\xe2\x82\xac", NULL);
  FmEvent e = sample_event ();

  fm_event_set_strings (&e, NULL, NULL, NULL, detail);
  g_assert_cmpuint (e.detail_len, ==, FM_DETAIL_MAX - 1);
  g_assert_true (g_utf8_validate (e.detail, e.detail_len, NULL));
  /* exactly at the limit nothing is cut */
  detail[FM_DETAIL_MAX] = '\0';
  memset (detail, 'd', FM_DETAIL_MAX);
  fm_event_set_strings (&e, NULL, NULL, NULL, detail);
  g_assert_cmpuint (e.detail_len, ==, FM_DETAIL_MAX);
}

static void
test_event_equal_compares_contents (void)
{
  FmEvent a = sample_event ();
  FmEvent b = a;
  g_autofree char *path = g_strdup (a.path);

  /* equal by content, not by pointer */
  b.path = path;
  g_assert_true (fm_event_equal (&a, &b));
  b.uid++;
  g_assert_false (fm_event_equal (&a, &b));
  b = a;
  b.syscall_nr++;
  g_assert_false (fm_event_equal (&a, &b));
  b = a;
  b.path_len--;
  g_assert_false (fm_event_equal (&a, &b));
  b = a;
  b.detail = "O_RDONLY|O_CLOEXEX";
  g_assert_false (fm_event_equal (&a, &b));
}

/* A capture record says what happened and where the events of the change begin; an aux
 * of a later version is skipped, as an unknown type is. */
static void
test_capture_records (void)
{
  static const guint8 want[FM_RECORD_CAPTURE_SIZE] = {
    16, 0, 0, 0, 4, 0, 2, 0, 0x39, 0x30, 0, 0, 0, 0, 0, 0,
  };
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  guint8 r[FM_RECORD_CAPTURE_SIZE];
  g_autofree char *got = NULL;

  fm_record_encode_capture (r, FM_CAPTURE_STARTED, 12345);
  g_assert_cmpmem (r, sizeof r, want, sizeof want);

  append_header (stream);
  fm_record_encode_capture (r, FM_CAPTURE_STOPPED, 5);
  g_byte_array_append (stream, r, sizeof r);
  fm_record_encode_capture (r, 77, 6);
  g_byte_array_append (stream, r, sizeof r);
  fm_record_encode_capture (r, FM_CAPTURE_STARTED, 9);
  g_byte_array_append (stream, r, sizeof r);
  got = decode_whole (stream->data, stream->len);
  g_assert_cmpstr (got, ==, "capture stopped 5\ncapture started 9\n");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stream/record/round-trip/empty-strings-and-extreme-integers",
                   test_round_trip_empty_strings);
  g_test_add_func ("/stream/record/round-trip/path-of-4096-bytes", test_round_trip_long_path);
  g_test_add_func ("/stream/record/round-trip/non-utf8-bytes", test_round_trip_non_utf8);
  g_test_add_func ("/stream/record/round-trip/every-byte-0x01-to-0xff", test_round_trip_every_byte);
  g_test_add ("/stream/decoder/every-record-kind-unknown-types-skipped", Fixture, NULL,
              fixture_setup, test_stream_whole, fixture_teardown);
  g_test_add ("/stream/decoder/any-split-gives-the-same-records", Fixture, NULL,
              fixture_setup, test_stream_any_split, fixture_teardown);
  g_test_add ("/stream/decoder/byte-by-byte-gives-the-same-records", Fixture, NULL,
              fixture_setup, test_stream_byte_by_byte, fixture_teardown);
  g_test_add ("/stream/decoder/at-boundary-exactly-between-records", Fixture, NULL,
              fixture_setup, test_stream_at_boundary, fixture_teardown);
  g_test_add ("/stream/decoder/truncated-stream-is-not-at-a-boundary", Fixture, NULL,
              fixture_setup, test_truncated_is_not_a_boundary, fixture_teardown);
  g_test_add_func ("/stream/decoder/longer-header-of-a-later-version-is-skipped",
                   test_stream_longer_header_is_skipped);
  g_test_add_func ("/stream/decoder/callback-can-stop-the-feed", test_stream_callback_stops);
  g_test_add_func ("/stream/decoder/malformed-input-is-refused", test_malformed_refused);
  g_test_add_func ("/stream/record/malformed-event-is-refused", test_malformed_event_record);
  g_test_add_func ("/stream/layout/header-bytes", test_layout_header);
  g_test_add_func ("/stream/layout/event-bytes-little-endian-at-any-alignment", test_layout_event);
  g_test_add_func ("/stream/layout/gap-and-dropped-bytes", test_layout_gap_and_dropped);
  g_test_add_func ("/stream/decoder/capture-records-and-unknown-changes", test_capture_records);
  g_test_add_func ("/stream/decoder/whole-records-are-read-in-place",
                   test_stream_whole_records_in_place);
  g_test_add_func ("/event/set-strings/detail-cut-before-a-split-character",
                   test_event_detail_cut_on_a_character);
  g_test_add_func ("/event/equal/compares-contents-not-pointers", test_event_equal_compares_contents);

  return g_test_run ();
}
