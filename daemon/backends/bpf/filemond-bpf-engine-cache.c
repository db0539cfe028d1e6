/* filemond-bpf-engine-cache.c: where a stopped capture's engine waits for the next
 * capture, and its teardown in worker threads; see filemond-bpf-engine.h. */
#include "config.h"

#include "filemond-bpf-engine.h"

struct _FmdBpfEngineCache {
  FmdBpfEngine *engine;      /* main thread only, as is the timeout */
  guint timeout_id;
  guint32 generation;

  /* teardowns run in worker threads; shutdown waits for them */
  GMutex lock;
  GCond cond;
  guint teardowns_running;
};

typedef struct {
  FmdBpfEngineCache *cache;
  FmdBpfEngine *engine;
} Teardown;

static gpointer
free_thread (gpointer data)
{
  Teardown *teardown = data;
  FmdBpfEngineCache *cache = teardown->cache;

  fmd_bpf_engine_free (teardown->engine);
  g_free (teardown);

  g_mutex_lock (&cache->lock);
  cache->teardowns_running--;
  g_cond_broadcast (&cache->cond);
  g_mutex_unlock (&cache->lock);
  fmd_bpf_engine_cache_unref (cache);
  return NULL;
}

void
fmd_bpf_engine_cache_free_async (FmdBpfEngineCache *cache,
                                 FmdBpfEngine      *engine)
{
  g_autoptr(GError) error = NULL;
  Teardown *teardown;
  GThread *thread;

  g_return_if_fail (cache != NULL);

  if (engine == NULL)
    return;

  g_mutex_lock (&cache->lock);
  cache->teardowns_running++;
  g_mutex_unlock (&cache->lock);

  teardown = g_new0 (Teardown, 1);
  teardown->cache = fmd_bpf_engine_cache_ref (cache);
  teardown->engine = engine;
  thread = g_thread_try_new ("filemond-bpf-free", free_thread, teardown, &error);
  if (thread == NULL)
    {
      g_warning ("no thread to detach in (%s); detaching on the main thread", error->message);
      free_thread (teardown);
      return;
    }
  g_thread_unref (thread);
}

static gboolean
cached_expired (gpointer data)
{
  FmdBpfEngineCache *cache = data;

  cache->timeout_id = 0;
  if (cache->engine != NULL)
    {
      g_info ("no capture for a while; freeing the loaded programs and maps");
      fmd_bpf_engine_cache_free_async (cache, g_steal_pointer (&cache->engine));
    }
  return G_SOURCE_REMOVE;
}

FmdBpfEngineCache *
fmd_bpf_engine_cache_new (void)
{
  FmdBpfEngineCache *cache = g_atomic_rc_box_new0 (FmdBpfEngineCache);

  g_mutex_init (&cache->lock);
  g_cond_init (&cache->cond);
  return cache;
}

FmdBpfEngineCache *
fmd_bpf_engine_cache_ref (FmdBpfEngineCache *cache)
{
  return g_atomic_rc_box_acquire (cache);
}

static void
cache_clear (gpointer data)
{
  FmdBpfEngineCache *cache = data;

  /* the last reference: no teardown thread is left, and shutdown ran or had nothing */
  g_clear_handle_id (&cache->timeout_id, g_source_remove);
  g_clear_pointer (&cache->engine, fmd_bpf_engine_free);
  g_mutex_clear (&cache->lock);
  g_cond_clear (&cache->cond);
}

void
fmd_bpf_engine_cache_unref (FmdBpfEngineCache *cache)
{
  g_atomic_rc_box_release_full (cache, cache_clear);
}

guint32
fmd_bpf_engine_cache_next_generation (FmdBpfEngineCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);

  return ++cache->generation;
}

FmdBpfEngine *
fmd_bpf_engine_cache_take (FmdBpfEngineCache *cache,
                           guint64            ringbuf_bytes)
{
  g_return_val_if_fail (cache != NULL, NULL);

  g_clear_handle_id (&cache->timeout_id, g_source_remove);
  if (cache->engine != NULL && fmd_bpf_engine_get_ringbuf_bytes (cache->engine) != ringbuf_bytes)
    fmd_bpf_engine_cache_free_async (cache, g_steal_pointer (&cache->engine));
  return g_steal_pointer (&cache->engine);
}

void
fmd_bpf_engine_cache_put (FmdBpfEngineCache *cache,
                          FmdBpfEngine      *self,
                          guint              linger_sec)
{
  g_return_if_fail (cache != NULL);
  g_return_if_fail (self != NULL);

  fmd_bpf_engine_set_consumer (self, NULL, NULL);
  g_clear_handle_id (&cache->timeout_id, g_source_remove);
  if (cache->engine != NULL)
    fmd_bpf_engine_cache_free_async (cache, g_steal_pointer (&cache->engine));
  cache->engine = self;
  /* the timeout is removed before the cache can go (take, put, shutdown, the last unref) */
  cache->timeout_id = g_timeout_add_seconds (linger_sec, cached_expired, cache);
}

void
fmd_bpf_engine_cache_shutdown (FmdBpfEngineCache *cache)
{
  g_return_if_fail (cache != NULL);

  g_clear_handle_id (&cache->timeout_id, g_source_remove);
  g_clear_pointer (&cache->engine, fmd_bpf_engine_free);

  g_mutex_lock (&cache->lock);
  while (cache->teardowns_running > 0)
    g_cond_wait (&cache->cond, &cache->lock);
  g_mutex_unlock (&cache->lock);
}
