/* fmv-test-events.h: deterministic, realistic-looking events for the viewer's tests, its
 * measurements and the screenshot capture: a few programs opening, reading and stat-ing
 * files, about one call in seven failing. */
#pragma once

#include <glib.h>

#include "fm-event.h"
#include "fm-syscalls.h"

typedef struct {
  char comm[FM_COMM_MAX];
  char path[256];
  char path2[256];
  char detail[128];
  FmEvent event;
} FmvTestEvent;

static const char *const fmv_test_comms[] = {
  "sshd", "systemd-journal", "NetworkManager", "gnome-shell", "bash", "cc1", "make", "firefox",
};

static const char *const fmv_test_dirs[] = {
  "/etc", "/usr/lib/x86_64-linux-gnu", "/home/alice/.config/gtk-4.0", "/var/log", "/proc/self",
  "/tmp/build-4711", "/usr/share/icons/Adwaita",
};

static const char *const fmv_test_files[] = {
  "passwd", "shadow", "ld.so.cache", "libglib-2.0.so.0", "settings.ini", "journal.log",
  "status", "main.o", "index.theme", "nsswitch.conf", "hosts", "Makefile",
};

/* Fills @t with event number @i (sequence @i + 1). */
static inline void
fmv_test_event (FmvTestEvent *t,
                guint         i)
{
  static const char *const syscalls[] = { "openat", "read", "newfstatat", "close", "access",
                                          "readlink", "write", "statx", "unlink", "renameat2" };
  guint32 h = i * 2654435761u;
  const char *syscall = syscalls[(h >> 7) % G_N_ELEMENTS (syscalls)];
  const FmSyscall *sc = fm_syscall_by_name (syscall);
  gint64 result;

  g_snprintf (t->comm, sizeof t->comm, "%s", fmv_test_comms[(h >> 3) % G_N_ELEMENTS (fmv_test_comms)]);
  g_snprintf (t->path, sizeof t->path, "%s/%s", fmv_test_dirs[(h >> 11) % G_N_ELEMENTS (fmv_test_dirs)],
              fmv_test_files[(h >> 17) % G_N_ELEMENTS (fmv_test_files)]);
  t->path2[0] = '\0';
  if (g_str_equal (syscall, "renameat2"))
    g_snprintf (t->path2, sizeof t->path2, "%s.new", t->path);

  if ((h >> 21) % 7 == 0)
    result = (h >> 24) % 2 ? -2 /* ENOENT */ : -13 /* EACCES */;
  else if (g_str_equal (syscall, "openat"))
    result = 3 + (h >> 26) % 20;
  else if (g_str_equal (syscall, "read") || g_str_equal (syscall, "write"))
    result = (h >> 20) % 4096;
  else
    result = 0;

  if (g_str_equal (syscall, "openat"))
    g_snprintf (t->detail, sizeof t->detail, "AT_FDCWD, O_RDONLY|O_CLOEXEC");
  else if (g_str_equal (syscall, "read") || g_str_equal (syscall, "write"))
    g_snprintf (t->detail, sizeof t->detail, "fd=%u count=4096", 3 + (h >> 26) % 20);
  else
    t->detail[0] = '\0';

  t->event = (FmEvent) {
    .seq = (guint64) i + 1,
    .time_ns = G_GUINT64_CONSTANT (1764763200000000000) + (guint64) i * 173921,
    .duration_ns = 800 + (h >> 13) % 20000,
    .pid = 400 + (h >> 3) % G_N_ELEMENTS (fmv_test_comms) * 97,
    .ppid = 1,
    .tid = 400 + (h >> 3) % G_N_ELEMENTS (fmv_test_comms) * 97,
    .uid = (h >> 3) % 2 ? 1000 : 0,
    .result = result,
    .syscall_nr = sc ? sc->nr : 257,
  };
  fm_event_set_strings (&t->event, t->comm, t->path, t->path2, t->detail);
}
