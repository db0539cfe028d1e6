/* fmv-command-line.h: an exec's command line as a shell would read it back (make -j2,
 * cp 'a b' c), from the argv list the detail text holds (["make", "-j2"],
 * fm_syscall_format_detail). A JSON-like list is exact but hard to read and cannot be
 * pasted into a terminal. */
#pragma once

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

/* The argv list in @detail (@len bytes) as shell words, or NULL when the detail holds no
 * such list (an older capture, another tool's file, a list cut before its start). @rest,
 * when not NULL, gets the detail without the list ("dirfd=3, AT_EMPTY_PATH" for
 * execveat; "" for execve), or NULL with the NULL result. */
char *fmv_command_line_from_detail (const char *detail,
                                    gsize       len,
                                    char      **rest);

/* The command line of the exec event @exec: its argv list as shell words, or (a detail
 * with no such list) the detail as it is shown. */
char *fmv_exec_command_line (const FmEvent *exec);

/* Appends @arg (@len bytes) as one shell word: bare when it holds only characters no
 * shell treats specially, in '...' when it is printable text, else in $'...' with \n,
 * \t and \xNN (bytes that are not UTF-8, control characters), so that the result is
 * always valid UTF-8 and shows no control character. */
void fmv_shell_quote_append (GString    *out,
                             const char *arg,
                             gsize       len);

G_END_DECLS
