/* kernel-capture.h: what the kernel tier's tests share: a bpf backend driven on a
 * GMainLoop with a sink that keeps the events, and children with known pids that wait for
 * a go before they make their syscalls. Runs as root, for real. */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "fm-event.h"
#include "filemond-backend-bpf.h"
#include "filemond-options.h"

typedef struct {
  FmEvent event;   /* its strings point at the copies below */
  char *comm;
  char *path;
  char *path2;
  char *detail;
} KcEvent;

typedef struct {
  FmdBackend *backend;
  GArray *events;          /* KcEvent, unless count_only */
  gboolean count_only;
  guint32 count_pid;       /* in count_only mode: events of this pid are counted */
  guint64 counted;
  guint64 total;           /* every event delivered */
  guint64 dropped;
  gboolean running;
  gboolean stopped;
  GError *failed;
  /* called for every event before it is kept (to stall the reader in tests) */
  void (*on_event) (const FmEvent *event, gpointer data);
  gpointer on_event_data;
} KcCapture;

/* The bpf backend type every capture of the test program is made by: its engine cache
 * carries a stopped capture's program to the next one, as the daemon's does. */
FmdBpfBackendType *kc_bpf_type (void);
/* Tears down what the type keeps (its cached engine, teardowns in progress), as the
 * daemon's registry does before it exits. */
void kc_bpf_shutdown (void);

/* A capture with a ring buffer of @ringbuf_mb (0: the default). */
KcCapture *kc_capture_new (guint ringbuf_mb);
void kc_capture_free (KcCapture *capture);
/* Starts and waits (on the main loop) until the backend says it runs. */
void kc_capture_start (KcCapture *capture, const FmdOptions *options);
/* Stops and waits until stopped: every event in the ring buffer has been read. */
void kc_capture_stop (KcCapture *capture);

/* Options for exactly these syscalls ("openat", "write", NULL) and pids (0-terminated). */
FmdOptions *kc_options (const char *const *syscalls, const guint32 *pids);

/* The events of @pid, in order (views into the capture). */
GPtrArray *kc_events_of (KcCapture *capture, guint32 pid);

typedef void (*KcChildFunc) (gpointer data);

typedef struct {
  pid_t pid;
  int go_fd;
  gboolean exited;
  int status;
} KcChild;

/* Forks a child that runs @func once kc_child_go() is called, then _exits 0. @func may
 * only use async-signal-safe calls. */
void kc_child_spawn (KcChild *child, KcChildFunc func, gpointer data);
void kc_child_go (KcChild *child);
/* Waits for the child on the main loop (events keep being read meanwhile). */
void kc_child_wait (KcChild *child);

/* Iterates the default main context until @done is TRUE or @timeout_ms passes (fails). */
void kc_iterate_until (gboolean *done, guint timeout_ms, const char *what);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KcCapture, kc_capture_free)
