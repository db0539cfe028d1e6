/* filemond-log.h: where filemond's log goes. Under systemd (stderr connected to the
 * journal) messages go to journald with their structured fields (priority, code location,
 * MESSAGE_ID where given); anywhere else to stderr, one line each. Debug and info
 * messages appear with --verbose (or G_MESSAGES_DEBUG). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Installs the writer; call once, first thing in main(). */
void fmd_log_init (gboolean verbose);

/* TRUE when the writer sends to the journal. */
gboolean fmd_log_to_journal (void);

G_END_DECLS
