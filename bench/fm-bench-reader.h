/* fm-bench-reader.h: what the readers of fm-bench-reader share: the counts, and the one
 * place an arriving event is counted. */
#pragma once

#include <glib.h>
#include <signal.h>

#define BUS_NAME "org.filemond.Filemond1"
#define OBJECT_PATH "/org/filemond/Filemond1"
#define INTERFACE "org.filemond.Filemond1"

typedef struct {
  guint64 events, comm_events, missed, dropped, holes, last_seq;
  const char *comm;       /* NULL: count all events as the load's */
  guint64 count;          /* stop after this many received + missed; 0 = no limit */
  double t_ready, t_first, t_last, t_comm_first, t_comm_last;
  gint64 last_data_us;    /* monotonic, of the load's events when comm is set */
  GMainLoop *loop;
} Reader;

extern volatile sig_atomic_t stop_requested;

double now_real (void);
void seen_seq (Reader *r, guint64 seq, const char *comm);
/* Whether a reader is done: stopped, --count reached, --timeout in all, or --idle since the
 * load's last event. */
gboolean reader_done (Reader *r, gint64 start_us, double idle, double timeout);

/* Events signals through sd-bus, which reads each record in place where GDBus makes a
 * GVariant of each of its fields: the same signals, another subscriber's cost. */
gboolean read_signals_sd_bus (Reader *r, double idle, double timeout, const char *ready_file,
                              GError **error);
