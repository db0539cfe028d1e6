/* bench-signal-batch.c: the CPU an event costs on the Events signal path, away from the
 * bus: building a batch of 256 as filemond does (fm_batch_builder), GDBus turning the
 * signal into its wire form (g_dbus_message_to_blob, what g_dbus_connection_emit_signal
 * runs), and a receiver's side (g_dbus_message_new_from_blob, what GDBus's worker thread
 * runs on each message, then reading each record's seq and comm as fm-bench-reader does).
 *
 *   bench-signal-batch [build|send|receive|all] [BATCHES] [same-process|varied]
 *
 * Two loads: same-process, one process repeating one call (the benchmark's load
 * generator: only seq, time and duration change), and varied, events that differ in
 * every field but the syscall. Run it under `valgrind --tool=callgrind` with two BATCHES
 * counts for instructions per event, a figure the noise of a shared machine does not
 * move. Measured so (GLib 2.74): build + send 22 700 instructions an event same-process,
 * 35 500 varied (42 300 for both with a GVariantBuilder of fm_event_to_variant, before
 * the builder shared children); receive 38 200, GDBus's parse and free of the tree it
 * makes, which the sender cannot change. */
#include <string.h>

#include <gio/gio.h>

#include "fm-codec.h"
#include "fm-names.h"
#include "fm-syscalls.h"

#define BATCH 256

typedef struct {
  const char *name;
  FmEvent events[BATCH];
  char comms[BATCH][FM_COMM_MAX];
  char paths[BATCH][64];
} Load;

static void
load_init_same_process (Load *load)
{
  load->name = "same-process";
  for (guint i = 0; i < BATCH; i++)
    {
      FmEvent *e = &load->events[i];

      memset (e, 0, sizeof *e);
      e->time_ns = G_GUINT64_CONSTANT (1764830000123456789) + i * 6000;
      e->duration_ns = 1200 + i % 300;
      e->pid = e->tid = 4242;
      e->ppid = 4200;
      e->result = -2;
      e->syscall_nr = fm_syscall_by_name ("openat")->nr;
      fm_event_set_strings (e, "fm-loadgen", "/nonexistent/filemon-bench", "", "O_RDONLY");
    }
}

/* The worst case: every field but the syscall differs from the previous event's. */
static void
load_init_varied (Load *load)
{
  load->name = "varied";
  for (guint i = 0; i < BATCH; i++)
    {
      FmEvent *e = &load->events[i];

      memset (e, 0, sizeof *e);
      g_snprintf (load->comms[i], sizeof load->comms[i], "worker-%u", i);
      g_snprintf (load->paths[i], sizeof load->paths[i], "/home/user/project/src/file-%u.c", i);
      e->time_ns = G_GUINT64_CONSTANT (1764830000123456789) + i * 6000;
      e->duration_ns = 1200 + i;
      e->pid = e->tid = 1000 + i;
      e->ppid = 900 + i;
      e->uid = 1000 + i;
      e->result = i % 2 == 0 ? -2 : (gint64) i;
      e->syscall_nr = fm_syscall_by_name ("openat")->nr;
      fm_event_set_strings (e, load->comms[i], load->paths[i], "",
                            i % 2 == 0 ? "O_RDONLY" : "O_RDONLY|O_CLOEXEC");
    }
}

static GVariant *
build (FmBatchBuilder *builder, Load *load, guint64 first_seq)
{
  for (guint i = 0; i < BATCH; i++)
    {
      load->events[i].seq = first_seq + i;
      fm_batch_builder_add (builder, &load->events[i]);
    }
  return g_variant_ref_sink (fm_batch_builder_end (builder));
}

static guint8 *
to_blob (GVariant *batch, gsize *size)
{
  g_autoptr(GDBusMessage) message = g_dbus_message_new_signal (FM_OBJECT_PATH, FM_INTERFACE,
                                                               "Events");
  g_autoptr(GError) error = NULL;
  guint8 *blob;

  g_dbus_message_set_destination (message, ":1.42");
  g_dbus_message_set_body (message, g_variant_new_tuple (&batch, 1));
  g_dbus_message_set_serial (message, 1);
  blob = g_dbus_message_to_blob (message, size, G_DBUS_CAPABILITY_FLAGS_UNIX_FD_PASSING,
                                 &error);
  g_assert_no_error (error);
  return blob;
}

static void
receive (const guint8 *blob, gsize size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusMessage) message = NULL;
  g_autoptr(GVariant) batch = NULL;
  GVariantIter iter;
  GVariant *child;
  guint64 expected = 0;

  message = g_dbus_message_new_from_blob ((guchar *) blob, size,
                                          G_DBUS_CAPABILITY_FLAGS_UNIX_FD_PASSING, &error);
  g_assert_no_error (error);
  batch = g_variant_get_child_value (g_dbus_message_get_body (message), 0);
  g_variant_iter_init (&iter, batch);
  while ((child = g_variant_iter_next_value (&iter)) != NULL)
    {
      g_autoptr(GVariant) comm = g_variant_get_child_value (child, 7);
      guint64 seq;

      g_variant_get_child (child, 0, "t", &seq);
      g_assert_cmpuint (seq, ==, expected++);
      g_assert_cmpstr (g_variant_get_bytestring (comm), !=, "");
      g_variant_unref (child);
    }
}

static void
run (Load *load, const char *stage, guint batches)
{
  g_autoptr(FmBatchBuilder) builder = fm_batch_builder_new ();
  g_autofree guint8 *blob = NULL;
  gsize size = 0;
  gint64 t0;
  double us;

  {
    g_autoptr(GVariant) batch = build (builder, load, 0);

    blob = to_blob (batch, &size);
  }
  t0 = g_get_monotonic_time ();
  for (guint b = 0; b < batches; b++)
    {
      if (g_str_equal (stage, "build"))
        g_variant_unref (build (builder, load, (guint64) b * BATCH));
      else if (g_str_equal (stage, "send"))
        {
          g_autoptr(GVariant) batch = build (builder, load, (guint64) b * BATCH);
          gsize n;

          g_free (to_blob (batch, &n));
        }
      else
        receive (blob, size);
    }
  us = (g_get_monotonic_time () - t0) / ((double) batches * BATCH);
  g_print ("%-8s %-13s %.3f us an event (message %" G_GSIZE_FORMAT " bytes, %.1f an event)\n",
           stage, load->name, us, size, (double) size / BATCH);
}

int
main (int argc, char **argv)
{
  const char *stage = argc > 1 ? argv[1] : "all";
  guint batches = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 2000;
  static Load loads[2];
  const char *only_load = argc > 3 ? argv[3] : NULL;
  const char *stages[] = { "build", "send", "receive" };

  load_init_same_process (&loads[0]);
  load_init_varied (&loads[1]);
  for (guint l = 0; l < G_N_ELEMENTS (loads); l++)
    if (only_load == NULL || g_str_equal (only_load, loads[l].name))
      for (guint s = 0; s < G_N_ELEMENTS (stages); s++)
        if (g_str_equal (stage, "all") || g_str_equal (stage, stages[s]))
          run (&loads[l], stages[s], batches);
  return 0;
}
