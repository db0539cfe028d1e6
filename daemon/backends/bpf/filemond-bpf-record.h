/* filemond-bpf-record.h: turns the records filemond.bpf.c writes into FmEvents: checks
 * their shape, names pipes and sockets as /proc does, tidies relative paths, converts the
 * clock and decodes the detail. No kernel needed, so it is tested with made-up records. */
#pragma once

#include <glib.h>

#include "fm-event.h"

G_BEGIN_DECLS

typedef struct _FmdBpfDecoder FmdBpfDecoder;

FmdBpfDecoder *fmd_bpf_decoder_new (void);
void fmd_bpf_decoder_free (FmdBpfDecoder *self);

/* Fills @event from the record @data of @len bytes. The event's strings live in @self
 * until the next call. @realtime_offset_ns is CLOCK_REALTIME - CLOCK_MONOTONIC. A record
 * that is too short or whose strings do not fit: FALSE with FM_ERROR_PARSE. */
gboolean fmd_bpf_decoder_decode (FmdBpfDecoder  *self,
                                 const void     *data,
                                 gsize           len,
                                 gint64          realtime_offset_ns,
                                 FmEvent        *event,
                                 GError        **error);

/* The generation a record was written under (0 when too short to say). */
guint32 fmd_bpf_record_generation (const void *data, gsize len);

/* Removes "." components and repeated slashes from an absolute path in place; ".." stays
 * (what it means depends on symlinks the daemon cannot see). Returns the new length. */
gsize fmd_bpf_path_tidy (char *path, gsize len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdBpfDecoder, fmd_bpf_decoder_free)

G_END_DECLS
