/* fuzz-stap-parser.c: the stap output parser on arbitrary lines: anything it accepts is a
 * well-formed event (bounded, terminated strings, a known syscall, UTF-8 detail). */
#include <string.h>

#include "filemond-stap-parser.h"
#include "fm-syscalls.h"
#include "fuzz-target.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();
  FmdStapLineKind kind;
  FmEvent ev;

  if (!fmd_stap_parser_parse_line (parser, (const char *) data, size, &kind, &ev, NULL) ||
      kind != FMD_STAP_LINE_EVENT)
    return 0;
  g_assert_nonnull (fm_syscall_by_nr (ev.syscall_nr));
  g_assert_cmpuint (ev.comm_len, <, FM_COMM_MAX);
  g_assert_cmpuint (ev.path_len, <=, FM_PATH_MAX);
  g_assert_cmpuint (ev.path2_len, <=, FM_PATH_MAX);
  g_assert_cmpuint (strlen (ev.comm), ==, ev.comm_len);
  g_assert_true (g_utf8_validate (ev.detail, ev.detail_len, NULL));
  return 0;
}
