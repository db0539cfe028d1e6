/* bench-format.c: a dump of a million events in each format, and the jsonl reader over
 * the jsonl dump. Fails (exit 1) when one takes longer than the budget of 2 s. */
#include <stdio.h>
#include <string.h>

#include "fm-format.h"
#include "fm-syscalls.h"

#define N_EVENTS 1000000
#define FLUSH_AT (256 * 1024)
#define BUDGET_US (2 * G_USEC_PER_SEC)

int
main (void)
{
  static const FmFormat formats[] = { FM_FORMAT_TEXT, FM_FORMAT_JSONL, FM_FORMAT_CSV };
  g_autoptr(GString) out = g_string_sized_new (FLUSH_AT + 16384);
  g_autoptr(GString) jsonl = g_string_sized_new (N_EVENTS * 300);
  gboolean over = FALSE;
  FmEvent e = { .time_ns = G_GUINT64_CONSTANT (1764851696000000000), .duration_ns = 1500,
                .pid = 812, .ppid = 1, .tid = 812, .uid = 0 };

  fm_event_set_strings (&e, "sshd", "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL,
                        "O_RDONLY|O_CLOEXEC");
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      gint64 start = g_get_monotonic_time (), took;

      g_string_truncate (out, 0);
      for (guint i = 0; i < N_EVENTS; i++)
        {
          e.seq = i;
          e.time_ns += 1000;
          e.result = i % 4 ? 3 : -2;
          e.syscall_nr = i % 2 ? 257 : 3;
          fm_format_event (formats[f], &e, out);
          if (out->len > FLUSH_AT)
            g_string_truncate (out, 0);   /* as a dump writes its buffer out */
        }
      took = g_get_monotonic_time () - start;
      printf ("%-5s write: %6.3f s for %d events\n", fm_format_to_string (formats[f]),
              took / 1e6, N_EVENTS);
      over |= took > BUDGET_US;
    }

  /* the file the reader reads: written outside the timing, which is the reader's alone */
  for (guint i = 0; i < N_EVENTS; i++)
    {
      e.seq = i;
      e.result = i % 4 ? 3 : -2;
      e.syscall_nr = i % 2 ? 257 : 3;
      fm_format_event (FM_FORMAT_JSONL, &e, jsonl);
    }

  {
    g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();
    gint64 start = g_get_monotonic_time (), took;
    const char *p = jsonl->str, *end = jsonl->str + jsonl->len;
    guint n = 0;

    while (p < end)
      {
        const char *nl = memchr (p, '\n', end - p);
        g_autoptr(GError) error = NULL;
        FmEvent back;

        if (!fm_jsonl_reader_parse_line (reader, p, nl - p, &back, &error))
          {
            g_printerr ("line %u: %s\n", n + 1, error->message);
            return 1;
          }
        n++;
        p = nl + 1;
      }
    took = g_get_monotonic_time () - start;
    printf ("jsonl read:  %6.3f s for %u events\n", took / 1e6, n);
    over |= took > BUDGET_US || n != N_EVENTS;
  }
  if (over)
    g_printerr ("over the budget of 2 s for a million events\n");
  return over ? 1 : 0;
}
