/* test-syscalls-kernel.c: which syscalls of the table a kernel has, from its symbol table. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "fm-error.h"
#include "fm-syscalls-kernel.h"

static char *
write_kallsyms (const char *text)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("fm-kallsyms-XXXXXX", &path, &error);

  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (close (fd), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  return path;
}

/* addresses hidden (kptr_restrict) as an unprivileged reader sees them; the kernel name
 * is what counts (newstat for stat); a symbol that merely contains a name is not it */
static void
test_names_what_the_kernel_has (void)
{
  g_autofree char *path = write_kallsyms (
    "0000000000000000 T __x64_sys_openat\n"
    "0000000000000000 T __x64_sys_newstat\n"
    "0000000000000000 t __do_sys_setxattrat\n"
    "0000000000000000 T __x64_sys_fork\n"
    "0000000000000000 T __ia32_sys_getxattrat\n"
    "0000000000000000 T __x64_sys_close_range_helper\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) has = fm_syscalls_in_kernel (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (has);
  g_assert_true (g_hash_table_contains (has, "openat"));
  g_assert_true (g_hash_table_contains (has, "newstat"));
  g_assert_false (g_hash_table_contains (has, "setxattrat"));
  g_assert_false (g_hash_table_contains (has, "getxattrat"));
  g_assert_false (g_hash_table_contains (has, "close_range"));
  /* not a file syscall of the table */
  g_assert_false (g_hash_table_contains (has, "fork"));
  g_assert_cmpuint (g_hash_table_size (has), ==, 2);
  g_assert_cmpint (g_unlink (path), ==, 0);
}

static void
test_unreadable_or_foreign_is_an_error (void)
{
  g_autofree char *path = write_kallsyms ("0000000000000000 T do_sys_openat2\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) none = fm_syscalls_in_kernel (path, &error);
  g_autoptr(GHashTable) missing = NULL;

  g_assert_null (none);
  g_assert_error (error, FM_ERROR, FM_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "no syscall entry point"));
  g_clear_error (&error);
  g_assert_cmpint (g_unlink (path), ==, 0);
  missing = fm_syscalls_in_kernel (path, &error);
  g_assert_null (missing);
  g_assert_error (error, FM_ERROR, FM_ERROR_IO);
  g_assert_nonnull (strstr (error->message, path));
}

/* the running kernel (6.18 here, and whatever a guest runs) has at least the old calls */
static void
test_running_kernel_has_openat (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) has = fm_syscalls_in_kernel ("/proc/kallsyms", &error);

  g_assert_no_error (error);
  g_assert_true (g_hash_table_contains (has, "openat"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/syscalls-kernel/names-what-the-kernel-has", test_names_what_the_kernel_has);
  g_test_add_func ("/syscalls-kernel/unreadable-or-foreign-is-an-error",
                   test_unreadable_or_foreign_is_an_error);
  g_test_add_func ("/syscalls-kernel/running-kernel-has-openat", test_running_kernel_has_openat);
  return g_test_run ();
}
