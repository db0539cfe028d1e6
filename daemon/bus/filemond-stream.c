/* filemond-stream.c: OpenStream writers; see filemond-stream.h. */
#include "filemond-stream.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gio/gio.h>

#include "filemond-quota.h"
#include "fm-error.h"
#include "fm-stream.h"

/* Bytes one stream may write per main loop iteration, so that a fast reader of a deep
 * replay does not starve capture or the other streams. */
#define FLUSH_BUDGET ((gsize) 4 * 1024 * 1024)
/* The header, a dropped and a gap record, or the unsent tail of one event record. */
#define PENDING_MAX (FM_RECORD_MAX_SIZE + FM_STREAM_HEADER_SIZE)
/* The ring's events are encoded into this much at a time before a send: large enough
 * that a send moves hundreds of records, small enough to stay in the cache. */
#define ENCODE_BYTES ((gsize) 128 * 1024)
G_STATIC_ASSERT (ENCODE_BYTES >= FM_RECORD_MAX_SIZE);
/* The most records a run can hold: every record has its fixed part. */
#define RUN_RECORDS (ENCODE_BYTES / FM_RECORD_EVENT_FIXED)
/* Runs kept at a time: one per group of readers at different places (a replay catching up,
 * the live edge) before they take turns evicting each other's. */
#define N_RUNS 4

/* Encoded records of consecutive events, shared by the streams. Readers that keep up sit
 * at the same cursor and are sent the same bytes, so a run is encoded once for all of them
 * (a second `watch` costs no second encoding); a reader whose socket took only part
 * of a run resumes in it instead of encoding it again. A sequence number's record never
 * changes, so a run stays right for as long as it is kept; whether its events are still
 * buffered (or a gap is owed first) is the stream's check, made before it takes from one. */
typedef struct {
  guint64 seq;                        /* its first record's */
  guint n;                            /* records; 0: unused */
  guint64 used;                       /* FmdStreams.run_clock when last taken from */
  guint32 offsets[RUN_RECORDS + 1];   /* each record's offset in data, then the end */
  guint8 data[ENCODE_BYTES];
} EncodedRun;

/* A reader told of fewer changes than this behind is told of the last ones only. */
#define CAPTURE_CHANGES 8

typedef enum {
  FLUSH_IDLE,      /* caught up with the ring */
  FLUSH_BLOCKED,   /* the socket is full: wait for POLLOUT */
  FLUSH_MORE,      /* budget spent, more to write */
  FLUSH_DEAD,      /* the reader is gone */
  FLUSH_DONE,      /* a stream that ends at the live edge got everything up to it */
} FlushResult;

typedef struct {
  GSource source;
  FmdStreams *owner;      /* not a reference: the owner destroys its streams first */
  char *peer;             /* the bus name that opened it */
  guint32 uid;            /* and its user, whose quota slot it holds */
  gpointer fd_tag;
  int fd;
  gboolean blocked;
  guint64 cursor;         /* next seq owed to the reader */
  guint64 end_seq;        /* the stream ends before this seq (G_MAXUINT64: it follows) */
  guint64 dropped_sent;   /* the DroppedCount the reader knows */
  guint64 changes_sent;   /* capture changes the reader was told of */
  gsize pending_len;
  gsize pending_off;
  guint8 pending[PENDING_MAX];
} Stream;

struct _FmdStreams {
  GObject parent_instance;

  FmdRing *ring;
  guint ring_watch;
  gsize socket_buffer_bytes;
  GPtrArray *streams;     /* Stream * */
  FmdQuota *quota;
  guint flush_id;
  guint64 dropped_total;
  /* the last CAPTURE_CHANGES changes of the capture, by their number modulo that */
  struct {
    FmCaptureChange change;
    guint64 next_seq;
  } changes[CAPTURE_CHANGES];
  guint64 n_changes;
  guint64 gap_total;
  EncodedRun *runs;       /* N_RUNS */
  guint64 run_clock;
};

enum {
  PROP_0,
  PROP_N_STREAMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (FmdStreams, fmd_streams, G_TYPE_OBJECT)

static void on_stream_ready (FmdStreams *self, Stream *stream, GIOCondition condition);

static gboolean
stream_dispatch (GSource     *source,
                 GSourceFunc  callback,
                 gpointer     user_data)
{
  Stream *stream = (Stream *) source;

  on_stream_ready (stream->owner, stream, g_source_query_unix_fd (source, stream->fd_tag));
  return G_SOURCE_CONTINUE;
}

static void
stream_finalize (GSource *source)
{
  Stream *stream = (Stream *) source;

  if (stream->fd >= 0)
    close (stream->fd);
  g_free (stream->peer);
}

static GSourceFuncs stream_source_funcs = {
  .dispatch = stream_dispatch,
  .finalize = stream_finalize,
};

static void
stream_free (gpointer data)
{
  GSource *source = data;

  fmd_quota_release (((Stream *) source)->owner->quota, ((Stream *) source)->uid);
  g_source_destroy (source);
  g_source_unref (source);
}

static void
set_blocked (Stream   *stream,
             gboolean  blocked)
{
  if (stream->blocked == blocked)
    return;

  stream->blocked = blocked;
  g_source_modify_unix_fd ((GSource *) stream, stream->fd_tag,
                           G_IO_HUP | G_IO_ERR | (blocked ? G_IO_OUT : 0));
}

/* send() rather than write(): MSG_NOSIGNAL, so a reader that went away is EPIPE and not
 * a SIGPIPE for the whole daemon. */
static gssize
send_some (Stream       *stream,
           const guint8 *data,
           gsize         len)
{
  gssize n;

  do
    n = send (stream->fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n;
}

static FlushResult
send_failed (Stream *stream)
{
  if (errno == EAGAIN || errno == EWOULDBLOCK)
    {
      set_blocked (stream, TRUE);
      return FLUSH_BLOCKED;
    }
  if (errno != EPIPE && errno != ECONNRESET)
    g_debug ("stream %d: %s", stream->fd, g_strerror (errno));
  return FLUSH_DEAD;
}

/* The run holding @seq's record (buffered: the caller checked), encoded now unless a
 * kept one has it; the least recently used run makes room. */
static const EncodedRun *
run_at (FmdStreams *self,
        guint64     seq)
{
  EncodedRun *run = &self->runs[0];
  gsize len;
  guint32 off = 0;

  for (guint i = 0; i < N_RUNS; i++)
    {
      EncodedRun *r = &self->runs[i];

      if (r->n > 0 && seq >= r->seq && seq - r->seq < r->n)
        {
          r->used = ++self->run_clock;
          return r;
        }
      if (r->used < run->used)
        run = r;
    }

  run->seq = seq;
  run->n = fmd_ring_encode_run (self->ring, seq, RUN_RECORDS, run->data, ENCODE_BYTES, &len);
  g_assert (run->n > 0);
  for (guint k = 0; k < run->n; k++)
    {
      run->offsets[k] = off;
      off += fm_record_get_size (run->data + off);
    }
  g_assert (off == len);
  run->offsets[run->n] = off;
  run->used = ++self->run_clock;
  return run;
}

static FlushResult
stream_flush (FmdStreams *self,
              Stream     *stream)
{
  gsize budget = FLUSH_BUDGET;

  for (;;)
    {
      const EncodedRun *run;
      const guint8 *data;
      gsize len;
      gssize n;
      gsize off;
      guint64 first;

      if (stream->pending_off < stream->pending_len)
        {
          n = send_some (stream, stream->pending + stream->pending_off,
                         stream->pending_len - stream->pending_off);
          if (n < 0)
            return send_failed (stream);
          stream->pending_off += n;
          if (stream->pending_off < stream->pending_len)
            {
              set_blocked (stream, TRUE);
              return FLUSH_BLOCKED;
            }
          continue;
        }
      stream->pending_off = stream->pending_len = 0;

      if (stream->changes_sent < self->n_changes)
        {
          guint64 change = MAX (stream->changes_sent,
                                self->n_changes - MIN (self->n_changes, CAPTURE_CHANGES));
          guint i = change % CAPTURE_CHANGES;

          fm_record_encode_capture (stream->pending, self->changes[i].change,
                                    self->changes[i].next_seq);
          stream->pending_len = FM_RECORD_CAPTURE_SIZE;
          stream->changes_sent = change + 1;
          continue;
        }

      if (stream->dropped_sent != self->dropped_total)
        {
          fm_record_encode_dropped (stream->pending, self->dropped_total);
          stream->pending_len = FM_RECORD_DROPPED_SIZE;
          stream->dropped_sent = self->dropped_total;
          continue;
        }

      if (stream->cursor >= stream->end_seq)
        return FLUSH_DONE;

      first = MIN (fmd_ring_get_first_seq (self->ring), stream->end_seq);
      if (stream->cursor < first)
        {
          /* the ring overwrote these before this reader got them */
          fm_record_encode_gap (stream->pending, stream->cursor, first - stream->cursor);
          stream->pending_len = FM_RECORD_GAP_SIZE;
          self->gap_total += first - stream->cursor;
          stream->cursor = first;
          continue;
        }

      if (stream->cursor >= fmd_ring_get_next_seq (self->ring))
        return FLUSH_IDLE;
      if (budget == 0)
        return FLUSH_MORE;
      run = run_at (self, stream->cursor);
      data = run->data + run->offsets[stream->cursor - run->seq];
      len = run->offsets[MIN (run->n, stream->end_seq - run->seq)] - (data - run->data);

      n = send_some (stream, data, MIN (len, budget));
      if (n < 0)
        return send_failed (stream);
      budget -= n;

      for (off = 0; off < (gsize) n && off + fm_record_get_size (data + off) <= (gsize) n; )
        {
          off += fm_record_get_size (data + off);
          stream->cursor++;
        }
      if (off < (gsize) n)
        {
          /* a record cut by a short write: keep its tail, the ring may overwrite it */
          gsize end = off + fm_record_get_size (data + off);

          memcpy (stream->pending, data + n, end - n);
          stream->pending_len = end - n;
          stream->cursor++;
        }
    }
}

static void
remove_stream (FmdStreams *self,
               Stream     *stream)
{
  g_debug ("stream %d ended", stream->fd);
  g_ptr_array_remove_fast (self->streams, stream);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_STREAMS]);
}

static gboolean
flush_all_cb (gpointer user_data)
{
  FmdStreams *self = user_data;
  gboolean more = FALSE;

  for (guint i = self->streams->len; i > 0; i--)
    {
      Stream *stream = g_ptr_array_index (self->streams, i - 1);

      if (stream->blocked)
        continue;

      switch (stream_flush (self, stream))
        {
        case FLUSH_MORE:
          more = TRUE;
          break;
        case FLUSH_DEAD:
        case FLUSH_DONE:
          remove_stream (self, stream);
          break;
        case FLUSH_IDLE:
        case FLUSH_BLOCKED:
        default:
          break;
        }
    }

  if (more)
    return G_SOURCE_CONTINUE;

  self->flush_id = 0;
  return G_SOURCE_REMOVE;
}

static void
schedule_flush (FmdStreams *self)
{
  /* Same priority as the backend's input: the flush runs right after each batch of
   * events, so records leave in large writes without an added delay. */
  if (self->flush_id == 0 && self->streams->len > 0)
    self->flush_id = g_idle_add_full (G_PRIORITY_DEFAULT, flush_all_cb, self, NULL);
}

static void
ring_appended_cb (FmdRing  *ring,
                  gpointer  user_data)
{
  schedule_flush (user_data);
}

static void
on_stream_ready (FmdStreams   *self,
                 Stream       *stream,
                 GIOCondition  condition)
{
  if (condition & (G_IO_HUP | G_IO_ERR))
    {
      remove_stream (self, stream);
      return;
    }

  if (condition & G_IO_OUT)
    {
      FlushResult result;

      set_blocked (stream, FALSE);
      result = stream_flush (self, stream);
      if (result == FLUSH_DEAD || result == FLUSH_DONE)
        remove_stream (self, stream);
      else
        schedule_flush (self);
    }
}

static guint
peer_streams (FmdStreams *self,
              const char *peer)
{
  guint n = 0;

  for (guint i = 0; i < self->streams->len; i++)
    n += g_str_equal (((Stream *) g_ptr_array_index (self->streams, i))->peer, peer);
  return n;
}

int
fmd_streams_open (FmdStreams *self,
                  const char *peer,
                  guint32     uid,
                  gboolean    replay,
                  guint64     since_seq,
                  gboolean    follow,
                  GError    **error)
{
  Stream *stream;
  int sv[2];
  int flags;
  int sndbuf;
  int saved_errno;

  g_return_val_if_fail (FMD_IS_STREAMS (self), -1);
  g_return_val_if_fail (peer != NULL, -1);

  if (peer_streams (self, peer) >= FMD_STREAMS_PER_PEER)
    {
      g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED,
                   "this connection has %d streams open already, the most one may; close "
                   "one first", FMD_STREAMS_PER_PEER);
      return -1;
    }
  if (!fmd_quota_take (self->quota, uid, error))
    return -1;

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0)
    {
      saved_errno = errno;
      g_set_error (error, FM_ERROR, FM_ERROR_IO, "cannot create the stream socket: %s",
                   g_strerror (saved_errno));
      fmd_quota_release (self->quota, uid);
      return -1;
    }

  /* The reader gets a plain blocking descriptor, as read(2) loops expect; only the
   * daemon's end must never block. */
  flags = fcntl (sv[1], F_GETFL);
  if (flags < 0 || fcntl (sv[1], F_SETFL, flags & ~O_NONBLOCK) < 0)
    {
      saved_errno = errno;
      close (sv[0]);
      close (sv[1]);
      g_set_error (error, FM_ERROR, FM_ERROR_IO, "cannot set up the stream socket: %s",
                   g_strerror (saved_errno));
      fmd_quota_release (self->quota, uid);
      return -1;
    }

  /* Nothing is read from the reader; what it writes is discarded at once. */
  (void) shutdown (sv[0], SHUT_RD);

  /* The kernel doubles the value for its bookkeeping: ask for half. SO_SNDBUFFORCE goes
   * beyond net.core.wmem_max (root); plain SO_SNDBUF is the fallback. The buffer is
   * kernel memory charged to filemond's cgroup whether or not anyone reads: with
   * FMD_STREAMS_MAX streams it stays within the unit's MemoryHigh. */
  sndbuf = (int) MIN (self->socket_buffer_bytes / 2, (gsize) G_MAXINT / 2);
  if (setsockopt (sv[0], SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof sndbuf) < 0 &&
      setsockopt (sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf) < 0)
    g_debug ("cannot size the stream buffer: %s", g_strerror (errno));

  stream = (Stream *) g_source_new (&stream_source_funcs, sizeof (Stream));
  g_source_set_static_name ((GSource *) stream, "[filemond] stream");
  stream->owner = self;
  stream->peer = g_strdup (peer);
  stream->uid = uid;
  stream->changes_sent = self->n_changes;
  stream->fd = sv[0];
  stream->fd_tag = g_source_add_unix_fd ((GSource *) stream, sv[0], G_IO_HUP | G_IO_ERR);

  if (!replay)
    stream->cursor = fmd_ring_get_next_seq (self->ring);
  else if (since_seq == 0)
    stream->cursor = fmd_ring_get_first_seq (self->ring);
  else
    stream->cursor = MIN (since_seq, fmd_ring_get_next_seq (self->ring));
  stream->end_seq = follow ? G_MAXUINT64 : fmd_ring_get_next_seq (self->ring);

  fm_stream_write_header (stream->pending);
  stream->pending_len = FM_STREAM_HEADER_SIZE;

  g_source_attach ((GSource *) stream, NULL);
  g_ptr_array_add (self->streams, stream);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_STREAMS]);
  g_debug ("stream %d opened at seq %" G_GUINT64_FORMAT, stream->fd, stream->cursor);

  schedule_flush (self);
  return sv[1];
}

void
fmd_streams_capture_changed (FmdStreams      *self,
                             FmCaptureChange  change)
{
  guint i;

  g_return_if_fail (FMD_IS_STREAMS (self));

  i = self->n_changes % CAPTURE_CHANGES;
  self->changes[i].change = change;
  self->changes[i].next_seq = fmd_ring_get_next_seq (self->ring);
  self->n_changes++;
  schedule_flush (self);
}

void
fmd_streams_set_dropped_total (FmdStreams *self,
                               guint64     total)
{
  g_return_if_fail (FMD_IS_STREAMS (self));

  if (self->dropped_total == total)
    return;
  self->dropped_total = total;
  schedule_flush (self);
}

guint
fmd_streams_get_n_streams (FmdStreams *self)
{
  g_return_val_if_fail (FMD_IS_STREAMS (self), 0);

  return self->streams->len;
}

guint64
fmd_streams_get_gap_total (FmdStreams *self)
{
  g_return_val_if_fail (FMD_IS_STREAMS (self), 0);

  return self->gap_total;
}

void
fmd_streams_close_all (FmdStreams *self)
{
  g_return_if_fail (FMD_IS_STREAMS (self));

  if (self->streams->len == 0)
    return;
  /* one last try, so that a reader that keeps up sees everything up to the end */
  for (guint i = 0; i < self->streams->len; i++)
    (void) stream_flush (self, g_ptr_array_index (self->streams, i));
  g_ptr_array_set_size (self->streams, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_STREAMS]);
}

FmdStreams *
fmd_streams_new (FmdRing *ring,
                 gsize    socket_buffer_bytes)
{
  FmdStreams *self;

  g_return_val_if_fail (ring != NULL, NULL);

  self = g_object_new (FMD_TYPE_STREAMS, NULL);
  self->ring = ring;
  self->socket_buffer_bytes = socket_buffer_bytes;
  self->ring_watch = fmd_ring_add_watch (ring, ring_appended_cb, self);
  return self;
}

static void
fmd_streams_dispose (GObject *object)
{
  FmdStreams *self = FMD_STREAMS (object);

  g_clear_handle_id (&self->flush_id, g_source_remove);
  if (self->ring_watch != 0)
    {
      fmd_ring_remove_watch (self->ring, self->ring_watch);
      self->ring_watch = 0;
    }
  if (self->streams != NULL)
    g_ptr_array_set_size (self->streams, 0);

  G_OBJECT_CLASS (fmd_streams_parent_class)->dispose (object);
}

static void
fmd_streams_finalize (GObject *object)
{
  FmdStreams *self = FMD_STREAMS (object);

  g_ptr_array_unref (self->streams);
  fmd_quota_free (self->quota);
  g_free (self->runs);

  G_OBJECT_CLASS (fmd_streams_parent_class)->finalize (object);
}

static void
fmd_streams_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  FmdStreams *self = FMD_STREAMS (object);

  switch (prop_id)
    {
    case PROP_N_STREAMS:
      g_value_set_uint (value, self->streams->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fmd_streams_class_init (FmdStreamsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = fmd_streams_dispose;
  object_class->finalize = fmd_streams_finalize;
  object_class->get_property = fmd_streams_get_property;

  properties[PROP_N_STREAMS] =
    g_param_spec_uint ("n-streams", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fmd_streams_init (FmdStreams *self)
{
  self->streams = g_ptr_array_new_with_free_func (stream_free);
  self->quota = fmd_quota_new ("streams", FMD_STREAMS_MAX, FMD_STREAMS_PER_UID,
                               FMD_STREAMS_ROOT_RESERVE);
  self->runs = g_new0 (EncodedRun, N_RUNS);
}
