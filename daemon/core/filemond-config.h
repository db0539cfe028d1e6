/* filemond-config.h: /etc/filemond/filemond.conf (GKeyFile). A missing file means the
 * defaults; a file that exists but is malformed, or holds an unknown group or key, or a
 * value out of range, is an error naming the line or key: the daemon refuses to start on it.
 *
 * Every key, its default and its range:
 *
 *   [Buffer]
 *   Events=1000000          most events the ring buffer holds (1000 .. 100000000)
 *   Bytes=256M              most bytes it holds, records encoded (1M .. 64G); a K, M or G
 *                           suffix means KiB, MiB, GiB. Whichever limit is hit first
 *                           makes the oldest events go (counted in OverwrittenCount).
 *   [Daemon]
 *   IdleTimeoutSec=60       exit after this many seconds with no capture, no subscriber
 *                           and no open stream (D-Bus activation starts it again);
 *                           0 = never exit when idle (0 .. 86400)
 *   DefaultBackend=auto     what Start's backend "auto" (or no backend) means: auto (stap
 *                           when it can run here, else bpf), stap or bpf
 *   [Subscribers]
 *   QueueEvents=65536       most events queued for one Events subscriber (16 .. 16777216)
 *   StreamBufferBytes=16M   most bytes buffered for one OpenStream reader (64K .. 1G;
 *                           suffixes as above)
 *   [Stap]
 *   Path=/usr/bin/stap      the SystemTap driver (an absolute path)
 *   BufferMB=64             stap -s, its kernel buffer in MiB (1 .. 4095)
 *   CheckKernel=true        before using stap, check that the kernel can load its modules
 *                           (module support, a build tree); false trusts Path= alone (a
 *                           stap wrapper that runs elsewhere, or a test's stand-in)
 *   [Bpf]
 *   RingBufferMB=8          the BPF ring buffer in MiB (1 .. 4095; rounded up to a power of 2)
 */
#pragma once

/* The BPF ring buffer holds what the kernel recorded and filemond has not read yet: a
 * burst while filemond waits for a CPU. 8 MiB is about 35 000 events: no event was lost
 * with it under full capture of one unpinned load per CPU, or two per CPU beside two busy
 * loops (bench/bench-saturated.sh), and each MiB counts twice in filemond's RSS (the kernel
 * maps the pages twice in a row so that a record can wrap). */
#define FMD_CONFIG_BPF_RINGBUF_MB 8

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  /* [Buffer] */
  guint64 buffer_events;      /* Events=, default 1000000 */
  guint64 buffer_bytes;       /* Bytes=, default 256 MiB */
  /* [Daemon] */
  guint idle_timeout_sec;     /* IdleTimeoutSec=, default 60; 0 = never exit when idle */
  char *default_backend;      /* DefaultBackend=, "auto" (the default) or a backend's name */
  guint save_stall_sec;       /* SaveStallSec=, default 30: a Save whose reader takes
                               * nothing for that long is abandoned */
  /* [Subscribers] */
  guint subscriber_queue_events;   /* QueueEvents=, default 65536 */
  guint stream_buffer_bytes;       /* StreamBufferBytes=, default 1 MiB per stream */
  /* [Stap] */
  char *stap_path;            /* Path=, default FILEMON_STAP_PATH */
  guint stap_buffer_mb;       /* BufferMB=, default 64 (stap -s) */
  gboolean stap_check_kernel; /* CheckKernel=, default true */
  /* [Bpf] */
  guint bpf_ringbuf_mb;       /* RingBufferMB=, default FMD_CONFIG_BPF_RINGBUF_MB */
} FmdConfig;

/* FILEMON_SYSCONFDIR "/filemond/filemond.conf" */
const char *fmd_config_default_path (void);

FmdConfig *fmd_config_new_default (void);
/* Loads @path; a missing file gives the defaults. */
FmdConfig *fmd_config_load (const char *path, GError **error);
/* Parses the text of a config file; @origin names it in error messages. */
FmdConfig *fmd_config_load_from_data (const char *data,
                                      gsize       len,
                                      const char *origin,
                                      GError    **error);
void fmd_config_free (FmdConfig *config);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdConfig, fmd_config_free)

G_END_DECLS
