/* filemond-stap-script.c: generates the SystemTap script of a capture; the protocol it
 * prints is described in filemond-stap-script.h.
 *
 * The script uses the two raw_syscalls tracepoints rather than one tapset probe per
 * syscall: the syscall numbers, argument kinds and string arguments all come from the one
 * table in common/, the tapsets' per-syscall variables differ from probe to probe, and
 * SystemTap 4.8 has no tapset probe for openat2 or fchmodat2. Entry arguments are kept
 * per thread and one record is printed at the return, with the duration. Strings are read
 * at entry: execve's pointers are gone at its return, and a path's directory (the dirfd or
 * the cwd) is resolved before the call can change it.
 */
#include "config.h"

#include "filemond-stap-script.h"

#include "fm-syscalls.h"

/* The stap expression of argument @i of the current sys_enter. */
#define ARG(i) "$args[" #i "]"

static void
emit_filters (GString *s, const FmdOptions *options)
{
  if (options->pids->len > 0)
    g_string_append (s, "  if (!(pid() in fm_pids)) next\n");
  if (options->uids->len > 0)
    g_string_append (s, "  if (!(uid() in fm_uids)) next\n");
  if (options->comms != NULL && options->comms[0] != NULL)
    g_string_append (s, "  if (!(execname() in fm_comms)) next\n");
}

/* Per syscall with string or fd arguments: what to read at entry. */
static void
emit_entry_reads (GString *s, const FmSyscall *sc)
{
  int path_seen = 0;
  int pending_dirfd = -1;

  g_string_append_printf (s, "  %s (nr == %u) {\n", "if", sc->nr);
  for (guint i = 0; i < sc->n_args; i++)
    {
      const char *path_var = path_seen == 0 ? "fm_path" : "fm_path2";
      const char *base_var = path_seen == 0 ? "fm_base" : "fm_base2";

      switch (sc->args[i])
        {
        case FM_ARG_PATH:
        case FM_ARG_PATH2:
          path_var = sc->args[i] == FM_ARG_PATH ? "fm_path" : "fm_path2";
          base_var = sc->args[i] == FM_ARG_PATH ? "fm_base" : "fm_base2";
          g_string_append_printf (s, "    %s[t] = user_string_quoted(" "$args[%u]" ")\n",
                                  path_var, i);
          /* a relative name is resolved against the dirfd before it, or the cwd */
          if (pending_dirfd >= 0)
            g_string_append_printf (s, "    %s[t] = fm_dir(task, $args[%d])\n", base_var, pending_dirfd);
          else
            g_string_append_printf (s, "    %s[t] = fm_cwd(task)\n", base_var);
          pending_dirfd = -1;
          path_seen++;
          break;
        case FM_ARG_SYMLINK_TARGET:
          /* the target text, never resolved: it goes to path2 as given */
          g_string_append_printf (s, "    fm_path2[t] = user_string_quoted($args[%u])\n", i);
          break;
        case FM_ARG_DIRFD:
          pending_dirfd = (int) i;
          break;
        case FM_ARG_FD:
          g_string_append_printf (s, "    fm_base[t] = fm_fd_path(task, $args[%u])\n", i);
          break;
        case FM_ARG_XATTR_NAME:
          g_string_append_printf (s, "    fm_text[t] = user_string_quoted($args[%u])\n", i);
          break;
        case FM_ARG_ARGV:
          g_string_append_printf (s, "    fm_text[t] = fm_argv($args[%u])\n", i);
          break;
        case FM_ARG_OPEN_HOW:
          g_string_append_printf (s, "    fm_text[t] = fm_open_how($args[%u])\n", i);
          break;
        default:
          break;
        }
    }
  g_string_append (s, "  }\n");
}

char *
fmd_stap_script_generate (const FmdOptions *options,
                          guint32           daemon_pid)
{
  GString *s = g_string_new (NULL);
  gboolean first = TRUE;

  g_return_val_if_fail (options != NULL, NULL);

  g_string_append_printf (s,
    "# filemond capture script (generated)\n"
    "global fm_want, fm_pids, fm_uids, fm_comms\n"
    "global fm_nr%%, fm_t0%%, fm_a0%%, fm_a1%%, fm_a2%%, fm_a3%%, fm_a4%%, fm_a5%%\n"
    "global fm_path%%, fm_path2%%, fm_text%%, fm_base%%, fm_base2%%\n"
    "\n"
    "function fm_forget (t:long) {\n"
    "  delete fm_nr[t]; delete fm_t0[t]; delete fm_a0[t]; delete fm_a1[t]; delete fm_a2[t]\n"
    "  delete fm_a3[t]; delete fm_a4[t]; delete fm_a5[t]; delete fm_path[t]; delete fm_path2[t]\n"
    "  delete fm_text[t]; delete fm_base[t]; delete fm_base2[t]\n"
    "}\n"
    "function fm_cwd:string (task:long) {\n"
    "  try { return string_quoted(fullpath_struct_path(task_cwd_path(task))) } catch { return \"-\" }\n"
    "}\n"
    "function fm_fd_path:string (task:long, fd:long) {\n"
    "  try {\n"
    "    file = task_fd_lookup(task, fd)\n"
    "    if (file == 0) return \"-\"\n"
    "    return string_quoted(fullpath_struct_file(task, file))\n"
    "  } catch { return \"-\" }\n"
    "}\n"
    "function fm_dir:string (task:long, dirfd:long) {\n"
    "  if (dirfd == %d) return fm_cwd(task)\n"
    "  return fm_fd_path(task, dirfd)\n"
    "}\n"
    "function fm_argv:string (argv:long) {\n"
    "  out = \"\"\n"
    "  try {\n"
    "    for (i = 0; i < %d; i++) {\n"
    "      a = user_long(argv + i * 8)\n"
    "      if (a == 0) break\n"
    "      out .= (i > 0 ? \" \" : \"\") . user_string(a)\n"
    "    }\n"
    "  } catch { }\n"
    "  return string_quoted(out)\n"
    "}\n"
    "function fm_open_how:string (how:long) {\n"
    "  try {\n"
    "    return sprintf(\"\\\"%%d %%d %%d\\\"\", user_uint64(how), user_uint64(how + 8), user_uint64(how + 16))\n"
    "  } catch { return \"-\" }\n"
    "}\n"
    "\n"
    "probe begin {\n",
    -100 /* AT_FDCWD */, FMD_STAP_ARGV_MAX);

  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);

      g_string_append_printf (s, "  fm_want[%u] = 1\n", sc->nr);
    }
  for (guint i = 0; i < options->pids->len; i++)
    g_string_append_printf (s, "  fm_pids[%u] = 1\n", g_array_index (options->pids, guint32, i));
  for (guint i = 0; i < options->uids->len; i++)
    g_string_append_printf (s, "  fm_uids[%u] = 1\n", g_array_index (options->uids, guint32, i));
  for (guint i = 0; options->comms != NULL && options->comms[i] != NULL; i++)
    {
      /* comms were validated as at most 15 bytes; quote them for the script */
      g_autofree char *escaped = g_strescape (options->comms[i], NULL);

      g_string_append_printf (s, "  fm_comms[\"%s\"] = 1\n", escaped);
    }
  g_string_append (s,
    "  printf(\"R\\n\")\n"
    "}\n\n");

  if (options->follow_children && options->pids->len > 0)
    g_string_append (s,
      "# children forked after Start are followed\n"
      "probe kprocess.create {\n"
      "  if (pid() in fm_pids) fm_pids[new_pid] = 1\n"
      "}\n\n");

  g_string_append_printf (s,
    "probe kernel.trace(\"raw_syscalls:sys_enter\") {\n"
    "  nr = $id\n"
    "  if (!(nr in fm_want)) next\n"
    "  if (pid() == %u || pid() == stp_pid()) next\n",
    daemon_pid);
  emit_filters (s, options);
  g_string_append (s,
    "  t = tid()\n"
    "  task = task_current()\n"
    "  fm_nr[t] = nr\n"
    "  fm_t0[t] = gettimeofday_ns()\n"
    "  fm_a0[t] = " ARG (0) "; fm_a1[t] = " ARG (1) "; fm_a2[t] = " ARG (2) "\n"
    "  fm_a3[t] = " ARG (3) "; fm_a4[t] = " ARG (4) "; fm_a5[t] = " ARG (5) "\n");

  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);
      gboolean reads = FALSE;

      for (guint a = 0; a < sc->n_args; a++)
        if (sc->args[a] == FM_ARG_PATH || sc->args[a] == FM_ARG_PATH2 ||
            sc->args[a] == FM_ARG_SYMLINK_TARGET || sc->args[a] == FM_ARG_FD ||
            sc->args[a] == FM_ARG_XATTR_NAME || sc->args[a] == FM_ARG_ARGV ||
            sc->args[a] == FM_ARG_OPEN_HOW)
          reads = TRUE;
      if (!reads)
        continue;
      if (!first)
        g_string_append (s, "  else\n");
      emit_entry_reads (s, sc);
      first = FALSE;
    }
  g_string_append (s, "}\n\n");

  g_string_append_printf (s,
    "probe kernel.trace(\"raw_syscalls:sys_exit\") {\n"
    "  t = tid()\n"
    "  if (!(t in fm_nr)) next\n"
    "  ret = $ret\n"
    "%s"
    "  printf(\"E\\t%%d\\t%%d\\t%%d\\t%%d\\t%%d\\t%%d\\t%%d\\t%%d\\t%%s\\t%%d\\t%%d\\t%%d\\t%%d\\t%%d\\t%%d\\t%%s\\t%%s\\t%%s\\t%%s\\t%%s\\n\",\n"
    "         fm_nr[t], gettimeofday_ns(), gettimeofday_ns() - fm_t0[t], pid(), ppid(), t, uid(), ret,\n"
    "         string_quoted(execname()), fm_a0[t], fm_a1[t], fm_a2[t], fm_a3[t], fm_a4[t], fm_a5[t],\n"
    "         t in fm_path ? fm_path[t] : \"-\", t in fm_path2 ? fm_path2[t] : \"-\",\n"
    "         t in fm_text ? fm_text[t] : \"-\", t in fm_base ? fm_base[t] : \"-\",\n"
    "         t in fm_base2 ? fm_base2[t] : \"-\")\n"
    "  fm_forget(t)\n"
    "}\n",
    options->failed_only ?
      "  if (ret >= 0) {\n"
      "    fm_forget(t)\n"
      "    next\n"
      "  }\n" : "");
  return g_string_free (s, FALSE);
}
