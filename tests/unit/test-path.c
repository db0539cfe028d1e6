/* test-path.c: the one rule by which a long path is shortened (common/fm-path.c). */
#include <string.h>

#include "fm-path.h"

static char *
elided (const char *path, gsize max, gboolean start_lost, gboolean *changed)
{
  g_autoptr(GString) s = g_string_new (path);

  *changed = fm_path_elide (s, max, start_lost);
  return g_strdup (s->str);
}

static void
test_short_path_is_left_alone (void)
{
  gboolean changed;
  g_autofree char *out = elided ("/etc/passwd", 64, FALSE, &changed);

  g_assert_false (changed);
  g_assert_cmpstr (out, ==, "/etc/passwd");
}

static void
test_long_path_keeps_root_and_last_components (void)
{
  gboolean changed;
  /* 4 + 8 bytes fit in 12: "/..." and "/cc/name" */
  g_autofree char *out = elided ("/aaaa/bbbb/cc/name", 12, FALSE, &changed);

  g_assert_true (changed);
  g_assert_cmpstr (out, ==, "/.../cc/name");
  g_assert_cmpuint (strlen (out), <=, 12);
}

static void
test_lost_start_drops_the_piece_of_a_component (void)
{
  gboolean changed;
  g_autofree char *piece = elided ("bbb/cc/name", 64, TRUE, &changed);
  g_autofree char *whole = elided ("/bbb/cc/name", 64, TRUE, &changed);

  g_assert_cmpstr (piece, ==, "/.../cc/name");
  g_assert_cmpstr (whole, ==, "/.../bbb/cc/name");
  g_assert_true (changed);
}

static void
test_name_longer_than_the_room_keeps_its_end (void)
{
  gboolean changed;
  g_autofree char *out = elided ("/dir/0123456789", 10, FALSE, &changed);

  g_assert_true (changed);
  g_assert_cmpstr (out, ==, "/.../56789");
}

static void
test_every_length_fits_and_ends_with_the_name (void)
{
  /* paths of 1 to 40 components of 1 to 9 bytes, cut to every limit from 8 on */
  for (guint width = 1; width < 10; width++)
    for (guint n = 1; n <= 40; n++)
      {
        g_autoptr(GString) path = g_string_new (NULL);
        g_autofree char *part = g_strnfill (width, 'x');

        for (guint i = 0; i < n; i++)
          g_string_append_printf (path, "/%s", part);
        g_string_append (path, "/name");
        for (gsize max = 10; max < path->len + 4; max++)
          {
            g_autoptr(GString) s = g_string_new (path->str);
            gboolean changed = fm_path_elide (s, max, FALSE);

            g_assert_cmpuint (s->len, <=, MAX (max, path->len));
            g_assert_true (g_str_has_suffix (s->str, "/name"));
            g_assert_true (s->str[0] == '/');
            g_assert_true (changed == (path->len > max));
            if (changed)
              g_assert_true (g_str_has_prefix (s->str, "/" FM_PATH_MARK "/"));
          }
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/path/elide/short-path-is-left-alone", test_short_path_is_left_alone);
  g_test_add_func ("/path/elide/long-path-keeps-root-and-last-components",
                   test_long_path_keeps_root_and_last_components);
  g_test_add_func ("/path/elide/lost-start-drops-the-piece-of-a-component",
                   test_lost_start_drops_the_piece_of_a_component);
  g_test_add_func ("/path/elide/name-longer-than-the-room-keeps-its-end",
                   test_name_longer_than_the_room_keeps_its_end);
  g_test_add_func ("/path/elide/every-length-fits-and-ends-with-the-name",
                   test_every_length_fits_and_ends_with_the_name);
  return g_test_run ();
}
