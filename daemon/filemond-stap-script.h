/* filemond-stap-script.h: the SystemTap script of a capture, generated from the syscall
 * table and the start options, and the line protocol it prints (filemond-stap-parser.c
 * reads it).
 *
 * The script prints, on stdout:
 *   "R"                                  once, from `probe begin`: the module is live
 *   "E" and FMD_STAP_EVENT_FIELDS fields one per traced call, at its return
 * separated by tabs, one record per line. Numbers are decimal; strings are SystemTap
 * quoted strings ("..." with C escapes, \ooo for other bytes and \uXXXX for UTF-8, so
 * that no tab, newline or quote inside a name can split or forge a record), or "-" when
 * absent. A quoted string followed by "..." was truncated at SystemTap's string limit.
 *
 *   E nr time_ns duration_ns pid ppid tid uid result comm a0 a1 a2 a3 a4 a5
 *     path path2 text base base2
 *
 * path/path2 are the path arguments as the process passed them; base/base2 the directory
 * a relative path/path2 is resolved against (the dirfd's path, or the cwd), or for an fd
 * argument the path of the file it refers to; text is an xattr name, execve's argv (space
 * separated, at most FMD_STAP_ARGV_MAX elements) or openat2's "flags mode resolve".
 */
#pragma once

#include <glib.h>

#include "filemond-options.h"

G_BEGIN_DECLS

#define FMD_STAP_EVENT_FIELDS 20
#define FMD_STAP_ARGV_MAX 8
/* SystemTap's string limit in the module (-DMAXSTRINGLEN): a path escaped for the line
 * can take four bytes per byte. */
#define FMD_STAP_MAXSTRINGLEN 4096

/* The script for @options, excluding the daemon (@daemon_pid) and stap's own processes. */
char *fmd_stap_script_generate (const FmdOptions *options,
                                guint32           daemon_pid);

G_END_DECLS
