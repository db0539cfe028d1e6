/* filemond-stap-script.h: the SystemTap script of a capture, generated from the syscall
 * table and the start options, and the line protocol it prints (filemond-stap-parser.c
 * reads it).
 *
 * The script prints, on stdout:
 *   "R"                                  once, when every probe is live (the first
 *                                        tick of a timer, FMD_STAP_READY_TICK_MS)
 *   "E" and FMD_STAP_EVENT_FIELDS fields one per traced call, at its return
 * separated by tabs, one record per line. Numbers are decimal; strings are SystemTap
 * quoted strings ("..." with C escapes, \ooo for other bytes and \uXXXX for UTF-8, so
 * that no tab, newline or quote inside a name can split or forge a record), or "-" when
 * absent. A quoted string followed by "..." was cut and keeps its beginning; a path or
 * base preceded by "..." was cut and keeps its end (the parser then shortens it by the
 * rule of both backends, fm-path.h: the root and the name kept, the middle elided).
 *
 *   E nr time_ns duration_ns pid ppid tid uid result comm a0 a1 a2 a3 a4 a5
 *     path path2 text base base2
 *
 * path/path2 are the path arguments as the process passed them; base/base2 the directory
 * a relative path/path2 is resolved against (the dirfd's path, or the cwd), or for an fd
 * argument the path of the file it refers to; text is an xattr name, execve's argv (space
 * separated, at most FMD_STAP_ARGV_MAX elements) or openat2's "flags mode resolve".
 *
 * A record is printed by one printf, and SystemTap cuts a printf at its print buffer
 * (STP_BUFFER_SIZE, 8192 bytes, not settable): each quoted field is therefore capped
 * (FMD_STAP_CAP_*) so that a whole record always fits. A longer text (argv, an xattr
 * name, a symlink's target) or a path string of PATH_MAX bytes or more (which the kernel
 * refuses unread past PATH_MAX) is sent as its beginning followed by "..." after the
 * closing quote, as SystemTap marks truncation; a longer path or base as "..." and its
 * end, which holds the file's name.
 */
#pragma once

#include <glib.h>

#include "filemond-options.h"

G_BEGIN_DECLS

#define FMD_STAP_EVENT_FIELDS 20
/* The period of the timer that prints "R": SystemTap registers timers after kprobes. */
#define FMD_STAP_READY_TICK_MS 20
#define FMD_STAP_ARGV_MAX 8
/* SystemTap's string limit in the module (-DMAXSTRINGLEN): the strings read at entry are
 * kept joined in one string (path, text and base of an execve). */
#define FMD_STAP_MAXSTRINGLEN 8192
/* The longest quoted path/path2, base/base2 and text: 2*2048 + 2*1280 + 1024 = 7680, plus
 * comm (at most 62 quoted) and the numbers (under 400) stay below STP_BUFFER_SIZE. */
#define FMD_STAP_CAP_PATH 2048
#define FMD_STAP_CAP_BASE 1280
#define FMD_STAP_CAP_TEXT 1024
/* Threads inside a traced call at once (a thread blocked in read() holds an entry);
 * beyond it the oldest entries are forgotten and their calls not reported. */
#define FMD_STAP_INFLIGHT_MAX 16384
/* The same for the calls whose strings must be read at entry (close, chdir, exec):
 * short calls, but their entries hold FMD_STAP_MAXSTRINGLEN bytes each. */
#define FMD_STAP_INFLIGHT_STRINGS_MAX 512
/* Calls of one syscall in flight at once that its return probe can see (kretprobe
 * instances); a return beyond it is missed, counted by SystemTap as a skipped probe. */
#define FMD_STAP_MAXACTIVE 1024
/* The kernel's entry point of syscall X on x86_64 (since 4.17): __x64_sys_X(regs). */
#define FMD_STAP_SYSCALL_PREFIX "__x64_sys_"
/* The script's global that holds the daemon's pid (a module parameter). */
#define FMD_STAP_DAEMON_GLOBAL "fm_daemon"
/* The processes a capture follows at once: the pids given and their descendants. */
#define FMD_STAP_PIDS_MAX 65536

/* The stap command line of a capture, NULL-terminated, the script read from stdin ("-"
 * last): @stap_path, the module's build options, then "-G" and each of @parameters
 * (fmd_stap_script_parameters(); NULL: none), and @pass ("-p4": build the module only)
 * unless NULL. Module parameters and the name of the module, SystemTap's (a hash of the
 * script and the build), do not change what SystemTap caches: a Start of other filters,
 * or a build made beforehand (filemond --precompile), finds the module. */
GPtrArray *fmd_stap_command_new (const char *stap_path,
                                 guint       buffer_mb,
                                 GPtrArray  *parameters,
                                 const char *pass);

/* The staprun command line that loads @module (a module built by fmd_stap_command_new's
 * command) with the same buffer and @parameters: staprun next to @stap_path. */
GPtrArray *fmd_stap_staprun_command_new (const char *stap_path,
                                         guint       buffer_mb,
                                         GPtrArray  *parameters,
                                         const char *module);

/* The script of a capture of @options' syscalls: its text depends on them alone, so
 * that one module serves every capture of the same syscalls (the default: all of them).
 * It excludes the daemon (FMD_STAP_DAEMON_GLOBAL), its children (stap) and stap's own
 * stapio and its children. */
char *fmd_stap_script_generate (const FmdOptions *options);

/* The module parameters ("NAME=VALUE") that give the script the rest of @options' kernel
 * part and @daemon_pid (0: none): pids, follow-children, uids, comms (when all are
 * printable ASCII), failed-only and the path prefixes it can compare (printable ASCII
 * other than " and \, as long as they fit in two parameters); other comms and prefixes
 * are the session's alone. Lists are hexadecimal
 * numbers or hex-encoded bytes separated by ".", as stap -G accepts
 * ([a-z0-9_.-]+), each parameter shorter than FMD_STAP_MAXSTRINGLEN; a list too long for
 * one continues in NAME2. */
GPtrArray *fmd_stap_script_parameters (const FmdOptions *options,
                                       int               daemon_pid);

G_END_DECLS
