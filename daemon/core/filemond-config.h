/* filemond-config.h: /etc/filemond/filemond.conf (GKeyFile). A missing file means the
 * defaults; a file that exists but is malformed, or holds an unknown group or key, or a
 * value out of range, is an error naming the line or key: the daemon refuses to start on it.
 *
 * Every key, its default, its range and its meaning are in the one table of keys in
 * filemond-config.c, from which filemond.conf(5) is generated (filemond-conf-gen.c).
 */
#pragma once

/* The BPF ring buffer holds what the kernel recorded and filemond has not read yet: a
 * burst while filemond waits for a CPU. 8 MiB (about 35 000 events) is the size that
 * bench/bench-saturated.sh finds losing nothing on a saturated machine (bench/README.md,
 * "The saturated machine, and the BPF ring's size"), and each MiB counts twice in
 * filemond's RSS (the kernel maps the pages twice in a row so that a record can wrap). */
#define FMD_CONFIG_BPF_RINGBUF_MB 8

#include <glib.h>

G_BEGIN_DECLS

/* filemond-backend-registry.h, which needs this header itself */
typedef struct _FmdBackendRegistry FmdBackendRegistry;

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
/* Loads @path; a missing file gives the defaults. DefaultBackend= must name a type of
 * @registry (or be "auto"). */
FmdConfig *fmd_config_load (const char          *path,
                            FmdBackendRegistry  *registry,
                            GError             **error);
/* Parses the text of a config file; @origin names it in error messages. */
FmdConfig *fmd_config_load_from_data (const char          *data,
                                      gsize                len,
                                      const char          *origin,
                                      FmdBackendRegistry  *registry,
                                      GError             **error);
void fmd_config_free (FmdConfig *config);

/* One key of the configuration, as filemond.conf(5) documents it. */
typedef struct {
  const char *group;
  const char *key;
  const char *help;
  const char *value_kind;   /* NUMBER, SIZE, PATH, BACKEND or BOOLEAN */
  char *default_value;      /* as the file would spell it: "256M", "auto", "true" */
  char *range;              /* "1000 .. 100000000", the choices, or NULL (a path) */
} FmdConfigKey;

/* Fills @info with the @index-th key of the parser's table, a backend key's choices from
 * @registry; FALSE past the last one. */
gboolean fmd_config_key_info (guint               index,
                              FmdBackendRegistry *registry,
                              FmdConfigKey       *info);
void fmd_config_key_clear (FmdConfigKey *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdConfig, fmd_config_free)

G_END_DECLS
