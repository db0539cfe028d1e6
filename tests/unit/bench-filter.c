/* bench-filter.c: nanoseconds per event of typical filters over a million varied events.
 * Fails (exit 1) above the budget of 1 us an event, so a slow change is noticed. */
#include <stdio.h>

#include "fm-filter.h"
#include "fm-syscalls.h"

#define N_EVENTS 1000000
#define N_DISTINCT 1024
#define BUDGET_NS 1000.0

int
main (void)
{
  static const char *const filters[] = {
    "comm=sshd and result<0",
    "errno=EACCES or errno=EPERM",
    "path~'^/etc/'",
    "not syscall=close and (pid=1234 or ppid=1234) and not path~'\\.so'",
    "syscall=open* failed",
    "passwd",
    "/sh(adow)?/",
    "user=root and duration>1ms and time>12:00",
  };
  static const char *const comms[] = { "sshd", "bash", "systemd", "Xorg", "python3" };
  static const char *const syscalls[] = { "openat", "close", "newfstatat", "read", "execve" };
  g_autofree char *paths = g_malloc (N_DISTINCT * 64);
  FmEvent events[N_DISTINCT];
  gboolean over = FALSE;

  for (guint i = 0; i < N_DISTINCT; i++)
    {
      char *path = paths + i * 64;

      g_snprintf (path, 64, "/%s/lib%u/file-%u.so", i % 3 ? "usr" : "etc", i % 17, i);
      events[i] = (FmEvent) { .seq = i, .time_ns = G_GUINT64_CONSTANT (1764851696000000000) + i * 1000,
                              .duration_ns = i * 37, .pid = 1000 + i % 300, .ppid = 1, .tid = 1000 + i,
                              .uid = i % 2 ? 1000 : 0, .result = i % 5 ? 3 : -13 };
      events[i].syscall_nr = fm_syscall_by_name (syscalls[i % G_N_ELEMENTS (syscalls)])->nr;
      fm_event_set_strings (&events[i], comms[i % G_N_ELEMENTS (comms)], path, NULL,
                            "O_RDONLY|O_CLOEXEC");
    }

  for (guint f = 0; f < G_N_ELEMENTS (filters); f++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(FmFilter) filter = fm_filter_new (filters[f], &error);
      guint matched = 0;
      gint64 start;
      double ns;

      if (filter == NULL)
        {
          g_printerr ("%s: %s\n", filters[f], error->message);
          return 1;
        }
      start = g_get_monotonic_time ();
      for (guint i = 0; i < N_EVENTS; i++)
        matched += fm_filter_match (filter, &events[i % N_DISTINCT]);
      ns = (double) (g_get_monotonic_time () - start) * 1000.0 / N_EVENTS;
      printf ("%7.1f ns/event  %7u matched  %s\n", ns, matched, filters[f]);
      over |= ns > BUDGET_NS;
    }
  if (over)
    g_printerr ("over the budget of %.0f ns an event\n", BUDGET_NS);
  return over ? 1 : 0;
}
