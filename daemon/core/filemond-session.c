/* filemond-session.c: one capture at a time; see filemond-session.h.
 *
 * The options' filter (filemond-options.h) is evaluated on every event, less what the
 * backends have decided exactly at the source (its remainder): the kernel part is only
 * implied by the filter (comm=ssh* leaves the process name free there), and the
 * backends pass what they cannot compare exactly (a path cut or deleted), so a client
 * never sees more than it asked for. FilteredCount counts what this drops.
 *
 * The remainder is a member's text and may cost milliseconds an event (fm-filter.h), so
 * it never runs on the main loop, which answers the bus: a filter worker
 * (filemond-filter-worker.h) evaluates it in a thread and hands the events it keeps back
 * in order. Events its bounded queue cannot take are counted as dropped. A Stop discards
 * the backlog (counted as dropped too); a backend that ends on its own lets the worker
 * finish first. Without a remainder, events go to the ring directly.
 */
#include "config.h"

#include "filemond-session.h"

#include <string.h>

#include "filemond-filter-worker.h"
#include "fm-error.h"

/* After a Stop, the filter worker's backlog is given this long before it is dropped. */
#define STOP_DRAIN_MS 500

struct _FmdSession {
  GObject parent_instance;

  const FmdConfig *config;
  FmdRing *ring;

  FmdBackendRegistry *registry;

  FmdState state;
  FmdBackend *backend;
  char *backend_name;
  char *last_error;
  char *progress;
  gint64 started_at;
  FmdOptions *options;
  FmdFilterWorker *worker;   /* while a capture with a remainder runs or finishes */
  FmdState final_state;      /* what a finishing worker ends in: idle or failed */
  gboolean stop_asked;       /* Stop was called: the worker gets STOP_DRAIN_MS to finish */
  guint drain_id;
  gboolean drop_notified;    /* since the worker last handed events over */
  guint64 n_undecided;       /* the worker's last count, to warn once */

  guint64 event_count;
  guint64 dropped_count;
  guint64 filtered_count;
};

enum {
  PROP_0,
  PROP_STATE,
  PROP_BACKEND_NAME,
  PROP_LAST_ERROR,
  PROP_PROGRESS,
  PROP_STARTED_AT,
  PROP_DROPPED_COUNT,
  PROP_OPTIONS,
  PROP_AVAILABLE_BACKENDS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (FmdSession, fmd_session, G_TYPE_OBJECT)

static const char *state_names[] = {
  [FMD_STATE_IDLE] = "idle",
  [FMD_STATE_STARTING] = "starting",
  [FMD_STATE_COMPILING] = "compiling",
  [FMD_STATE_RUNNING] = "running",
  [FMD_STATE_STOPPING] = "stopping",
  [FMD_STATE_FAILED] = "failed",
};

const char *
fmd_state_to_string (FmdState state)
{
  g_return_val_if_fail ((gsize) state < G_N_ELEMENTS (state_names), NULL);

  return state_names[state];
}

gboolean
fmd_state_is_capturing (FmdState state)
{
  return state == FMD_STATE_STARTING || state == FMD_STATE_COMPILING ||
         state == FMD_STATE_RUNNING;
}

/* --- state ----------------------------------------------------------------------------- */

/* Sets the string property @prop held in @field, notifying only on a change. */
static void
set_string (FmdSession *self,
            char      **field,
            const char *value,
            guint       prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_progress (FmdSession *self,
              const char *progress)
{
  set_string (self, &self->progress, progress, PROP_PROGRESS);
}

static gboolean
is_starting (FmdSession *self)
{
  return self->state == FMD_STATE_STARTING || self->state == FMD_STATE_COMPILING;
}

static void
set_state (FmdSession *self,
           FmdState    state)
{
  if (self->state == state)
    return;

  g_debug ("capture state: %s -> %s", state_names[self->state], state_names[state]);
  self->state = state;
  if (state != FMD_STATE_COMPILING)
    set_progress (self, "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
set_last_error (FmdSession *self,
                const char *message)
{
  set_string (self, &self->last_error, message, PROP_LAST_ERROR);
}

static gboolean
release_backend_cb (gpointer data)
{
  return G_SOURCE_REMOVE;
}

/* The backend may be inside one of its own callbacks: let it unwind before it goes. */
static void
release_backend (FmdSession *self)
{
  static const FmdBackendSink nothing = { 0 };

  if (self->backend == NULL)
    return;

  fmd_backend_set_sink (self->backend, &nothing, NULL);
  g_idle_add_full (G_PRIORITY_DEFAULT, release_backend_cb,
                   g_steal_pointer (&self->backend), g_object_unref);
}

/* --- the sink ------------------------------------------------------------------------ */

static void
add_dropped (FmdSession *self,
             guint64     count)
{
  self->dropped_count += count;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DROPPED_COUNT]);
}

static void
keep_event (FmdSession    *self,
            const FmEvent *event)
{
  fmd_ring_append (self->ring, event);
  self->event_count++;

  /* the first event proves the probes fire, whatever the backend said */
  if (is_starting (self))
    set_state (self, FMD_STATE_RUNNING);
}

static void
worker_kept (const FmEvent *event,
             gpointer       user_data)
{
  keep_event (user_data, event);
}

static void
worker_batch (guint64  n_filtered,
              guint64  n_undecided,
              gpointer user_data)
{
  FmdSession *self = user_data;

  self->filtered_count += n_filtered;
  if (n_undecided > 0 && self->n_undecided == 0)
    g_warning ("the capture's filter has a ~ comparison that took longer than its bound "
               "allows; events it could not decide are kept (see “~” in filemon-filter)");
  self->n_undecided = n_undecided;
  if (self->drop_notified)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DROPPED_COUNT]);
  self->drop_notified = FALSE;
}

/* Ends the worker at once, counting what it held as dropped. */
static void
stop_worker (FmdSession *self)
{
  g_autoptr(FmdFilterWorker) worker = g_steal_pointer (&self->worker);
  guint64 discarded;

  if (worker == NULL)
    return;
  discarded = fmd_filter_worker_stop (worker);
  if (discarded > 0)
    {
      g_info ("stop: %" G_GUINT64_FORMAT " events not yet filtered were discarded", discarded);
      add_dropped (self, discarded);
    }
}

static void
sink_event (const FmEvent *event,
            gpointer       user_data)
{
  FmdSession *self = user_data;

  if (self->worker == NULL)
    {
      keep_event (self, event);
      return;
    }
  if (!fmd_filter_worker_push (self->worker, event))
    {
      /* notified once per batch handed back: a notification an event would cost more
       * than the filter */
      self->dropped_count++;
      if (!self->drop_notified)
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DROPPED_COUNT]);
      self->drop_notified = TRUE;
    }
}

static void
sink_running (gpointer user_data)
{
  FmdSession *self = user_data;

  if (is_starting (self))
    set_state (self, FMD_STATE_RUNNING);
}

static void
sink_compiling (const char *progress,
                gpointer    user_data)
{
  FmdSession *self = user_data;

  if (!is_starting (self))
    return;
  if (progress != NULL)
    {
      set_progress (self, progress);
      set_state (self, FMD_STATE_COMPILING);
    }
  else
    set_state (self, FMD_STATE_STARTING);
}

static void
sink_dropped (guint64  count,
              gpointer user_data)
{
  add_dropped (user_data, count);
}

static gboolean
worker_finished (gpointer user_data)
{
  FmdSession *self = user_data;

  g_clear_handle_id (&self->drain_id, g_source_remove);
  g_clear_object (&self->worker);
  set_state (self, self->final_state);
  return G_SOURCE_REMOVE;
}

/* A Stop's backlog has had its time: what is left goes, counted as dropped. */
static gboolean
drain_timeout_cb (gpointer user_data)
{
  FmdSession *self = user_data;

  self->drain_id = 0;
  stop_worker (self);
  set_state (self, self->final_state);
  return G_SOURCE_REMOVE;
}

/* The backend has ended (on its own, or stopped): what the worker holds, the events the
 * backend drained while it stopped included, is filtered first, then @state. After a
 * Stop the worker gets STOP_DRAIN_MS for that, so that a slow filter's backlog cannot
 * hold the capture in stopping. */
static void
end_capture (FmdSession *self,
             FmdState    state)
{
  if (self->worker == NULL)
    {
      set_state (self, state);
      return;
    }
  self->final_state = state;
  set_state (self, FMD_STATE_STOPPING);
  fmd_filter_worker_finish (self->worker, worker_finished, self);
  if (self->stop_asked && self->worker != NULL && self->drain_id == 0)
    self->drain_id = g_timeout_add (STOP_DRAIN_MS, drain_timeout_cb, self);
}

static void
sink_failed (const GError *error,
             gpointer      user_data)
{
  FmdSession *self = user_data;

  g_warning ("%s capture failed: %s", self->backend_name, error->message);
  set_last_error (self, error->message);
  release_backend (self);
  end_capture (self, FMD_STATE_FAILED);
}

static void
sink_stopped (gpointer user_data)
{
  FmdSession *self = user_data;

  g_info ("%s capture stopped after %" G_GUINT64_FORMAT " events", self->backend_name,
          self->event_count);
  release_backend (self);
  end_capture (self, FMD_STATE_IDLE);
}

static const FmdBackendSink session_sink = {
  .event = sink_event,
  .running = sink_running,
  .compiling = sink_compiling,
  .dropped = sink_dropped,
  .failed = sink_failed,
  .stopped = sink_stopped,
};

/* --- public ---------------------------------------------------------------------------- */

/* NULL when @type can run here, else why not. A deferred probe counts as usable: a Start
 * then finds out the same way, and AvailableBackends changes when the answer comes. */
static char *
probe (FmdSession     *self,
       FmdBackendType *type)
{
  char *reason = NULL;

  (void) fmd_backend_type_probe (type, self->config, &reason);
  return reason;
}

/* The type @requested names ("auto": the configured default, else the first of the
 * registry that can run here). */
static FmdBackendType *
choose_backend (FmdSession  *self,
                const char  *requested,
                GError     **error)
{
  FmdBackendType *type;
  g_autoptr(GString) reasons = NULL;

  if (g_str_equal (requested, "auto"))
    requested = self->config->default_backend;

  if (!g_str_equal (requested, "auto"))
    {
      g_autofree char *reason = NULL;

      type = fmd_backend_registry_lookup (self->registry, requested);
      if (type == NULL)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_UNAVAILABLE,
                       "%s: this build of filemond has no such backend", requested);
          return NULL;
        }
      reason = probe (self, type);
      if (reason != NULL)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_UNAVAILABLE,
                       "%s (see the AvailableBackends property)", reason);
          return NULL;
        }
      return type;
    }

  reasons = g_string_new (NULL);
  for (guint i = 0; i < fmd_backend_registry_get_n_types (self->registry); i++)
    {
      FmdBackendType *candidate = fmd_backend_registry_nth (self->registry, i);
      g_autofree char *reason = probe (self, candidate);

      if (reason == NULL)
        return candidate;
      g_string_append_printf (reasons, "%s%s", reasons->len > 0 ? "; " : "", reason);
    }
  g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_UNAVAILABLE,
               "no capture backend can run here: %s", reasons->str);
  return NULL;
}

gboolean
fmd_session_start (FmdSession        *self,
                   const FmdOptions  *options,
                   GError           **error)
{
  g_autoptr(FmdOptions) copy = NULL;
  g_autoptr(FmdBackend) backend = NULL;
  g_autoptr(GError) local_error = NULL;
  FmdBackendType *type;

  g_return_val_if_fail (FMD_IS_SESSION (self), FALSE);
  g_return_val_if_fail (options != NULL, FALSE);

  switch (self->state)
    {
    case FMD_STATE_STARTING:
    case FMD_STATE_COMPILING:
    case FMD_STATE_RUNNING:
      g_set_error (error, FM_ERROR, FM_ERROR_ALREADY_RUNNING,
                   "a %s capture is already %s; stop it first", self->backend_name,
                   state_names[self->state]);
      return FALSE;
    case FMD_STATE_STOPPING:
      g_set_error (error, FM_ERROR, FM_ERROR_ALREADY_RUNNING,
                   "the last %s capture is still stopping; start again when State is idle",
                   self->backend_name);
      return FALSE;
    case FMD_STATE_IDLE:
    case FMD_STATE_FAILED:
    default:
      break;
    }

  type = choose_backend (self, options->backend, error);
  if (type == NULL)
    return FALSE;

  backend = fmd_backend_type_create (type, self->config);
  if (backend == NULL)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_UNAVAILABLE,
                   "%s: this build of filemond has no such backend",
                   fmd_backend_type_get_name (type));
      return FALSE;
    }

  copy = fmd_options_copy (options);
  g_free (copy->backend);
  copy->backend = g_strdup (fmd_backend_type_get_name (type));

  g_clear_pointer (&self->options, fmd_options_free);
  self->options = g_steal_pointer (&copy);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPTIONS]);

  g_free (self->backend_name);
  self->backend_name = g_strdup (fmd_backend_type_get_name (type));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BACKEND_NAME]);

  self->stop_asked = FALSE;
  if (self->options->remainder != NULL)
    {
      self->worker = fmd_filter_worker_new (self->options->remainder, worker_kept, worker_batch,
                                            self, error);
      if (self->worker == NULL)
        return FALSE;
      self->drop_notified = FALSE;
      self->n_undecided = 0;
    }

  self->started_at = g_get_real_time ();
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STARTED_AT]);
  set_last_error (self, "");

  /* the backend may report running (or failure) before start returns */
  self->backend = g_object_ref (backend);
  fmd_backend_set_sink (backend, &session_sink, self);
  set_state (self, FMD_STATE_STARTING);

  if (!fmd_backend_start (backend, self->options, &local_error))
    {
      if (local_error->domain != FM_ERROR)
        {
          g_autoptr(GError) wrapped = g_error_new (FM_ERROR, FM_ERROR_BACKEND_FAILED, "%s: %s",
                                                   self->backend_name, local_error->message);
          g_clear_error (&local_error);
          local_error = g_steal_pointer (&wrapped);
        }
      g_warning ("cannot start the %s capture: %s", self->backend_name, local_error->message);
      set_last_error (self, local_error->message);
      release_backend (self);
      stop_worker (self);
      set_state (self, FMD_STATE_FAILED);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_info ("%s capture started", self->backend_name);
  return TRUE;
}

gboolean
fmd_session_stop (FmdSession *self,
                  GError    **error)
{
  g_return_val_if_fail (FMD_IS_SESSION (self), FALSE);

  /* the backend has ended and the worker is finishing its backlog: no need to wait */
  if (self->state == FMD_STATE_STOPPING && self->backend == NULL && self->worker != NULL)
    {
      g_clear_handle_id (&self->drain_id, g_source_remove);
      stop_worker (self);
      set_state (self, self->final_state);
      return TRUE;
    }
  if (!is_starting (self) && self->state != FMD_STATE_RUNNING)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_NOT_RUNNING,
                   "no capture is running (state %s); nothing to stop",
                   state_names[self->state]);
      return FALSE;
    }

  set_state (self, FMD_STATE_STOPPING);
  /* The worker stays until the backend has stopped: a backend drains what the kernel
   * still holds as it stops, and those events must be filtered too (they were kept
   * unfiltered when the worker went first). end_capture() bounds the wait. */
  self->stop_asked = TRUE;
  /* may call sink_stopped before returning */
  fmd_backend_stop (self->backend);
  return TRUE;
}

FmdState fmd_session_get_state (FmdSession *self) { return self->state; }
const char *fmd_session_get_backend_name (FmdSession *self) { return self->backend_name; }
const char *fmd_session_get_last_error (FmdSession *self) { return self->last_error; }
const char *fmd_session_get_progress (FmdSession *self) { return self->progress; }
gint64 fmd_session_get_started_at (FmdSession *self) { return self->started_at; }
const FmdOptions *fmd_session_get_options (FmdSession *self) { return self->options; }
guint64 fmd_session_get_event_count (FmdSession *self) { return self->event_count; }
guint64 fmd_session_get_dropped_count (FmdSession *self) { return self->dropped_count; }
guint64 fmd_session_get_filtered_count (FmdSession *self) { return self->filtered_count; }

FmdBackendRegistry *
fmd_session_get_registry (FmdSession *self)
{
  g_return_val_if_fail (FMD_IS_SESSION (self), NULL);

  return self->registry;
}

GVariant *
fmd_session_dup_available_backends (FmdSession *self)
{
  GVariantBuilder builder;

  g_return_val_if_fail (FMD_IS_SESSION (self), NULL);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  for (guint i = 0; i < fmd_backend_registry_get_n_types (self->registry); i++)
    {
      FmdBackendType *type = fmd_backend_registry_nth (self->registry, i);
      g_autofree char *reason = probe (self, type);

      g_variant_builder_add (&builder, "{ss}", fmd_backend_type_get_name (type),
                             reason != NULL ? reason : "");
    }
  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

static void
probe_request_cb (FmdBackendRegistry *registry,
                  FmdBackendType     *type,
                  FmdSession         *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AVAILABLE_BACKENDS]);
}

FmdSession *
fmd_session_new (const FmdConfig    *config,
                 FmdBackendRegistry *registry,
                 FmdRing            *ring)
{
  FmdSession *self;

  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (FMD_IS_BACKEND_REGISTRY (registry), NULL);
  g_return_val_if_fail (ring != NULL, NULL);

  self = g_object_new (FMD_TYPE_SESSION, NULL);
  self->config = config;
  self->registry = g_object_ref (registry);
  self->ring = ring;
  g_signal_connect_object (registry, "probe-request", G_CALLBACK (probe_request_cb), self, 0);
  return self;
}

static void
fmd_session_dispose (GObject *object)
{
  FmdSession *self = FMD_SESSION (object);

  if (self->backend != NULL)
    {
      static const FmdBackendSink nothing = { 0 };

      /* the service stops the capture before it lets go; this is the last resort */
      fmd_backend_set_sink (self->backend, &nothing, NULL);
      if (self->state == FMD_STATE_STARTING || self->state == FMD_STATE_RUNNING)
        fmd_backend_stop (self->backend);
      g_clear_object (&self->backend);
    }
  g_clear_handle_id (&self->drain_id, g_source_remove);
  stop_worker (self);
  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  g_clear_object (&self->registry);

  G_OBJECT_CLASS (fmd_session_parent_class)->dispose (object);
}

static void
fmd_session_finalize (GObject *object)
{
  FmdSession *self = FMD_SESSION (object);

  g_free (self->backend_name);
  g_free (self->last_error);
  g_free (self->progress);
  g_clear_pointer (&self->options, fmd_options_free);

  G_OBJECT_CLASS (fmd_session_parent_class)->finalize (object);
}

static void
fmd_session_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  FmdSession *self = FMD_SESSION (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_BACKEND_NAME:
      g_value_set_string (value, self->backend_name);
      break;
    case PROP_LAST_ERROR:
      g_value_set_string (value, self->last_error);
      break;
    case PROP_PROGRESS:
      g_value_set_string (value, self->progress);
      break;
    case PROP_STARTED_AT:
      g_value_set_int64 (value, self->started_at);
      break;
    case PROP_DROPPED_COUNT:
      g_value_set_uint64 (value, self->dropped_count);
      break;
    case PROP_OPTIONS:
      g_value_set_pointer (value, self->options);
      break;
    case PROP_AVAILABLE_BACKENDS:
      g_value_take_variant (value, fmd_session_dup_available_backends (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fmd_session_class_init (FmdSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = fmd_session_dispose;
  object_class->finalize = fmd_session_finalize;
  object_class->get_property = fmd_session_get_property;

  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, FMD_STATE_IDLE, FMD_STATE_FAILED, FMD_STATE_IDLE, flags);
  properties[PROP_BACKEND_NAME] = g_param_spec_string ("backend-name", NULL, NULL, "", flags);
  properties[PROP_LAST_ERROR] = g_param_spec_string ("last-error", NULL, NULL, "", flags);
  properties[PROP_PROGRESS] = g_param_spec_string ("progress", NULL, NULL, "", flags);
  properties[PROP_STARTED_AT] =
    g_param_spec_int64 ("started-at", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_DROPPED_COUNT] =
    g_param_spec_uint64 ("dropped-count", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_OPTIONS] = g_param_spec_pointer ("options", NULL, NULL, flags);
  /* notified when a backend's check ends after the fact (stap's trial build) */
  properties[PROP_AVAILABLE_BACKENDS] =
    g_param_spec_variant ("available-backends", NULL, NULL, G_VARIANT_TYPE ("a{ss}"), NULL, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fmd_session_init (FmdSession *self)
{
  self->backend_name = g_strdup ("");
  self->last_error = g_strdup ("");
  self->progress = g_strdup ("");
}
