/* fmv-process-text.c: the Process tab's texts from a process index; see
 * fmv-process-text.h. */
#include "config.h"

#include "fm-syscalls.h"
#include "fmv-command-line.h"
#include "fmv-process-text.h"
#include "fmv-row.h"

static void
field_free (gpointer p)
{
  FmvPropField *field = p;

  g_free (field->label);
  g_free (field->value);
  g_free (field);
}

static void
add_field (GPtrArray  *fields,
           const char *label,
           char       *value,
           gboolean    unknown)
{
  FmvPropField *field = g_new0 (FmvPropField, 1);

  field->label = g_strdup (label);
  field->value = value;
  field->unknown = unknown;
  g_ptr_array_add (fields, field);
}

char *
fmv_format_user (guint32 uid)
{
  const char *name = fmv_user_name (uid);
  g_autofree char *number = g_strdup_printf ("%u", uid);

  /* fmv_user_name gives the number back when the machine has no such user */
  if (g_str_equal (name, number))
    return g_strdup_printf ("%u (no user of that id here)", uid);
  return g_strdup_printf ("%s (%u)", name, uid);
}

/* "12:00:00.100000 execve /usr/bin/make (event 2)" */
static char *
describe_event (FmvStore *store,
                guint32   row)
{
  FmvStoreEvent stored;
  const FmEvent *ev = fmv_store_get_event (store, row, &stored);
  g_autofree char *time = fmv_format_time (ev->time_ns, FALSE);
  g_autofree char *path = fmv_bytes_to_display (ev->path, ev->path_len);
  char name[16];

  return g_strdup_printf ("%s %s%s%s (event %" G_GUINT64_FORMAT ")", time,
                          fm_syscall_name (ev->syscall_nr, name), *path != '\0' ? " " : "", path, ev->seq);
}

static char *
process_name (FmvStore              *store,
              const FmvProcessFacts *facts)
{
  FmvStoreEvent stored;
  const FmEvent *ev = fmv_store_get_event (store, facts->name_row, &stored);

  return fmv_bytes_to_display (ev->comm, ev->comm_len);
}

static char *
exec_command_line (FmvStore *store,
                   guint32   row)
{
  FmvStoreEvent stored;

  return fmv_exec_command_line (fmv_store_get_event (store, row, &stored));
}

/* The path of the event at @row (an exec's program, a chdir's directory). */
static char *
event_path (FmvStore *store,
            guint32   row)
{
  FmvStoreEvent stored;
  const FmEvent *ev = fmv_store_get_event (store, row, &stored);

  return fmv_bytes_to_display (ev->path, ev->path_len);
}

/* The command line and the program, or why they are not known. */
static void
add_program (FmvProcessText        *text,
             FmvStore              *store,
             const FmvProcessFacts *facts)
{
  g_autofree char *later = NULL;
  g_autofree char *later_path = NULL;

  if (facts->has_exec)
    {
      add_field (text->fields, "Command line", exec_command_line (store, facts->exec_row), FALSE);
      add_field (text->fields, "Executable", event_path (store, facts->exec_row), FALSE);
      return;
    }
  if (facts->exec_later)
    {
      later = describe_event (store, facts->later_exec_row);
      later_path = event_path (store, facts->later_exec_row);
      add_field (text->fields, "Command line",
                 g_strdup_printf ("Not known at this event: the process exec'd only later (%s)", later), TRUE);
      add_field (text->fields, "Executable",
                 g_strdup_printf ("Not known at this event: it ran %s only later", later_path), TRUE);
      return;
    }
  add_field (text->fields, "Command line",
             g_strdup ("Not known: the process's exec is not among the events held (it came before the capture)"),
             TRUE);
  add_field (text->fields, "Executable", g_strdup ("Not known: no exec of the process among the events held"),
             TRUE);
}

static void
add_cwd (FmvProcessText        *text,
         FmvStore              *store,
         const FmvProcessFacts *facts)
{
  g_autofree char *path = NULL;
  g_autofree char *when = NULL;

  if (!facts->has_cwd)
    {
      add_field (text->fields, "Working directory",
                 g_strdup ("Not known: the process changed directory in none of the events held before this one"),
                 TRUE);
      return;
    }
  path = event_path (store, facts->cwd_row);
  when = describe_event (store, facts->cwd_row);
  add_field (text->fields, "Working directory", g_strdup_printf ("%s (since %s)", path, when), FALSE);
}

/* One parent: its command line, or what is known of it. */
static void
add_parent (FmvProcessText        *text,
            FmvStore              *store,
            const FmvProcessFacts *facts)
{
  g_autofree char *label = g_strdup_printf ("PID %u", facts->pid);
  g_autofree char *name = NULL;

  if (!facts->seen)
    {
      add_field (text->parents, label,
                 facts->pid == 1
                   ? g_strdup ("The init process: no event of it among the events held, so its command line "
                               "is not known")
                   : g_strdup ("No event of it among the events held (it did nothing the capture traced, or "
                               "ran before it): its command line and its parents are not known"),
                 TRUE);
      return;
    }
  if (facts->has_exec)
    {
      add_field (text->parents, label, exec_command_line (store, facts->exec_row), FALSE);
      return;
    }
  name = process_name (store, facts);
  add_field (text->parents, label,
             g_strdup_printf ("%s: command line not known (its exec is not among the events held)", name), TRUE);
}

FmvProcessText *
fmv_process_text_new (FmvProcessIndex *index,
                      guint            row)
{
  FmvStore *store = fmv_process_index_get_store (index);
  g_autoptr(GArray) chain = fmv_process_index_chain (index, row);
  FmvProcessText *text = g_new0 (FmvProcessText, 1);
  const FmvProcessFacts *facts, *last;
  g_autofree char *name = NULL;

  text->fields = g_ptr_array_new_with_free_func (field_free);
  text->parents = g_ptr_array_new_with_free_func (field_free);
  if (chain->len == 0)
    {
      text->title = g_strdup ("Process");
      return text;
    }

  facts = &g_array_index (chain, FmvProcessFacts, 0);
  name = process_name (store, facts);
  text->title = g_strdup_printf ("%s (PID %u)", name, facts->pid);
  add_field (text->fields, "Process", g_strdup (text->title), FALSE);
  add_program (text, store, facts);
  add_cwd (text, store, facts);
  add_field (text->fields, "User", fmv_format_user (facts->uid), FALSE);
  add_field (text->fields, "First event", describe_event (store, facts->first_row), FALSE);
  add_field (text->fields, "Last event", describe_event (store, facts->last_row), FALSE);
  add_field (text->fields, "Events", g_strdup_printf ("%'u of the events held", facts->n_events), FALSE);

  for (guint i = 1; i < chain->len; i++)
    add_parent (text, store, &g_array_index (chain, FmvProcessFacts, i));
  last = &g_array_index (chain, FmvProcessFacts, chain->len - 1);
  /* the chain stopped short of PID 1 with a process whose parent is known to exist */
  if (last->seen && last->pid != 1)
    {
      g_autofree char *label = g_strdup_printf ("Parent of PID %u", last->pid);

      if (last->ppid == 0)
        add_field (text->parents, label, g_strdup ("Not known: its events give no parent PID"), TRUE);
      else
        add_field (text->parents, label,
                   g_strdup_printf ("PID %u again: a PID reused within the capture; the chain stops here",
                                    last->ppid),
                   TRUE);
    }
  return text;
}

void
fmv_process_text_free (FmvProcessText *text)
{
  if (text == NULL)
    return;
  g_free (text->title);
  g_ptr_array_unref (text->fields);
  g_ptr_array_unref (text->parents);
  g_free (text);
}

char *
fmv_process_text_to_string (FmvProcessText *text)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (text != NULL, NULL);

  for (guint i = 0; i < text->fields->len; i++)
    {
      const FmvPropField *field = text->fields->pdata[i];

      g_string_append_printf (out, "%s: %s\n", field->label, field->value);
    }
  if (text->parents->len > 0)
    g_string_append (out, "Parents:\n");
  for (guint i = 0; i < text->parents->len; i++)
    {
      const FmvPropField *field = text->parents->pdata[i];

      g_string_append_printf (out, "  %s: %s\n", field->label, field->value);
    }
  return g_string_free (out, FALSE);
}
