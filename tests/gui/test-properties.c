/* test-properties.c: the Process tab of an event's properties without a display: the
 * parent chain, the command line, the first and last event and the user of a known
 * fork/exec workload, and the process index kept up to date as rows come and go. */
#include "config.h"

#include <string.h>

#include "fmv-process-index.h"
#include "fmv-process-text.h"
#include "fmv-test-store.h"

/* An event with one path. */
static void
append_as (FmvStore   *store,
           guint32     pid,
           guint32     ppid,
           guint32     tid,
           guint32     uid,
           const char *comm,
           const char *syscall,
           gint64      result,
           const char *path,
           const char *detail)
{
  fmv_test_append (store, pid, ppid, tid, uid, comm, syscall, result, path, NULL, detail);
}

/* bash (100, exec'd before the capture, child of PID 1 which has no event) forks 200,
 * which opens a file as "bash", execs make as root, changes to /src and runs cc1 (300,
 * whose worker thread 301 is called "gdbus") on a file with a space in its name; 900's
 * parent 57 has no event at all. The rows: */
enum {
  ROW_BASH_OPEN,
  ROW_CHILD_OPEN,        /* 200 before its exec */
  ROW_MAKE_EXEC,
  ROW_MAKE_CHDIR,
  ROW_MAKE_OPEN,
  ROW_GDBUS_OPEN,        /* 300 before its exec, in its worker thread */
  ROW_CC1_EXEC,
  ROW_CC1_READ,
  ROW_MAKE_CLOSE,
  ROW_ORPHAN,
  N_ROWS
};

static FmvStore *
workload (void)
{
  FmvStore *store = fmv_store_new ();

  append_as (store, 100, 1, 100, 1000, "bash", "openat", 3, "/etc/profile", "AT_FDCWD, O_RDONLY");
  append_as (store, 200, 100, 200, 1000, "bash", "openat", 3, "/dev/null", "AT_FDCWD, O_WRONLY");
  append_as (store, 200, 100, 200, 0, "bash", "execve", 0, "/usr/bin/make", "[\"make\", \"-j2\"]");
  append_as (store, 200, 100, 200, 0, "make", "chdir", 0, "/src", "");
  append_as (store, 200, 100, 200, 0, "make", "openat", 3, "/src/Makefile", "AT_FDCWD, O_RDONLY");
  append_as (store, 300, 200, 301, 0, "gdbus", "openat", -13, "/etc/shadow", "AT_FDCWD, O_RDONLY");
  append_as (store, 300, 200, 300, 0, "make", "execve", 0, "/usr/lib/gcc/cc1",
             "[\"cc1\", \"main file.c\"]");
  append_as (store, 300, 200, 300, 0, "cc1", "read", 10, "/src/main file.c", "fd=4 count=4096");
  append_as (store, 200, 100, 200, 0, "make", "close", 0, "/src/Makefile", "fd=3");
  append_as (store, 900, 57, 900, 1000, "orphan", "openat", -2, "/nothere", "AT_FDCWD, O_RDONLY");
  g_assert_cmpuint (fmv_store_get_n_rows (store), ==, N_ROWS);
  return store;
}

static FmvProcessText *
text_of (FmvStore *store,
         guint     row)
{
  g_autoptr(FmvProcessIndex) index = fmv_process_index_new (store);

  fmv_process_index_update (index);
  g_assert_true (fmv_process_index_covers (index, row));
  return fmv_process_text_new (index, row);
}

static const FmvPropField *
field (GPtrArray  *fields,
       const char *label)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const FmvPropField *f = fields->pdata[i];

      if (g_str_equal (f->label, label))
        return f;
    }
  g_error ("no field %s", label);
}

static void
assert_field (GPtrArray  *fields,
              const char *label,
              const char *value,
              gboolean    unknown)
{
  const FmvPropField *f = field (fields, label);

  g_assert_cmpstr (f->value, ==, value);
  g_assert_cmpint (f->unknown, ==, unknown);
}

static void
assert_field_starts (GPtrArray  *fields,
                     const char *label,
                     const char *prefix,
                     gboolean    unknown)
{
  const FmvPropField *f = field (fields, label);

  if (!g_str_has_prefix (f->value, prefix))
    g_error ("%s is \"%s\", not \"%s...\"", label, f->value, prefix);
  g_assert_cmpint (f->unknown, ==, unknown);
}

static void
test_process_parent_chain_up_to_pid_1 (void)
{
  g_autoptr(FmvStore) store = workload ();
  g_autoptr(FmvProcessText) text = text_of (store, ROW_CC1_READ);

  g_assert_cmpuint (text->parents->len, ==, 3);
  g_assert_cmpstr (((FmvPropField *) text->parents->pdata[0])->label, ==, "PID 200");
  assert_field (text->parents, "PID 200", "make -j2", FALSE);
  /* bash's exec came before the capture: its name, and why no command line */
  assert_field_starts (text->parents, "PID 100", "bash: command line not known", TRUE);
  assert_field_starts (text->parents, "PID 1", "The init process: no event of it", TRUE);
}

static void
test_process_parent_not_in_capture_ends_the_chain (void)
{
  g_autoptr(FmvStore) store = workload ();
  g_autoptr(FmvProcessText) text = text_of (store, ROW_ORPHAN);

  g_assert_cmpuint (text->parents->len, ==, 1);
  assert_field_starts (text->parents, "PID 57", "No event of it in the capture", TRUE);
  g_assert_nonnull (strstr (field (text->parents, "PID 57")->value, "its parents are not known"));
}

static void
test_process_command_line_is_shell_quoted (void)
{
  g_autoptr(FmvStore) store = workload ();
  g_autoptr(FmvProcessText) text = text_of (store, ROW_CC1_READ);

  /* named by its leader thread, not by the worker's "gdbus" */
  g_assert_cmpstr (text->title, ==, "cc1 (PID 300)");
  assert_field (text->fields, "Command line", "cc1 'main file.c'", FALSE);
  assert_field (text->fields, "Executable", "/usr/lib/gcc/cc1", FALSE);
}

static void
test_process_before_its_exec_says_the_exec_comes_later (void)
{
  g_autoptr(FmvStore) store = workload ();
  g_autoptr(FmvProcessText) text = text_of (store, ROW_CHILD_OPEN);

  assert_field_starts (text->fields, "Command line", "Not known at this event: the process exec'd only later",
                       TRUE);
  g_assert_nonnull (strstr (field (text->fields, "Command line")->value, "execve /usr/bin/make (event 3)"));
  assert_field (text->fields, "Executable", "Not known at this event: it ran /usr/bin/make only later", TRUE);
}

static void
test_process_without_exec_in_capture (void)
{
  g_autoptr(FmvStore) store = workload ();
  g_autoptr(FmvProcessText) text = text_of (store, ROW_BASH_OPEN);

  assert_field_starts (text->fields, "Command line", "Not known: the process's exec is not in the capture",
                       TRUE);
  assert_field_starts (text->fields, "Executable", "Not known", TRUE);
  assert_field_starts (text->fields, "Working directory", "Not known", TRUE);
}

static void
test_process_first_and_last_event (void)
{
  g_autoptr(FmvStore) store = workload ();
  g_autoptr(FmvProcessText) text = text_of (store, ROW_MAKE_OPEN);

  g_assert_cmpstr (text->title, ==, "make (PID 200)");
  assert_field (text->fields, "First event", "00:00:00.000002 openat /dev/null (event 2)", FALSE);
  assert_field (text->fields, "Last event", "00:00:00.000009 close /src/Makefile (event 9)", FALSE);
  assert_field (text->fields, "Events", "5 in the capture", FALSE);
}

static void
test_process_working_directory_at_the_event (void)
{
  g_autoptr(FmvStore) store = workload ();
  g_autoptr(FmvProcessText) before = text_of (store, ROW_MAKE_EXEC);
  g_autoptr(FmvProcessText) after = text_of (store, ROW_MAKE_OPEN);

  assert_field_starts (before->fields, "Working directory", "Not known", TRUE);
  assert_field (after->fields, "Working directory", "/src (since 00:00:00.000004 chdir /src (event 4))", FALSE);
}

static void
test_process_user_name (void)
{
  g_autoptr(FmvStore) store = workload ();
  g_autoptr(FmvProcessText) make = text_of (store, ROW_MAKE_OPEN);
  g_autoptr(FmvProcessText) child = text_of (store, ROW_CHILD_OPEN);
  g_autofree char *nobody = fmv_format_user (4242420);

  /* the event's own uid: make ran as root once exec'd, the child before it did not */
  assert_field (make->fields, "User", "root (0)", FALSE);
  g_assert_true (g_str_has_suffix (field (child->fields, "User")->value, "(1000)"));
  g_assert_cmpstr (nobody, ==, "4242420 (no user of that id here)");
}

/* A hundred processes each the child of the one before: the tab stops at the limit and
 * says that there is more. */
static void
test_process_long_chain_is_cut_and_says_so (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmvProcessText) text = NULL;
  g_autofree char *last = NULL;

  for (guint32 pid = 2; pid < 102; pid++)
    append_as (store, pid, pid - 1, pid, 0, "sh", "close", 0, "/dev/null", "fd=3");
  text = text_of (store, 99);
  g_assert_cmpuint (text->parents->len, ==, FMV_PROCESS_CHAIN_MAX + 1);
  last = g_strdup_printf ("PID %u, and more parents not shown", 101 - FMV_PROCESS_CHAIN_MAX - 1);
  assert_field (text->parents, "Parent of PID 37", last, TRUE);
}

static void
test_index_reads_only_rows_appended_since (void)
{
  g_autoptr(FmvStore) store = workload ();
  g_autoptr(FmvProcessIndex) index = fmv_process_index_new (store);
  g_autoptr(FmvProcessText) text = NULL;

  g_assert_cmpuint (fmv_process_index_get_n_pending (index), ==, N_ROWS);
  fmv_process_index_update (index);
  g_assert_cmpuint (fmv_process_index_get_n_pending (index), ==, 0);
  append_as (store, 200, 100, 200, 0, "make", "close", 0, "/src/main.o", "fd=5");
  g_assert_false (fmv_process_index_covers (index, N_ROWS));
  g_assert_true (fmv_process_index_covers (index, N_ROWS - 1));
  g_assert_cmpuint (fmv_process_index_get_n_pending (index), ==, 1);
  fmv_process_index_update (index);
  g_assert_true (fmv_process_index_covers (index, N_ROWS));
  text = fmv_process_text_new (index, ROW_MAKE_OPEN);
  assert_field (text->fields, "Last event", "00:00:00.000011 close /src/main.o (event 11)", FALSE);
  assert_field (text->fields, "Events", "6 in the capture", FALSE);
}

/* The rows that go (the history depth) keep their part in the tab, said to be gone, with
 * no second pass over the rows; the rows appended after are read. */
static void
test_index_keeps_what_it_read_when_rows_go (void)
{
  g_autoptr(FmvStore) store = fmv_store_new ();
  g_autoptr(FmvProcessIndex) index = fmv_process_index_new (store);
  g_autoptr(FmvProcessText) text = NULL;
  guint first;

  fmv_test_append (store, 700, 1, 700, 0, "sh", "execve", 0, "/usr/bin/loop", NULL, "[\"loop\", \"-n\"]");
  /* more than a page, so that the oldest rows' memory goes */
  for (guint i = 0; i < FMV_STORE_PAGE_ROWS + 10; i++)
    append_as (store, 700, 1, 700, 0, "loop", "close", 0, "/tmp/x", "fd=3");
  fmv_process_index_update (index);
  fmv_store_set_depth (store, 5);
  first = fmv_store_get_first_row (store);
  g_assert_cmpuint (first, ==, FMV_STORE_PAGE_ROWS + 6);
  g_assert_true (fmv_process_index_covers (index, first));
  g_assert_false (fmv_process_index_covers (index, first - 1));
  append_as (store, 700, 1, 700, 0, "loop", "chdir", 0, "/var", "");
  g_assert_cmpuint (fmv_process_index_get_n_pending (index), ==, 1);
  fmv_process_index_update (index);
  text = fmv_process_text_new (index, first + 5);
  assert_field (text->fields, "Command line", "loop -n", FALSE);
  assert_field (text->fields, "First event", "00:00:00.000001 execve /usr/bin/loop (event 1), no longer held", FALSE);
  assert_field_starts (text->fields, "Working directory", "/var (since", FALSE);
  assert_field (text->fields, "Events", "65548 in the capture", FALSE);
}

int
main (int   argc,
      char *argv[])
{
  /* the times above are shown in local time */
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/properties/process/parent-chain-up-to-pid-1", test_process_parent_chain_up_to_pid_1);
  g_test_add_func ("/properties/process/parent-not-in-capture-ends-the-chain",
                   test_process_parent_not_in_capture_ends_the_chain);
  g_test_add_func ("/properties/process/command-line-is-shell-quoted", test_process_command_line_is_shell_quoted);
  g_test_add_func ("/properties/process/before-its-exec-says-the-exec-comes-later",
                   test_process_before_its_exec_says_the_exec_comes_later);
  g_test_add_func ("/properties/process/without-exec-in-capture", test_process_without_exec_in_capture);
  g_test_add_func ("/properties/process/first-and-last-event", test_process_first_and_last_event);
  g_test_add_func ("/properties/process/working-directory-at-the-event",
                   test_process_working_directory_at_the_event);
  g_test_add_func ("/properties/process/user-name", test_process_user_name);
  g_test_add_func ("/properties/process/long-chain-is-cut-and-says-so", test_process_long_chain_is_cut_and_says_so);
  g_test_add_func ("/properties/index/reads-only-rows-appended-since", test_index_reads_only_rows_appended_since);
  g_test_add_func ("/properties/index/keeps-what-it-read-when-rows-go", test_index_keeps_what_it_read_when_rows_go);

  return g_test_run ();
}
