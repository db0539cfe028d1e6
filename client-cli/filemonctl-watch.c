/* filemonctl-watch.c: `filemonctl watch [FILTER]`: the events as they happen, from the
 * daemon's binary stream (OpenStream; filemonctl-stream.c reads it), filtered locally. */
#include <unistd.h>

#include "filemonctl-stream.h"

int
fmctl_cmd_watch (int argc, char **argv)
{
  g_autofree char *since = NULL, *color = NULL, *count = NULL, *fields_help = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "since", 0, 0, G_OPTION_ARG_STRING, &since,
      "First print the buffered events from this sequence number ('start': all of them)", "SEQ" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      "Print JSON Lines (notes about gaps, drops and the capture go to stderr)", NULL },
    { "color", 0, 0, G_OPTION_ARG_STRING, &color,
      "Failed calls in red: auto (on a terminal, unless NO_COLOR is set), always, never", "WHEN" },
    { "count", 'n', 0, G_OPTION_ARG_STRING, &count,
      "Exit after printing N matching events", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[FILTER]");
  g_autoptr(FmFilter) filter = NULL;
  g_autoptr(FmctlPrinter) printer = NULL;
  FmctlStreamPrint how = { .follow = TRUE, .skip_self = TRUE };
  gboolean use_color;

  g_option_context_set_summary (context,
    "Prints the captured events as they happen, those matching FILTER when given, e.g.\n"
    "  filemonctl watch 'comm=sshd and result<0'\n"
    "  filemonctl watch errno=EACCES or errno=EPERM\n"
    "  filemonctl watch \"path~'^/etc/'\"\n"
    "Operators = != < <= > >= ~ (regex); and, or, not, parentheses; a bare word or\n"
    "/regex/ matches anywhere. The fields are below; see filemonctl(1).");
  fields_help = fmctl_filter_fields_help ();
  g_option_context_set_description (context, fields_help);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!fmctl_parse_options (context, "watch", &argc, &argv))
    return FMCTL_EXIT_USAGE;
  if (since != NULL && !fmctl_parse_since (since, &how.since_seq))
    return fmctl_usage_error ("watch", "--since: '%s' is neither a sequence number nor 'start'",
                              since);
  if (count != NULL &&
      !g_ascii_string_to_unsigned (count, 10, 1, G_MAXUINT64, &how.count, NULL))
    return fmctl_usage_error ("watch", "--count: '%s' is not a number of events (1 or more)",
                              count);
  if (!fmctl_decide_color (color, STDOUT_FILENO, &use_color))
    return fmctl_usage_error ("watch", "--color: '%s' is not auto, always or never", color);
  filter = fmctl_compile_filter ("watch", argc - 1, argv + 1);
  if (filter == NULL)
    return FMCTL_EXIT_USAGE;

  printer = fmctl_printer_new (STDOUT_FILENO, json ? FM_FORMAT_JSONL : FM_FORMAT_TEXT, use_color);
  how.filter = filter;
  how.printer = printer;
  how.has_since = since != NULL;
  return fmctl_stream_print ("watch", &how);
}
