/* fm-bench-reader-sdbus.c: fm-bench-reader's Events subscriber through sd-bus.
 *
 * GDBus turns each incoming message into a tree of GVariants, one allocation per field of
 * every record, before any handler sees it (~41 000 instructions a record with GLib 2.74),
 * which makes a GDBus subscriber, not filemond or the bus, what limits Events signals on a
 * 2-core machine. sd-bus reads the fields in place from the message's buffer: this reader
 * measures what filemond and dbus-daemon deliver to a subscriber that costs little. */
#include <errno.h>
#include <string.h>
#include <gio/gio.h>
#include <systemd/sd-bus.h>

#include "fm-bench-reader.h"
#include "fm-codec.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_bus, sd_bus_flush_close_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_bus_message, sd_bus_message_unref)

/* a message the reader could not read ends the run: set by the handler, reported after */
static int read_failure;

static int
set_error (GError **error, int r, const char *what)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (-r), "%s: %s", what, g_strerror (-r));
  return r;
}

/* One Events batch: each record's seq (field 0) and comm (field 7), what a script reads.
 * The batch's type is checked against fm-codec.h's, so that the reads below, which
 * follow it field by field, fail rather than misread if it ever changes. */
static int
read_events (Reader *r, sd_bus_message *m)
{
  /* a record's fields: its struct type without the parentheses */
  char fields[sizeof FM_EVENT_VARIANT_TYPE_STRING - 2];
  int k;

  memcpy (fields, &FM_EVENT_VARIANT_TYPE_STRING[1], sizeof fields - 1);
  fields[sizeof fields - 1] = '\0';
  k = sd_bus_message_enter_container (m, SD_BUS_TYPE_ARRAY, FM_EVENT_VARIANT_TYPE_STRING);
  if (k < 0)
    return k;
  while ((k = sd_bus_message_enter_container (m, SD_BUS_TYPE_STRUCT, fields)) > 0)
    {
      uint64_t seq, time_ns, duration_ns;
      uint32_t u[4];
      const void *comm;
      size_t comm_len;
      char name[64];

      k = sd_bus_message_read (m, "tttuuuu", &seq, &time_ns, &duration_ns,
                               &u[0], &u[1], &u[2], &u[3]);
      if (k < 0)
        return k;
      k = sd_bus_message_read_array (m, 'y', &comm, &comm_len);
      if (k < 0)
        return k;
      /* a bytestring: its NUL may be inside the array or not */
      comm_len = MIN (comm_len, sizeof name - 1);
      memcpy (name, comm, comm_len);
      name[comm_len] = '\0';
      k = sd_bus_message_skip (m, "sxayays");
      if (k < 0)
        return k;
      k = sd_bus_message_exit_container (m);
      if (k < 0)
        return k;
      seen_seq (r, seq, name);
    }
  if (k < 0)
    return k;
  return sd_bus_message_exit_container (m);
}

static int
on_message (sd_bus_message *m, void *user_data, sd_bus_error *ret_error G_GNUC_UNUSED)
{
  Reader *r = user_data;
  int k = 0;

  if (sd_bus_message_is_signal (m, INTERFACE, "Events"))
    k = read_events (r, m);
  else if (sd_bus_message_is_signal (m, INTERFACE, "Dropped"))
    {
      uint64_t count;
      int unsubscribed;

      k = sd_bus_message_read (m, "tb", &count, &unsubscribed);
      if (k >= 0)
        {
          r->missed += count;
          if (unsubscribed)
            stop_requested = 1;
        }
    }
  if (k < 0)
    {
      read_failure = k;
      stop_requested = 1;
    }
  return 0;
}

gboolean
read_signals_sd_bus (Reader *r, double idle, double timeout, const char *ready_file,
                     GError **error)
{
  g_autoptr(sd_bus) bus = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  sd_bus_error call_error = SD_BUS_ERROR_NULL;
  gint64 start = g_get_monotonic_time ();
  int k;

  k = sd_bus_open_system (&bus);
  if (k < 0)
    return set_error (error, k, "sd_bus_open_system"), FALSE;
  /* the sender is left out: sd-bus cannot check a well-known name against a message's
   * unique sender itself, and filemond sends its Events to the subscriber alone */
  k = sd_bus_match_signal (bus, NULL, NULL, OBJECT_PATH, INTERFACE, NULL, on_message, r);
  if (k < 0)
    return set_error (error, k, "sd_bus_match_signal"), FALSE;
  k = sd_bus_call_method (bus, BUS_NAME, OBJECT_PATH, INTERFACE, "Subscribe", &call_error,
                          &reply, "a{sv}", 0);
  if (k < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Subscribe: %s",
                   call_error.message ? call_error.message : g_strerror (-k));
      sd_bus_error_free (&call_error);
      return FALSE;
    }
  r->t_ready = now_real ();
  if (ready_file != NULL && !g_file_set_contents (ready_file, "", 0, error))
    return FALSE;

  while (!reader_done (r, start, idle, timeout))
    {
      k = sd_bus_process (bus, NULL);
      if (k < 0)
        return set_error (error, k, "sd_bus_process"), FALSE;
      if (k > 0)
        continue;
      k = sd_bus_wait (bus, 50 * 1000);
      if (k < 0 && k != -EINTR)
        return set_error (error, k, "sd_bus_wait"), FALSE;
    }
  if (read_failure < 0)
    return set_error (error, read_failure, "reading a signal"), FALSE;
  return TRUE;
}
