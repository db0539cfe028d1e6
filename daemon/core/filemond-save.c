/* filemond-save.c: Save's writer; see filemond-save.h.
 *
 * One thread per save, not GLib's shared pool: the pool also runs the polkit checks, and
 * a client that never reads its pipe must not starve authorization for everyone else.
 */
#include "filemond-save.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fm-error.h"
#include "fm-stream.h"

#define WRITE_CHUNK ((gsize) 64 * 1024)

typedef enum {
  FD_REGULAR,
  FD_PIPE,
  FD_SOCKET,
} FdKind;

typedef struct {
  FmdRingSnapshot *snapshot;
  int fd;
  FdKind kind;
  gboolean nonblocking;
  FmFormat format;
  guint stall_sec;
} SaveData;

/* The descriptor is closed before the reply, whatever the reply says: the reader sees end
 * of file when the reply arrives, and a caller may unmount the file's file system as soon
 * as it has one. */
static void
save_close_fd (SaveData *save)
{
  if (save->fd >= 0)
    close (save->fd);
  save->fd = -1;
}

static void
save_data_free (gpointer data)
{
  SaveData *save = data;

  fmd_ring_snapshot_free (save->snapshot);
  save_close_fd (save);
  g_free (save);
}

static const char *
describe_mode (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISLNK (mode))
    return "a symbolic link";
  return "of an unsupported type";
}

static gboolean
classify_fd (int      fd,
             FdKind  *kind,
             GError **error)
{
  struct stat st;
  int flags;
  int saved_errno;

  if (fstat (fd, &st) < 0)
    {
      saved_errno = errno;
      g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                   "the file descriptor cannot be examined: %s", g_strerror (saved_errno));
      return FALSE;
    }

  if (S_ISREG (st.st_mode))
    *kind = FD_REGULAR;
  else if (S_ISFIFO (st.st_mode))
    *kind = FD_PIPE;
  else if (S_ISSOCK (st.st_mode))
    {
      int type = 0;
      socklen_t len = sizeof type;

      if (getsockopt (fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0 || type != SOCK_STREAM)
        {
          g_set_error_literal (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                               "the file descriptor is a socket but not a stream socket "
                               "(SOCK_STREAM); pass a file, a pipe or a stream socket");
          return FALSE;
        }
      *kind = FD_SOCKET;
    }
  else
    {
      g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                   "the file descriptor is %s; pass a regular file, a pipe or a socket "
                   "opened for writing", describe_mode (st.st_mode));
      return FALSE;
    }

  flags = fcntl (fd, F_GETFL);
  if (flags < 0)
    {
      saved_errno = errno;
      g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                   "the file descriptor cannot be examined: %s", g_strerror (saved_errno));
      return FALSE;
    }
  /* an O_PATH descriptor reads as O_RDONLY here, so it is refused too */
  if ((flags & O_ACCMODE) != O_WRONLY && (flags & O_ACCMODE) != O_RDWR)
    {
      g_set_error_literal (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                           "the file descriptor is not open for writing; open the file "
                           "with O_WRONLY or O_RDWR");
      return FALSE;
    }

  return TRUE;
}

gboolean
fmd_save_check_fd (int      fd,
                   GError **error)
{
  FdKind kind;

  return classify_fd (fd, &kind, error);
}

/* Waits until @fd can take more bytes; FALSE when cancelled, or when the reader took
 * nothing for @stall_sec: a reader that never reads (a FIFO the caller holds open itself)
 * would otherwise keep a save, a thread and a snapshot of the ring forever. */
static gboolean
wait_writable (int           fd,
               guint         stall_sec,
               GCancellable *cancellable,
               GError      **error)
{
  gint64 deadline = g_get_monotonic_time () + stall_sec * G_USEC_PER_SEC;
  GPollFD fds[2] = { { fd, G_IO_OUT, 0 } };
  guint n = 1;
  gboolean cancellable_fd = g_cancellable_make_pollfd (cancellable, &fds[1]);

  if (cancellable_fd)
    n = 2;

  for (;;)
    {
      gint64 left = deadline - g_get_monotonic_time ();
      int r = g_poll (fds, n, (int) MAX (left / 1000, 0));

      if (r < 0 && errno == EINTR)
        continue;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          if (cancellable_fd)
            g_cancellable_release_fd (cancellable);
          return FALSE;
        }
      if (r > 0)
        break;
      if (r == 0 && g_get_monotonic_time () >= deadline)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_IO, "the reader took nothing for %u s; "
                       "the save was abandoned", stall_sec);
          if (cancellable_fd)
            g_cancellable_release_fd (cancellable);
          return FALSE;
        }
    }

  if (cancellable_fd)
    g_cancellable_release_fd (cancellable);
  return TRUE;
}

static gboolean
write_all (SaveData      *save,
           const char    *data,
           gsize          len,
           GCancellable  *cancellable,
           GError       **error)
{
  while (len > 0)
    {
      gssize n;
      int saved_errno;

      switch (save->kind)
        {
        case FD_SOCKET:
          n = send (save->fd, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
          break;
        case FD_PIPE:
          /* After POLLOUT a pipe takes up to PIPE_BUF bytes without blocking, even when
           * the client left the descriptor blocking; larger writes could block. */
          if (!save->nonblocking)
            {
              if (!wait_writable (save->fd, save->stall_sec, cancellable, error))
                return FALSE;
              n = write (save->fd, data, MIN (len, (gsize) PIPE_BUF));
            }
          else
            n = write (save->fd, data, len);
          break;
        case FD_REGULAR:
        default:
          n = write (save->fd, data, len);
          break;
        }

      if (n >= 0)
        {
          data += n;
          len -= n;
          continue;
        }

      saved_errno = errno;
      if (saved_errno == EINTR)
        continue;
      if (saved_errno == EAGAIN || saved_errno == EWOULDBLOCK)
        {
          if (!wait_writable (save->fd, save->stall_sec, cancellable, error))
            return FALSE;
          continue;
        }
      if (saved_errno == EPIPE || saved_errno == ECONNRESET)
        g_set_error_literal (error, FM_ERROR, FM_ERROR_IO,
                             "the reader closed the file descriptor before the save ended");
      else
        g_set_error (error, FM_ERROR, FM_ERROR_IO, "writing the capture failed: %s",
                     g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

static gboolean
write_snapshot (SaveData      *save,
                GCancellable  *cancellable,
                guint64       *written,
                GError       **error)
{
  g_autoptr(GString) buf = g_string_sized_new (WRITE_CHUNK + FM_RECORD_MAX_SIZE * 2);
  const char *header = fm_format_header (save->format);
  FmEvent event;

  if (header != NULL)
    g_string_append (buf, header);

  while (fmd_ring_snapshot_next (save->snapshot, &event))
    {
      fm_format_event (save->format, &event, buf);
      (*written)++;

      if (buf->len >= WRITE_CHUNK)
        {
          if (!write_all (save, buf->str, buf->len, cancellable, error))
            return FALSE;
          g_string_truncate (buf, 0);
        }
    }

  return write_all (save, buf->str, buf->len, cancellable, error);
}

static gpointer
save_thread (gpointer user_data)
{
  g_autoptr(GTask) task = user_data;
  SaveData *save = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  guint64 written = 0;
  gboolean ok;

  ok = write_snapshot (save, g_task_get_cancellable (task), &written, &error);

  save_close_fd (save);

  if (!ok)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_memdup2 (&written, sizeof written), g_free);
  return NULL;
}

void
fmd_save_async (FmdRingSnapshot     *snapshot,
                int                  fd,
                FmFormat             format,
                guint                stall_sec,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  SaveData *save = g_new0 (SaveData, 1);
  GThread *thread;
  int flags;

  g_task_set_source_tag (task, fmd_save_async);
  save->snapshot = snapshot;
  save->fd = fd;
  save->format = format;
  save->stall_sec = stall_sec;
  g_task_set_task_data (task, save, save_data_free);

  if (!classify_fd (fd, &save->kind, &error))
    {
      save_close_fd (save);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  flags = fcntl (fd, F_GETFL);
  save->nonblocking = flags >= 0 && (flags & O_NONBLOCK) != 0;

  thread = g_thread_try_new ("filemond-save", save_thread, g_object_ref (task), &error);
  if (thread == NULL)
    {
      g_object_unref (task);   /* the thread's reference */
      save_close_fd (save);
      g_task_return_new_error (task, FM_ERROR, FM_ERROR_IO, "cannot start the save: %s",
                               error->message);
      return;
    }
  g_thread_unref (thread);
}

gboolean
fmd_save_finish (GAsyncResult  *result,
                 guint64       *written,
                 GError       **error)
{
  g_autofree guint64 *count = NULL;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  count = g_task_propagate_pointer (G_TASK (result), error);
  if (count == NULL)
    return FALSE;
  if (written != NULL)
    *written = *count;
  return TRUE;
}
