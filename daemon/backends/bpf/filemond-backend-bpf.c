/* filemond-backend-bpf.c: the bpf capture backend: its life cycle on the main loop and the
 * ring buffer reader. The kernel side is bpf/filemond.bpf.c, the loaded object and its
 * cache filemond-bpf-engine.c, the record decoding filemond-bpf-record.c.
 *
 * Start takes the cached engine, attaches its syscall programs and is live at once;
 * without one, loading (the verifier's slow part) and attaching run in a worker thread and
 * the capture goes live when they are done. Stop clears the enable flag (the programs
 * return at their first instruction from then on), drains the ring buffer, detaches the
 * syscall programs (a few ms), gives the engine back to the cache and reports stopped (see
 * filemond-bpf-engine.h).
 *
 * Reading: the program wakes the reader when the backlog reaches an eighth of the ring
 * buffer, once per read (the engine re-arms it after each); a 50 ms timer reads whatever
 * stays below that. Each dispatch reads at most READ_BUDGET records so that D-Bus keeps
 * being served under a storm, and a dispatch that used its budget up comes back at once
 * after the main loop's other sources (read_more).
 */
#include "config.h"

#include "filemond-backend-bpf.h"

#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <gio/gio.h>
#include <glib-unix.h>

#include "fm-error.h"
#include "filemond-bpf-engine.h"
#include "filemond-bpf-record.h"

#define READ_BUDGET 4096
#define TICK_MS 50

typedef enum {
  STATE_IDLE,
  STATE_PREPARING,   /* loading or attaching in a worker thread */
  STATE_RUNNING,
  STATE_STOPPING,    /* draining, or waiting for the worker to finish */
  STATE_FAILED,
} State;

struct _FmdBpfBackend {
  FmdBackend parent_instance;

  FmdBpfEngineCache *cache;  /* the type's */
  guint64 ringbuf_bytes;
  State state;
  FmdOptions *options;
  FmdBpfEngine *engine;
  FmdBpfDecoder *decoder;
  guint32 generation;

  gint64 realtime_offset_ns;
  guint64 drops_base;       /* the engine's counter when this capture started */
  guint64 drops_reported;
  guint batch;

  guint poll_id;
  guint tick_id;
  guint more_id;
  guint drain_id;
};

G_DEFINE_FINAL_TYPE (FmdBpfBackend, fmd_bpf_backend, FMD_TYPE_BACKEND)

/* --- availability ----------------------------------------------------------------------- */

static gboolean
have_capabilities (void)
{
  g_autofree char *status = NULL;
  const char *line;
  guint64 caps;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      || (line = strstr (status, "\nCapEff:")) == NULL)
    return FALSE;
  caps = g_ascii_strtoull (line + strlen ("\nCapEff:"), NULL, 16);
  /* CAP_SYS_ADMIN (21), or CAP_BPF (39) with CAP_PERFMON (38) since 5.8 */
  return (caps & (G_GUINT64_CONSTANT (1) << 21)) != 0
         || (caps & (G_GUINT64_CONSTANT (3) << 38)) == (G_GUINT64_CONSTANT (3) << 38);
}

char *
fmd_backend_bpf_unavailable_reason (const FmdConfig *config)
{
  g_autofree char *release = NULL;

  /* bpf_loop (5.17); bpf_rdonly_cast (6.2) only makes the program faster, see
   * filemond-bpf-engine.c */
  if (!fmd_bpf_kernel_at_least (5, 17, &release))
    return g_strdup_printf ("bpf: the kernel is too old (%s; the program needs bpf_loop, 5.17 or later)",
                            release);
  if (!g_file_test ("/sys/kernel/btf/vmlinux", G_FILE_TEST_EXISTS))
    return g_strdup ("bpf: the kernel has no BTF (/sys/kernel/btf/vmlinux is missing; "
                     "it needs CONFIG_DEBUG_INFO_BTF=y)");
  if (!have_capabilities ())
    return g_strdup ("bpf: filemond lacks CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN); "
                     "run it as root");
  return NULL;
}

/* --- reading ---------------------------------------------------------------------------- */

static void
update_clock (FmdBpfBackend *self)
{
  struct timespec mono, real;

  /* bpf_ktime_get_ns() is CLOCK_MONOTONIC; the events want CLOCK_REALTIME. Sampled again
   * at every tick, so a clock step shows within TICK_MS. */
  clock_gettime (CLOCK_MONOTONIC, &mono);
  clock_gettime (CLOCK_REALTIME, &real);
  self->realtime_offset_ns = ((gint64) real.tv_sec - mono.tv_sec) * G_GINT64_CONSTANT (1000000000)
                             + ((gint64) real.tv_nsec - mono.tv_nsec);
}

static void
report_drops (FmdBpfBackend *self)
{
  guint64 total = fmd_bpf_engine_read_drops (self->engine) - self->drops_base;

  if (total > self->drops_reported)
    {
      guint64 delta = total - self->drops_reported;

      self->drops_reported = total;
      fmd_backend_emit_dropped (FMD_BACKEND (self), delta);
    }
}

static gboolean
on_record (const void *data,
           gsize       len,
           gpointer    user_data)
{
  FmdBpfBackend *self = user_data;
  g_autoptr(GError) error = NULL;
  FmEvent event;

  /* an in-flight syscall of an earlier capture on the same engine */
  if (fmd_bpf_record_generation (data, len) != self->generation)
    return TRUE;

  if (!fmd_bpf_decoder_decode (self->decoder, data, len, self->realtime_offset_ns, &event, &error))
    {
      g_warning ("%s; counted as dropped", error->message);
      fmd_backend_emit_dropped (FMD_BACKEND (self), 1);
      return TRUE;
    }
  fmd_backend_emit_event (FMD_BACKEND (self), &event);
  return ++self->batch < READ_BUDGET;
}

static void stop_sources (FmdBpfBackend *self);
static gboolean read_more (gpointer user_data);

static gboolean
read_ring (FmdBpfBackend *self)
{
  self->batch = 0;
  if (fmd_bpf_engine_consume (self->engine) < 0)
    {
      g_autoptr(GError) error = g_error_new (FM_ERROR, FM_ERROR_BACKEND_FAILED,
                                             "bpf: reading the ring buffer failed: %s",
                                             g_strerror (errno));
      FmdBpfEngine *engine = g_steal_pointer (&self->engine);

      stop_sources (self);
      fmd_bpf_engine_set_enabled (engine, FALSE);
      fmd_bpf_engine_cache_free_async (self->cache, engine);
      self->state = STATE_FAILED;
      fmd_backend_emit_failed (FMD_BACKEND (self), error);
      return FALSE;
    }
  /* Records left after the budget: read them after the main loop's other sources rather
   * than wait for a wake-up, which comes only with a new record at the threshold (none
   * comes once the load stopped), else for the tick and its budget. */
  if (self->batch >= READ_BUDGET && self->state == STATE_RUNNING && self->more_id == 0)
    self->more_id = g_idle_add_full (G_PRIORITY_DEFAULT, read_more, self, NULL);
  return TRUE;
}

static gboolean
read_more (gpointer user_data)
{
  FmdBpfBackend *self = user_data;

  if (read_ring (self) && self->batch >= READ_BUDGET)
    return G_SOURCE_CONTINUE;
  self->more_id = 0;
  return G_SOURCE_REMOVE;
}

static gboolean
poll_ready (int          fd,
            GIOCondition condition,
            gpointer     user_data)
{
  FmdBpfBackend *self = user_data;

  if (!read_ring (self))
    {
      self->poll_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
tick (gpointer user_data)
{
  FmdBpfBackend *self = user_data;

  update_clock (self);
  if (!read_ring (self))
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }
  report_drops (self);
  return G_SOURCE_CONTINUE;
}

static void
stop_sources (FmdBpfBackend *self)
{
  g_clear_handle_id (&self->poll_id, g_source_remove);
  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->more_id, g_source_remove);
  g_clear_handle_id (&self->drain_id, g_source_remove);
}

/* --- start ------------------------------------------------------------------------------ */

static gboolean
go_live (FmdBpfBackend  *self,
         GError        **error)
{
  if (!fmd_bpf_engine_configure (self->engine, self->options, self->generation, error))
    return FALSE;

  self->drops_base = fmd_bpf_engine_read_drops (self->engine);
  self->drops_reported = 0;
  fmd_bpf_engine_set_consumer (self->engine, on_record, self);
  self->poll_id = g_unix_fd_add (fmd_bpf_engine_get_poll_fd (self->engine), G_IO_IN,
                                 poll_ready, self);
  self->tick_id = g_timeout_add (TICK_MS, tick, self);
  update_clock (self);

  fmd_bpf_engine_set_enabled (self->engine, TRUE);
  self->state = STATE_RUNNING;
  g_debug ("capture %u live, %u links", self->generation,
           fmd_bpf_engine_get_n_links (self->engine));
  fmd_backend_emit_running (FMD_BACKEND (self));
  return TRUE;
}

/* The engine goes back to the cache, disabled and emptied. */
static void
release_engine (FmdBpfBackend *self)
{
  FmdBpfEngine *engine = g_steal_pointer (&self->engine);

  if (engine == NULL)
    return;
  fmd_bpf_engine_set_enabled (engine, FALSE);
  fmd_bpf_engine_set_consumer (engine, NULL, NULL);
  fmd_bpf_engine_detach_syscalls (engine);
  fmd_bpf_engine_clear (engine);
  fmd_bpf_engine_cache_put (self->cache, engine, FMD_BACKEND_BPF_LINGER_SEC);
}

typedef struct {
  FmdBpfEngineCache *cache;
  FmdBpfEngine *engine;
  guint64 ringbuf_bytes;
} Prepare;

static void
prepare_free (gpointer data)
{
  Prepare *p = data;

  fmd_bpf_engine_cache_free_async (p->cache, p->engine);
  fmd_bpf_engine_cache_unref (p->cache);
  g_free (p);
}

static void
prepare_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Prepare *p = task_data;
  GError *error = NULL;

  if (p->engine == NULL && (p->engine = fmd_bpf_engine_load (p->ringbuf_bytes, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (!fmd_bpf_engine_attach (p->engine, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
prepared (GObject      *source_object,
          GAsyncResult *result,
          gpointer      user_data)
{
  FmdBpfBackend *self = FMD_BPF_BACKEND (source_object);
  Prepare *p = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);

  if (ok)
    self->engine = g_steal_pointer (&p->engine);

  if (self->state == STATE_STOPPING)
    {
      release_engine (self);
      self->state = STATE_IDLE;
      fmd_backend_emit_stopped (FMD_BACKEND (self));
      return;
    }

  if (ok && go_live (self, &error))
    return;

  if (self->engine != NULL)
    release_engine (self);
  self->state = STATE_FAILED;
  fmd_backend_emit_failed (FMD_BACKEND (self), error);
}

static gboolean
fmd_bpf_backend_start (FmdBackend        *backend,
                       const FmdOptions  *options,
                       GError           **error)
{
  FmdBpfBackend *self = FMD_BPF_BACKEND (backend);
  g_autoptr(GTask) task = NULL;
  Prepare *p;

  if (self->state == STATE_PREPARING || self->state == STATE_RUNNING
      || self->state == STATE_STOPPING)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_ALREADY_RUNNING, "bpf: the capture is already running");
      return FALSE;
    }

  g_clear_pointer (&self->options, fmd_options_free);
  self->options = fmd_options_copy (options);
  self->generation = fmd_bpf_engine_cache_next_generation (self->cache);

  self->engine = fmd_bpf_engine_cache_take (self->cache, self->ringbuf_bytes);
  if (self->engine != NULL)
    {
      /* the usual restart: loaded already, and attaching takes no grace period: live now */
      if (!fmd_bpf_engine_attach (self->engine, error) || !go_live (self, error))
        {
          release_engine (self);
          return FALSE;
        }
      return TRUE;
    }

  p = g_new0 (Prepare, 1);
  p->cache = fmd_bpf_engine_cache_ref (self->cache);
  p->engine = g_steal_pointer (&self->engine);
  p->ringbuf_bytes = self->ringbuf_bytes;

  self->state = STATE_PREPARING;
  task = g_task_new (self, NULL, prepared, NULL);
  g_task_set_source_tag (task, fmd_bpf_backend_start);
  g_task_set_task_data (task, p, prepare_free);
  g_task_run_in_thread (task, prepare_thread);
  return TRUE;
}

/* --- stop ------------------------------------------------------------------------------- */

static gboolean
drain (gpointer user_data)
{
  FmdBpfBackend *self = user_data;

  if (!read_ring (self))
    {
      self->drain_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->batch >= READ_BUDGET)
    return G_SOURCE_CONTINUE;

  self->drain_id = 0;
  report_drops (self);
  release_engine (self);
  self->state = STATE_IDLE;
  fmd_backend_emit_stopped (FMD_BACKEND (self));
  return G_SOURCE_REMOVE;
}

static void
fmd_bpf_backend_stop (FmdBackend *backend)
{
  FmdBpfBackend *self = FMD_BPF_BACKEND (backend);

  switch (self->state)
    {
    case STATE_PREPARING:
      /* prepared() finishes the stop */
      self->state = STATE_STOPPING;
      break;
    case STATE_RUNNING:
      /* From here the programs return at once; what is already in the ring buffer is
       * read before stopped is reported. */
      fmd_bpf_engine_set_enabled (self->engine, FALSE);
      self->state = STATE_STOPPING;
      g_clear_handle_id (&self->poll_id, g_source_remove);
      g_clear_handle_id (&self->tick_id, g_source_remove);
      g_clear_handle_id (&self->more_id, g_source_remove);
      self->drain_id = g_idle_add (drain, self);
      break;
    case STATE_STOPPING:
      break;
    case STATE_IDLE:
    case STATE_FAILED:
    default:
      fmd_backend_emit_stopped (backend);
      break;
    }
}

/* --- object ----------------------------------------------------------------------------- */

static void
fmd_bpf_backend_dispose (GObject *object)
{
  FmdBpfBackend *self = FMD_BPF_BACKEND (object);

  stop_sources (self);
  release_engine (self);

  G_OBJECT_CLASS (fmd_bpf_backend_parent_class)->dispose (object);
}

static void
fmd_bpf_backend_finalize (GObject *object)
{
  FmdBpfBackend *self = FMD_BPF_BACKEND (object);

  g_clear_pointer (&self->options, fmd_options_free);
  g_clear_pointer (&self->decoder, fmd_bpf_decoder_free);
  g_clear_pointer (&self->cache, fmd_bpf_engine_cache_unref);

  G_OBJECT_CLASS (fmd_bpf_backend_parent_class)->finalize (object);
}

static void
fmd_bpf_backend_class_init (FmdBpfBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  FmdBackendClass *backend_class = FMD_BACKEND_CLASS (klass);

  object_class->dispose = fmd_bpf_backend_dispose;
  object_class->finalize = fmd_bpf_backend_finalize;
  backend_class->start = fmd_bpf_backend_start;
  backend_class->stop = fmd_bpf_backend_stop;
}

static void
fmd_bpf_backend_init (FmdBpfBackend *self)
{
  self->decoder = fmd_bpf_decoder_new ();
}

static FmdBackend *
backend_new (FmdBpfEngineCache *cache,
             const FmdConfig   *config)
{
  FmdBpfBackend *self = g_object_new (FMD_TYPE_BPF_BACKEND, NULL);
  guint64 bytes = (guint64) MAX (config->bpf_ringbuf_mb, 1) * 1024 * 1024;

  self->cache = fmd_bpf_engine_cache_ref (cache);
  /* the kernel wants a power of two pages */
  self->ringbuf_bytes = (guint64) 1 << g_bit_storage (bytes - 1);
  return FMD_BACKEND (self);
}

/* --- the type ----------------------------------------------------------------------------- */

struct _FmdBpfBackendType {
  FmdBackendType parent_instance;

  FmdBpfEngineCache *cache;
};

G_DEFINE_FINAL_TYPE (FmdBpfBackendType, fmd_bpf_backend_type, FMD_TYPE_BACKEND_TYPE)

static FmdProbeResult
fmd_bpf_backend_type_probe (FmdBackendType   *type,
                            const FmdConfig  *config,
                            char            **reason)
{
  *reason = fmd_backend_bpf_unavailable_reason (config);
  return *reason != NULL ? FMD_PROBE_FAIL : FMD_PROBE_SUCCESS;
}

static FmdBackend *
fmd_bpf_backend_type_create (FmdBackendType  *type,
                             const FmdConfig *config)
{
  return backend_new (FMD_BPF_BACKEND_TYPE (type)->cache, config);
}

FmdBackendType *
fmd_bpf_backend_type_new (void)
{
  return g_object_new (FMD_TYPE_BPF_BACKEND_TYPE, "name", "bpf", NULL);
}

FmdBpfEngineCache *
fmd_bpf_backend_type_get_engine_cache (FmdBpfBackendType *self)
{
  g_return_val_if_fail (FMD_IS_BPF_BACKEND_TYPE (self), NULL);

  return self->cache;
}

/* The loaded program kept for the next capture goes with the type: detached and freed now,
 * blocking for as long as the kernel takes (a few ms a link), and so do the teardowns in
 * progress. Backends still alive keep the cache itself, not what it held. */
static void
fmd_bpf_backend_type_dispose (GObject *object)
{
  FmdBpfBackendType *self = FMD_BPF_BACKEND_TYPE (object);

  if (self->cache != NULL)
    fmd_bpf_engine_cache_shutdown (self->cache);
  g_clear_pointer (&self->cache, fmd_bpf_engine_cache_unref);

  G_OBJECT_CLASS (fmd_bpf_backend_type_parent_class)->dispose (object);
}

static void
fmd_bpf_backend_type_class_init (FmdBpfBackendTypeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  FmdBackendTypeClass *type_class = FMD_BACKEND_TYPE_CLASS (klass);

  object_class->dispose = fmd_bpf_backend_type_dispose;
  type_class->probe = fmd_bpf_backend_type_probe;
  type_class->create = fmd_bpf_backend_type_create;
}

static void
fmd_bpf_backend_type_init (FmdBpfBackendType *self)
{
  self->cache = fmd_bpf_engine_cache_new ();
}
