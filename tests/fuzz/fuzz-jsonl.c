/* fuzz-jsonl.c: the jsonl reader on arbitrary lines; what it accepts must survive a
 * write and a second read unchanged. */
#include "fm-format.h"
#include "fuzz-target.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();
  g_autoptr(FmJsonlReader) again = fm_jsonl_reader_new ();
  g_autoptr(GString) written = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  FmEvent event, reread;

  if (!fm_jsonl_reader_parse_line (reader, (const char *) data, size, &event, &error))
    return 0;
  fm_format_event (FM_FORMAT_JSONL, &event, written);
  g_assert_true (written->len > 0 && written->str[written->len - 1] == '\n');
  if (!fm_jsonl_reader_parse_line (again, written->str, written->len - 1, &reread, &error))
    g_error ("written line does not parse back: %s\n%s", error->message, written->str);
  g_assert_true (fm_event_equal (&event, &reread));
  return 0;
}
