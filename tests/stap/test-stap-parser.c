/* test-stap-parser.c: the stap line parser on recorded output, field by field, and on
 * hostile lines: each is refused, none becomes a wrong event. */
#include "config.h"

#include <string.h>

#include "filemond-stap-parser.h"
#include "fm-error.h"
#include "fm-path.h"
#include "fm-syscalls.h"

static char *
fixture (const char *name)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (g_test_get_filename (G_TEST_DIST, "fixtures", name, NULL), &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

typedef struct {
  const char *syscall;
  gint64 result;
  const char *comm;
  const char *path;
  const char *path2;
  const char *detail;
  guint32 pid, tid, uid;
} Expected;

static void
test_normal_fields (void)
{
  static const Expected want[] = {
    { "openat", -13, "sshd", "/etc/shadow", "", "O_RDONLY", 812, 812, 0 },
    { "openat", 3, "cat", "/home/user/notes.txt", "", "O_RDONLY|O_CLOEXEC", 4242, 4242, 1000 },
    { "openat", -2, "cat", "/home/user/dir/sub/new file", "", "dirfd=3, O_WRONLY|O_CREAT, 0644", 4242, 4243, 1000 },
    { "close", 0, "cat", "/home/user/notes.txt", "", "fd=3", 4242, 4242, 1000 },
    { "read", 4096, "cat", "/home/user/notes.txt", "", "fd=3, count=4096", 4242, 4242, 1000 },
    { "renameat2", 0, "mv", "/tmp/a", "/tmp/b", "RENAME_NOREPLACE", 5000, 5000, 0 },
    { "unlinkat", -21, "rm", "/home/user/dir", "", "AT_REMOVEDIR", 5001, 5001, 1000 },
    { "execve", 0, "bash", "/usr/bin/ls", "", NULL, 5002, 5002, 1000 },
    { "symlink", 0, "ln", "/home/user/link-name", "../target with\ttab", "", 5003, 5003, 1000 },
    { "newfstatat", -2, "stat", "/tmp/caf\xc3\xa9/\xff\x01x\n\"q\"", "", "AT_SYMLINK_NOFOLLOW", 5004, 5004, 1000 },
    { "fsetxattr", 0, "setfattr", "/srv/data", "", NULL, 5005, 5005, 0 },
    { "openat2", 3, "app", "/etc/hosts", "", NULL, 5006, 5006, 0 },
  };
  g_autofree char *text = fixture ("normal");
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();
  guint n = 0;

  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++, n++)
    {
      g_autoptr(GError) error = NULL;
      FmdStapLineKind kind;
      FmEvent ev;
      char name[16];

      g_assert_true (fmd_stap_parser_parse_line (parser, lines[i], strlen (lines[i]), &kind, &ev, &error));
      g_assert_no_error (error);
      g_assert_cmpint (kind, ==, FMD_STAP_LINE_EVENT);
      g_assert_cmpuint (n, <, G_N_ELEMENTS (want));
      g_assert_cmpstr (fm_syscall_name (ev.syscall_nr, name), ==, want[n].syscall);
      g_assert_cmpint (ev.result, ==, want[n].result);
      g_assert_cmpstr (ev.comm, ==, want[n].comm);
      g_assert_cmpstr (ev.path, ==, want[n].path);
      g_assert_cmpuint (ev.path_len, ==, strlen (want[n].path));
      g_assert_cmpstr (ev.path2, ==, want[n].path2);
      if (want[n].detail != NULL)
        g_assert_cmpstr (ev.detail, ==, want[n].detail);
      g_assert_true (g_utf8_validate (ev.detail, ev.detail_len, NULL));
      g_assert_cmpuint (ev.pid, ==, want[n].pid);
      g_assert_cmpuint (ev.tid, ==, want[n].tid);
      g_assert_cmpuint (ev.uid, ==, want[n].uid);
      g_assert_cmpuint (ev.time_ns, ==, G_GUINT64_CONSTANT (1764806400000000000) + n + 1);
      g_assert_cmpuint (ev.duration_ns, >, 0);
      if (g_str_equal (want[n].syscall, "execve"))
        g_assert_nonnull (strstr (ev.detail, "ls -l /tmp"));
      if (g_str_equal (want[n].syscall, "fsetxattr"))
        g_assert_nonnull (strstr (ev.detail, "user.comment"));
      if (g_str_equal (want[n].syscall, "openat2"))
        g_assert_nonnull (strstr (ev.detail, "O_CLOEXEC"));
    }
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (want));
}

static void
test_ready_line (void)
{
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();
  FmdStapLineKind kind;
  FmEvent ev;

  g_assert_true (fmd_stap_parser_parse_line (parser, "R", 1, &kind, &ev, NULL));
  g_assert_cmpint (kind, ==, FMD_STAP_LINE_READY);
}

static void
test_hostile_lines_are_refused (void)
{
  g_autofree char *text = fixture ("hostile");
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();
  guint good = 0, bad = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      FmdStapLineKind kind;
      FmEvent ev;

      if (fmd_stap_parser_parse_line (parser, lines[i], strlen (lines[i]), &kind, &ev, &error))
        {
          /* the only lines that parse are the good one, unchanged */
          g_assert_cmpstr (ev.comm, ==, "good");
          g_assert_cmpstr (ev.path, ==, "/ok");
          g_assert_cmpint (ev.result, ==, -2);
          good++;
        }
      else
        {
          g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
          bad++;
        }
    }
  g_assert_cmpuint (good, ==, 15);
  g_assert_cmpuint (bad, ==, 16);
}

/* Every prefix of a good record (a record cut anywhere) is refused or, never, wrong. */
static void
test_every_truncation_is_refused (void)
{
  g_autofree char *text = fixture ("normal");
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();

  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      gsize len = strlen (lines[i]);

      for (gsize cut = 0; cut < len; cut++)
        {
          FmdStapLineKind kind;
          FmEvent ev;

          /* a cut inside the last number still parses as a smaller number in theory:
           * the last field is a string or "-", so every cut loses its end */
          if (fmd_stap_parser_parse_line (parser, lines[i], cut, &kind, &ev, NULL))
            g_error ("line %u cut at %" G_GSIZE_FORMAT " parsed", i, cut);
        }
    }
}

/* glibc's fstat() is newfstatat(fd, "", AT_EMPTY_PATH): the event's path is the fd's; an
 * empty name without the flag (which fails) stays empty. */
static void
test_empty_path_is_the_dirfd (void)
{
  static const char with_flag[] =
    "E\t262\t1\t1\t7\t1\t7\t0\t0\t\"x\"\t3\t1\t2\t4096\t0\t0\t\"\"\t-\t-\t\"/srv/f\"\t-";
  static const char without[] =
    "E\t262\t1\t1\t7\t1\t7\t0\t-2\t\"x\"\t-100\t1\t2\t0\t0\t0\t\"\"\t-\t-\t\"/root\"\t-";
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();
  FmdStapLineKind kind;
  FmEvent ev;

  g_assert_true (fmd_stap_parser_parse_line (parser, with_flag, strlen (with_flag), &kind, &ev, NULL));
  g_assert_cmpstr (ev.path, ==, "/srv/f");
  g_assert_true (fmd_stap_parser_parse_line (parser, without, strlen (without), &kind, &ev, NULL));
  g_assert_cmpstr (ev.path, ==, "");
  g_assert_cmpint (ev.result, ==, -2);
}

/* SystemTap's dentry walk spells an anonymous inode "ANON_INODE:"; events use the kernel's
 * "anon_inode:" (what /proc/PID/fd, strace and the bpf backend show). A pipe stays as is. */
static void
test_anon_inode_is_spelled_as_the_kernel_does (void)
{
  static const char anon[] =
    "E\t3\t1\t1\t7\t1\t7\t0\t0\t\"x\"\t5\t0\t0\t0\t0\t0\t\"\"\t-\t-\t\"ANON_INODE:inotify\"\t-";
  static const char pipe[] =
    "E\t3\t1\t1\t7\t1\t7\t0\t0\t\"x\"\t5\t0\t0\t0\t0\t0\t\"\"\t-\t-\t\"pipe:[77]\"\t-";
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();
  FmdStapLineKind kind;
  FmEvent ev;

  g_assert_true (fmd_stap_parser_parse_line (parser, anon, strlen (anon), &kind, &ev, NULL));
  g_assert_cmpstr (ev.path, ==, "anon_inode:inotify");
  g_assert_true (fmd_stap_parser_parse_line (parser, pipe, strlen (pipe), &kind, &ev, NULL));
  g_assert_cmpstr (ev.path, ==, "pipe:[77]");
}

/* setxattrat carries a name and a struct in the one text field: the struct's words, a
 * space, then the name (which may hold spaces); a text without the three words is refused. */
static void
test_struct_and_string_share_the_text (void)
{
  static const char line[] =
    "E\t463\t1\t1\t7\t1\t7\t0\t0\t\"x\"\t-100\t1\t256\t2\t3\t16"
    "\t\"xa\"\t-\t\"140720308486144 8589934595 7 user.a b\"\t\"/w\"\t-";
  static const char no_words[] =
    "E\t463\t1\t1\t7\t1\t7\t0\t0\t\"x\"\t-100\t1\t256\t2\t3\t16"
    "\t\"xa\"\t-\t\"user.at\"\t\"/w\"\t-";
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();
  g_autoptr(GError) error = NULL;
  FmdStapLineKind kind;
  FmEvent ev;

  g_assert_true (fmd_stap_parser_parse_line (parser, line, strlen (line), &kind, &ev, NULL));
  g_assert_cmpstr (ev.path, ==, "/w/xa");
  g_assert_cmpstr (ev.detail, ==, "AT_SYMLINK_NOFOLLOW, \"user.a b\", size=3, XATTR_REPLACE");
  g_assert_false (fmd_stap_parser_parse_line (parser, no_words, strlen (no_words), &kind, &ev, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
}

/* One rule for every cut (fm-path.h): a path the script kept the end of, a name joined to
 * a base the script kept the end of, or a path too long for an event keeps the root and
 * its name, the middle elided, with the note; as the bpf backend shows it. */
static void
test_long_paths_keep_root_and_name (void)
{
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GString) want = NULL;
  g_autofree char *name = g_strnfill (250, 'n');
  g_autofree char *line = NULL;
  FmdStapLineKind kind;
  FmEvent ev;

  /* a cwd 4 045 bytes deep, sent whole */
  while (deep->len < 4045 - 201)
    g_string_append (deep, "/dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd");
  g_string_append_c (deep, '/');
  while (deep->len < 4045)
    g_string_append_c (deep, 'e');
  line = g_strdup_printf ("E\t83\t1\t1\t7\t1\t7\t0\t0\t\"mkdir\"\t1\t493\t0\t0\t0\t0\t\"%s\"\t-\t-\t\"%s\"\t-",
                          name, deep->str);
  g_assert_true (fmd_stap_parser_parse_line (parser, line, strlen (line), &kind, &ev, NULL));
  want = g_string_new (deep->str);
  g_string_append_printf (want, "/%s", name);
  g_assert_true (fm_path_elide (want, FM_PATH_MAX, FALSE));
  g_assert_cmpstr (ev.path, ==, want->str);
  g_assert_true (g_str_has_prefix (ev.path, "/.../"));
  g_assert_true (g_str_has_suffix (ev.path, name));
  g_assert_cmpuint (ev.path_len, <=, FM_PATH_MAX);
  g_assert_cmpstr (ev.detail, ==, "0755, path truncated");
  g_free (line);

  /* the base as the script cuts it: its end, "..." before the quote */
  line = g_strdup_printf ("E\t83\t1\t1\t7\t1\t7\t0\t0\t\"mkdir\"\t1\t493\t0\t0\t0\t0\t\"short\"\t-\t-\t...\"dd/eee\"\t-");
  g_assert_true (fmd_stap_parser_parse_line (parser, line, strlen (line), &kind, &ev, NULL));
  g_assert_cmpstr (ev.path, ==, "/.../eee/short");
  g_assert_cmpstr (ev.detail, ==, "0755, path truncated");
  g_free (line);

  /* a name the script kept the end of: its base is lost with its start */
  line = g_strdup_printf ("E\t83\t1\t1\t7\t1\t7\t0\t0\t\"mkdir\"\t1\t493\t0\t0\t0\t0\t...\"b/c/name\"\t-\t-\t\"/cwd\"\t-");
  g_assert_true (fmd_stap_parser_parse_line (parser, line, strlen (line), &kind, &ev, NULL));
  g_assert_cmpstr (ev.path, ==, "/.../c/name");
  g_free (line);

  /* a string the kernel refuses for its length keeps its beginning, the mark after it */
  line = g_strdup_printf ("E\t4\t1\t1\t7\t1\t7\t0\t-36\t\"stat\"\t1\t2\t0\t0\t0\t0\t\"/aaa/bbb\"...\t-\t-\t-\t-");
  g_assert_true (fmd_stap_parser_parse_line (parser, line, strlen (line), &kind, &ev, NULL));
  g_assert_cmpstr (ev.path, ==, "/aaa/bbb...");
  g_assert_nonnull (strstr (ev.detail, "path truncated"));
  g_free (line);

  /* an fd's path (a base) that kept its end */
  line = g_strdup_printf ("E\t3\t1\t1\t7\t1\t7\t0\t0\t\"x\"\t5\t0\t0\t0\t0\t0\t\"\"\t-\t-\t...\"x/file\"\t-");
  g_assert_true (fmd_stap_parser_parse_line (parser, line, strlen (line), &kind, &ev, NULL));
  g_assert_cmpstr (ev.path, ==, "/.../file");
  g_assert_cmpstr (ev.detail, ==, "fd=5, path truncated");
}

/* A cut the script never makes is refused: a base without its end (joined to a name it
 * would make a wrong path), a comm or text without its start, a string cut on both sides. */
static void
test_cuts_on_the_wrong_side_are_refused (void)
{
  static const char *const lines[] = {
    "E\t83\t1\t1\t7\t1\t7\t0\t0\t\"mkdir\"\t1\t493\t0\t0\t0\t0\t\"n\"\t-\t-\t\"/cwd\"...\t-",
    "E\t83\t1\t1\t7\t1\t7\t0\t0\t...\"mkdir\"\t1\t493\t0\t0\t0\t0\t\"/n\"\t-\t-\t-\t-",
    "E\t83\t1\t1\t7\t1\t7\t0\t0\t\"mkdir\"\t1\t493\t0\t0\t0\t0\t...\"/n\"...\t-\t-\t-\t-",
    "E\t83\t1\t1\t7\t1\t7\t0\t0\t\"mkdir\"\t1\t493\t0\t0\t0\t0\t..\"/n\"\t-\t-\t-\t-",
  };
  g_autoptr(FmdStapParser) parser = fmd_stap_parser_new ();

  for (gsize i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autoptr(GError) error = NULL;
      FmdStapLineKind kind;
      FmEvent ev;

      g_assert_false (fmd_stap_parser_parse_line (parser, lines[i], strlen (lines[i]), &kind, &ev, &error));
      g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stap/parser/normal-fields", test_normal_fields);
  g_test_add_func ("/stap/parser/ready-line", test_ready_line);
  g_test_add_func ("/stap/parser/hostile-lines-are-refused", test_hostile_lines_are_refused);
  g_test_add_func ("/stap/parser/empty-path-is-the-dirfd", test_empty_path_is_the_dirfd);
  g_test_add_func ("/stap/parser/anon-inode-is-spelled-as-the-kernel-does",
                   test_anon_inode_is_spelled_as_the_kernel_does);
  g_test_add_func ("/stap/parser/struct-and-string-share-the-text",
                   test_struct_and_string_share_the_text);
  g_test_add_func ("/stap/parser/every-truncation-is-refused", test_every_truncation_is_refused);
  g_test_add_func ("/stap/parser/long-paths-keep-root-and-name", test_long_paths_keep_root_and_name);
  g_test_add_func ("/stap/parser/cuts-on-the-wrong-side-are-refused",
                   test_cuts_on_the_wrong_side_are_refused);
  return g_test_run ();
}
