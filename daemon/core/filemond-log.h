/* filemond-log.h: where filemond's log goes. Under systemd (stderr connected to the
 * journal) messages go to journald with their structured fields (priority, code location,
 * MESSAGE_ID, GLIB_DOMAIN: the part that spoke); anywhere else to stderr, one line each
 * with the level and the domain. Debug and info messages appear with --verbose, or for
 * the log domains G_MESSAGES_DEBUG names: filemond (the core), filemond-bus,
 * filemond-stap, filemond-bpf, filemon-common, or all. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Installs the writer; call once, first thing in main(). */
void fmd_log_init (gboolean verbose);

/* TRUE when the writer sends to the journal. */
gboolean fmd_log_to_journal (void);

G_END_DECLS
