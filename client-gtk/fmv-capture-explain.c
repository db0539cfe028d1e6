/* fmv-capture-explain.c: the words the viewer says about a file it cannot show.
 *
 * A person who picked the wrong file wants to know what the file is, not that "line 1,
 * column 1" is not JSON: a text or CSV save (the formats for people and spreadsheets,
 * which cannot be read back losslessly), a raw OpenStream dump, a binary file, an empty
 * one. Each is told apart by the first bytes, as file(1) would.
 */
#include "config.h"

#include <string.h>

#include "fm-error.h"
#include "fm-format.h"
#include "fm-stream.h"
#include "fmv-capture-explain.h"

#define JSONL_HINT "The viewer opens captures saved as JSON Lines (its own Save, or " \
                   "“filemonctl save --format=jsonl”)."

void
fmv_capture_explain_io_error (GFile   *file,
                              GError **error)
{
  g_autofree char *name = NULL;
  const char *why;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (error != NULL && *error != NULL);

  if ((*error)->domain != G_IO_ERROR)
    return;
  switch ((*error)->code)
    {
    case G_IO_ERROR_IS_DIRECTORY:
      why = "is a folder, not a capture file. Choose a .jsonl file inside it.";
      break;
    case G_IO_ERROR_NOT_FOUND:
      why = "does not exist (it may have been moved or deleted).";
      break;
    case G_IO_ERROR_PERMISSION_DENIED:
      why = "cannot be read with your rights (permission denied). Its owner can share "
            "it (chmod o+r), or save a copy you may read.";
      break;
    case G_IO_ERROR_CANCELLED:
      return;
    default:
      why = NULL;
      break;
    }
  name = g_file_get_parse_name (file);
  if (why != NULL)
    {
      g_autofree char *text = g_strdup_printf ("“%s” %s", name, why);

      g_free ((*error)->message);
      (*error)->message = g_steal_pointer (&text);
    }
  else
    g_prefix_error (error, "“%s” could not be read: ", name);
}

static gboolean
looks_like_text_save (const char *head,
                      gsize       len)
{
  /* "12:00:00.000001 comm[pid] ...": the text format's local time */
  static const char shape[] = "00:00:00.000000 ";

  if (len < sizeof shape - 1)
    return FALSE;
  for (gsize i = 0; i < sizeof shape - 1; i++)
    if (shape[i] == '0' ? !g_ascii_isdigit (head[i]) : head[i] != shape[i])
      return FALSE;
  return TRUE;
}

/* What the file is, from its first bytes, when it is something else than a capture. */
static char *
describe_head (const guint8 *head,
               gsize         len)
{
  const char *csv = fm_format_header (FM_FORMAT_CSV);
  const char *comma = strchr (csv, ',');
  gsize csv_first = comma != NULL ? (gsize) (comma - csv) + 1 : strlen (csv);
  const char *valid_end;

  if (len >= FM_STREAM_HEADER_SIZE && memcmp (head, FM_STREAM_MAGIC, strlen (FM_STREAM_MAGIC)) == 0)
    {
      guint32 version;

      memcpy (&version, head + 8, sizeof version);
      version = GUINT32_FROM_LE (version);
      if (version != FM_STREAM_VERSION)
        return g_strdup_printf ("is a raw filemon event stream of format version %u, which this "
                                "viewer does not know (it knows version %u), and not a saved "
                                "capture. " JSONL_HINT, version, FM_STREAM_VERSION);
      return g_strdup ("is a raw filemon event stream (the binary format of OpenStream), not a "
                       "saved capture. " JSONL_HINT);
    }
  if (len >= csv_first && memcmp (head, csv, csv_first) == 0)
    return g_strdup ("was saved as CSV, for spreadsheets, which the viewer cannot read back. "
                     JSONL_HINT);
  if (looks_like_text_save ((const char *) head, len))
    return g_strdup ("was saved as text, for people to read, which the viewer cannot read "
                     "back. " JSONL_HINT);
  /* the head may end inside a character: only an error before its last 3 bytes counts */
  if (memchr (head, '\0', len) != NULL ||
      (!g_utf8_validate_len ((const char *) head, len, &valid_end) &&
       (gsize) (valid_end - (const char *) head) + 4 <= len))
    return g_strdup ("is not a text file, so it is not a filemon capture (captures are "
                     "JSON Lines text). " JSONL_HINT);
  return NULL;
}

void
fmv_capture_explain_no_events (GFile         *file,
                               const guint8  *head,
                               gsize          head_len,
                               guint64        size,
                               guint          n_bad,
                               const char    *first_problem,
                               GError       **error)
{
  g_autofree char *name = NULL;
  g_autofree char *what = NULL;

  g_return_if_fail (G_IS_FILE (file));

  name = g_file_get_parse_name (file);
  if (size == 0)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                   "“%s” is empty (0 bytes): it holds no events. A capture saved while nothing "
                   "was captured is empty too.", name);
      return;
    }
  what = describe_head (head, head_len);
  if (what != NULL)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "“%s” %s", name, what);
      return;
    }
  if (n_bad == 0)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                   "“%s” holds only blank lines: no events.", name);
      return;
    }
  g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
               "“%s” is not a filemon capture: none of its %'u line%s is an event in JSON "
               "Lines format. The first fails at %s. " JSONL_HINT, name, n_bad,
               n_bad == 1 ? "" : "s", first_problem);
}
