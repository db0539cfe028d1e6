/* filemond-bpf-engine.h: the loaded BPF object of the bpf backend: programs, maps, the
 * tracepoint links and the ring buffer reader, plus what it costs to get rid of them.
 *
 * Loading is the verifier's slow work, so an engine outlives the capture that loaded it: a
 * stopped capture detaches the syscall programs (every syscall of the machine would run
 * them otherwise; a raw tracepoint link goes in a few ms) and gives the engine back to a
 * cache, and the next capture takes it again, attaches them (well under a millisecond) and
 * is live at once. A cached engine nobody takes is torn down after a while in a worker
 * thread; fmd_bpf_engine_cache_shutdown() tears everything down now (when the bpf backend
 * type goes, with the daemon's registry, before filemond exits).
 *
 * An engine has one owner at a time (the cache, a backend, a worker thread), so it needs no
 * lock; only the cache and the shutdown bookkeeping are shared, on the main thread.
 */
#pragma once

#include <glib.h>

#include "fm-syscalls.h"
#include "filemond-options.h"

G_BEGIN_DECLS

typedef struct _FmdBpfEngine FmdBpfEngine;

/* Receives each ring buffer record; return FALSE to stop consuming for now. */
typedef gboolean (*FmdBpfRecordFunc) (const void *data, gsize len, gpointer user_data);

/* Whether the running kernel is @major.@minor or later; TRUE when uname cannot tell (loading
 * will). @release, if not NULL, receives uname's release. */
gboolean fmd_bpf_kernel_at_least (guint major, guint minor, char **release);

/* Loads the object (the verifier's slow work): blocking, fine in a worker thread. */
FmdBpfEngine *fmd_bpf_engine_load (guint64 ringbuf_bytes, GError **error);
/* Attaches what is not attached yet: the syscall enter and exit programs and the process
 * fork and exit hooks. Well under a millisecond (no grace period to wait for). */
gboolean fmd_bpf_engine_attach (FmdBpfEngine *self, GError **error);
/* Detaches every link and frees every map; blocking for as long as the kernel takes. */
void fmd_bpf_engine_free (FmdBpfEngine *self);

guint64 fmd_bpf_engine_get_ringbuf_bytes (FmdBpfEngine *self);
/* Detaches the syscall enter and exit programs (the capture must be disabled). */
void fmd_bpf_engine_detach_syscalls (FmdBpfEngine *self);

/* Writes the capture's filters and syscall set to the maps, the program still disabled.
 * FM_ERROR_INVALID_ARGS when a filter does not fit in its map. */
gboolean fmd_bpf_engine_configure (FmdBpfEngine      *self,
                                   const FmdOptions  *options,
                                   guint32            generation,
                                   GError           **error);
void fmd_bpf_engine_set_enabled (FmdBpfEngine *self, gboolean enabled);
/* Empties the per-thread slots and the filter maps (after the capture is disabled). */
void fmd_bpf_engine_clear (FmdBpfEngine *self);

/* The ring buffer reader: @func gets each record. */
void fmd_bpf_engine_set_consumer (FmdBpfEngine *self, FmdBpfRecordFunc func, gpointer user_data);
/* The fd to poll (readable when a wake-up came). */
int fmd_bpf_engine_get_poll_fd (FmdBpfEngine *self);
/* Reads what is in the ring buffer; returns the records read, or -1 with errno set. */
int fmd_bpf_engine_consume (FmdBpfEngine *self);
/* Events lost in the kernel since the load, all reasons summed. */
guint64 fmd_bpf_engine_read_drops (FmdBpfEngine *self);

/* For tests and diagnostics: the kernel ids of the engine's programs, links and maps. */
void fmd_bpf_engine_get_ids (FmdBpfEngine *self, GArray *prog_ids, GArray *link_ids, GArray *map_ids);
guint fmd_bpf_engine_get_n_links (FmdBpfEngine *self);

/* Where a stopped capture's engine waits for the next one, and the teardowns in progress:
 * owned by the bpf backend type, and referenced by each backend it made and each
 * teardown thread. Main thread only, but for the references and the teardowns.
 *
 * take returns the cached engine when it was loaded with @ringbuf_bytes (a different size
 * tears it down), else NULL. put keeps @engine for the next capture (it must be disabled,
 * detached from the syscalls and cleared) and schedules its teardown after @linger_sec
 * seconds of disuse. free_async frees an engine in a worker thread. shutdown tears down
 * the cached engine and waits for every teardown in progress. */
typedef struct _FmdBpfEngineCache FmdBpfEngineCache;

FmdBpfEngineCache *fmd_bpf_engine_cache_new (void);
FmdBpfEngineCache *fmd_bpf_engine_cache_ref (FmdBpfEngineCache *cache);
void fmd_bpf_engine_cache_unref (FmdBpfEngineCache *cache);
FmdBpfEngine *fmd_bpf_engine_cache_take (FmdBpfEngineCache *cache,
                                         guint64            ringbuf_bytes);
void fmd_bpf_engine_cache_put (FmdBpfEngineCache *cache,
                               FmdBpfEngine      *engine,
                               guint              linger_sec);
void fmd_bpf_engine_cache_free_async (FmdBpfEngineCache *cache,
                                      FmdBpfEngine      *engine);
void fmd_bpf_engine_cache_shutdown (FmdBpfEngineCache *cache);
/* A number no capture of this cache's engines had: records an engine wrote for an
 * earlier capture are told apart. */
guint32 fmd_bpf_engine_cache_next_generation (FmdBpfEngineCache *cache);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmdBpfEngineCache, fmd_bpf_engine_cache_unref)

G_END_DECLS
