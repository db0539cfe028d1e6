/* fm-syscalls-kernel.c: the syscalls the running kernel has, from its symbol table.
 *
 * /proc/kallsyms is readable by every user and names every symbol even where
 * kptr_restrict hides the addresses, unlike tracefs (root only, and not mounted on a
 * fresh machine). Every x86_64 syscall since 4.17 has an entry point __x64_sys_X, which
 * is also what the stap script probes; a kernel without the syscall has no such symbol.
 */
#include "fm-syscalls-kernel.h"

#include <gio/gio.h>
#include <string.h>

#include "fm-error.h"

#define ENTRY_PREFIX "__x64_sys_"

GHashTable *
fm_syscalls_in_kernel (const char  *kallsyms_path,
                       GError     **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) local_error = NULL;
  guint n_all = 0;
  const FmSyscall *all = fm_syscalls_all (&n_all);
  gboolean any_syscall = FALSE;
  char *line;

  g_return_val_if_fail (kallsyms_path != NULL, NULL);

  for (guint i = 0; i < n_all; i++)
    g_hash_table_add (wanted, (gpointer) all[i].kernel_name);

  file = g_file_new_for_path (kallsyms_path);
  in = g_file_read (file, NULL, &local_error);
  if (in == NULL)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_IO, "cannot read %s: %s", kallsyms_path,
                   local_error->message);
      return NULL;
    }
  lines = g_data_input_stream_new (G_INPUT_STREAM (in));
  /* "ffffffff81234560 T __x64_sys_openat" */
  while ((line = g_data_input_stream_read_line (lines, NULL, NULL, &local_error)) != NULL)
    {
      g_autofree char *owned = line;
      const char *name = strstr (owned, " " ENTRY_PREFIX);

      if (name == NULL)
        continue;
      name += strlen (" " ENTRY_PREFIX);
      any_syscall = TRUE;
      if (g_hash_table_contains (wanted, name) && !g_hash_table_contains (found, name))
        g_hash_table_add (found, g_strdup (name));
    }
  if (local_error != NULL)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_IO, "cannot read %s: %s", kallsyms_path,
                   local_error->message);
      return NULL;
    }
  if (!any_syscall)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_IO,
                   "%s names no syscall entry point (" ENTRY_PREFIX "*): not an x86_64 "
                   "kernel's symbol table, or one built without CONFIG_KALLSYMS",
                   kallsyms_path);
      return NULL;
    }
  return g_steal_pointer (&found);
}
