/* filemond-config.h: /etc/filemond/filemond.conf (GKeyFile). A missing file means the
 * defaults; a file that exists but is malformed, or holds an unknown key or a value out of
 * range, is an error naming the line or key: the daemon refuses to start on it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  /* [Buffer] */
  guint64 buffer_events;      /* Events=, default 1000000 */
  guint64 buffer_bytes;       /* Bytes=, default 256 MiB */
  /* [Daemon] */
  guint idle_timeout_sec;     /* IdleTimeoutSec=, default 60; 0 = never exit when idle */
  /* [Subscribers] */
  guint subscriber_queue_events;   /* QueueEvents=, default 65536 */
  guint stream_buffer_bytes;       /* StreamBufferBytes=, default 16 MiB per stream */
  /* [Stap] */
  char *stap_path;            /* Path=, default FILEMON_STAP_PATH */
  guint stap_buffer_mb;       /* BufferMB=, default 64 (stap -s) */
  /* [Bpf] */
  guint bpf_ringbuf_mb;       /* RingBufferMB=, default 64 */
} FmdConfig;

FmdConfig *fmd_config_new_default (void);
/* Loads @path; a missing file gives the defaults. */
FmdConfig *fmd_config_load (const char *path, GError **error);
void fmd_config_free (FmdConfig *config);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdConfig, fmd_config_free)

G_END_DECLS
