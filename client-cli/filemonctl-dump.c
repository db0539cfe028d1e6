/* filemonctl-dump.c: `filemonctl dump [FILTER]`: the buffered events, then exit.
 *
 * Read from the same binary stream as watch (OpenStream), asked to end at the live edge:
 * the records the daemon buffered, filtered and rendered here in the format asked for
 * (text shows local times, in the user's time zone rather than the daemon's). */
#include <unistd.h>

#include "filemonctl-stream.h"

int
fmctl_cmd_dump (int argc, char **argv)
{
  g_autofree char *since = NULL, *format_name = NULL, *color = NULL;
  const GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name,
      "Output format: text (default), jsonl or csv", "FORMAT" },
    { "since", 0, 0, G_OPTION_ARG_STRING, &since,
      "Only the events from this sequence number on", "SEQ" },
    { "color", 0, 0, G_OPTION_ARG_STRING, &color,
      "Failed calls in red (text): auto, always, never", "WHEN" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[FILTER]");
  g_autoptr(FmFilter) filter = NULL;
  g_autoptr(FmctlPrinter) printer = NULL;
  FmctlStreamPrint how = { .has_since = TRUE, .follow = FALSE };
  FmFormat format = FM_FORMAT_TEXT;
  gboolean use_color;

  g_option_context_set_summary (context,
    "Prints the events in filemond's buffer, those matching FILTER when given, and exits.\n"
    "The filter language is the one of 'filemonctl watch --help'.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!fmctl_parse_options (context, "dump", &argc, &argv))
    return FMCTL_EXIT_USAGE;
  if (format_name != NULL && !fm_format_from_string (format_name, &format))
    return fmctl_usage_error ("dump", "--format: '%s' is not text, jsonl or csv", format_name);
  if (since != NULL && !fmctl_parse_since (since, &how.since_seq))
    return fmctl_usage_error ("dump", "--since: '%s' is neither a sequence number nor 'start'",
                              since);
  if (!fmctl_decide_color (color, STDOUT_FILENO, &use_color))
    return fmctl_usage_error ("dump", "--color: '%s' is not auto, always or never", color);
  filter = fmctl_compile_filter ("dump", argc - 1, argv + 1);
  if (filter == NULL)
    return FMCTL_EXIT_USAGE;

  printer = fmctl_printer_new (STDOUT_FILENO, format, use_color);
  fmctl_printer_header (printer);
  how.filter = filter;
  how.printer = printer;
  return fmctl_stream_print ("dump", &how);
}
