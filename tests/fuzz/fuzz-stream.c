/* fuzz-stream.c: the stream decoder on arbitrary bytes, fed whole and then in pieces whose
 * sizes come from the input itself: both must see the same records. */
#include "fm-stream.h"
#include "fuzz-target.h"

typedef struct {
  guint64 events, gaps, dropped, digest;
} Seen;

static gboolean
on_event (const FmEvent *event, gpointer user_data)
{
  Seen *seen = user_data;

  seen->events++;
  seen->digest = seen->digest * 31 + event->seq + event->path_len + event->detail_len;
  return TRUE;
}

static void
on_gap (guint64 first_seq, guint64 count, gpointer user_data)
{
  Seen *seen = user_data;

  seen->gaps++;
  seen->digest = seen->digest * 31 + first_seq + count;
}

static void
on_dropped (guint64 total, gpointer user_data)
{
  Seen *seen = user_data;

  seen->dropped++;
  seen->digest = seen->digest * 31 + total;
}

static const FmStreamCallbacks callbacks = { on_event, on_gap, on_dropped };

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  Seen whole = { 0 }, pieces = { 0 };
  g_autoptr(FmStreamDecoder) a = fm_stream_decoder_new (&callbacks, &whole);
  g_autoptr(FmStreamDecoder) b = fm_stream_decoder_new (&callbacks, &pieces);
  gboolean ok_whole, ok_pieces = TRUE;
  gsize off = 0;

  ok_whole = fm_stream_decoder_feed (a, data, size, NULL);
  while (off < size && ok_pieces)
    {
      gsize step = 1 + data[off] % 97;

      step = MIN (step, size - off);
      ok_pieces = fm_stream_decoder_feed (b, data + off, step, NULL);
      off += step;
    }
  g_assert_cmpint (ok_whole, ==, ok_pieces);
  if (ok_whole)
    {
      g_assert_cmpuint (whole.events, ==, pieces.events);
      g_assert_cmpuint (whole.gaps, ==, pieces.gaps);
      g_assert_cmpuint (whole.dropped, ==, pieces.dropped);
      g_assert_cmpuint (whole.digest, ==, pieces.digest);
    }
  return 0;
}
