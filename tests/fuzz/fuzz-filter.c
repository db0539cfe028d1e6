/* fuzz-filter.c: the filter parser on arbitrary text, and the compiled filter on an event
 * whose fields are also taken from the input. Any crash, leak or hang is a bug. */
#include <string.h>

#include "fm-filter.h"
#include "fuzz-target.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(FmFilter) filter = fm_filter_new (text, &error);
  FmEvent event = { .seq = 1, .pid = 42, .ppid = 1, .tid = 42, .uid = 1000, .result = -13,
                    .syscall_nr = 257 };

  if (filter == NULL)
    {
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "column "));
      return 0;
    }
  fm_event_set_strings (&event, "sshd", text, "/etc/passwd", "O_RDONLY");
  (void) fm_filter_match (filter, &event);
  fm_event_set_strings (&event, text, "", "", text);
  event.result = 3;
  (void) fm_filter_match (filter, &event);
  return 0;
}
