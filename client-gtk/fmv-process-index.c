/* fmv-process-index.c: the processes of a store's rows, kept up to date by reading only
 * the rows appended since; see fmv-process-index.h.
 *
 * A row is read as its record only (fmv_store_get_record): the numbers and the syscall,
 * never the strings, which are most of what reading a row costs. The rows where a
 * process exec'd or changed directory are kept as row numbers; their paths and command
 * lines are read when shown.
 */
#include "config.h"

#include "fm-syscalls.h"
#include "fmv-process-index.h"

typedef enum {
  MARK_EXEC,
  MARK_CWD,
} MarkKind;

typedef struct {
  guint32 row;
  MarkKind kind;
} Mark;

typedef struct {
  guint32 pid;
  guint32 first_ppid;         /* who started it: a process outliving its parent is
                                 given to another later */
  guint32 last_ppid;
  guint32 uid;
  guint32 name_row;
  guint32 first_row;
  guint32 last_row;
  guint n_events;
  gboolean leader_seen;
  GArray *marks;              /* Mark in row order, NULL until the first */
} Proc;

struct _FmvProcessIndex
{
  FmvStore *store;
  GArray *procs;              /* Proc */
  GHashTable *by_pid;         /* pid -> index in procs + 1 */
  guint first;                /* the store's first row when the rows were read */
  guint end;                  /* one past the last row read */
};

static void
clear_proc (gpointer p)
{
  Proc *proc = p;

  g_clear_pointer (&proc->marks, g_array_unref);
}

FmvProcessIndex *
fmv_process_index_new (FmvStore *store)
{
  FmvProcessIndex *self;

  g_return_val_if_fail (FMV_IS_STORE (store), NULL);

  self = g_new0 (FmvProcessIndex, 1);
  self->store = g_object_ref (store);
  self->procs = g_array_new (FALSE, TRUE, sizeof (Proc));
  g_array_set_clear_func (self->procs, clear_proc);
  self->by_pid = g_hash_table_new (NULL, NULL);
  self->first = self->end = fmv_store_get_first_row (store);
  return self;
}

void
fmv_process_index_free (FmvProcessIndex *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->store);
  g_array_unref (self->procs);
  g_hash_table_unref (self->by_pid);
  g_free (self);
}

FmvStore *
fmv_process_index_get_store (FmvProcessIndex *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->store;
}

/* Whether the rows the index counted are all still held: once the first row moves on,
 * first events (and execs, chdirs) it points at are gone. */
static gboolean
still_held (FmvProcessIndex *self)
{
  return fmv_store_get_first_row (self->store) == self->first;
}

guint
fmv_process_index_get_n_pending (FmvProcessIndex *self)
{
  guint n_rows;

  g_return_val_if_fail (self != NULL, 0);

  n_rows = fmv_store_get_n_rows (self->store);
  if (!still_held (self))
    return n_rows - fmv_store_get_first_row (self->store);
  return n_rows - self->end;
}

gboolean
fmv_process_index_covers (FmvProcessIndex *self,
                          guint            row)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return still_held (self) && row >= self->first && row < self->end;
}

static Proc *
proc_for (FmvProcessIndex *self,
          guint32          pid)
{
  gpointer found = g_hash_table_lookup (self->by_pid, GUINT_TO_POINTER (pid));

  if (found == NULL)
    {
      Proc proc = { .pid = pid };

      g_array_append_val (self->procs, proc);
      found = GUINT_TO_POINTER (self->procs->len);
      g_hash_table_insert (self->by_pid, GUINT_TO_POINTER (pid), found);
    }
  return &g_array_index (self->procs, Proc, GPOINTER_TO_UINT (found) - 1);
}

static void
add_mark (Proc     *proc,
          guint32   row,
          MarkKind  kind)
{
  Mark mark = { row, kind };

  if (proc->marks == NULL)
    proc->marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  g_array_append_val (proc->marks, mark);
}

static void
count_row (FmvProcessIndex      *self,
           Proc                 *proc,
           const FmCompactEvent *record,
           guint32               row)
{
  const FmSyscall *sc = fm_syscall_by_nr (record->syscall_nr);
  guint traits = sc != NULL ? sc->traits : 0;
  gboolean leader = record->tid == record->pid;

  if (proc->n_events++ == 0)
    {
      proc->first_row = row;
      proc->first_ppid = record->ppid;
    }
  proc->last_row = row;
  proc->last_ppid = record->ppid;
  proc->uid = record->uid;
  /* As in the analysis (fmv-analysis.c): worker threads of older captures carry names
   * of their own ("gdbus"), so the leader's events name the process. */
  if (leader || !proc->leader_seen)
    proc->name_row = row;
  proc->leader_seen |= leader;
  if (record->result != 0)
    return;
  if (traits & FM_TRAIT_EXEC)
    add_mark (proc, row, MARK_EXEC);
  else if (traits & FM_TRAIT_MOVES_CWD)
    add_mark (proc, row, MARK_CWD);
}

void
fmv_process_index_update (FmvProcessIndex *self)
{
  guint first, end;
  Proc *proc = NULL;

  g_return_if_fail (self != NULL);

  first = fmv_store_get_first_row (self->store);
  end = fmv_store_get_n_rows (self->store);
  if (first != self->first)
    {
      g_array_set_size (self->procs, 0);
      g_hash_table_remove_all (self->by_pid);
      self->first = self->end = first;
    }
  for (guint row = self->end; row < end; row++)
    {
      FmCompactEvent record;

      fmv_store_get_record (self->store, row, &record);
      /* consecutive rows are mostly one process's; a new pid may move the array, but
       * then the pointer is taken again anyway */
      if (proc == NULL || proc->pid != record.pid)
        proc = proc_for (self, record.pid);
      count_row (self, proc, &record, row);
    }
  self->end = end;
}

/* The last mark of @kind at or before @row: TRUE and its row in @found; else the first
 * one after, in @later (G_MAXUINT32 if none). */
static gboolean
find_mark (const Proc *proc,
           MarkKind    kind,
           guint32     row,
           guint32    *found,
           guint32    *later)
{
  gboolean has = FALSE;

  *later = G_MAXUINT32;
  for (guint i = 0; proc->marks != NULL && i < proc->marks->len; i++)
    {
      const Mark *mark = &g_array_index (proc->marks, Mark, i);

      if (mark->kind != kind)
        continue;
      if (mark->row > row)
        {
          *later = mark->row;
          break;
        }
      *found = mark->row;
      has = TRUE;
    }
  return has;
}

static void
fill_facts (FmvProcessFacts *facts,
            const Proc      *proc,
            guint32          row)
{
  guint32 later = G_MAXUINT32, unused;

  facts->seen = TRUE;
  facts->ppid = proc->first_ppid;
  facts->uid = proc->uid;
  facts->name_row = proc->name_row;
  facts->first_row = proc->first_row;
  facts->last_row = proc->last_row;
  facts->n_events = proc->n_events;
  facts->has_exec = find_mark (proc, MARK_EXEC, row, &facts->exec_row, &later);
  facts->exec_later = !facts->has_exec && later != G_MAXUINT32;
  facts->later_exec_row = later;
  facts->has_cwd = find_mark (proc, MARK_CWD, row, &facts->cwd_row, &unused);
}

GArray *
fmv_process_index_chain (FmvProcessIndex *self,
                         guint            row)
{
  GArray *chain = g_array_new (FALSE, TRUE, sizeof (FmvProcessFacts));
  g_autoptr(GHashTable) met = g_hash_table_new (NULL, NULL);
  FmCompactEvent record;
  guint32 pid;

  g_return_val_if_fail (self != NULL, chain);
  g_return_val_if_fail (fmv_process_index_covers (self, row), chain);

  fmv_store_get_record (self->store, row, &record);
  pid = record.pid;
  for (;;)
    {
      gpointer found = g_hash_table_lookup (self->by_pid, GUINT_TO_POINTER (pid));
      FmvProcessFacts facts = { .pid = pid };
      guint32 parent;

      g_hash_table_add (met, GUINT_TO_POINTER (pid));
      if (found != NULL)
        fill_facts (&facts, &g_array_index (self->procs, Proc, GPOINTER_TO_UINT (found) - 1), row);
      if (chain->len == 0)
        {
          /* the event's own numbers, which are the truth at its time */
          facts.ppid = record.ppid;
          facts.uid = record.uid;
        }
      g_array_append_val (chain, facts);
      parent = facts.ppid;
      /* ppid 0: a backend that could not tell (or PID 1's own) */
      if (!facts.seen || pid == 1 || parent == 0 || g_hash_table_contains (met, GUINT_TO_POINTER (parent)))
        break;
      pid = parent;
    }
  return chain;
}
