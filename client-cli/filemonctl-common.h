/* filemonctl-common.h: what every filemonctl subcommand shares: exit codes, reaching
 * filemond on the system bus, calling its methods, turning errors into exit codes with
 * one line that says what to do, the polkit text agent, the local filter. */
#pragma once

#include <gio/gio.h>
#include <gio/gunixfdlist.h>

#include "fm-dbus-generated.h"
#include "fm-filter.h"

G_BEGIN_DECLS

/* Exit codes scripts can rely on (filemonctl(1), EXIT STATUS). */
typedef enum {
  FMCTL_EXIT_OK = 0,
  FMCTL_EXIT_ERROR = 1,
  FMCTL_EXIT_USAGE = 2,
  FMCTL_EXIT_NOT_AUTHORIZED = 3,
  FMCTL_EXIT_NO_DAEMON = 4,
} FmctlExit;

/* Options that apply to every subcommand (given before it). */
typedef struct {
  gboolean no_ask_password;   /* never register a polkit agent */
} FmctlGlobals;

extern FmctlGlobals fmctl_globals;

/* One subcommand: argv[0] is its name; returns an FmctlExit. */
typedef int (*FmctlCommandFunc) (int argc, char **argv);

int fmctl_cmd_start (int argc, char **argv);
int fmctl_cmd_stop (int argc, char **argv);
int fmctl_cmd_status (int argc, char **argv);
int fmctl_cmd_watch (int argc, char **argv);
int fmctl_cmd_dump (int argc, char **argv);
int fmctl_cmd_save (int argc, char **argv);

/* The filter's fields, one a line with what it holds, from the field table. */
char *fmctl_filter_fields_help (void);

/* Parses a subcommand's options; on a usage error prints it with a hint and returns
 * FALSE. --help prints and exits 0. */
gboolean fmctl_parse_options (GOptionContext *context,
                              const char     *command,
                              int            *argc,
                              char         ***argv);

/* Prints "filemonctl COMMAND: MESSAGE" and a --help hint; returns FMCTL_EXIT_USAGE. */
int fmctl_usage_error (const char *command, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* The proxy for filemond, with its properties loaded. An error here means the daemon is
 * not reachable (fmctl_error_exit() maps it to FMCTL_EXIT_NO_DAEMON). */
FmFilemond1 *fmctl_connect (GError **error);

/* Calls a filemond method and waits for the reply, allowing interactive authorization
 * (every method is behind polkit) and registering the text agent first on a terminal. */
GVariant *fmctl_call (FmFilemond1         *proxy,
                      const char          *method,
                      GVariant            *parameters,
                      const GVariantType  *reply_type,
                      GUnixFDList         *fd_list,
                      GUnixFDList        **out_fd_list,
                      GError             **error);

/* The string property @name read from the daemon now (the proxy's cached value can be a
 * capture's before), or NULL with @error. */
char *fmctl_read_string_property (FmFilemond1  *proxy,
                                  const char   *name,
                                  GError      **error);

/* Called at each look at State while fmctl_wait_state() waits: TRUE when it told the user
 * something (so that the generic "waiting..." line is not needed). */
typedef gboolean (*FmctlStateFunc) (FmFilemond1 *proxy, const char *state, gpointer user_data);

/* Reads State every 50 ms while it is one of @while_states (NULL-terminated) and returns
 * the first other one, or NULL with @error. On a terminal, after a second without news
 * from @on_state (may be NULL), says once "filemonctl: COMMAND: waiting for the BACKEND
 * capture to GOAL...". */
char *fmctl_wait_state (FmFilemond1         *proxy,
                        const char          *command,
                        const char          *goal,
                        const char * const  *while_states,
                        FmctlStateFunc       on_state,
                        gpointer             user_data,
                        GError             **error);

/* Registers a polkit text authentication agent for this process when stdin and stderr
 * are a terminal, so that an administrator can type a password in place. Best effort. */
void fmctl_agent_register (void);
void fmctl_agent_unregister (void);

/* Prints one line for @error ("filemonctl: WHAT: reason. what to do") on stderr and
 * returns the exit code it maps to. */
int fmctl_error_exit (const char *what, const GError *error);

/* The exit code @error maps to, without printing. */
FmctlExit fmctl_error_to_exit (const GError *error);

/* --color=auto|always|never (NULL is auto) for output on @fd; NO_COLOR and TERM=dumb
 * turn auto off. FALSE on a bad value. */
gboolean fmctl_decide_color (const char *value, int fd, gboolean *use_color);

/* Compiles the filter made of @argc words joined by spaces. On a syntax error, prints it
 * with a caret under the column and returns NULL. */
FmFilter *fmctl_compile_filter (const char *command, int argc, char **argv);

/* --since=SEQ|start -> the since-seq option (start is 0). */
gboolean fmctl_parse_since (const char *value, guint64 *since_seq);

/* write(2) until all is written, retrying on EINTR. */
gboolean fmctl_write_all (int fd, const char *data, gsize len, GError **error);

G_END_DECLS
