/* fm-path.c: the shortening of a long path; see fm-path.h. */
#include "fm-path.h"

#include <string.h>

#define HEAD "/" FM_PATH_MARK
#define HEAD_LEN (sizeof HEAD - 1)

/**
 * fm_path_elide:
 * @path: an absolute path, or what is left of one whose start is lost
 * @max: the most bytes the result may hold (more than the marker and a slash)
 * @start_lost: the beginning of @path is missing; bytes before its first '/' are then the
 *   end of a component whose start is gone
 *
 * Makes @path "/" + marker + its longest run of whole last components that fits in @max
 * bytes, when it is longer than @max or its start is lost; leaves it alone otherwise.
 * The last component is always kept: it names the file. Only a single component longer
 * than the room (which no file system accepts, NAME_MAX being 255) keeps just its end.
 *
 * Returns: whether @path was shortened, and so needs the "truncated" note.
 */
gboolean
fm_path_elide (GString  *path,
               gsize     max,
               gboolean  start_lost)
{
  gsize room, from;
  const char *slash;

  g_return_val_if_fail (path != NULL && max > HEAD_LEN + 1, FALSE);

  if (path->len == 0 || (!start_lost && path->len <= max))
    return FALSE;
  room = max - HEAD_LEN;
  from = path->len > room ? path->len - room : 0;
  slash = memchr (path->str + from, '/', path->len - from);
  if (slash != NULL)
    g_string_erase (path, 0, slash - path->str);
  else
    {
      /* no whole component fits: the name's end, after a slash of our own */
      if (path->len > room - 1)
        g_string_erase (path, 0, path->len - (room - 1));
      g_string_prepend_c (path, '/');
    }
  g_string_prepend (path, HEAD);
  return TRUE;
}

/**
 * fm_path_mark_end:
 * @path: the beginning of a string the kernel refused for its length (ENAMETOOLONG: it
 *   reads PATH_MAX bytes and no further, so neither it nor a probe knows the end)
 * @max: the most bytes the result may hold
 *
 * Not a path the kernel resolved, so not fm_path_elide()'s case: what was read is kept,
 * as far as it fits with the marker after it, which says the end is missing.
 */
void
fm_path_mark_end (GString *path,
                  gsize    max)
{
  g_return_if_fail (path != NULL && max > sizeof FM_PATH_MARK - 1);

  if (path->len > max - (sizeof FM_PATH_MARK - 1))
    g_string_truncate (path, max - (sizeof FM_PATH_MARK - 1));
  g_string_append (path, FM_PATH_MARK);
}
