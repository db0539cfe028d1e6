/* test-daemon-util.h: small helpers shared by the daemon unit tests. */
#pragma once

#include <glib.h>

#include "filemond-backends.h"
#include "fm-event.h"

/* The registry of this build's backends, for what checks names against it (options,
 * config); made once, kept for the test program's life. */
static inline FmdBackendRegistry *
test_registry (void)
{
  static FmdBackendRegistry *registry;

  if (registry == NULL)
    registry = fmd_backends_new_registry ();
  return registry;
}

/* Event number @i, with a path long enough to vary record sizes: @path_buf must hold
 * 128 bytes and stay alive while the event is used. */
static inline FmEvent
test_event (guint i,
            char  path_buf[128])
{
  FmEvent event = { 0 };

  g_snprintf (path_buf, 128, "/tmp/test/%u/%.*s", i, (int) (i % 37), "abcdefghijklmnopqrstuvwxyzabcdefghijklmn");
  event.time_ns = 1700000000000000000ull + i;
  event.duration_ns = i % 1000;
  event.pid = 100 + i % 7;
  event.ppid = 1;
  event.tid = event.pid;
  event.uid = 1000;
  event.result = (i % 5 == 0) ? -2 : 3;
  event.syscall_nr = 257;   /* openat */
  fm_event_set_strings (&event, "test", path_buf, "", "O_RDONLY");
  return event;
}

/* Runs the default main context until nothing is pending. */
static inline void
test_iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}
