/* filemonctl-stream.h: what watch and dump share: reading filemond's binary event stream
 * (OpenStream), filtering it locally and printing it, with notes on gaps, drops and
 * captures stopped or started. */
#pragma once

#include "filemonctl-common.h"
#include "filemonctl-output.h"

G_BEGIN_DECLS

typedef struct {
  FmFilter *filter;
  FmctlPrinter *printer;
  gboolean has_since;      /* replay the buffer from since_seq first */
  guint64 since_seq;
  gboolean follow;         /* go on live (watch); else end at the live edge (dump) */
  gboolean skip_self;      /* leave out this process's own events */
  guint64 count;           /* stop after this many events printed, 0: never */
} FmctlStreamPrint;

/* Opens the stream and prints it until it ends, SIGINT or SIGTERM, the count is reached
 * or printing fails; returns an FmctlExit (errors printed for @command). */
int fmctl_stream_print (const char             *command,
                        const FmctlStreamPrint *how);

G_END_DECLS
