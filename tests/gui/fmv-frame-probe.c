/* fmv-frame-probe.c: frame timings of a running filemon-viewer, for the live-append
 * benchmark (bench/bench-viewer.sh). A preloaded library, so the viewer carries no
 * measuring code and is measured as shipped:
 *
 *   FMV_FRAME_PROBE=FILE LD_PRELOAD=.../libfmv-frame-probe.so filemon-viewer
 *
 * Once the first window is realized, the probe follows its GdkFrameClock (GTK's own frame
 * accounting) and appends one line per frame to FILE:
 *
 *   BEGIN_US END_US CPU_US PAINTED ROWS VALUE UPPER PAGE
 *
 * BEGIN_US and END_US: monotonic time (g_get_monotonic_time) at ::before-paint and
 * ::after-paint; CPU_US: the CPU time the main thread spent in between (a frame may be
 * long because it had work to do, or because the machine ran something else); PAINTED: 1 when the frame drew the window (GdkSurface::render ran);
 * ROWS: items of the column view's model (the rows taken into the view); VALUE, UPPER,
 * PAGE: its vertical adjustment (following the tail means VALUE + PAGE = UPPER).
 *
 * It also keeps the frame clock running with a tick callback, as any animation (a spinner,
 * kinetic scrolling) would: without it the clock sleeps between two list updates, and the
 * gaps between frames would measure the viewer's update interval rather than how long its
 * main loop can be kept from drawing. With the clock running, a gap longer than the
 * refresh interval is a frame the user would have waited for.
 *
 * FMV_FRAME_PROBE_IDLE=1 leaves the clock alone, so that the viewer draws only when it
 * asks to and its CPU is what a user's viewer spends (bench/bench-viewer-load.sh). Every
 * key press the window receives is logged too, before any of the window's handlers:
 *
 *   key TIME_US KEYVAL
 *
 * so the first frame that ends after it is the one that can show its answer.
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <time.h>

typedef struct {
  FILE *out;
  GtkWidget *window;
  GtkColumnView *column_view;
  gint64 begin;
  gint64 begin_cpu;
  gboolean painted;
} Probe;

static Probe probe;

static GtkColumnView *
find_column_view (GtkWidget *widget)
{
  if (GTK_IS_COLUMN_VIEW (widget))
    return GTK_COLUMN_VIEW (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkColumnView *found = find_column_view (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static void
before_paint_cb (GdkFrameClock *clock,
                 gpointer       user_data)
{
  probe.begin = g_get_monotonic_time ();
  probe.begin_cpu = thread_cpu_us ();
  probe.painted = FALSE;
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       user_data)
{
  gint64 end = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_us () - probe.begin_cpu;
  guint rows = 0;
  double value = 0, upper = 0, page = 0;

  if (probe.begin == 0)
    return;
  if (probe.column_view != NULL)
    {
      GtkSelectionModel *model = gtk_column_view_get_model (probe.column_view);
      GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (probe.column_view));

      rows = model ? g_list_model_get_n_items (G_LIST_MODEL (model)) : 0;
      if (adjustment != NULL)
        {
          value = gtk_adjustment_get_value (adjustment);
          upper = gtk_adjustment_get_upper (adjustment);
          page = gtk_adjustment_get_page_size (adjustment);
        }
    }
  fprintf (probe.out, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %d %u %.0f %.0f %.0f\n",
           probe.begin, end, cpu, probe.painted, rows, value, upper, page);
  fflush (probe.out);
  probe.begin = 0;
}

/* An emission hook, not a handler: GTK's own ::render handler returns TRUE and stops the
 * emission before a handler connected later would run. */
static gboolean
render_hook (GSignalInvocationHint *hint,
             guint                  n_params,
             const GValue          *params,
             gpointer               user_data)
{
  if (probe.window != NULL &&
      g_value_get_object (&params[0]) == (gpointer) gtk_native_get_surface (GTK_NATIVE (probe.window)))
    probe.painted = TRUE;
  return TRUE;
}

static gboolean
keep_ticking_cb (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       user_data)
{
  return G_SOURCE_CONTINUE;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                gpointer               user_data)
{
  fprintf (probe.out, "key %" G_GINT64_FORMAT " %u\n", g_get_monotonic_time (), keyval);
  fflush (probe.out);
  return FALSE;
}

static gboolean
find_window_cb (gpointer user_data)
{
  g_autoptr(GListModel) toplevels = NULL;
  GdkFrameClock *clock;
  GtkEventController *keys;

  if (!gtk_is_initialized ())
    return G_SOURCE_CONTINUE;
  toplevels = g_object_ref (gtk_window_get_toplevels ());
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (gtk_widget_get_realized (window) && gtk_widget_get_frame_clock (window) != NULL)
        {
          probe.window = window;
          break;
        }
    }
  if (probe.window == NULL)
    return G_SOURCE_CONTINUE;

  probe.column_view = find_column_view (probe.window);
  clock = gtk_widget_get_frame_clock (probe.window);
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), NULL);
  g_signal_add_emission_hook (g_signal_lookup ("render", GDK_TYPE_SURFACE), 0, render_hook, NULL, NULL);
  if (g_strcmp0 (g_getenv ("FMV_FRAME_PROBE_IDLE"), "1") != 0)
    gtk_widget_add_tick_callback (probe.window, keep_ticking_cb, NULL, NULL);
  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), NULL);
  gtk_widget_add_controller (probe.window, keys);
  return G_SOURCE_REMOVE;
}

__attribute__((constructor)) static void
probe_init (void)
{
  const char *path = g_getenv ("FMV_FRAME_PROBE");

  if (path == NULL || *path == '\0')
    return;
  probe.out = fopen (path, "we");
  if (probe.out == NULL)
    {
      g_printerr ("fmv-frame-probe: cannot write %s\n", path);
      return;
    }
  /* The viewer's main loop is GApplication's, on the default context: looking from there
   * means looking at a moment when GTK is not in the middle of anything. */
  g_timeout_add (20, find_window_cb, NULL);
}
