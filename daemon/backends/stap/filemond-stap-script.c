/* filemond-stap-script.c: generates the SystemTap script of a capture; the protocol it
 * prints is described in filemond-stap-script.h.
 *
 * The probes are kprobes on the syscalls' own entry points (__x64_sys_X), one entry and
 * one return probe per traced syscall, rather than tracepoints or the DWARF syscall
 * tapsets:
 * - SystemTap 5.1 cannot resolve any tracepoint on kernel 6.12 (its tracepoint query
 *   modules do not compile there), and raw_syscalls:sys_enter has no $args anyway;
 * - a kprobe needs only the kernel's symbol table, no debuginfo, and resolves in
 *   milliseconds where a DWARF probe makes pass 2 read the whole vmlinux debuginfo;
 * - since 4.17 every x86_64 syscall takes one struct pt_regs * whose layout is fixed by
 *   the entry code, so one table-driven reader of the six argument registers serves every
 *   syscall alike, while the tapsets' variables differ from probe to probe (and 4.8 has
 *   no openat2 or fchmodat2 probe);
 * - a syscall missing from the running kernel (fchmodat2 before 6.6) is an optional probe
 *   ("?"), not an error.
 * What still needs the kernel's debuginfo is the path of a cwd, dirfd or fd: SystemTap's
 * dentry walk (task_dentry_path) reads struct dentry and struct mount through @cast, and
 * calling the kernel's d_path() from a probe is not safe (SystemTap's own note); so does
 * reading a new child's pid (task_pid) when following children. The backend says so
 * when the debuginfo is missing (filemond-backend-stap.c).
 *
 * Entry keeps the call's number, time and raw arguments per thread, in maps of numbers
 * only; the return reads the strings from the saved pointers and prints one record. A
 * return probe fires only for a call whose entry it pairs with: kretprobes allocate an
 * instance per call in flight (maxactive), so a thread never sees another call's return.
 * SystemTap preallocates every map entry at its full size, so a map of strings costs
 * MAXSTRINGLEN bytes an entry: only the calls whose strings are gone or changed at their
 * return keep strings from entry (close: the fd is released; chdir: the cwd moved; exec:
 * the address space is replaced and close-on-exec dirfds are closed), in one small map.
 *
 * Strings are escaped with string_quoted() (the runtime's _stp_text_str): C escapes,
 * \ooo for other bytes, \uXXXX for UTF-8, and "..." after the closing quote when cut
 * (before the opening quote for a path, which keeps its end: fm_qe). The tapset's walk
 * (task_dentry_path) prepends each component with sprintf, which cuts at MAXSTRINGLEN
 * keeping the start: a directory deeper than that (8 KiB) loses its deepest components
 * there, before fm_qe sees it, and no mark says so.
 * The parser decodes it back to the exact bytes, and no byte of a name can end a field
 * or a line. user_string_n_quoted() would also cut at a length it counts in escaped
 * characters, halfway through an escape; the script reads the raw string once and caps
 * the quoted form itself (fm_q), cutting the raw bytes so that no escape is split.
 */
#include "config.h"

#include "filemond-stap-script.h"

#include <string.h>

#include "fm-event-fields.h"
#include "fm-syscalls.h"

/* Whether every string of @texts is printable ASCII, but for " and \ unless @quotable. */
static gboolean
all_plain (char **texts, gboolean quotable)
{
  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    for (const char *c = texts[i]; *c != '\0'; c++)
      if (*c < 0x20 || *c > 0x7e || (!quotable && (*c == '"' || *c == '\\')))
        return FALSE;
  return TRUE;
}

/* Whether the script can compare the path prefixes itself. It compares the quoted forms
 * of the paths (string_quoted), in which printable ASCII other than " and \ stands for
 * itself: a prefix made of such bytes alone is found there as it is. A prefix with other
 * bytes (UTF-8 names) leaves every prefix to the session. */
static gboolean
tests_prefixes (const FmdOptions *options)
{
  return options->path_prefixes[0] != NULL && all_plain (options->path_prefixes, FALSE);
}

/* The path the parser makes of a name and its base (filemond-stap-parser.c: "-" and an
 * unread 0x... are empty, an fd's or an empty name's path is the base, a relative name is
 * base/name, a base "/" giving "/name") below one of the prefixes, decided on the quoted
 * forms. Passed when it cannot be told there: a string cut short. */
static const char prefix_functions[] =
  "function fm_unset:long (q:string) {\n"
  "  return q == \"-\" || substr(q, 0, 2) == \"0x\"\n"
  "}\n"
  "function fm_cut:long (q:string) {\n"
  "  # cut: \"...\" follows, or (a path that kept its end) comes first\n"
  "  return substr(q, 0, 1) == \".\" || substr(q, strlen(q) - 1, 1) != \"\\\"\"\n"
  "}\n"
  "# q (quoted) from its byte at, up to the end of a component: does it start with r?\n"
  "function fm_starts:long (q:string, at:long, r:string) {\n"
  "  n = strlen(r)\n"
  "  if (substr(q, at, n) != r) return 0\n"
  "  c = substr(q, at + n, 1)\n"
  "  return c == \"/\" || c == \"\\\"\"\n"
  "}\n"
  "function fm_below:long (q:string) {\n"
  "  if (fm_unset(q)) return 0\n"
  "  if (fm_cut(q)) return 1\n"
  "  foreach (p in fm_prefixes)\n"
  "    if (p == \"\\\"/\" || fm_starts(q, 0, p)) return 1   # \"/ is the root\n"
  "  return 0\n"
  "}\n"
  "# the relative name sp against base sb, which no prefix holds: is base/name below one?\n"
  "function fm_below_rel:long (sp:string, sb:string) {\n"
  "  if (fm_cut(sp) || fm_cut(sb)) return 1\n"
  "  b = substr(sb, 0, strlen(sb) - 1)   # the base without its closing quote\n"
  "  m = strlen(b)\n"
  "  foreach (p in fm_prefixes) {\n"
  "    if (b == \"\\\"/\") {   # the root: the path is / and the name\n"
  "      if (fm_starts(sp, 1, substr(p, 2, strlen(p) - 2))) return 1\n"
  "    } else if (substr(p, 0, m) == b && substr(p, m, 1) == \"/\") {\n"
  "      if (fm_starts(sp, 1, substr(p, m + 1, strlen(p) - m - 1))) return 1\n"
  "    }\n"
  "  }\n"
  "  return 0\n"
  "}\n"
  "function fm_wanted:long (sp:string, sb:string) {\n"
  "  if (fm_unset(sp) || sp == \"\\\"\\\"\") return fm_below(sb)\n"
  "  if (substr(sp, 0, 2) == \"\\\"/\") return fm_below(sp)\n"
  "  if (fm_unset(sb)) return 0\n"
  "  return fm_below(sb) || fm_below_rel(sp, sb)\n"
  "}\n\n";

static gboolean
reads_at_entry (const FmSyscall *sc)
{
  return (sc->traits & FM_TRAIT_READ_AT_ENTRY) != 0;
}

/* The calls read at entry whose path is a string (exec, chdir): a string whose page is
 * not resident yet cannot be read from a probe, which must not fault. */
static gboolean
entry_path_string (const FmSyscall *sc)
{
  if (!reads_at_entry (sc))
    return FALSE;
  for (guint i = 0; i < sc->n_args; i++)
    if (sc->args[i] == FM_ARG_PATH)
      return TRUE;
  return FALSE;
}

static gboolean
has_strings (const FmSyscall *sc)
{
  for (guint i = 0; i < sc->n_args; i++)
    switch (sc->args[i])
      {
      case FM_ARG_PATH: case FM_ARG_PATH2: case FM_ARG_SYMLINK_TARGET: case FM_ARG_FD:
      case FM_ARG_FD2: case FM_ARG_MOUNT_SOURCE:
        return TRUE;
      default:
        if (fm_arg_kind_text (sc->args[i]) != FM_ARG_TEXT_NONE)
          return TRUE;
        break;
      }
  return FALSE;
}

/* The statement that sets sx from argument a@i of @kind, if it carries text. */
static void
emit_text_read (GString *s, FmArgKind kind, guint i)
{
  switch (fm_arg_kind_text (kind))
    {
    case FM_ARG_TEXT_STRING:
      g_string_append_printf (s, "      try { sx = fm_q(user_string(a%u), %d) } catch { }\n",
                              i, FMD_STAP_CAP_TEXT);
      break;
    case FM_ARG_TEXT_ARGV:
      g_string_append_printf (s, "      sx = fm_argv(a%u)\n", i);
      break;
    case FM_ARG_TEXT_STRUCT:
      g_string_append_printf (s, "      sx = fm_struct3(a%u)\n", i);
      break;
    case FM_ARG_TEXT_NONE:
    default:
      break;
    }
}

/* The base of a relative name: its dirfd a@dirfd, or the cwd (dirfd < 0). */
static void
emit_base (GString *s, int dirfd)
{
  if (dirfd >= 0)
    g_string_append_printf (s, "fm_dir(task, a%d)\n", dirfd);
  else
    g_string_append (s, "fm_cwd(task)\n");
}

/* RESOLVE_IN_ROOT (fm_in_root of the open_how a@how) puts every name below the dirfd, "/"
 * too: a success is the file it opened (exact where ".." or a symlink in the name would
 * read as leaving that root), a failure the name below the dirfd. Read at the return
 * only (ret): openat2 is not a call read at entry. Followed by the plain read's "else". */
static void
emit_in_root_read (GString *s, guint path, int dirfd, int how)
{
  g_string_append_printf (s,
    "if (fm_in_root(a%d)) {\n"
    "        if (ret >= 0) sp = fm_fd_path(task, ret)\n"
    "        else try {\n"
    "          sp = fm_qs(fm_unrooted(user_string(a%u)), %d)\n"
    "          sb = ", how, path, FMD_STAP_CAP_PATH);
  emit_base (s, dirfd);
  g_string_append (s, "        } catch { }\n      } else ");
}

/* Statements that set sp, sp2, sx, sb, sb2 from the arguments a0..a5 of @sc. A call with
 * a struct and a string puts both in sx: the words, a space, the string (the parser splits
 * them, fm_syscall_struct_and_string). */
static void
emit_reads (GString *s, const FmSyscall *sc)
{
  int pending_dirfd = -1;
  guint struct_arg = 0, string_arg = 0;
  gboolean pair = fm_syscall_struct_and_string (sc, &struct_arg, &string_arg);

  for (guint i = 0; i < sc->n_args; i++)
    {
      if (pair && (i == struct_arg || i == string_arg))
        continue;
      switch (sc->args[i])
        {
        case FM_ARG_PATH:
        case FM_ARG_PATH2:
          {
            gboolean second = sc->args[i] == FM_ARG_PATH2;
            int how = fm_syscall_arg_index (sc, FM_ARG_OPEN_HOW);

            g_string_append (s, "      ");
            if (!second && how >= 0)
              emit_in_root_read (s, i, pending_dirfd, how);
            /* a relative (or empty, AT_EMPTY_PATH) name needs its base: the dirfd
             * before it, or the cwd; an absolute one spares the dentry walk */
            g_string_append_printf (s,
              "try {\n"
              "        r = user_string(a%u)\n"
              "        %s = fm_qs(r, %d)\n"
              "        if (substr(r, 0, 1) != \"/\") %s = ",
              i, second ? "sp2" : "sp", FMD_STAP_CAP_PATH, second ? "sb2" : "sb");
            emit_base (s, pending_dirfd);
            g_string_append (s, "      } catch { }\n");
            pending_dirfd = -1;
            break;
          }
        case FM_ARG_SYMLINK_TARGET:
        case FM_ARG_MOUNT_SOURCE:
          /* text never resolved (a symlink's target, a mount's source): path2 as given */
          g_string_append_printf (s, "      try { sp2 = fm_q(user_string(a%u), %d) } catch { }\n",
                                  i, FMD_STAP_CAP_PATH);
          break;
        case FM_ARG_DIRFD:
          pending_dirfd = (int) i;
          break;
        case FM_ARG_FD:
          g_string_append_printf (s, "      sb = fm_fd_path(task, a%u)\n", i);
          break;
        case FM_ARG_FD2:
          g_string_append_printf (s, "      sb2 = fm_fd_path(task, a%u)\n", i);
          break;
        default:
          emit_text_read (s, sc->args[i], i);
          break;
        }
    }
  if (pair)
    g_string_append_printf (s,
      "      sn = \"\"\n"
      "      try { sn = user_string(a%u) } catch { }\n"
      "      sx = fm_q(fm_words3(a%u) . \" \" . sn, %d)\n",
      string_arg, struct_arg, FMD_STAP_CAP_TEXT);
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

/* "nr == A || nr == B" over the selected calls for which @pick holds; NULL when there are
 * none. */
static char *
nr_condition (const FmdOptions *options, gboolean (*pick) (const FmSyscall *))
{
  GString *c = g_string_new (NULL);

  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);

      if (pick (sc))
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
  "# The same for a path, which keeps its end: cut, it starts with \"...\" before the quote,\n"
  "# and the parser shortens it by the rule of both backends (fm-path.h), root and name kept.\n"
  "function fm_qe:string (s:string, cap:long) {\n"
  "  q = string_quoted(s)\n"
  "  if (strlen(q) <= cap) return q\n"
  "  n = strlen(s)\n"
  "  q = string_quoted(substr(s, n - (cap - 6), cap - 6))\n"
  "  if (strlen(q) > cap - 3) q = string_quoted(substr(s, n - (cap - 6) / 4, (cap - 6) / 4))\n"
  "  return \"...\" . q\n"
  "}\n"
  "# A path string as the process passed it: one the kernel refuses for its length\n"
  "# (ENAMETOOLONG, PATH_MAX bytes or more) is read no further by the kernel either, and\n"
  "# keeps its beginning, as the bpf backend shows it.\n"
  "function fm_qs:string (s:string, cap:long) {\n"
  "  if (strlen(s) >= %d) return fm_q(s, cap)\n"
  "  return fm_qe(s, cap)\n"
  "}\n"
  "# The process's name: its thread group leader's comm, as ps shows it. The calling\n"
  "# thread's own (execname) is often a worker's name, which neither a reader of the\n"
  "# capture nor a comm= filter means.\n"
  "function fm_comm:string () {\n"
  "  return task_execname(@cast(task_current(), \"task_struct\", \"kernel\")->group_leader)\n"
  "}\n"
  "function fm_cwd:string (task:long) {\n"
  "  try { return fm_qe(fullpath_struct_path(task_cwd_path(task)), %d) } catch { return \"-\" }\n"
  "}\n"
  "function fm_fd_path:string (task:long, fd:long) {\n"
  "  try {\n"
  "    file = task_fd_lookup(task, fd)\n"
  "    if (file == 0) return \"-\"\n"
  "    return fm_qe(fullpath_struct_file(task, file), %d)\n"
  "  } catch { return \"-\" }\n"
  "}\n"
  "function fm_dir:string (task:long, dirfd:long) {\n"
  "  # AT_FDCWD (-100), as an int: the register's upper half is not part of it\n"
  "  if ((dirfd & 0xffffffff) == 0xffffff9c) return fm_cwd(task)\n"
  "  return fm_fd_path(task, dirfd)\n"
  "}\n"
  "function fm_exe:string (task:long) {\n"
  "  try {\n"
  "    return fm_qe(fullpath_struct_file(task, @cast(task, \"task_struct\", \"kernel\")->mm->exe_file), %d)\n"
  "  } catch { return \"-\" }\n"
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
  "# the first three words of a struct (open_how, struct flock), for the detail decoder\n"
  "function fm_struct3:string (p:long) {\n"
  "  try {\n"
  "    return sprintf(\"\\\"%%d %%d %%d\\\"\", user_uint64(p), user_uint64(p + 8), user_uint64(p + 16))\n"
  "  } catch { return \"-\" }\n"
  "}\n"
  "# the same words unquoted, to go before a string; unreadable, words the decoder refuses\n"
  "function fm_words3:string (p:long) {\n"
  "  try {\n"
  "    return sprintf(\"%%d %%d %%d\", user_uint64(p), user_uint64(p + 8), user_uint64(p + 16))\n"
  "  } catch { return \"- - -\" }\n"
  "}\n"
  "# openat2's open_how asks for RESOLVE_IN_ROOT: \"/\" and \"..\" stay below the dirfd\n"
  "function fm_in_root:long (how:long) {\n"
  "  try { return (user_uint64(how + 16) & 0x10) != 0 } catch { return 0 }\n"
  "}\n"
  "# a name below such a root: its leading slashes go, the dirfd is its base\n"
  "function fm_unrooted:string (r:string) {\n"
  "  while (substr(r, 0, 1) == \"/\") r = substr(r, 1, strlen(r) - 1)\n"
  "  return r == \"\" ? \".\" : r\n"
  "}\n"
  "function fm_forget (t:long) {\n"
  "  delete fm_nr[t]; delete fm_t0[t]; delete fm_a0[t]; delete fm_a1[t]; delete fm_a2[t]\n"
  "  delete fm_a3[t]; delete fm_a4[t]; delete fm_a5[t]%s\n"
  "}\n\n";

/* The x86_64 struct pt_regs offsets of the six syscall argument registers (di, si, dx,
 * r10, r8, r9): the layout the entry code pushes, the same in every kernel. */
static const guint arg_offsets[FM_SYSCALL_MAX_ARGS] = { 112, 104, 96, 56, 72, 64 };

/* The calls that touch no file (an anonymous mmap) end at entry: no record. */
static void
emit_skips (GString *s, const FmdOptions *options)
{
  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);

      for (guint j = 0; j < sc->n_args; j++)
        {
          guint64 bits = fm_arg_kind_skip_bits (sc->args[j]);

          if (bits != 0)
            g_string_append_printf (s, "  if (nr == %u && (a%u & 0x%" G_GINT64_MODIFIER "x)) return 0\n",
                                    sc->nr, j, bits);
        }
    }
}

/* fm_enter(nr, regs): the entry of every traced call; filters, then keeps what the
 * return needs. Its value means nothing: SystemTap has no "return" without one, and
 * `next` in a function does not end the probe but tries the function's next overload. */
static void
emit_enter (GString *s, const FmdOptions *options, const char *entry_cond)
{
  /* the daemon, its child stap, stapio and the staprun it starts to unload the module */
  g_string_append (s,
    "function fm_enter:long (nr:long, regs:long) {\n"
    "  p = pid(); pp = ppid(); io = stp_pid()\n"
    "  if (p == " FMD_STAP_DAEMON_GLOBAL " || pp == " FMD_STAP_DAEMON_GLOBAL " || p == io || pp == io) return 0\n"
    "  if (fm_has_pids) {\n"
    "    # a child forked before its parent was known (kprocess.create missed it) still counts\n"
    "    if (fm_follow && !(p in fm_pids) && pp in fm_pids) fm_pids[p] = 1\n"
    "    if (!(p in fm_pids)) return 0\n"
    "  }\n"
    "  if (fm_has_uids && !(uid() in fm_uids)) return 0\n"
    "  if (fm_has_comms && !(fm_comm() in fm_comms)) return 0\n"
    "  t = tid()\n");
  for (guint i = 0; i < FM_SYSCALL_MAX_ARGS; i++)
    g_string_append_printf (s, "  a%u = kernel_long(regs + %u)\n", i, arg_offsets[i]);
  emit_skips (s, options);
  if (entry_cond != NULL)
    {
      g_string_append_printf (s, "  if (%s) {\n", entry_cond);
      emit_string_chain (s, options, TRUE);
      /* a path string unread at entry is read again at the return */
      g_string_append (s,
        "    if (fm_has_prefixes && !(sp == \"-\" && sb == \"-\") && !fm_wanted(sp, sb) && !fm_wanted(sp2, sb2)) return 0\n"
        "    fm_s[t] = rec\n  }\n");
    }
  g_string_append (s,
    "  fm_t0[t] = gettimeofday_ns()\n"
    "  fm_a0[t] = a0; fm_a1[t] = a1; fm_a2[t] = a2; fm_a3[t] = a3; fm_a4[t] = a4; fm_a5[t] = a5\n"
    "  # last: an entry cut short by an error leaves nothing for the return to print\n"
    "  fm_nr[t] = nr\n"
    "}\n\n");
}

/* fm_exit(nr, ret): the return of every traced call; prints its record. */
static void
emit_exit (GString *s, const FmdOptions *options, const char *entry_cond)
{
  g_autofree char *path_cond = nr_condition (options, entry_path_string);

  g_string_append (s,
    "function fm_exit:long (nr:long, ret:long) {\n"
    "  t = tid()\n"
    "  if (!(t in fm_nr)) return 0\n"
    "  # an entry left by a call whose return was missed, or by a thread that never\n"
    "  # returned and whose tid is reused: not this call\n"
    "  if (fm_nr[t] != nr) { fm_forget(t); return 0 }\n");
  g_string_append (s, "  if (fm_failed_only && ret >= 0) { fm_forget(t); return 0 }\n");
  g_string_append (s,
    "  a0 = fm_a0[t]; a1 = fm_a1[t]; a2 = fm_a2[t]; a3 = fm_a3[t]; a4 = fm_a4[t]; a5 = fm_a5[t]\n");
  if (entry_cond != NULL)
    g_string_append_printf (s,
      "  if (%s) {\n"
      "    # forgotten when its map wrapped: no record rather than one without its strings\n"
      "    if (!(t in fm_s)) { fm_forget(t); return 0 }\n"
      "    rec = fm_s[t]\n", entry_cond);
  if (path_cond != NULL)
    {
      g_string_append_printf (s,
        "    # a path string unread at entry: its page was not resident and a probe cannot\n"
        "    # fault it in; the call has read it since. A failed call left the memory, cwd\n"
        "    # and dirfd as they were: read it again. After a successful one the path is\n"
        "    # the new cwd (chdir) or the new program's file (exec: the old memory is gone).\n"
        "    if ((%s) && substr(rec, 0, 1) == \"-\") {\n"
        "      if (ret < 0) {\n", path_cond);
      emit_string_chain (s, options, TRUE);
      g_string_append (s, "      } else {\n        task = task_current()\n");
      for (guint i = 0, n = 0; i < options->syscalls->len; i++)
        {
          const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);

          if (entry_path_string (sc))
            g_string_append_printf (s,
              "        %sif (nr == %u) rec = %s . substr(rec, 1, strlen(rec) - 1)\n",
              n++ > 0 ? "else " : "", sc->nr,
              g_str_equal (sc->name, "chdir") ? "fm_cwd(task)" : "fm_exe(task)");
        }
      g_string_append (s, "      }\n    }\n");
    }
  if (entry_cond != NULL)
    g_string_append (s, "  } else {\n");
  else
    g_string_append (s, "  {\n");
  emit_string_chain (s, options, FALSE);
  g_string_append (s,
    "    if (fm_has_prefixes && !fm_wanted(sp, sb) && !fm_wanted(sp2, sb2)) { fm_forget(t); return 0 }\n");
  g_string_append (s,
    "  }\n"
    "  now = gettimeofday_ns()\n"
    "  printf(\"E\\t%d\\t%d\\t%d\\t%d\\t%d\\t%d\\t%d\\t%d\\t%s\\t%d\\t%d\\t%d\\t%d\\t%d\\t%d\\t%s\\n\",\n"
    "         nr, now, now - fm_t0[t], pid(), ppid(), t, uid(), ret, string_quoted(fm_comm()),\n"
    "         a0, a1, a2, a3, a4, a5, rec)\n"
    "  fm_forget(t)\n"
    "}\n\n");
}

/* The parameters' decoders, run once by begin probes (the maps they fill are written
 * nowhere else, so SystemTap reads them in the syscalls' probes without a lock). */
static const char parameter_functions[] =
  "# a parameter's list of hexadecimal numbers separated by \".\"\n"
  "# (tokenize(\"\") goes on with the context's last string: never called with an empty one)\n"
  "function fm_ids (list:string, uids:long) {\n"
  "  if (list != \"\") for (x = tokenize(list, \".\"); x != \"\"; x = tokenize(\"\", \".\")) {\n"
  "    if (uids) { fm_uids[strtol(x, 16)] = 1; fm_has_uids = 1 }\n"
  "    else { fm_pids[strtol(x, 16)] = 1; fm_has_pids = 1 }\n"
  "  }\n"
  "}\n"
  "# a parameter's list of byte strings, each in hexadecimal, separated by \".\"\n"
  "function fm_texts (list:string, prefixes:long) {\n"
  "  if (list != \"\") for (x = tokenize(list, \".\"); x != \"\"; x = tokenize(\"\", \".\")) {\n"
  "    b = \"\"\n"
  "    for (i = 0; i + 1 < strlen(x); i += 2) b .= sprintf(\"%c\", strtol(substr(x, i, 2), 16))\n"
  "    if (prefixes) { fm_prefixes[\"\\\"\" . b] = 1; fm_has_prefixes = 1 }\n"
  "    else { fm_comms[b] = 1; fm_has_comms = 1 }\n"
  "  }\n"
  "}\n\n";

char *
fmd_stap_script_generate (const FmdOptions *options)
{
  GString *s = g_string_new (NULL);
  g_autofree char *entry_cond = NULL;

  g_return_val_if_fail (options != NULL, NULL);

  entry_cond = nr_condition (options, reads_at_entry);
  /* maps of numbers wrap (%): a thread that never returned is forgotten in time; all of
   * them are written and deleted together, so they forget the same threads */
  g_string_append_printf (s,
    "# filemond capture script (generated)\n"
    "global %s = 0   # the daemon's pid\n"
    "# the capture's filters: module parameters (fmd_stap_script_parameters), decoded into\n"
    "# the maps below by the begin probes\n"
    "global fm_pids1 = \"\", fm_pids2 = \"\", fm_uids1 = \"\", fm_uids2 = \"\", fm_comms1 = \"\"\n"
    "global fm_prefixes1 = \"\", fm_prefixes2 = \"\", fm_follow = 0, fm_failed_only = 0\n"
    "global fm_has_pids = 0, fm_has_uids = 0, fm_has_comms = 0, fm_has_prefixes = 0\n"
    "global fm_pids[%d], fm_uids[%d], fm_comms[%d]\n"
    "global fm_prefixes[%d]   # each path prefix as its quoted form starts: \"/etc\n"
    "global fm_live = 0\n"
    "global fm_nr%%[%d], fm_t0%%[%d], fm_a0%%[%d], fm_a1%%[%d], fm_a2%%[%d]\n"
    "global fm_a3%%[%d], fm_a4%%[%d], fm_a5%%[%d]\n",
    FMD_STAP_DAEMON_GLOBAL, FMD_STAP_PIDS_MAX, FMD_OPTIONS_MAX_IDS, FMD_OPTIONS_MAX_COMMS,
    FMD_OPTIONS_MAX_PREFIXES,
    FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX,
    FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX,
    FMD_STAP_INFLIGHT_MAX, FMD_STAP_INFLIGHT_MAX);
  /* declared only when written: a map never assigned has no type to check against */
  if (entry_cond != NULL)
    g_string_append_printf (s, "global fm_s%%[%d]   # the strings of the calls read at entry\n",
                            FMD_STAP_INFLIGHT_STRINGS_MAX);
  g_string_append_c (s, '\n');
  g_string_append_printf (s, functions, FM_PATH_MAX, FMD_STAP_CAP_BASE, FMD_STAP_CAP_BASE, FMD_STAP_CAP_PATH,
                          FMD_STAP_ARGV_MAX, FMD_STAP_CAP_TEXT,
                          entry_cond != NULL ? "; delete fm_s[t]" : "");
  g_string_append (s, prefix_functions);
  g_string_append (s, parameter_functions);
  /* one begin probe per long parameter: each has its own MAXACTION */
  g_string_append (s,
    "probe begin { fm_ids(fm_pids1, 0); fm_ids(fm_pids2, 0); fm_ids(fm_uids1, 1); fm_ids(fm_uids2, 1) }\n"
    "probe begin { fm_texts(fm_comms1, 0) }\n"
    "probe begin { fm_texts(fm_prefixes1, 1) }\n"
    "probe begin { fm_texts(fm_prefixes2, 1) }\n\n");
  g_string_append (s,
    "# \"R\" once every probe is live: begin probes run before the kprobes are registered,\n"
    "# timers after them\n"
    "probe timer.ms(" G_STRINGIFY (FMD_STAP_READY_TICK_MS) ") {\n"
    "  if (!fm_live) { fm_live = 1; printf(\"R\\n\") }\n"
    "}\n\n");

  g_string_append (s,
    "# with fm_follow, processes forked after Start are followed, and forgotten when they\n"
    "# end; kprobes, not kprocess.create, which tries a tracepoint first (minutes of pass 2\n"
    "# on 6.12)\n"
    "probe kprobe.function(\"wake_up_new_task\") {\n"
    "  if (!fm_follow || !fm_has_pids) next\n"
    "  child = pointer_arg(1)   # woken by its parent, current\n"
    "  if (pid() in fm_pids && task_tid(child) == task_pid(child)) fm_pids[task_pid(child)] = 1\n"
    "}\n"
    "probe kprobe.function(\"do_exit\") {\n"
    "  if (fm_follow && fm_has_pids && tid() == pid()) delete fm_pids[pid()]\n"
    "}\n\n");

  emit_enter (s, options, entry_cond);
  emit_exit (s, options, entry_cond);

  g_string_append (s, "# each traced syscall: its entry point and its return\n");
  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);

      g_string_append_printf (s,
        "probe kprobe.function(\"" FMD_STAP_SYSCALL_PREFIX "%s\") ? { fm_enter(%u, pointer_arg(1)) }\n"
        "probe kprobe.function(\"" FMD_STAP_SYSCALL_PREFIX "%s\").return.maxactive(%d) ? "
        "{ fm_exit(%u, returnval()) }\n",
        sc->kernel_name, sc->nr, sc->kernel_name, FMD_STAP_MAXACTIVE, sc->nr);
    }
  return g_string_free (s, FALSE);
}

/* Appends @item to the first of the @n_params lists it fits in (a parameter's value stays
 * below FMD_STAP_MAXSTRINGLEN), items separated by "."; FALSE when it fits in none. */
static gboolean
add_to_list (GString **lists, guint n_params, const char *item)
{
  gsize len = strlen (item);

  for (guint i = 0; i < n_params; i++)
    {
      gsize sep = lists[i]->len > 0 ? 1 : 0;

      if (lists[i]->len + sep + len < FMD_STAP_MAXSTRINGLEN)
        {
          if (sep)
            g_string_append_c (lists[i], '.');
          g_string_append (lists[i], item);
          return TRUE;
        }
    }
  return FALSE;
}

static char *
hex_of (const char *text)
{
  GString *h = g_string_new (NULL);

  for (const guchar *c = (const guchar *) text; *c != '\0'; c++)
    g_string_append_printf (h, "%02x", *c);
  return g_string_free (h, FALSE);
}

/* Adds "NAME1=..." (and "NAME2=...") to @params; FALSE, adding nothing, when the items
 * fit in neither. */
static gboolean
add_list_params (GPtrArray *params, const char *name, guint n_params, GPtrArray *items)
{
  GString *lists[2] = { g_string_new (NULL), g_string_new (NULL) };
  gboolean fits = TRUE;

  g_assert (n_params <= G_N_ELEMENTS (lists));
  for (guint i = 0; fits && i < items->len; i++)
    fits = add_to_list (lists, n_params, g_ptr_array_index (items, i));
  for (guint i = 0; fits && i < n_params; i++)
    if (lists[i]->len > 0)
      g_ptr_array_add (params, g_strdup_printf ("%s%u=%s", name, i + 1, lists[i]->str));
  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    g_string_free (lists[i], TRUE);
  return fits;
}

static GPtrArray *
hex_ids (GArray *ids)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < ids->len; i++)
    g_ptr_array_add (items, g_strdup_printf ("%x", g_array_index (ids, guint32, i)));
  return items;
}

static GPtrArray *
hex_texts (char **texts)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    g_ptr_array_add (items, hex_of (texts[i]));
  return items;
}

GPtrArray *
fmd_stap_script_parameters (const FmdOptions *options,
                            int               daemon_pid)
{
  GPtrArray *params = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) pids = NULL;
  g_autoptr(GPtrArray) uids = NULL;
  gboolean fits;

  g_return_val_if_fail (options != NULL, NULL);

  if (daemon_pid != 0)
    g_ptr_array_add (params, g_strdup_printf (FMD_STAP_DAEMON_GLOBAL "=%d", daemon_pid));
  /* the options' limits (FMD_OPTIONS_MAX_*) keep these within their parameters: 1024
   * ids of at most 8 digits and a dot, 256 comms of at most 30 */
  pids = hex_ids (options->pids);
  uids = hex_ids (options->uids);
  fits = add_list_params (params, "fm_pids", 2, pids);
  fits = add_list_params (params, "fm_uids", 2, uids) && fits;
  /* the script decodes bytes with sprintf("%c"), proven on ASCII; other names are
   * compared by the session, which checks every comm anyway (a process renamed by exec
   * between the call's entry and its event) */
  if (all_plain (options->comms, TRUE))
    {
      g_autoptr(GPtrArray) comms = hex_texts (options->comms);

      fits = add_list_params (params, "fm_comms", 1, comms) && fits;
    }
  g_assert (fits);
  if (options->follow_children && options->pids->len > 0)
    g_ptr_array_add (params, g_strdup ("fm_follow=1"));
  if (options->failed_only)
    g_ptr_array_add (params, g_strdup ("fm_failed_only=1"));
  /* prefixes that do not fit are left to the session, as those the script cannot compare */
  if (tests_prefixes (options))
    {
      g_autoptr(GPtrArray) prefixes = hex_texts (options->path_prefixes);

      add_list_params (params, "fm_prefixes", 2, prefixes);
    }
  return params;
}

GPtrArray *
fmd_stap_command_new (const char *stap_path,
                      guint       buffer_mb,
                      GPtrArray  *parameters,
                      const char *pass)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (stap_path != NULL, NULL);

  g_ptr_array_add (argv, g_strdup (stap_path));
  /* no -m: SystemTap caches no module built under a name given with -m, and its own
   * name for it is already the same for the same script and build */
  g_ptr_array_add (argv, g_strdup ("-DSTP_NO_OVERLOAD"));   /* a storm must not unload the module */
  /* A probe that does not run is a lost event, counted only when the module ends
   * ("skipped probes: N"); these two remove the causes a storm met. Handlers run with
   * interrupts off: the readiness timer's probe otherwise fires inside a syscall's
   * handler on the same CPU and is skipped as reentrant. And a handler waits up to 1 s
   * (100 000 tries, 10 us apart) for the maps' lock instead of SystemTap's 1 ms, after
   * which it skips: the lock's holder is another CPU's handler, which ends, but whose
   * CPU can be held up for milliseconds (a loaded host, a virtual CPU descheduled). */
  g_ptr_array_add (argv, g_strdup ("-DINTERRUPTIBLE=0"));
  g_ptr_array_add (argv, g_strdup ("-DMAXTRYLOCK=100000"));
  /* a handler error (an unreadable page, a lock not taken in time) skips that probe hit
   * instead of counting towards MAXERRORS/MAXSKIPPED, which end the session; the counts
   * are still reported when it ends */
  g_ptr_array_add (argv, g_strdup ("--suppress-handler-errors"));
  g_ptr_array_add (argv, g_strdup ("-DMAXACTION=20000"));   /* the dentry walks of a deep path */
  g_ptr_array_add (argv, g_strdup_printf ("-DMAXSTRINGLEN=%d", FMD_STAP_MAXSTRINGLEN));
  /* Linux 6.12 renamed uprobe_unregister and no longer has uprobe_get_swbp_addr, and the
   * runtime of SystemTap 5.1 then fails to load any module ("Can't resolve
   * uprobe_unregister!", then "... uprobe_get_swbp_addr!") looking them up by name at
   * start. These make it skip the lookups: only uprobe code calls either, and the script
   * has no uprobe. */
  g_ptr_array_add (argv, g_strdup ("-DSTAPCONF_UPROBE_UNREGISTER_EXPORTED"));
  g_ptr_array_add (argv, g_strdup ("-DSTAPCONF_UPROBE_GET_SWBP_ADDR_EXPORTED"));
  /* "Pass N: ..." on stderr as each pass ends: the build's progress */
  g_ptr_array_add (argv, g_strdup ("-v"));
  /* no -w: it also silences stapio's "skipped probes: N" at the end, counted as drops */
  g_ptr_array_add (argv, g_strdup ("-s"));
  g_ptr_array_add (argv, g_strdup_printf ("%u", buffer_mb));
  for (guint i = 0; parameters != NULL && i < parameters->len; i++)
    {
      g_ptr_array_add (argv, g_strdup ("-G"));
      g_ptr_array_add (argv, g_strdup (g_ptr_array_index (parameters, i)));
    }
  if (pass != NULL)
    g_ptr_array_add (argv, g_strdup (pass));
  g_ptr_array_add (argv, g_strdup ("-"));
  g_ptr_array_add (argv, NULL);
  return argv;
}

GPtrArray *
fmd_stap_staprun_command_new (const char *stap_path,
                              guint       buffer_mb,
                              GPtrArray  *parameters,
                              const char *module)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *bindir = NULL;

  g_return_val_if_fail (stap_path != NULL && module != NULL, NULL);

  bindir = g_path_get_dirname (stap_path);
  /* what stap's pass 5 runs: -R gives the module a name of its own (a stap of the same
   * script may be loaded), -b is stap's -s */
  g_ptr_array_add (argv, g_build_filename (bindir, "staprun", NULL));
  g_ptr_array_add (argv, g_strdup ("-R"));
  g_ptr_array_add (argv, g_strdup ("-b"));
  g_ptr_array_add (argv, g_strdup_printf ("%u", buffer_mb));
  g_ptr_array_add (argv, g_strdup (module));
  for (guint i = 0; parameters != NULL && i < parameters->len; i++)
    g_ptr_array_add (argv, g_strdup (g_ptr_array_index (parameters, i)));
  g_ptr_array_add (argv, NULL);
  return argv;
}
