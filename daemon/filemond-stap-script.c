/* filemond-stap-script.c: generates the SystemTap script of a capture; the protocol it
 * prints is described in filemond-stap-script.h.
 *
 * The script uses the two raw_syscalls tracepoints rather than one tapset probe per
 * syscall: the syscall numbers, argument kinds and string arguments all come from the one
 * table in common/, the tapsets' per-syscall variables differ from probe to probe, and
 * SystemTap 4.8 has no tapset probe for openat2 or fchmodat2 (the syscalls:sys_enter_X
 * events are not tracepoints SystemTap can name).
 *
 * Entry keeps the call's number, time and raw arguments per thread, in maps of numbers
 * only; the exit reads the strings from the saved pointers and prints one record. SystemTap
 * preallocates every map entry at its full size, so a map of strings costs MAXSTRINGLEN
 * bytes an entry: only the calls whose strings are gone or changed at their return keep
 * strings from entry (close: the fd is released; chdir: the cwd moved; exec: the address
 * space is replaced and close-on-exec dirfds are closed), in one small map.
 *
 * Strings are escaped with string_quoted() (the runtime's _stp_text_str): C escapes,
 * \ooo for other bytes, \uXXXX for UTF-8, and "..." after the closing quote when cut.
 * The parser decodes it back to the exact bytes, and no byte of a name can end a field
 * or a line. user_string_n_quoted() would also cut at a length it counts in escaped
 * characters, halfway through an escape; the script reads the raw string once and caps
 * the quoted form itself (fm_q), cutting the raw bytes so that no escape is split.
 */
#include "config.h"

#include "filemond-stap-script.h"

#include <string.h>

#include "fm-syscalls.h"

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

/* The calls whose strings must be read at entry (see the file comment). */
static gboolean
reads_at_entry (const FmSyscall *sc)
{
  for (guint i = 0; i < sc->n_args; i++)
    if (sc->args[i] == FM_ARG_ARGV)
      return TRUE;
  return g_str_equal (sc->name, "close") || g_str_equal (sc->name, "chdir");
}

static gboolean
has_strings (const FmSyscall *sc)
{
  for (guint i = 0; i < sc->n_args; i++)
    switch (sc->args[i])
      {
      case FM_ARG_PATH: case FM_ARG_PATH2: case FM_ARG_SYMLINK_TARGET: case FM_ARG_FD:
      case FM_ARG_XATTR_NAME: case FM_ARG_ARGV: case FM_ARG_OPEN_HOW:
        return TRUE;
      default:
        break;
      }
  return FALSE;
}

/* Statements that set sp, sp2, sx, sb, sb2 from the arguments a0..a5 of @sc. */
static void
emit_reads (GString *s, const FmSyscall *sc)
{
  int pending_dirfd = -1;

  for (guint i = 0; i < sc->n_args; i++)
    {
      switch (sc->args[i])
        {
        case FM_ARG_PATH:
        case FM_ARG_PATH2:
          {
            gboolean second = sc->args[i] == FM_ARG_PATH2;

            /* a relative (or empty, AT_EMPTY_PATH) name needs its base: the dirfd
             * before it, or the cwd; an absolute one spares the dentry walk */
            g_string_append_printf (s,
              "      try {\n"
              "        r = user_string(a%u)\n"
              "        %s = fm_q(r, %d)\n"
              "        if (substr(r, 0, 1) != \"/\") %s = ",
              i, second ? "sp2" : "sp", FMD_STAP_CAP_PATH, second ? "sb2" : "sb");
            if (pending_dirfd >= 0)
              g_string_append_printf (s, "fm_dir(task, a%d)\n", pending_dirfd);
            else
              g_string_append (s, "fm_cwd(task)\n");
            g_string_append (s, "      } catch { }\n");
            pending_dirfd = -1;
            break;
          }
        case FM_ARG_SYMLINK_TARGET:
          /* the target text, never resolved: it goes to path2 as given */
          g_string_append_printf (s, "      try { sp2 = fm_q(user_string(a%u), %d) } catch { }\n",
                                  i, FMD_STAP_CAP_PATH);
          break;
        case FM_ARG_DIRFD:
          pending_dirfd = (int) i;
          break;
        case FM_ARG_FD:
          g_string_append_printf (s, "      sb = fm_fd_path(task, a%u)\n", i);
          break;
        case FM_ARG_XATTR_NAME:
          g_string_append_printf (s, "      try { sx = fm_q(user_string(a%u), %d) } catch { }\n",
                                  i, FMD_STAP_CAP_TEXT);
          break;
        case FM_ARG_ARGV:
          g_string_append_printf (s, "      sx = fm_argv(a%u)\n", i);
          break;
        case FM_ARG_OPEN_HOW:
          g_string_append_printf (s, "      sx = fm_open_how(a%u)\n", i);
          break;
        default:
          break;
        }
    }
}

/* The if/else chain over the syscalls of @options read at entry (or, !@entry, at exit), each reading its
 * strings; "rec" holds the five string fields after it. */
static void
emit_string_chain (GString *s, const FmdOptions *options, gboolean entry)
{
  gboolean first = TRUE;

  g_string_append (s,
    "    task = task_current()\n"
    "    sp = \"-\"; sp2 = \"-\"; sx = \"-\"; sb = \"-\"; sb2 = \"-\"\n");
  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);

      if (!has_strings (sc) || reads_at_entry (sc) != entry)
        continue;
      g_string_append_printf (s, "    %sif (nr == %u) {\n", first ? "" : "else ", sc->nr);
      emit_reads (s, sc);
      g_string_append (s, "    }\n");
      first = FALSE;
    }
  g_string_append (s, "    rec = sp . \"\\t\" . sp2 . \"\\t\" . sx . \"\\t\" . sb . \"\\t\" . sb2\n");
}

/* "nr == A || nr == B" over the selected calls read at entry; NULL when there are none. */
static char *
entry_condition (const FmdOptions *options)
{
  GString *c = g_string_new (NULL);

  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);

      if (reads_at_entry (sc))
        g_string_append_printf (c, "%snr == %u", c->len > 0 ? " || " : "", sc->nr);
    }
  if (c->len == 0)
    {
      g_string_free (c, TRUE);
      return NULL;
    }
  return g_string_free (c, FALSE);
}

static const char functions[] =
  "# The quoted form of s in at most cap bytes: cut, it ends in \"...\" after the quote\n"
  "# (as SystemTap marks a cut). The raw bytes are cut, never an escape.\n"
  "function fm_q:string (s:string, cap:long) {\n"
  "  q = string_quoted(s)\n"
  "  if (strlen(q) <= cap) return q\n"
  "  q = string_quoted(substr(s, 0, cap - 6))\n"
  "  if (strlen(q) > cap - 3) q = string_quoted(substr(s, 0, (cap - 6) / 4))\n"
  "  return q . \"...\"\n"
  "}\n"
  "function fm_cwd:string (task:long) {\n"
  "  try { return fm_q(fullpath_struct_path(task_cwd_path(task)), %d) } catch { return \"-\" }\n"
  "}\n"
  "function fm_fd_path:string (task:long, fd:long) {\n"
  "  try {\n"
  "    file = task_fd_lookup(task, fd)\n"
  "    if (file == 0) return \"-\"\n"
  "    return fm_q(fullpath_struct_file(task, file), %d)\n"
  "  } catch { return \"-\" }\n"
  "}\n"
  "function fm_dir:string (task:long, dirfd:long) {\n"
  "  if (dirfd == -100) return fm_cwd(task)   # AT_FDCWD\n"
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
  "  return fm_q(out, %d)\n"
  "}\n"
  "function fm_open_how:string (how:long) {\n"
  "  try {\n"
  "    return sprintf(\"\\\"%%d %%d %%d\\\"\", user_uint64(how), user_uint64(how + 8), user_uint64(how + 16))\n"
  "  } catch { return \"-\" }\n"
  "}\n"
  "function fm_forget (t:long) {\n"
  "  delete fm_nr[t]; delete fm_t0[t]; delete fm_a0[t]; delete fm_a1[t]; delete fm_a2[t]\n"
  "  delete fm_a3[t]; delete fm_a4[t]; delete fm_a5[t]%s\n"
  "}\n\n";

char *
fmd_stap_script_generate (const FmdOptions *options)
{
  GString *s = g_string_new (NULL);
  g_autofree char *entry_cond = NULL;
  gboolean follow = options->follow_children && options->pids->len > 0;

  g_return_val_if_fail (options != NULL, NULL);

  entry_cond = entry_condition (options);
  /* maps of numbers wrap (%): a thread that never returned is forgotten in time; all of
   * them are written and deleted together, so they forget the same threads */
  g_string_append_printf (s,
    "# filemond capture script (generated)\n"
    "global %s = 0   # the daemon's pid, from stap -G\n"
    "global fm_want, fm_uids, fm_comms, fm_pids[%d]\n"
    "global fm_nr%%[%d], fm_t0%%[%d], fm_a0%%[%d], fm_a1%%[%d], fm_a2%%[%d]\n"
    "global fm_a3%%[%d], fm_a4%%[%d], fm_a5%%[%d]\n",
    FMD_STAP_DAEMON_GLOBAL, follow ? 65536 : 2048,
    FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX,
    FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX,
    FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX);
  /* declared only when written: a map never assigned has no type to check against */
  if (entry_cond != NULL)
    g_string_append_printf (s, "global fm_s%%[%d]   # the strings of the calls read at entry\n",
                            FMD_STAP_INFLIGHT_STRINGS_MAX);
  g_string_append_c (s, '\n');
  g_string_append_printf (s, functions, FMD_STAP_CAP_BASE, FMD_STAP_CAP_BASE,
                          FMD_STAP_ARGV_MAX, FMD_STAP_CAP_TEXT,
                          entry_cond != NULL ? "; delete fm_s[t]" : "");

  g_string_append (s, "probe begin {\n");
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

  if (follow)
    g_string_append (s,
      "# processes forked after Start are followed, and forgotten when they end\n"
      "probe kprocess.create {\n"
      "  if (new_tid == new_pid && pid() in fm_pids) fm_pids[new_pid] = 1\n"
      "}\n"
      "probe kernel.trace(\"sched:sched_process_exit\") {\n"
      "  if (tid() == pid()) delete fm_pids[pid()]\n"
      "}\n\n");

  /* the daemon, its child stap, stapio and the staprun it starts to unload the module */
  g_string_append (s,
    "probe kernel.trace(\"raw_syscalls:sys_enter\") {\n"
    "  nr = $id\n"
    "  if (!(nr in fm_want)) next\n"
    "  p = pid(); pp = ppid(); io = stp_pid()\n"
    "  if (p == " FMD_STAP_DAEMON_GLOBAL " || pp == " FMD_STAP_DAEMON_GLOBAL " || p == io || pp == io) next\n");
  emit_filters (s, options);
  g_string_append (s,
    "  t = tid()\n"
    "  a0 = $args[0]; a1 = $args[1]; a2 = $args[2]; a3 = $args[3]; a4 = $args[4]; a5 = $args[5]\n");
  if (entry_cond != NULL)
    {
      g_string_append_printf (s, "  if (%s) {\n", entry_cond);
      emit_string_chain (s, options, TRUE);
      g_string_append (s, "    fm_s[t] = rec\n  }\n");
    }
  g_string_append (s,
    "  fm_t0[t] = gettimeofday_ns()\n"
    "  fm_a0[t] = a0; fm_a1[t] = a1; fm_a2[t] = a2; fm_a3[t] = a3; fm_a4[t] = a4; fm_a5[t] = a5\n"
    "  # last: an entry cut short by an error leaves nothing for the exit to print\n"
    "  fm_nr[t] = nr\n"
    "}\n\n");

  g_string_append (s,
    "probe kernel.trace(\"raw_syscalls:sys_exit\") {\n"
    "  t = tid()\n"
    "  if (!(t in fm_nr)) next\n"
    "  nr = fm_nr[t]\n"
    "  # an entry left by a thread that never returned, its tid now reused: not this call\n"
    "  try { cur = _stp_syscall_nr() } catch { cur = -1 }\n"
    "  if (cur != nr) { fm_forget(t); next }\n"
    "  ret = $ret\n");
  if (options->failed_only)
    g_string_append (s, "  if (ret >= 0) { fm_forget(t); next }\n");
  g_string_append (s,
    "  a0 = fm_a0[t]; a1 = fm_a1[t]; a2 = fm_a2[t]; a3 = fm_a3[t]; a4 = fm_a4[t]; a5 = fm_a5[t]\n");
  if (entry_cond != NULL)
    g_string_append_printf (s,
      "  if (%s) {\n"
      "    # forgotten when its map wrapped: no record rather than one without its strings\n"
      "    if (!(t in fm_s)) { fm_forget(t); next }\n"
      "    rec = fm_s[t]\n"
      "  } else {\n", entry_cond);
  else
    g_string_append (s, "  {\n");
  emit_string_chain (s, options, FALSE);
  g_string_append (s,
    "  }\n"
    "  now = gettimeofday_ns()\n"
    "  printf(\"E\\t%d\\t%d\\t%d\\t%d\\t%d\\t%d\\t%d\\t%d\\t%s\\t%d\\t%d\\t%d\\t%d\\t%d\\t%d\\t%s\\n\",\n"
    "         nr, now, now - fm_t0[t], pid(), ppid(), t, uid(), ret, string_quoted(execname()),\n"
    "         a0, a1, a2, a3, a4, a5, rec)\n"
    "  fm_forget(t)\n"
    "}\n");
  return g_string_free (s, FALSE);
}
