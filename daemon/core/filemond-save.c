/* filemond-save.c: Save's writer; see filemond-save.h.
 *
 * One thread per save, not GLib's shared pool: the pool also runs the polkit checks, and
 * a client that never reads its pipe must not starve authorization for everyone else.
 *
 * Memory: the kernel charges the pages a write creates to the writer's memory cgroup,
 * filemond's, whoever owns the file. Page cache of a file on disk can be reclaimed once
 * written back, so a save waits for the writeback of every WRITEBACK_BYTES it wrote and
 * drops those pages (without that, dirty pages of a few saves of the whole ring reach
 * the unit's MemoryHigh). A file in memory (tmpfs, a memfd) cannot be reclaimed at all:
 * what filemond wrote there would count against filemond for as long as the caller keeps
 * the file, so such a descriptor is refused; the caller passes a pipe and writes the file
 * itself, charged to itself (filemonctl save does). A pipe or socket holds at most its
 * buffer.
 */
#define _GNU_SOURCE   /* sync_file_range */
#include "filemond-save.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <linux/magic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "fm-error.h"
#include "fm-stream.h"

#define WRITE_CHUNK ((gsize) 64 * 1024)
/* Written to a file on disk between two waits for its writeback: what one save keeps
 * charged to filemond at most (16 saves: 128 MiB, within the unit's MemoryHigh). */
#define WRITEBACK_BYTES ((guint64) 8 * 1024 * 1024)

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
  guint64 unsynced;          /* bytes written to a regular file since its last writeback */
  GCancellable *cancellable; /* the save's own: cancelled by the caller's or a revoke */
  GCancellable *parent;
  gulong parent_id;
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

  g_clear_pointer (&save->snapshot, fmd_ring_snapshot_free);
  save_close_fd (save);
  if (save->parent != NULL)
    g_cancellable_disconnect (save->parent, save->parent_id);
  g_clear_object (&save->parent);
  g_clear_object (&save->cancellable);
  g_free (save);
}

/* Whether a file system keeps its files in memory, where nothing written can be
 * reclaimed. */
static gboolean
is_memory_fs (int fd)
{
  struct statfs sfs;

  if (fstatfs (fd, &sfs) < 0)
    return FALSE;
  switch ((unsigned long) sfs.f_type)
    {
    case TMPFS_MAGIC:   /* also memfds */
    case RAMFS_MAGIC:
    case HUGETLBFS_MAGIC:
      return TRUE;
    default:
      return FALSE;
    }
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
    {
      if (is_memory_fs (fd))
        {
          g_set_error_literal (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                               "the file descriptor is a file kept in memory (tmpfs or a "
                               "memfd): what filemond wrote there would stay in its memory "
                               "for as long as the file exists; pass a pipe and copy its "
                               "other end into the file (as filemonctl save does)");
          return FALSE;
        }
      *kind = FD_REGULAR;
    }
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
          if (save->kind == FD_REGULAR)
            save->unsynced += n;
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

/* Waits until what was written to a regular file is on disk and drops it from the page
 * cache: only then is it no longer charged to filemond. File systems without
 * sync_file_range (EINVAL, ESPIPE) keep what the kernel keeps. */
static gboolean
write_back (SaveData  *save,
            GError   **error)
{
  int saved_errno;

  save->unsynced = 0;
  if (sync_file_range (save->fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                                       SYNC_FILE_RANGE_WAIT_AFTER) < 0)
    {
      saved_errno = errno;
      if (saved_errno == EINVAL || saved_errno == ESPIPE || saved_errno == ENOSYS)
        return TRUE;
      g_set_error (error, FM_ERROR, FM_ERROR_IO, "writing the capture failed: %s",
                   g_strerror (saved_errno));
      return FALSE;
    }
  (void) posix_fadvise (save->fd, 0, 0, POSIX_FADV_DONTNEED);
  return TRUE;
}

static gboolean
flush (SaveData      *save,
       GString       *buf,
       GCancellable  *cancellable,
       GError       **error)
{
  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !write_all (save, buf->str, buf->len, cancellable, error))
    return FALSE;
  g_string_truncate (buf, 0);
  return save->unsynced < WRITEBACK_BYTES || write_back (save, error);
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

      if (buf->len >= WRITE_CHUNK && !flush (save, buf, cancellable, error))
        return FALSE;
    }

  /* a revoked snapshot ends the loop early; its revoke cancelled @cancellable, so flush()
   * stops at once and the caller says why */
  return flush (save, buf, cancellable, error) &&
         (save->unsynced == 0 || write_back (save, error));
}

static gpointer
save_thread (gpointer user_data)
{
  g_autoptr(GTask) task = user_data;
  SaveData *save = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  guint64 written = 0;
  gboolean ok;

  ok = write_snapshot (save, save->cancellable, &written, &error);

  /* whatever stopped it, a revoked snapshot is why */
  if (fmd_ring_snapshot_is_revoked (save->snapshot))
    {
      ok = FALSE;
      g_clear_error (&error);
      g_set_error (&error, FM_ERROR, FM_ERROR_IO, "the save fell behind the capture: %"
                   G_GUINT64_FORMAT " of its %" G_GUINT64_FORMAT " events were not written "
                   "yet when the buffer's byte limit needed their room; read faster, or "
                   "save once the capture is stopped",
                   fmd_ring_snapshot_get_n_events (save->snapshot) - written,
                   fmd_ring_snapshot_get_n_events (save->snapshot));
    }
  /* the ring's chunks and strings go back now, not when the main loop gets the reply */
  g_clear_pointer (&save->snapshot, fmd_ring_snapshot_free);
  save_close_fd (save);

  if (!ok)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_memdup2 (&written, sizeof written), g_free);
  return NULL;
}

static void
cancel_cb (GCancellable *parent,
           GCancellable *own)
{
  g_cancellable_cancel (own);
}

static void
revoke_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
}

void
fmd_save_async (FmdRing             *ring,
                guint64              since_seq,
                int                  fd,
                FmFormat             format,
                guint                stall_sec,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  SaveData *save = g_new0 (SaveData, 1);
  GThread *thread;
  int flags;

  save->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, save->cancellable, callback, user_data);
  /* the save's own cancellable is also cancelled by a revoke: the thread says which */
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_source_tag (task, fmd_save_async);
  save->fd = fd;
  save->format = format;
  save->stall_sec = stall_sec;
  g_task_set_task_data (task, save, save_data_free);
  if (cancellable != NULL)
    {
      save->parent = g_object_ref (cancellable);
      save->parent_id = g_cancellable_connect (cancellable, G_CALLBACK (cancel_cb),
                                               g_object_ref (save->cancellable),
                                               g_object_unref);
    }
  save->snapshot = fmd_ring_snapshot (ring, since_seq, revoke_cb,
                                      g_object_ref (save->cancellable), g_object_unref);

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
