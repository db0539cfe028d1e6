/* fmv-process-index.c: the processes of a store's rows, kept up to date by reading only
 * the rows appended since; see fmv-process-index.h.
 *
 * A row is read as its record only (fmv_store_get_record): the numbers and the syscall,
 * not the strings, which are most of what reading a row costs. Only a process's first
 * event, its execs and chdirs and a change of its name are read whole, and their texts
 * kept.
 */
#include "config.h"

#include "fm-syscalls.h"
#include "fmv-command-line.h"
#include "fmv-process-index.h"
#include "fmv-row.h"

typedef enum {
  MARK_EXEC,
  MARK_CWD,
} MarkKind;

typedef struct {
  guint32 row;
  MarkKind kind;
  char *path;                 /* the program, the directory */
  char *command_line;         /* an exec's */
  char *event;                /* fmv_process_describe_event */
} Mark;

typedef struct {
  guint32 pid;
  guint32 first_ppid;         /* who started it: a process outliving its parent is
                                 given to another later */
  guint32 uid;
  guint32 name_comm_id;       /* the string id name was read from */
  char *name;
  guint32 first_row;
  char *first_event;
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
  guint end;                  /* one past the last row read */
};

static void
clear_mark (gpointer p)
{
  Mark *mark = p;

  g_free (mark->path);
  g_free (mark->command_line);
  g_free (mark->event);
}

static void
clear_proc (gpointer p)
{
  Proc *proc = p;

  g_free (proc->name);
  g_free (proc->first_event);
  g_clear_pointer (&proc->marks, g_array_unref);
}

char *
fmv_process_describe_event (const FmEvent *event)
{
  g_autofree char *time = fmv_format_time (event->time_ns, FALSE);
  g_autofree char *path = fmv_bytes_to_display (event->path, event->path_len);
  char name[16];

  return g_strdup_printf ("%s %s%s%s (event %" G_GUINT64_FORMAT ")", time,
                          fm_syscall_name (event->syscall_nr, name), *path != '\0' ? " " : "", path, event->seq);
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
  self->end = fmv_store_get_first_row (store);
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

guint
fmv_process_index_get_n_pending (FmvProcessIndex *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return fmv_store_get_n_rows (self->store) - MAX (self->end, fmv_store_get_first_row (self->store));
}

gboolean
fmv_process_index_covers (FmvProcessIndex *self,
                          guint            row)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return fmv_store_has_row (self->store, row) && row < self->end;
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
add_mark (FmvProcessIndex *self,
          Proc            *proc,
          guint32          row,
          MarkKind         kind)
{
  FmvStoreEvent stored;
  const FmEvent *ev = fmv_store_get_event (self->store, row, &stored);
  Mark mark = {
    .row = row,
    .kind = kind,
    .path = fmv_bytes_to_display (ev->path, ev->path_len),
    .command_line = kind == MARK_EXEC ? fmv_exec_command_line (ev) : NULL,
    .event = fmv_process_describe_event (ev),
  };

  if (proc->marks == NULL)
    {
      proc->marks = g_array_new (FALSE, FALSE, sizeof (Mark));
      g_array_set_clear_func (proc->marks, clear_mark);
    }
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
      FmvStoreEvent stored;

      proc->first_row = row;
      proc->first_ppid = record->ppid;
      proc->first_event = fmv_process_describe_event (fmv_store_get_event (self->store, row, &stored));
    }
  proc->last_row = row;
  proc->uid = record->uid;
  /* As in the analysis (fmv-analysis.c): worker threads of older captures carry names
   * of their own ("gdbus"), so the leader's events name the process. */
  if ((leader || !proc->leader_seen) && (proc->name == NULL || record->comm_id != proc->name_comm_id))
    {
      char buf[FM_PATH_MAX + 1];
      guint16 len;
      const char *comm = fmv_store_get_string (self->store, record->comm_id, buf, &len);

      g_free (proc->name);
      proc->name = fmv_bytes_to_display (comm, len);
      proc->name_comm_id = record->comm_id;
    }
  proc->leader_seen |= leader;
  if (record->result != 0)
    return;
  if (traits & FM_TRAIT_EXEC)
    add_mark (self, proc, row, MARK_EXEC);
  else if (traits & FM_TRAIT_MOVES_CWD)
    add_mark (self, proc, row, MARK_CWD);
}

void
fmv_process_index_update (FmvProcessIndex *self)
{
  guint end;
  Proc *proc = NULL;

  g_return_if_fail (self != NULL);

  end = fmv_store_get_n_rows (self->store);
  /* rows that went before they were read are not seen at all */
  self->end = MAX (self->end, fmv_store_get_first_row (self->store));
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

/* The last mark of @kind at or before @row, or NULL; @later gets the first one after. */
static const Mark *
find_mark (const Proc  *proc,
           MarkKind     kind,
           guint32      row,
           const Mark **later)
{
  const Mark *found = NULL;

  *later = NULL;
  for (guint i = 0; proc->marks != NULL && i < proc->marks->len; i++)
    {
      const Mark *mark = &g_array_index (proc->marks, Mark, i);

      if (mark->kind != kind)
        continue;
      if (mark->row > row)
        {
          *later = mark;
          break;
        }
      found = mark;
    }
  return found;
}

static void
fill_facts (FmvProcessIndex *self,
            FmvProcessFacts *facts,
            const Proc      *proc,
            guint32          row)
{
  const Mark *later, *unused;
  const Mark *exec = find_mark (proc, MARK_EXEC, row, &later);
  const Mark *cwd = find_mark (proc, MARK_CWD, row, &unused);

  facts->seen = TRUE;
  facts->ppid = proc->first_ppid;
  facts->uid = proc->uid;
  facts->name = proc->name;
  facts->first_event = proc->first_event;
  facts->first_gone = !fmv_store_has_row (self->store, proc->first_row);
  facts->last_row = proc->last_row;
  facts->n_events = proc->n_events;
  if (exec != NULL)
    {
      facts->command_line = exec->command_line;
      facts->executable = exec->path;
    }
  else if (later != NULL)
    {
      facts->later_exec_event = later->event;
      facts->later_executable = later->path;
    }
  if (cwd != NULL)
    {
      facts->cwd = cwd->path;
      facts->cwd_event = cwd->event;
    }
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
        fill_facts (self, &facts, &g_array_index (self->procs, Proc, GPOINTER_TO_UINT (found) - 1), row);
      if (chain->len == 0)
        {
          /* the event's own numbers, which are the truth at its time */
          facts.ppid = record.ppid;
          facts.uid = record.uid;
        }
      g_array_append_val (chain, facts);
      parent = facts.ppid;
      /* ppid 0: a backend that could not tell (or PID 1's own) */
      if (!facts.seen || pid == 1 || parent == 0 || g_hash_table_contains (met, GUINT_TO_POINTER (parent))
          || chain->len > FMV_PROCESS_CHAIN_MAX)
        break;
      pid = parent;
    }
  return chain;
}
