/* test-command-line.c: an exec's argv list from its detail text, shown as shell words. */
#include "config.h"

#include <string.h>

#include "fm-syscalls.h"
#include "fmv-command-line.h"

static void
assert_command_line (const char *detail,
                     const char *want,
                     const char *want_rest)
{
  g_autofree char *rest = NULL;
  g_autofree char *got = fmv_command_line_from_detail (detail, strlen (detail), &rest);

  g_test_message ("%s", detail);
  g_assert_cmpstr (got, ==, want);
  g_assert_cmpstr (rest, ==, want_rest);
  if (got != NULL)
    g_assert_true (g_utf8_validate (got, -1, NULL));
}

static void
test_command_line_shell_words (void)
{
  assert_command_line ("[\"make\", \"-j2\"]", "make -j2", "");
  assert_command_line ("[\"cp\", \"a b\", \"--target=/tmp/x\"]", "cp 'a b' --target=/tmp/x", "");
  assert_command_line ("[\"sh\", \"-c\", \"echo \\\"it's\\\" > out; ls *\"]",
                       "sh -c 'echo \"it'\\''s\" > out; ls *'", "");
  assert_command_line ("[\"printf\", \"\", \"a\\\\b\"]", "printf '' 'a\\b'", "");
  /* what a terminal would act on, or what is not text, in $'...' */
  assert_command_line ("[\"echo\", \"two\\nlines\", \"tab\\there\", \"\\xff\\x1b[0m\"]",
                       "echo $'two\\nlines' $'tab\\there' $'\\xff\\x1b[0m'", "");
  assert_command_line ("[\"caf\xc3\xa9\"]", "'caf\xc3\xa9'", "");
  assert_command_line ("[]", "", "");
  /* execveat: the list among other fields */
  assert_command_line ("dirfd=3, [\"./run\", \"x\"], AT_EMPTY_PATH", "./run x", "dirfd=3, AT_EMPTY_PATH");
  assert_command_line ("[\"ls\"], AT_SYMLINK_NOFOLLOW", "ls", "AT_SYMLINK_NOFOLLOW");
  assert_command_line ("dirfd=3, [\"ls\"]", "ls", "dirfd=3");
  /* an argument the detail's bound cut keeps its ellipsis */
  assert_command_line ("[\"cc\", \"-DLONG...\"]", "cc -DLONG...", "");
}

static void
test_command_line_no_list (void)
{
  assert_command_line ("", NULL, NULL);
  assert_command_line ("fd=3, count=4096", NULL, NULL);
  assert_command_line ("[\"unterminated", NULL, NULL);
  assert_command_line ("[\"a\" \"b\"]", NULL, NULL);
  assert_command_line ("[\"a\"]x", NULL, NULL);
  assert_command_line ("x[\"a\"]", NULL, NULL);
  assert_command_line ("[\"bad \\q escape\"]", NULL, NULL);
  assert_command_line ("[\"short \\x4\"]", NULL, NULL);
  /* the list that the bound left out entirely */
  assert_command_line ("...", NULL, NULL);
}

/* The detail decoder's own output reads back as the arguments it was given. */
static void
test_command_line_reads_the_decoders_list (void)
{
  static const char argv[] = "prog\0with space\0quote\"back\\slash\0new\nline\0\xff\0";
  const FmSyscall *sc = fm_syscall_by_name ("execve");
  guint64 args[FM_SYSCALL_MAX_ARGS] = { 0 };
  const char *strings[FM_SYSCALL_MAX_ARGS] = { NULL, argv, NULL };
  g_autoptr(GString) detail = g_string_new (NULL);
  g_autofree char *line = NULL;
  g_autofree char *rest = NULL;

  fm_syscall_format_detail (sc, args, strings, detail);
  line = fmv_command_line_from_detail (detail->str, detail->len, &rest);
  g_assert_cmpstr (line, ==, "prog 'with space' 'quote\"back\\slash' $'new\\nline' $'\\xff'");
  g_assert_cmpstr (rest, ==, "");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/viewer/command-line/shell-words", test_command_line_shell_words);
  g_test_add_func ("/viewer/command-line/none-without-a-list", test_command_line_no_list);
  g_test_add_func ("/viewer/command-line/reads-the-detail-decoders-list", test_command_line_reads_the_decoders_list);
  return g_test_run ();
}
