/* fmv-capture.c: reading and writing capture files off the main thread.
 *
 * A capture of a million events is a few hundred megabytes of jsonl: it is read in 1 MiB
 * blocks and split into lines here (a line may span blocks), each line parsed by the
 * shared jsonl reader straight into a fresh store that the window shows once complete;
 * the window follows the reading through an FmvLoadProgress and may stop it there.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixoutputstream.h>
#include <glib/gstdio.h>
#include <string.h>

#include "fm-error.h"
#include "fmv-capture-explain.h"
#include "fmv-capture.h"

#define BLOCK_SIZE (1024 * 1024)

typedef struct {
  FmvStore *store;
  FmJsonlReader *reader;
  guint64 line_no;
  guint64 n_read;     /* events taken in, including those the depth let go since */
  guint n_bad;
  char *first_problem;
} Loader;

/* @offset: where the line starts in the file; @cut: it is the last and has no newline. */
static void
load_line (Loader      *loader,
           const char  *line,
           gsize        len,
           guint64      offset,
           gboolean     cut)
{
  g_autoptr(GError) error = NULL;
  FmEvent ev;
  gsize i;

  loader->line_no++;
  if (len > 0 && line[len - 1] == '\r')
    len--;
  for (i = 0; i < len && g_ascii_isspace (line[i]); i++)
    ;
  if (i == len)
    return;

  if (!fm_jsonl_reader_parse_line (loader->reader, line, len, &ev, &error))
    {
      loader->n_bad++;
      if (loader->first_problem != NULL)
        return;
      /* what a JSON parser says of a cut line ("unexpected end") hides what happened */
      if (cut)
        loader->first_problem = g_strdup_printf ("line %'" G_GUINT64_FORMAT ", the last: the file "
                                                 "ends in the middle of an event, at byte offset %'"
                                                 G_GUINT64_FORMAT ", as a file cut short does",
                                                 loader->line_no, offset + len);
      else
        loader->first_problem = g_strdup_printf ("line %'" G_GUINT64_FORMAT " (byte offset %'" G_GUINT64_FORMAT
                                                 "), %s", loader->line_no, offset, error->message);
      return;
    }
  if (!fmv_store_append (loader->store, &ev, NULL))
    {
      loader->n_bad++;
      if (loader->first_problem == NULL)
        loader->first_problem = g_strdup_printf ("line %'" G_GUINT64_FORMAT ": the viewer holds no more events",
                                                 loader->line_no);
      return;
    }
  loader->n_read++;
}

static FmvStore *
read_capture (GFile            *file,
              guint             depth,
              FmvLoadProgress  *progress,
              GCancellable     *cancellable,
              guint            *n_bad,
              char            **first_problem,
              GError          **error)
{
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GByteArray) carry = g_byte_array_new ();
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();
  g_autofree guint8 *buf = g_malloc (BLOCK_SIZE);
  g_autofree char *problem = NULL;
  guint8 head[FMV_CAPTURE_HEAD_SIZE];
  gsize head_len = 0;
  guint64 offset = 0;   /* of the block in buf */
  guint64 carry_offset = 0;
  Loader loader = { store, reader, 0, 0, 0, NULL };

  in = g_file_read (file, cancellable, error);
  if (in == NULL)
    {
      fmv_capture_explain_io_error (file, error);
      return NULL;
    }
  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, NULL);
  if (progress != NULL && info != NULL)
    fmv_load_progress_set_total (progress, g_file_info_get_size (info));
  /* A file longer than the depth keeps its newest events, its oldest going page by page
   * as it is read: never more memory than the depth's. */
  fmv_store_set_depth (store, depth);

  for (;;)
    {
      gssize n;
      const guint8 *p = buf;
      const guint8 *end;

      /* Stopped: the events read so far are what the person asked for. */
      if (progress != NULL && fmv_load_progress_stop_requested (progress))
        {
          fmv_load_progress_mark_stopped (progress);
          g_byte_array_set_size (carry, 0);
          break;
        }
      n = g_input_stream_read (G_INPUT_STREAM (in), buf, BLOCK_SIZE, cancellable, error);
      if (n < 0)
        {
          fmv_capture_explain_io_error (file, error);
          g_free (loader.first_problem);
          return NULL;
        }
      if (n == 0)
        break;
      if (head_len < sizeof head)
        {
          gsize more = MIN (sizeof head - head_len, (gsize) n);

          memcpy (head + head_len, buf, more);
          head_len += more;
        }
      end = buf + n;
      while (p < end)
        {
          const guint8 *nl = memchr (p, '\n', end - p);

          if (nl == NULL)
            {
              if (carry->len == 0)
                carry_offset = offset + (p - buf);
              g_byte_array_append (carry, p, end - p);
              break;
            }
          if (carry->len > 0)
            {
              g_byte_array_append (carry, p, nl - p);
              load_line (&loader, (const char *) carry->data, carry->len, carry_offset, FALSE);
              g_byte_array_set_size (carry, 0);
            }
          else
            load_line (&loader, (const char *) p, nl - p, offset + (p - buf), FALSE);
          p = nl + 1;
        }
      offset += n;
      if (progress != NULL)
        fmv_load_progress_update (progress, offset, loader.n_read);
    }
  /* A last line without its newline still counts. */
  if (carry->len > 0)
    load_line (&loader, (const char *) carry->data, carry->len, carry_offset, TRUE);

  problem = loader.first_problem;
  if (loader.n_read == 0 && (progress == NULL || !fmv_load_progress_was_stopped (progress)))
    {
      fmv_capture_explain_no_events (file, head, head_len, offset, loader.n_bad, problem, error);
      return NULL;
    }

  if (n_bad != NULL)
    *n_bad = loader.n_bad;
  if (first_problem != NULL)
    *first_problem = g_steal_pointer (&problem);
  return g_steal_pointer (&store);
}

FmvStore *
fmv_capture_load (GFile         *file,
                  guint          depth,
                  GCancellable  *cancellable,
                  guint         *n_bad,
                  char         **first_problem,
                  GError       **error)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return read_capture (file, depth, NULL, cancellable, n_bad, first_problem, error);
}

typedef struct {
  guint n_bad;
  char *first_problem;
} LoadResult;

typedef struct {
  GFile *file;
  guint depth;
  FmvLoadProgress *progress;
} LoadJob;

static void
load_job_free (gpointer data)
{
  LoadJob *job = data;

  g_object_unref (job->file);
  g_clear_pointer (&job->progress, fmv_load_progress_unref);
  g_free (job);
}

static void
load_result_free (gpointer data)
{
  LoadResult *result = data;

  g_free (result->first_problem);
  g_free (result);
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  LoadResult *result = g_new0 (LoadResult, 1);
  GError *error = NULL;
  FmvStore *store;

  store = read_capture (job->file, job->depth, job->progress, cancellable, &result->n_bad,
                        &result->first_problem, &error);
  if (store == NULL)
    {
      load_result_free (result);
      g_task_return_error (task, error);
      return;
    }
  g_object_set_data_full (G_OBJECT (task), "fmv-load-result", result, load_result_free);
  g_task_return_pointer (task, store, g_object_unref);
}

void
fmv_capture_load_async (GFile               *file,
                        guint                depth,
                        FmvLoadProgress     *progress,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadJob *job;

  g_return_if_fail (G_IS_FILE (file));

  job = g_new0 (LoadJob, 1);
  job->file = g_object_ref (file);
  job->depth = depth;
  job->progress = progress != NULL ? fmv_load_progress_ref (progress) : NULL;
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fmv_capture_load_async);
  g_task_set_task_data (task, job, load_job_free);
  g_task_run_in_thread (task, load_worker);
}

FmvStore *
fmv_capture_load_finish (GAsyncResult  *result,
                         guint         *n_bad,
                         char         **first_problem,
                         GError       **error)
{
  FmvStore *store;
  LoadResult *load_result;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  store = g_task_propagate_pointer (G_TASK (result), error);
  if (store == NULL)
    return NULL;
  load_result = g_object_get_data (G_OBJECT (result), "fmv-load-result");
  if (n_bad != NULL)
    *n_bad = load_result->n_bad;
  if (first_problem != NULL)
    *first_problem = g_strdup (load_result->first_problem);
  return store;
}

/* ---- writing ---------------------------------------------------------------------------- */

typedef struct {
  FmvStore *store;
  GArray *rows;     /* the store rows to write, in order; NULL: first_row on, n_asked */
  guint first_row;
  guint n_asked;
  int fd;
  FmFormat format;
  guint64 written;
  guint64 first_seq;  /* the lowest and highest sequence numbers written; 0 0 for none */
  guint64 last_seq;
} SaveJob;

static void
save_job_free (gpointer data)
{
  SaveJob *job = data;

  fmv_store_unhold (job->store);

  g_clear_object (&job->store);
  g_clear_pointer (&job->rows, g_array_unref);
  if (job->fd >= 0)
    g_close (job->fd, NULL);
  g_free (job);
}

/* Counts an event as written only once its bytes are in the file, so a failure half-way
 * reports how many made it. */
static gboolean
flush (GOutputStream  *out,
       GString        *buf,
       guint          *pending,
       SaveJob        *job,
       GCancellable   *cancellable,
       GError        **error)
{
  if (!g_output_stream_write_all (out, buf->str, buf->len, NULL, cancellable, error))
    return FALSE;
  g_string_truncate (buf, 0);
  job->written += *pending;
  *pending = 0;
  return TRUE;
}

static void
save_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveJob *job = task_data;
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (job->fd, TRUE);
  g_autoptr(GString) buf = g_string_sized_new (BLOCK_SIZE + FM_PATH_MAX * 4);
  guint pending = 0;
  GError *error = NULL;

  job->fd = -1;  /* the stream owns it now */
  if (fm_format_header (job->format) != NULL)
    g_string_append (buf, fm_format_header (job->format));

  for (guint i = 0; i < job->n_asked; i++)
    {
      FmvStoreEvent stored;
      const FmEvent *ev;

      ev = fmv_store_get_event (job->store,
                                job->rows ? g_array_index (job->rows, guint32, i) : job->first_row + i,
                                &stored);
      fm_format_event (job->format, ev, buf);
      /* "shown only" rows come in the list's order, which may be any column's */
      job->first_seq = job->first_seq == 0 ? ev->seq : MIN (job->first_seq, ev->seq);
      job->last_seq = MAX (job->last_seq, ev->seq);
      pending++;
      if (buf->len >= BLOCK_SIZE && !flush (out, buf, &pending, job, cancellable, &error))
        break;
    }
  if (error == NULL && buf->len > 0)
    flush (out, buf, &pending, job, cancellable, &error);
  if (error == NULL)
    g_output_stream_close (out, cancellable, &error);
  if (error != NULL)
    {
      g_prefix_error (&error, "%'" G_GUINT64_FORMAT " of %'u events written: ", job->written,
                      job->n_asked);
      g_task_return_error (task, error);
      return;
    }
  /* The guarantee the window's message rests on: never success for fewer events. */
  if (job->written != job->n_asked)
    {
      g_task_return_new_error (task, FM_ERROR, FM_ERROR_IO,
                               "only %'" G_GUINT64_FORMAT " of %'u events were written",
                               job->written, job->n_asked);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

void
fmv_capture_save_async (FmvStore            *store,
                        GArray              *rows,
                        int                  fd,
                        FmFormat             format,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SaveJob *job;

  g_return_if_fail (FMV_IS_STORE (store));
  g_return_if_fail (fd >= 0);

  job = g_new0 (SaveJob, 1);
  job->store = g_object_ref (store);
  job->rows = rows ? g_array_ref (rows) : NULL;
  /* Rows appended while the worker runs are not part of what was asked for; rows let go
   * meanwhile (the depth) are, and the hold keeps them until the worker is done. */
  job->first_row = fmv_store_get_first_row (store);
  job->n_asked = rows ? rows->len : fmv_store_get_n_rows (store) - job->first_row;
  fmv_store_hold (store);
  job->fd = fd;
  job->format = format;
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fmv_capture_save_async);
  g_task_set_task_data (task, job, save_job_free);
  g_task_run_in_thread (task, save_worker);
}

gboolean
fmv_capture_save_finish (GAsyncResult  *result,
                         guint64       *written,
                         GError       **error)
{
  SaveJob *job;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  job = g_task_get_task_data (G_TASK (result));
  if (written != NULL)
    *written = job->written;
  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
fmv_capture_save_get_seq_range (GAsyncResult *result,
                                guint64      *first_seq,
                                guint64      *last_seq)
{
  SaveJob *job;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == fmv_capture_save_async, FALSE);

  job = g_task_get_task_data (G_TASK (result));
  *first_seq = job->first_seq;
  *last_seq = job->last_seq;
  return job->last_seq > 0;
}

static void
create_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GFile *file = task_data;
  const char *path = g_file_peek_path (file);
  int fd;

  if (path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "Captures can only be saved to local files");
      return;
    }
  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                               "Cannot create %s: %s", path, g_strerror (saved_errno));
      return;
    }
  g_task_return_int (task, fd);
}

void
fmv_capture_create_async (GFile               *file,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fmv_capture_create_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, create_worker);
}

int
fmv_capture_create_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), -1);

  return (int) g_task_propagate_int (G_TASK (result), error);
}
