/* fmv-store.c: the event store behind the viewer's event list, bounded by its depth.
 *
 * Layout: records of 42 bytes, fixed-size, in pages of 64 Ki rows: a compact event
 * (fm-compact-event.h) whose pid, ppid, tid, uid and command are one id, of the task they
 * make (a capture's thousands of threads make its millions of events). Strings and tasks
 * are held once each in a reference-counted string table (a row holds one reference to
 * each of its strings and its task, as the daemon's ring does for strings). A path is its
 * directory and its name joined (fm_strtab_intern_joined): a capture of many files in one
 * directory, the files a build writes or an installer unpacks, holds the directory once
 * and only the names; a task is its command joined with its four numbers. A page's
 * sequence numbers are its first row's plus the row's index while its rows are
 * consecutive events, as a capture read whole or followed without a loss gives them; the
 * first row that is not makes the page keep an array of them (a filtered capture, events
 * missed). Page p lives in slot p % MAX_PAGES of a table allocated once at its full size,
 * so a reader thread never races with an append that adds a page, and a slot is reused
 * only once its old page is freed.
 *
 * Letting rows go: past the depth, each append moves the first row on by one (rows
 * [first_row, n_rows) are held), and once a whole page lies below the first row its
 * strings are released and its memory freed: the cost is one page's work every 64 Ki
 * appends, not a memmove per event. Pages are freed only on the owner's thread and only
 * while no hold is out (see fmv-store.h): a worker that started before the first row
 * moved may still read the rows it was given, so their pages and strings (whose ids the
 * table would otherwise give to new strings) wait for the last hold to end.
 */
#define _GNU_SOURCE   /* memrchr */
#include "config.h"

#include <string.h>

#include "fm-compact-event.h"
#include "fmv-store.h"

#define PAGE_SHIFT 16
#define PAGE_ROWS FMV_STORE_PAGE_ROWS
#define MAX_PAGES 16384u                          /* slots: 1 Gi rows held */
#define MAX_ROWS (G_MAXUINT32 & ~(PAGE_ROWS - 1)) /* row numbers are 32-bit everywhere */

G_STATIC_ASSERT (PAGE_ROWS == 1u << PAGE_SHIFT);

/* The fields a task holds (its string's tail, its command the string it is joined to),
 * left out of a row: FM_COMPACT_IF_KEPT's trick, a second argument of 1. */
#define TASK_FIELD_PID ~, 1
#define TASK_FIELD_PPID ~, 1
#define TASK_FIELD_TID ~, 1
#define TASK_FIELD_UID ~, 1
#define TASK_FIELD_COMM ~, 1
/* Its arguments when the field @id is a row's own, kept in the compact event and not
 * the task's. */
#define IF_IN_ROW(id, ...) \
  FM_COMPACT_CAT (FM_COMPACT_KEEP_, FM_COMPACT_SECOND (TASK_FIELD_##id, 0, 0)) (FM_COMPACT_IF_KEPT (id, __VA_ARGS__))

#define ROW_MEMBER(id, m, type, ...) IF_IN_ROW (id, FM_COMPACT_MEMBER_##type (m))

/* A row: its compact event's fields but the task's, made from the field table. */
typedef struct __attribute__ ((packed)) {
  FM_EVENT_FIELDS (ROW_MEMBER)
  guint32 task_id;
} Record;

/* A row's own fields from one of Record and FmCompactEvent to the other (their members
 * are named alike). */
#define ROW_COPY_VALUE(m) to->m = from->m;
#define ROW_COPY_U64(m) ROW_COPY_VALUE (m)
#define ROW_COPY_U32(m) ROW_COPY_VALUE (m)
#define ROW_COPY_I64(m) ROW_COPY_VALUE (m)
#define ROW_COPY_SYSCALL(m) ROW_COPY_VALUE (m)
#define ROW_COPY_BYTES(m) ROW_COPY_VALUE (m##_id)
#define ROW_COPY_UTF8(m) ROW_COPY_VALUE (m##_id)
#define ROW_COPY_ERRNO(m)
#define ROW_COPY_USER(m)
#define ROW_COPY(id, m, type, ...) IF_IN_ROW (id, ROW_COPY_##type (m))

/* The string references a row holds of its own fields. */
#define ROW_RELEASE_BYTES(m) fm_strtab_release (self->strings, record->m##_id);
#define ROW_RELEASE_UTF8(m) ROW_RELEASE_BYTES (m)
#define ROW_RELEASE_U64(m)
#define ROW_RELEASE_U32(m)
#define ROW_RELEASE_I64(m)
#define ROW_RELEASE_SYSCALL(m)
#define ROW_RELEASE_ERRNO(m)
#define ROW_RELEASE_USER(m)
#define ROW_RELEASE(id, m, type, ...) IF_IN_ROW (id, ROW_RELEASE_##type (m))

/* The numbers of a task, as the tail of its string (its command's id the parent). */
typedef struct {
  guint32 pid;
  guint32 ppid;
  guint32 tid;
  guint32 uid;
} Task;

/* A record is a compact event whose pid, ppid, tid, uid and comm id (20 bytes) are a
 * task id (4). */
G_STATIC_ASSERT (sizeof (Record) + sizeof (Task) == sizeof (FmCompactEvent));

struct _FmvStore
{
  GObject parent_instance;

  Record **pages;           /* MAX_PAGES slots, each PAGE_ROWS records */
  guint64 *first_seqs;      /* MAX_PAGES slots, the sequence number of a page's first row */
  guint64 **seq_pages;      /* MAX_PAGES slots: NULL, or each row's sequence number */
  guint first_page;         /* pages [first_page, end_page) are allocated */
  guint end_page;
  FmStrtab *strings;

  guint n_rows;             /* both read atomically by other threads */
  guint first_row;
  guint depth;              /* 0: no bound */
  gint holds;               /* atomic */
  guint64 last_seq;
};

enum { RELEASING, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (FmvStore, fmv_store, G_TYPE_OBJECT)

static inline guint
slot_of (guint row)
{
  return (row >> PAGE_SHIFT) % MAX_PAGES;
}

static inline const Record *
record_at (FmvStore *self,
           guint     row)
{
  return &self->pages[slot_of (row)][row & (PAGE_ROWS - 1)];
}

static inline guint64
seq_at (FmvStore *self,
        guint     row)
{
  guint64 *seqs = g_atomic_pointer_get (&self->seq_pages[slot_of (row)]);

  if (seqs == NULL)
    return self->first_seqs[slot_of (row)] + (row & (PAGE_ROWS - 1));
  return seqs[row & (PAGE_ROWS - 1)];
}

/* Records @seq for @row, the newest, in its page. */
static void
set_seq (FmvStore *self,
         guint     row,
         guint64   seq)
{
  guint slot = slot_of (row);
  guint index = row & (PAGE_ROWS - 1);
  guint64 *seqs = self->seq_pages[slot];

  if (index == 0)
    self->first_seqs[slot] = seq;
  else if (seqs == NULL && seq != self->first_seqs[slot] + index)
    {
      seqs = g_new (guint64, PAGE_ROWS);
      for (guint i = 0; i < index; i++)
        seqs[i] = self->first_seqs[slot] + i;
      /* a reader of an older row finds either the base or the whole array */
      g_atomic_pointer_set (&self->seq_pages[slot], seqs);
    }
  if (seqs != NULL)
    seqs[index] = seq;
}

static void
free_page (FmvStore *self,
           guint     page)
{
  guint slot = page % MAX_PAGES;

  g_clear_pointer (&self->pages[slot], g_free);
  g_clear_pointer (&self->seq_pages[slot], g_free);
}

static void
fmv_store_finalize (GObject *object)
{
  FmvStore *self = FMV_STORE (object);

  /* The table goes with its strings: no need to release them one by one. */
  for (guint page = self->first_page; page < self->end_page; page++)
    free_page (self, page);
  g_free (self->pages);
  g_free (self->first_seqs);
  g_free (self->seq_pages);
  fm_strtab_unref (self->strings);

  G_OBJECT_CLASS (fmv_store_parent_class)->finalize (object);
}

static void
fmv_store_class_init (FmvStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fmv_store_finalize;

  /* releasing: the memory of the rows below the first row is about to go; whoever shows
   * row numbers drops those rows now. Emitted on the owner's thread, never under a hold. */
  signals[RELEASING] = g_signal_new ("releasing", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
fmv_store_init (FmvStore *self)
{
  self->pages = g_new0 (Record *, MAX_PAGES);
  self->first_seqs = g_new0 (guint64, MAX_PAGES);
  self->seq_pages = g_new0 (guint64 *, MAX_PAGES);
  self->strings = fm_strtab_new ();
}

FmvStore *
fmv_store_new (void)
{
  return g_object_new (FMV_TYPE_STORE, NULL);
}

static void
release_record (FmvStore     *self,
                const Record *record)
{
  fm_strtab_release (self->strings, record->task_id);
  FM_EVENT_FIELDS (ROW_RELEASE)
}

/* The compact event of @record: its task's fields put back. */
static void
expand (FmvStore       *self,
        const Record   *record,
        FmCompactEvent *out)
{
  guint32 comm;
  guint16 len;
  const char *bytes = fm_strtab_get_piece (self->strings, record->task_id, &comm, &len);
  Task task;

  g_assert (len == sizeof task);
  memcpy (&task, bytes, sizeof task);
  {
    const Record *from = record;
    FmCompactEvent *to = out;

    FM_EVENT_FIELDS (ROW_COPY)
  }
  out->pid = task.pid;
  out->ppid = task.ppid;
  out->tid = task.tid;
  out->uid = task.uid;
  out->comm_id = comm;
}

/* Frees the pages wholly below the first row, unless a reader holds the store. The
 * owner's thread only; hold() is too, so no hold can begin while this runs. */
static void
collect (FmvStore *self)
{
  guint gone_pages = self->first_row >> PAGE_SHIFT;

  if (self->first_page >= gone_pages || g_atomic_int_get (&self->holds) > 0)
    return;
  g_signal_emit (self, signals[RELEASING], 0);
  for (; self->first_page < gone_pages; self->first_page++)
    {
      const Record *records = self->pages[self->first_page % MAX_PAGES];

      for (guint i = 0; i < PAGE_ROWS; i++)
        release_record (self, &records[i]);
      free_page (self, self->first_page);
    }
}

/* Lets the rows beyond the newest @depth go. */
static void
trim (FmvStore *self)
{
  if (self->depth == 0 || self->n_rows - self->first_row <= self->depth)
    return;
  g_atomic_int_set (&self->first_row, self->n_rows - self->depth);
  collect (self);
}

/* The id of the path of @len bytes at @s, with one more reference: its directory and
 * its name (from its last slash on) joined, or the path itself when it has no directory
 * ("/etc", a relative name). @hint is the same field's id in the row before. */
static gboolean
intern_path (FmvStore   *self,
             const char *s,
             guint16     len,
             guint32     hint,
             guint32    *id)
{
  const char *slash = len > 0 ? memrchr (s, '/', len) : NULL;
  guint16 dir_len = slash != NULL ? slash - s : 0;
  guint32 dir;
  guint16 hint_len;
  gboolean ok;

  if (dir_len == 0)
    return fm_strtab_intern_like (self->strings, s, len, hint, id);
  /* consecutive events often name the same file, or one in the same directory */
  fm_strtab_get_piece (self->strings, hint, &dir, &hint_len);
  if (!fm_strtab_intern_like (self->strings, s, dir_len, dir, &dir))
    return FALSE;
  /* the joined string holds its own reference to its directory */
  ok = fm_strtab_intern_joined_like (self->strings, dir, slash, len - dir_len, hint, id);
  fm_strtab_release (self->strings, dir);
  return ok;
}

/* The task id of @compact's pid, ppid, tid, uid and command (whose reference it takes
 * over), with one more reference. @hint is the task of the row before. */
static gboolean
intern_task (FmvStore             *self,
             const FmCompactEvent *compact,
             guint32               hint,
             guint32              *id)
{
  const Task task = { compact->pid, compact->ppid, compact->tid, compact->uid };
  gboolean ok;

  if (compact->comm_id == FM_STRTAB_EMPTY)
    return fm_strtab_intern_like (self->strings, (const char *) &task, sizeof task, hint, id);
  /* most rows are a task of the row before's; the joined string holds its own reference
   * to its command */
  ok = fm_strtab_intern_joined_like (self->strings, compact->comm_id, (const char *) &task,
                                     sizeof task, hint, id);
  fm_strtab_release (self->strings, compact->comm_id);
  return ok;
}

/* fm_compact_event_intern, the paths kept as directory and name and the task as one id.
 * @like is the row before, or NULL. */
static gboolean
intern_record (FmvStore      *self,
               Record        *record,
               const FmEvent *event,
               const Record  *like)
{
  FmEvent rest = *event;
  FmCompactEvent compact, before;
  guint32 path, path2, task;

  if (like != NULL)
    expand (self, like, &before);
  rest.path_len = rest.path2_len = 0;
  if (!fm_compact_event_intern (&compact, &rest, self->strings, like != NULL ? &before : NULL))
    return FALSE;
  if (!intern_path (self, event->path, MIN (event->path_len, FM_PATH_MAX),
                    like != NULL ? like->path_id : FM_STRTAB_EMPTY, &path))
    goto full;
  if (!intern_path (self, event->path2, MIN (event->path2_len, FM_PATH_MAX),
                    like != NULL ? like->path2_id : FM_STRTAB_EMPTY, &path2))
    {
      fm_strtab_release (self->strings, path);
      goto full;
    }
  if (!intern_task (self, &compact, like != NULL ? like->task_id : FM_STRTAB_EMPTY, &task))
    {
      fm_strtab_release (self->strings, path);
      fm_strtab_release (self->strings, path2);
      /* the command's reference went with the attempt */
      compact.comm_id = FM_STRTAB_EMPTY;
      goto full;
    }
  {
    const FmCompactEvent *from = &compact;
    Record *to = record;

    FM_EVENT_FIELDS (ROW_COPY)
  }
  record->task_id = task;
  record->path_id = path;
  record->path2_id = path2;
  return TRUE;

full:
  fm_compact_event_release (&compact, self->strings);
  return FALSE;
}

gboolean
fmv_store_append (FmvStore      *self,
                  const FmEvent *event,
                  guint         *row_out)
{
  guint row;

  g_return_val_if_fail (FMV_IS_STORE (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  row = self->n_rows;
  if (row >= MAX_ROWS)
    return FALSE;
  if ((row >> PAGE_SHIFT) >= self->end_page)
    {
      guint slot = slot_of (row);

      /* Only when a billion rows are held, or held back by a reader. */
      if (self->pages[slot] != NULL)
        return FALSE;
      /* g_malloc of MiBs is an mmap: untouched tail pages cost nothing */
      self->pages[slot] = g_new (Record, PAGE_ROWS);
      self->end_page++;
    }
  /* The row before is held: trim() never lets the newest row go. */
  if (!intern_record (self, &self->pages[slot_of (row)][row & (PAGE_ROWS - 1)], event,
                      row > self->first_row ? record_at (self, row - 1) : NULL))
    return FALSE;
  set_seq (self, row, event->seq);

  if (event->seq > self->last_seq)
    self->last_seq = event->seq;

  /* Publishes the row (its record and strings above) to readers in other threads. */
  g_atomic_int_set (&self->n_rows, row + 1);
  trim (self);

  if (row_out)
    *row_out = row;
  return TRUE;
}

void
fmv_store_set_depth (FmvStore *self,
                     guint     depth)
{
  g_return_if_fail (FMV_IS_STORE (self));

  self->depth = depth;
  trim (self);
}

guint
fmv_store_get_depth (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return self->depth;
}

guint
fmv_store_get_n_rows (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return g_atomic_int_get (&self->n_rows);
}

guint
fmv_store_get_first_row (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return g_atomic_int_get (&self->first_row);
}

gboolean
fmv_store_has_row (FmvStore *self,
                   guint     row)
{
  g_return_val_if_fail (FMV_IS_STORE (self), FALSE);

  return row >= fmv_store_get_first_row (self) && row < fmv_store_get_n_rows (self);
}

gboolean
fmv_store_forget_gone_rows (FmvStore *self,
                            GArray   *rows)
{
  guint first;
  guint32 *row;
  guint kept = 0;

  g_return_val_if_fail (FMV_IS_STORE (self), FALSE);
  g_return_val_if_fail (rows != NULL, FALSE);

  first = fmv_store_get_first_row (self);
  row = (guint32 *) (void *) rows->data;
  for (guint i = 0; i < rows->len; i++)
    if (row[i] >= first)
      row[kept++] = row[i];
  if (kept == rows->len)
    return FALSE;
  g_array_set_size (rows, kept);
  return TRUE;
}

void
fmv_store_hold (FmvStore *self)
{
  g_return_if_fail (FMV_IS_STORE (self));

  g_atomic_int_inc (&self->holds);
}

static gboolean
collect_cb (gpointer data)
{
  collect (data);
  return G_SOURCE_REMOVE;
}

void
fmv_store_unhold (FmvStore *self)
{
  g_return_if_fail (FMV_IS_STORE (self));

  /* What waited for the last reader goes on the owner's thread (at once when that is
   * this one). */
  if (g_atomic_int_dec_and_test (&self->holds))
    g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, collect_cb,
                                g_object_ref (self), g_object_unref);
}

const char *
fmv_store_get_string (FmvStore *self,
                      guint32   id,
                      char     *buf,
                      guint16  *len)
{
  guint32 dir;
  guint16 dir_len, tail_len;
  const char *tail = fm_strtab_get_piece (self->strings, id, &dir, &tail_len);
  const char *dir_bytes;

  if (dir == FM_STRTAB_EMPTY)
    {
      *len = tail_len;
      return tail;
    }
  dir_bytes = fm_strtab_get (self->strings, dir, &dir_len);
  memcpy (buf, dir_bytes, dir_len);
  /* with its NUL */
  memcpy (buf + dir_len, tail, tail_len + 1);
  *len = dir_len + tail_len;
  return buf;
}

/* A string as two pieces: a joined id's directory and name, or nothing and the string. */
typedef struct {
  const char *piece[2];
  guint16 len[2];
} Pieces;

static void
get_pieces (FmvStore *self,
            guint32   id,
            Pieces   *p)
{
  guint32 dir;
  const char *piece = fm_strtab_get_piece (self->strings, id, &dir, &p->len[1]);

  /* the directory, or nothing before a plain string */
  p->piece[1] = piece;
  p->piece[0] = fm_strtab_get (self->strings, dir, &p->len[0]);
}

int
fmv_store_compare_strings (FmvStore *self,
                           guint32   a,
                           guint32   b)
{
  Pieces x, y;
  guint i = 0, j = 0;
  guint16 at_x = 0, at_y = 0;

  if (a == b)
    return 0;
  get_pieces (self, a, &x);
  get_pieces (self, b, &y);
  /* the bytes of both in step, a piece's end moving on to the next piece */
  for (;;)
    {
      guint16 n;
      int r;

      while (i < 2 && at_x == x.len[i])
        i++, at_x = 0;
      while (j < 2 && at_y == y.len[j])
        j++, at_y = 0;
      if (i == 2 || j == 2)
        return (i < 2) - (j < 2);
      n = MIN (x.len[i] - at_x, y.len[j] - at_y);
      r = memcmp (x.piece[i] + at_x, y.piece[j] + at_y, n);
      if (r != 0)
        return r;
      at_x += n;
      at_y += n;
    }
}

/* Runs once per row in every refilter: no checks beyond the row number. */
const FmEvent *
fmv_store_get_event (FmvStore      *self,
                     guint          row,
                     FmvStoreEvent *stored)
{
  FmEvent *event = fmv_store_get_event_without_paths (self, row, stored);

  event->path = fmv_store_get_string (self, stored->record.path_id, stored->path, &event->path_len);
  event->path2 = fmv_store_get_string (self, stored->record.path2_id, stored->path2,
                                       &event->path2_len);
  return event;
}

FmEvent *
fmv_store_get_event_without_paths (FmvStore      *self,
                                   guint          row,
                                   FmvStoreEvent *stored)
{
  FmCompactEvent shown;

  fmv_store_get_record (self, row, &stored->record);
  /* fm_compact_event_view would read a joined path's stored bytes: the paths left out */
  shown = stored->record;
  shown.path_id = shown.path2_id = FM_STRTAB_EMPTY;
  fm_compact_event_view (&shown, seq_at (self, row), self->strings, &stored->event);
  return &stored->event;
}

gboolean
fmv_store_get_event_if_held (FmvStore      *self,
                             guint          row,
                             FmvStoreEvent *stored)
{
  g_return_val_if_fail (FMV_IS_STORE (self), FALSE);

  /* Readable, not only held: a row just below the first row is still on screen until the
   * list's next update, and its page is still there (the list drops it before the page
   * goes, "releasing"). */
  if (row >= self->first_page * PAGE_ROWS && row < fmv_store_get_n_rows (self))
    {
      fmv_store_get_event (self, row, stored);
      return TRUE;
    }
  /* every string id of a zeroed record is the empty string's */
  memset (&stored->record, 0, sizeof stored->record);
  fm_compact_event_view (&stored->record, 0, self->strings, &stored->event);
  return FALSE;
}

const FmCompactEvent *
fmv_store_get_record (FmvStore       *self,
                      guint           row,
                      FmCompactEvent *record)
{
  /* no type check: it runs for every row of a refilter */
  g_assert (row < (guint) g_atomic_int_get (&self->n_rows));

  expand (self, record_at (self, row), record);
  return record;
}

guint32
fmv_store_get_string_id_bound (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return fm_strtab_get_id_bound (self->strings);
}

gint64
fmv_store_get_result (FmvStore *self,
                      guint     row)
{
  return record_at (self, row)->result;
}

gsize
fmv_store_get_memory_size (FmvStore *self)
{
  guint n_rows;
  gsize seqs = 0;

  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  /* The pages allocated, but only the used part of the last one: the rest was never
   * touched. */
  n_rows = fmv_store_get_n_rows (self) - self->first_page * PAGE_ROWS;
  for (guint page = self->first_page; page < self->end_page; page++)
    if (self->seq_pages[page % MAX_PAGES] != NULL)
      seqs += PAGE_ROWS * sizeof (guint64);
  return (gsize) n_rows * sizeof (Record) + seqs
         + fm_strtab_get_memory (self->strings)
         + MAX_PAGES * (2 * sizeof (gpointer) + sizeof (guint64));
}

guint
fmv_store_get_n_strings (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return fm_strtab_get_n_strings (self->strings);
}

guint64
fmv_store_get_last_seq (FmvStore *self)
{
  g_return_val_if_fail (FMV_IS_STORE (self), 0);

  return self->last_seq;
}
