/* test-subscribers.c: Events signals on a private bus (GTestDBus): batches reach the
 * subscriber alone, in order and in batches of at most 256, a queue overflow is reported
 * with Dropped, and a subscriber that leaves the bus is dropped.
 *
 * One bus serves every test: GTestDBus sets and unsets DBUS_SESSION_BUS_ADDRESS, which is
 * not safe once GDBus's worker thread runs (a bus per test hung one run in its setup).
 * Waits are for conditions; meson's timeout is the bound for a hang. */
#include <gio/gio.h>

#include "filemond-subscribers.h"
#include "fm-codec.h"
#include "fm-names.h"
#include "test-daemon-util.h"

static GTestDBus *test_bus;

typedef struct {
  GDBusConnection *daemon;
  GDBusConnection *client;
  GDBusConnection *other;
  FmdRing *ring;
  FmdSubscribers *subs;
  FmdLimits *limits;
} Fixture;

typedef struct {
  guint64 next_seq;     /* seq expected next */
  guint64 events;
  guint batches;
  guint max_batch;
  guint64 dropped;
  gboolean unsubscribed;
  guint dropped_signals;
} Received;

static GDBusConnection *
connect_to (GTestDBus *bus)
{
  g_autoptr(GError) error = NULL;
  GDBusConnection *c = g_dbus_connection_new_for_address_sync (
    g_test_dbus_get_bus_address (bus),
    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
    NULL, NULL, &error);

  g_assert_no_error (error);
  return c;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->daemon = connect_to (test_bus);
  f->client = connect_to (test_bus);
  f->other = connect_to (test_bus);
  f->ring = fmd_ring_new (100000, 16 * 1024 * 1024);
  f->limits = fmd_limits_new (f->daemon);
  f->subs = fmd_subscribers_new (f->daemon, f->limits, f->ring, 1000);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->subs);
  g_object_run_dispose (G_OBJECT (f->limits));
  g_clear_object (&f->limits);
  fmd_ring_free (f->ring);
  g_clear_object (&f->daemon);
  g_clear_object (&f->client);
  g_clear_object (&f->other);
}

static void
on_signal (GDBusConnection *connection,
           const char      *sender,
           const char      *path,
           const char      *iface,
           const char      *name,
           GVariant        *params,
           gpointer         user_data)
{
  Received *r = user_data;

  if (g_str_equal (name, "Events"))
    {
      g_autoptr(GVariant) batch = g_variant_get_child_value (params, 0);
      gsize n = g_variant_n_children (batch);

      for (gsize i = 0; i < n; i++)
        {
          g_autoptr(GVariant) item = g_variant_get_child_value (batch, i);
          g_autoptr(GError) error = NULL;
          FmEvent event;

          g_assert_true (fm_event_from_variant (item, &event, &error));
          g_assert_no_error (error);
          /* a jump is only allowed after a Dropped signal saying how far */
          g_assert_cmpuint (event.seq, ==, r->next_seq);
          r->next_seq++;
          r->events++;
        }
      r->batches++;
      r->max_batch = MAX (r->max_batch, n);
    }
  else if (g_str_equal (name, "Dropped"))
    {
      guint64 count;
      gboolean unsubscribed;

      g_variant_get (params, "(tb)", &count, &unsubscribed);
      r->dropped += count;
      r->next_seq += count;
      r->unsubscribed |= unsubscribed;
      r->dropped_signals++;
    }
}

static guint
listen (GDBusConnection *c,
        Received        *r)
{
  return g_dbus_connection_signal_subscribe (c, NULL, FM_INTERFACE, NULL, FM_OBJECT_PATH, NULL,
                                             G_DBUS_SIGNAL_FLAGS_NONE, on_signal, r, NULL);
}

static void
append_n (FmdRing *ring,
          guint    from,
          guint    n)
{
  char path[128];

  for (guint i = from; i < from + n; i++)
    {
      FmEvent event = test_event (i, path);
      fmd_ring_append (ring, &event);
    }
}

static void
wait_for (guint64 *counter,
          guint64  target)
{
  while (*counter < target)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_events_reach_the_subscriber_alone (Fixture *f, gconstpointer data)
{
  Received mine = { .next_seq = 1 };
  Received theirs = { .next_seq = 1 };
  guint a = listen (f->client, &mine);
  guint b = listen (f->other, &theirs);

  g_assert_true (fmd_subscribers_add (f->subs, g_dbus_connection_get_unique_name (f->client), 0, NULL));
  g_assert_true (fmd_subscribers_add (f->subs, g_dbus_connection_get_unique_name (f->client), 0, NULL));
  g_assert_cmpuint (fmd_subscribers_get_n_subscribers (f->subs), ==, 1);

  append_n (f->ring, 0, 700);
  wait_for (&mine.events, 700);

  g_assert_cmpuint (mine.events, ==, 700);
  g_assert_cmpuint (mine.max_batch, <=, FMD_SUBSCRIBER_BATCH);
  g_assert_cmpuint (mine.batches, >=, 3);
  g_assert_cmpuint (mine.dropped_signals, ==, 0);
  /* a connection that only listens sees nothing: the signals are unicast */
  g_assert_cmpuint (theirs.events, ==, 0);

  g_dbus_connection_signal_unsubscribe (f->client, a);
  g_dbus_connection_signal_unsubscribe (f->other, b);
}

static void
test_unsubscribe_stops_events (Fixture *f, gconstpointer data)
{
  Received mine = { .next_seq = 1 };
  guint a = listen (f->client, &mine);
  const char *name = g_dbus_connection_get_unique_name (f->client);

  g_assert_true (fmd_subscribers_add (f->subs, name, 0, NULL));
  append_n (f->ring, 0, 10);
  wait_for (&mine.events, 10);
  g_assert_cmpuint (mine.events, ==, 10);

  fmd_subscribers_remove (f->subs, name);
  fmd_subscribers_remove (f->subs, name);   /* harmless */
  g_assert_cmpuint (fmd_subscribers_get_n_subscribers (f->subs), ==, 0);
  append_n (f->ring, 10, 10);
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  g_usleep (100000);
  test_iterate ();
  g_assert_cmpuint (mine.events, ==, 10);
  g_dbus_connection_signal_unsubscribe (f->client, a);
}

static void
test_overflow_is_reported (Fixture *f, gconstpointer data)
{
  Received mine = { .next_seq = 1 };
  guint a = listen (f->client, &mine);
  guint64 total;

  g_assert_true (fmd_subscribers_add (f->subs, g_dbus_connection_get_unique_name (f->client), 0, NULL));
  /* far more than the queue of 1000 at once: the oldest are skipped and reported */
  append_n (f->ring, 0, 5000);
  total = 0;
  while (total < 5000)
    {
      g_main_context_iteration (NULL, TRUE);
      total = mine.events + mine.dropped;
    }
  g_assert_cmpuint (mine.dropped, ==, 4000);
  g_assert_cmpuint (mine.events, ==, 1000);
  g_assert_false (mine.unsubscribed);
  g_dbus_connection_signal_unsubscribe (f->client, a);
}

static void
test_subscriber_leaving_the_bus_is_dropped (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (fmd_subscribers_add (f->subs, g_dbus_connection_get_unique_name (f->client), 0, NULL));
  g_assert_cmpuint (fmd_subscribers_get_n_subscribers (f->subs), ==, 1);
  g_assert_true (g_dbus_connection_close_sync (f->client, NULL, &error));
  while (fmd_subscribers_get_n_subscribers (f->subs) > 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fmd_subscribers_get_n_subscribers (f->subs), ==, 0);
}

static void
test_unknown_name_is_dropped (Fixture *f, gconstpointer data)
{
  /* a caller that disconnected before Subscribe was handled */
  g_assert_true (fmd_subscribers_add (f->subs, ":1.999", 0, NULL));
  while (fmd_subscribers_get_n_subscribers (f->subs) > 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fmd_subscribers_get_n_subscribers (f->subs), ==, 0);
}

int
main (int argc, char *argv[])
{
  int rc;

  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/subscribers/events-reach-the-subscriber-alone", test_events_reach_the_subscriber_alone);
  ADD ("/subscribers/unsubscribe-stops-events", test_unsubscribe_stops_events);
  ADD ("/subscribers/overflow-is-reported-with-dropped", test_overflow_is_reported);
  ADD ("/subscribers/leaving-the-bus-drops-the-subscriber", test_subscriber_leaving_the_bus_is_dropped);
  ADD ("/subscribers/vanished-name-is-dropped", test_unknown_name_is_dropped);

  test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (test_bus);
  rc = g_test_run ();
  g_test_dbus_down (test_bus);
  g_clear_object (&test_bus);
  return rc;
}
