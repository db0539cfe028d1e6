/* fmv-process-text.c: the Process tab's texts from a process index; see
 * fmv-process-text.h. */
#include "config.h"

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

static char *
describe_row (FmvStore *store,
              guint32   row)
{
  FmvStoreEvent stored;

  return fmv_process_describe_event (fmv_store_get_event (store, row, &stored));
}

/* The command line and the program, or why they are not known. */
static void
add_program (FmvProcessText        *text,
             const FmvProcessFacts *facts)
{
  if (facts->command_line != NULL)
    {
      add_field (text->fields, "Command line", g_strdup (facts->command_line), FALSE);
      add_field (text->fields, "Executable", g_strdup (facts->executable), FALSE);
      return;
    }
  if (facts->later_exec_event != NULL)
    {
      add_field (text->fields, "Command line",
                 g_strdup_printf ("Not known at this event: the process exec'd only later (%s)",
                                  facts->later_exec_event),
                 TRUE);
      add_field (text->fields, "Executable",
                 g_strdup_printf ("Not known at this event: it ran %s only later", facts->later_executable), TRUE);
      return;
    }
  add_field (text->fields, "Command line",
             g_strdup ("Not known: the process's exec is not in the capture (it came before it)"),
             TRUE);
  add_field (text->fields, "Executable", g_strdup ("Not known: no exec of the process in the capture"),
             TRUE);
}

static void
add_cwd (FmvProcessText        *text,
         const FmvProcessFacts *facts)
{
  if (facts->cwd == NULL)
    add_field (text->fields, "Working directory",
               g_strdup ("Not known: no chdir of the process in the capture before this event"),
               TRUE);
  else
    add_field (text->fields, "Working directory", g_strdup_printf ("%s (since %s)", facts->cwd, facts->cwd_event),
               FALSE);
}

/* One parent: its command line, or what is known of it. */
static void
add_parent (FmvProcessText        *text,
            const FmvProcessFacts *facts)
{
  g_autofree char *label = g_strdup_printf ("PID %u", facts->pid);

  if (!facts->seen)
    add_field (text->parents, label,
               facts->pid == 1
                 ? g_strdup ("The init process: no event of it in the capture, so its command line "
                             "is not known")
                 : g_strdup ("No event of it in the capture (it did nothing the capture traced, or "
                             "ran before it): its command line and its parents are not known"),
               TRUE);
  else if (facts->command_line != NULL)
    add_field (text->parents, label, g_strdup (facts->command_line), FALSE);
  else
    add_field (text->parents, label,
               g_strdup_printf ("%s: command line not known (its exec is not in the capture)",
                                facts->name),
               TRUE);
}

FmvProcessText *
fmv_process_text_new (FmvProcessIndex *index,
                      guint            row)
{
  FmvStore *store = fmv_process_index_get_store (index);
  g_autoptr(GArray) chain = fmv_process_index_chain (index, row);
  FmvProcessText *text = g_new0 (FmvProcessText, 1);
  const FmvProcessFacts *facts, *last;

  text->fields = g_ptr_array_new_with_free_func (field_free);
  text->parents = g_ptr_array_new_with_free_func (field_free);
  if (chain->len == 0)
    {
      text->title = g_strdup ("Process");
      return text;
    }

  facts = &g_array_index (chain, FmvProcessFacts, 0);
  text->title = g_strdup_printf ("%s (PID %u)", facts->name, facts->pid);
  add_field (text->fields, "Process", g_strdup (text->title), FALSE);
  add_program (text, facts);
  add_cwd (text, facts);
  add_field (text->fields, "User", fmv_format_user (facts->uid), FALSE);
  add_field (text->fields, "First event",
             facts->first_gone ? g_strdup_printf ("%s, no longer held", facts->first_event)
                               : g_strdup (facts->first_event),
             FALSE);
  /* the event's own process: its last event is at or after the event, so held */
  add_field (text->fields, "Last event", describe_row (store, facts->last_row), FALSE);
  add_field (text->fields, "Events", g_strdup_printf ("%'u in the capture", facts->n_events), FALSE);

  for (guint i = 1; i < chain->len; i++)
    add_parent (text, &g_array_index (chain, FmvProcessFacts, i));
  last = &g_array_index (chain, FmvProcessFacts, chain->len - 1);
  /* the chain stopped short of PID 1 with a process whose parent is known to exist */
  if (last->seen && last->pid != 1)
    {
      g_autofree char *label = g_strdup_printf ("Parent of PID %u", last->pid);

      if (last->ppid == 0)
        add_field (text->parents, label, g_strdup ("Not known: its events give no parent PID"), TRUE);
      else if (chain->len > FMV_PROCESS_CHAIN_MAX)
        add_field (text->parents, label,
                   g_strdup_printf ("PID %u, and more parents not shown", last->ppid), TRUE);
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
