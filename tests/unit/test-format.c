/* test-format.c: the save formats (text, jsonl, csv) and the jsonl reader: exact lines,
 * hostile strings that must neither break a line nor be lost, the jsonl round trip over
 * every syscall in the table, and RFC 4180 quoting read back by a small csv reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fm-error.h"
#include "fm-format.h"
#include "fm-path.h"
#include "fm-syscalls.h"

/* 12:34:56.789012345 UTC on 2025-12-04 */
#define TEST_TIME (G_GUINT64_CONSTANT (1764851696) * 1000000000 + 789012345)

static guint16
nr_of (const char *name)
{
  const FmSyscall *sc = fm_syscall_by_name (name);

  g_assert_nonnull (sc);
  return sc->nr;
}

static FmEvent
sample_event (void)
{
  FmEvent e = { .seq = 12, .time_ns = TEST_TIME, .duration_ns = 1500, .pid = 812,
                .ppid = 1, .tid = 813, .uid = 0, .result = -13 };

  e.syscall_nr = nr_of ("openat");
  fm_event_set_strings (&e, "sshd", "/etc/shadow", NULL, "O_RDONLY");
  return e;
}

/* Strings no file name may lose or use to break a line: every one is a path. */
static const struct {
  const char *name;
  const char *bytes;
} hostile[] = {
  { "space", "/tmp/a b" },
  { "quotes", "/tmp/\"q\" 'single'" },
  { "backslash", "/tmp/back\\slash\\x41\\\\" },
  { "tab", "/tmp/a\tb" },
  { "newline", "/tmp/a\nb\r\n" },
  { "escape-sequence", "/tmp/\x1b[31mred\x1b[0m\x07" },
  { "c1-control", "/tmp/\xc2\x9b" "31m" },
  { "latin1", "/tmp/caf\xe9" },
  { "lone-continuation", "/tmp/\x80\xbf" },
  { "truncated-utf8", "/tmp/\xe2\x82" },
  { "overlong", "/tmp/\xc0\xaf" },
  { "surrogate-in-utf8", "/tmp/\xed\xa0\x80" },
  { "all-high-bytes", "\x80\x81\xfe\xff" },
  { "valid-utf8", "/tmp/\xc3\xa9t\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80" },
  { "json-like", "\",\"path\":\"/etc/passwd\"}\\u00dcff" },
  { "csv-like", "a,b,\"c\"\r\nd" },
  { "del", "/tmp/\x7f" },
  { "above-unicode", "/tmp/\xf4\x90\x80\x80" },
  { "overlong-3-and-4", "/tmp/\xe0\x80\xaf\xf0\x80\x80\xaf" },
  { "five-byte-form", "/tmp/\xf8\x88\x80\x80\x80" },
  { "noncharacters", "/tmp/\xef\xbf\xbe\xef\xbf\xbf\xf4\x8f\xbf\xbf" },
  { "bom-and-line-separators", "/tmp/\xef\xbb\xbf\xe2\x80\xa8\xe2\x80\xa9\xc2\x85" },
  { "utf8-cut-at-the-end", "/tmp/\xf0\x9f\x98" },
};

static void
test_names (void)
{
  FmFormat f;

  g_assert_true (fm_format_from_string ("text", &f) && f == FM_FORMAT_TEXT);
  g_assert_true (fm_format_from_string ("jsonl", &f) && f == FM_FORMAT_JSONL);
  g_assert_true (fm_format_from_string ("csv", &f) && f == FM_FORMAT_CSV);
  g_assert_false (fm_format_from_string ("json", &f));
  g_assert_false (fm_format_from_string (NULL, &f));
  g_assert_cmpstr (fm_format_to_string (FM_FORMAT_JSONL), ==, "jsonl");
  g_assert_null (fm_format_header (FM_FORMAT_TEXT));
  g_assert_null (fm_format_header (FM_FORMAT_JSONL));
  g_assert_cmpstr (fm_format_header (FM_FORMAT_CSV), ==,
                   "seq,time_ns,duration_ns,pid,ppid,tid,uid,comm,syscall,result,errno,path,path2,detail\r\n");
}

static void
test_text_line (void)
{
  FmEvent e = sample_event ();
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *expected = g_strdup_printf ("12:34:56.789012 %-24s openat(\"/etc/shadow\", O_RDONLY) = -EACCES <0.000001>\n",
                                               "sshd[812]");

  fm_format_event (FM_FORMAT_TEXT, &e, out);
  g_assert_cmpstr (out->str, ==, expected);
}

/* @e as syscall @name with these strings ends its text line with @tail. */
static void
assert_text_tail (FmEvent    *e,
                  const char *name,
                  const char *comm,
                  const char *path,
                  const char *path2,
                  const char *detail,
                  const char *tail)
{
  g_autoptr(GString) out = g_string_new (NULL);

  e->syscall_nr = nr_of (name);
  fm_event_set_strings (e, comm, path, path2, detail);
  fm_format_event (FM_FORMAT_TEXT, e, out);
  if (!g_str_has_suffix (out->str, tail))
    g_error ("%s: the text line is %s", name, out->str);
}

static void
test_text_two_paths_and_success (void)
{
  FmEvent e = sample_event ();

  e.result = 0;
  e.duration_ns = 0;
  assert_text_tail (&e, "renameat2", "mv", "/a", "/b", "RENAME_NOREPLACE",
                    " renameat2(\"/a\", \"/b\", RENAME_NOREPLACE) = 0\n");

  /* no path, no detail: empty parentheses; an unknown errno is a number */
  e.result = -4000;
  assert_text_tail (&e, "renameat2", "x", NULL, NULL, NULL, " renameat2() = -4000\n");

  /* mmap returns an address: hex, as strace shows it */
  e.result = 0x7f3a2c001000;
  assert_text_tail (&e, "mmap", "cc1", "/usr/lib/libc.so.6", "", "",
                    " mmap(\"/usr/lib/libc.so.6\") = 0x7f3a2c001000\n");

  /* symlink (target, linkpath), as the man page and strace write it; the event's path is
   * the link created, path2 the target */
  e.result = 0;
  assert_text_tail (&e, "symlinkat", "ln", "/d/link", "../target", "",
                    " symlinkat(\"../target\", \"/d/link\") = 0\n");
  assert_text_tail (&e, "symlink", "ln", "/d/link", "", "", " symlink(\"/d/link\") = 0\n");

  /* mount (source, target) and sendfile (out_fd, in_fd) likewise: path is the mount point
   * and the file read, path2 the source and the file written */
  assert_text_tail (&e, "mount", "mount", "/mnt", "tmpfs", "\"tmpfs\", MS_NOSUID",
                    " mount(\"tmpfs\", \"/mnt\", \"tmpfs\", MS_NOSUID) = 0\n");
  e.result = 8;
  assert_text_tail (&e, "sendfile", "cp", "/in", "/out", "fd2=5, fd=3, count=8",
                    " sendfile(\"/out\", \"/in\", fd2=5, fd=3, count=8) = 8\n");
}

/* One line, only printable characters, valid UTF-8: nothing reaches a terminal raw. */
static void
assert_safe_line (const GString *out)
{
  g_assert_cmpuint (out->len, >, 0);
  g_assert_cmpint (out->str[out->len - 1], ==, '\n');
  g_assert_true (g_utf8_validate (out->str, out->len, NULL));
  for (const char *p = out->str; p < out->str + out->len - 1; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      g_assert_true (c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0));
    }
}

static void
test_text_hostile (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      FmEvent e = sample_event ();
      g_autoptr(GString) out = g_string_new (NULL);

      g_test_message ("%s", hostile[i].name);
      fm_event_set_strings (&e, hostile[i].bytes, hostile[i].bytes, hostile[i].bytes, "O_RDONLY\n\x1b");
      fm_format_event (FM_FORMAT_TEXT, &e, out);
      assert_safe_line (out);
    }
}

static void
test_text_escapes (void)
{
  FmEvent e = sample_event ();
  g_autoptr(GString) out = g_string_new (NULL);

  fm_event_set_strings (&e, "sh", "/t/\"a\"\\\n\t\x1b\xff\xc2\x9b\xc3\xa9", NULL,
                        "[\"ls\", \"-l\"]");
  fm_format_event (FM_FORMAT_TEXT, &e, out);
  g_assert_nonnull (strstr (out->str, "(\"/t/\\\"a\\\"\\\\\\n\\t\\x1b\\xff\\xc2\\x9b\xc3\xa9\", "));
  /* detail is already quoted by the decoder: kept as it is */
  g_assert_nonnull (strstr (out->str, ", [\"ls\", \"-l\"]) = "));
}

static void
test_jsonl_line (void)
{
  FmEvent e = sample_event ();
  g_autoptr(GString) out = g_string_new (NULL);

  e.time_ns = 1764806400000000001;
  fm_format_event (FM_FORMAT_JSONL, &e, out);
  g_assert_cmpstr (out->str, ==,
                   "{\"seq\":12,\"time_ns\":1764806400000000001,\"duration_ns\":1500,\"pid\":812,"
                   "\"ppid\":1,\"tid\":813,\"uid\":0,\"comm\":\"sshd\",\"syscall\":\"openat\","
                   "\"result\":-13,\"errno\":\"EACCES\",\"path\":\"/etc/shadow\",\"path2\":\"\","
                   "\"detail\":\"O_RDONLY\"}\n");

  g_string_truncate (out, 0);
  e.result = 3;
  fm_event_set_strings (&e, "a\"b", "\\\n\x01\x7f\xff\xc3\xa9", NULL, NULL);
  fm_format_event (FM_FORMAT_JSONL, &e, out);
  g_assert_nonnull (strstr (out->str, "\"errno\":null"));
  g_assert_nonnull (strstr (out->str, "\"comm\":\"a\\\"b\""));
  g_assert_nonnull (strstr (out->str, "\"path\":\"\\\\\\n\\u0001\\u007f\\udcff\xc3\xa9\""));
}

static void
assert_jsonl_round_trip (const FmEvent *e)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();
  g_autoptr(GError) error = NULL;
  FmEvent back;

  fm_format_event (FM_FORMAT_JSONL, e, out);
  g_assert_cmpint (out->str[out->len - 1], ==, '\n');
  g_assert_null (memchr (out->str, '\n', out->len - 1));
  g_assert_true (g_utf8_validate (out->str, out->len, NULL));
  if (!fm_jsonl_reader_parse_line (reader, out->str, out->len - 1, &back, &error))
    g_error ("%s\n%s", error->message, out->str);
  g_assert_true (fm_event_equal (e, &back));
}

static void
test_jsonl_round_trip_hostile (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      FmEvent e = sample_event ();
      char comm[FM_COMM_MAX];

      g_test_message ("%s", hostile[i].name);
      g_strlcpy (comm, hostile[i].bytes, sizeof comm);
      fm_event_set_strings (&e, comm, hostile[i].bytes, hostile[i].bytes, "O_RDONLY");
      assert_jsonl_round_trip (&e);
    }
}

static void
test_jsonl_round_trip_long_path (void)
{
  char path[FM_PATH_MAX + 1];
  FmEvent e = sample_event ();

  /* every non-NUL byte value, over and over, up to the limit */
  for (gsize i = 0; i < FM_PATH_MAX; i++)
    path[i] = (char) (1 + i % 255);
  path[FM_PATH_MAX] = '\0';
  fm_event_set_strings (&e, "x", path, path, "O_RDONLY");
  g_assert_cmpuint (e.path_len, ==, FM_PATH_MAX);
  assert_jsonl_round_trip (&e);
}

static void
test_jsonl_round_trip_every_syscall (void)
{
  guint n = 0;
  const FmSyscall *all = fm_syscalls_all (&n);

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      FmEvent e = sample_event ();

      e.syscall_nr = all[i].nr;
      e.seq = G_MAXUINT64 - i;
      e.time_ns = G_MAXUINT64;
      e.duration_ns = i;
      e.pid = e.tid = e.uid = G_MAXUINT32;
      e.result = i % 2 ? -2 : (gint64) i;
      fm_event_set_strings (&e, "comm", "/p\xff", i % 3 ? "/q" : NULL, "DETAIL");
      assert_jsonl_round_trip (&e);
    }
  /* a number the table does not know comes back as syscall_N */
  {
    FmEvent e = sample_event ();

    e.syscall_nr = 9999;
    e.result = G_MININT64;
    assert_jsonl_round_trip (&e);
  }
}

/* A 4096-byte path of every non-NUL byte value, over and over. */
static char *
long_path_of_every_byte (void)
{
  char *path = g_malloc (FM_PATH_MAX + 1);

  for (gsize i = 0; i < FM_PATH_MAX; i++)
    path[i] = (char) (1 + (i * 7) % 255);
  path[FM_PATH_MAX] = '\0';
  return path;
}

static GPtrArray *csv_read_record (const char *s, gsize len, gsize *used);
static void assert_field (GPtrArray *fields, guint i, const char *bytes, gsize len);
static guint csv_column (const char *key);
static guint csv_n_columns (void);

/* The detail is text the decoders made (always UTF-8), but it too must survive. */
#define HOSTILE_DETAIL "O_RDONLY \"q\" 'x'\t\n\r\\ \x1b[31m \xc3\xa9 \xe2\x80\xa8 , ;"

static void
test_every_syscall_hostile (void)
{
  g_autofree char *long_path = long_path_of_every_byte ();
  guint n = 0;
  const FmSyscall *all = fm_syscalls_all (&n);
  guint checked = 0;

  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    for (guint h = 0; h < G_N_ELEMENTS (hostile); h++)
      {
        FmEvent e = sample_event ();
        char comm[FM_COMM_MAX];
        g_autoptr(GString) text = g_string_new (NULL);
        g_autoptr(GString) csv = g_string_new (NULL);
        g_autoptr(GPtrArray) fields = NULL;
        gsize used = 0;

        e.syscall_nr = all[i].nr;
        e.seq = i * 100 + h;
        e.result = (i + h) % 2 ? -(gint64) (1 + h) : (gint64) h;
        g_strlcpy (comm, hostile[h].bytes, sizeof comm);
        /* the long path takes turns between path and path2 */
        if (h % 2 == 0)
          fm_event_set_strings (&e, comm, hostile[h].bytes, long_path, HOSTILE_DETAIL);
        else
          fm_event_set_strings (&e, comm, long_path, hostile[h].bytes, HOSTILE_DETAIL);
        assert_jsonl_round_trip (&e);

        fm_format_event (FM_FORMAT_TEXT, &e, text);
        assert_safe_line (text);
        g_assert_nonnull (strstr (text->str, all[i].name));

        fm_format_event (FM_FORMAT_CSV, &e, csv);
        g_assert_true (g_utf8_validate (csv->str, csv->len, NULL));
        fields = csv_read_record (csv->str, csv->len, &used);
        g_assert_cmpuint (used, ==, csv->len);
        g_assert_cmpuint (fields->len, ==, csv_n_columns ());
        assert_field (fields, csv_column ("comm"), e.comm, e.comm_len);
        assert_field (fields, csv_column ("syscall"), all[i].name, strlen (all[i].name));
        assert_field (fields, csv_column ("path"), e.path, e.path_len);
        assert_field (fields, csv_column ("path2"), e.path2, e.path2_len);
        assert_field (fields, csv_column ("detail"), e.detail, e.detail_len);
        checked++;
      }
  g_assert_cmpuint (checked, ==, n * G_N_ELEMENTS (hostile));
}

/* Every prefix of a good line is refused with a column inside (or just after) the text. */
static void
test_jsonl_reader_truncated_lines (void)
{
  g_autofree char *long_path = long_path_of_every_byte ();
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();
  FmEvent e = sample_event ();

  fm_event_set_strings (&e, "a\"b\\\x01\xff", long_path, "/x\xc3\xa9\xe2\x82", HOSTILE_DETAIL);
  fm_format_event (FM_FORMAT_JSONL, &e, out);
  g_string_truncate (out, out->len - 1);
  for (gsize len = 0; len < out->len; len++)
    {
      g_autoptr(GError) error = NULL;
      guint column = 0;
      FmEvent back;

      if (fm_jsonl_reader_parse_line (reader, out->str, len, &back, &error))
        g_error ("a line cut after %" G_GSIZE_FORMAT " bytes was accepted", len);
      g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
      if (sscanf (error->message, "column %u: ", &column) != 1 || column < 1 || column > len + 1)
        g_error ("cut after %" G_GSIZE_FORMAT ": %s", len, error->message);
    }
}

/* Unknown keys are skipped, but not without limit: deep nesting is refused, not recursed. */
static void
test_jsonl_reader_deep_unknown_value (void)
{
  g_autoptr(GString) line = g_string_new ("{\"x\":");
  g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();
  g_autoptr(GError) error = NULL;
  FmEvent e;

  for (int i = 0; i < 100000; i++)
    g_string_append_c (line, '[');
  g_assert_false (fm_jsonl_reader_parse_line (reader, line->str, line->len, &e, &error));
  g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "column "));
}

static void
test_jsonl_reader_any_form (void)
{
  g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();
  g_autoptr(GError) error = NULL;
  FmEvent e;
  const char *line =
    "  { \"detail\" : \"O_RDONLY\", \"path2\":\"\", \"extra\": {\"a\": [1, 2.5e3, true, null, \"x\"]},"
    "\"path\":\"\\/etc\\u002fsh\\u00e9\\ud83d\\ude00\\udcff\", \"comm\":\"sshd\", \"syscall\":\"openat\","
    "\"result\":-13, \"errno\" : null, \"uid\":0,\"tid\":3,\"ppid\":1,\"pid\":2,"
    "\"duration_ns\":0,\"time_ns\":5,\"seq\":7 }\t ";

  g_assert_true (fm_jsonl_reader_parse_line (reader, line, strlen (line), &e, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (e.seq, ==, 7);
  g_assert_cmpuint (e.pid, ==, 2);
  g_assert_cmpint (e.result, ==, -13);
  g_assert_cmpuint (e.syscall_nr, ==, nr_of ("openat"));
  g_assert_cmpmem (e.path, e.path_len, "/etc/sh\xc3\xa9\xf0\x9f\x98\x80\xff", 14);
  g_assert_cmpint (e.path[e.path_len], ==, '\0');
  g_assert_cmpmem (e.comm, e.comm_len, "sshd", 4);
}

static void
test_jsonl_reader_errors (void)
{
  static const char good_tail[] =
    "\"pid\":2,\"ppid\":1,\"tid\":2,\"uid\":0,\"comm\":\"c\",\"syscall\":\"openat\","
    "\"result\":0,\"errno\":null,\"path\":\"\",\"path2\":\"\",\"detail\":\"\"}";
  static const struct {
    const char *head;   /* followed by good_tail unless it holds a } */
    guint column;
    const char *says;
  } cases[] = {
    { "[", 1, "expected {" },
    { "{\"seq\":\"1\",", 8, "“seq”: expected an integer" },
    { "{\"seq\":1.5,", 8, "“seq”: expected an integer, not a fraction" },
    { "{\"seq\":-1,", 8, "“seq”: expected a non-negative integer" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"pid\":4294967296,", 44, "“pid”: integer out of range" },
    { "{\"seq\":99999999999999999999,", 8, "“seq”: integer out of range" },
    { "{\"seq\":1 \"time_ns\":1,", 10, "expected , or }" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"pid\":2,\"ppid\":1,\"tid\":2,\"uid\":0,"
      "\"comm\":\"c\",\"syscall\":\"openat\",\"result\":0,\"errno\":3,\"path\":\"\",\"path2\":\"\","
      "\"detail\":\"\"}", 120, "“errno”: expected a string or null" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"pid\":2,\"ppid\":1,\"tid\":2,\"uid\":0,"
      "\"comm\":\"c\",\"syscall\":\"nosuchcall\",\"result\":0,\"path\":\"\",\"path2\":\"\","
      "\"detail\":\"\"}", 1, "unknown syscall" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"pid\":2,\"ppid\":1,\"tid\":2,\"uid\":0,"
      "\"comm\":\"c\",\"syscall\":\"openat\",\"result\":0,\"path\":\"\",\"path2\":\"\"}",
      0, "missing key “detail”" },
    { "{\"seq\":1,\"seq\":2,", 16, "duplicate key" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"comm\":\"a\\qb\",", 48, "unknown escape" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"comm\":\"a\\ud800b\",", 53, "high surrogate" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"comm\":\"a\\u0000\",", 0, "NUL in a string" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"comm\":\"0123456789abcdef\",", 45,
      "“comm”: string longer than its limit" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"comm\":\"a\tb\",", 47, "control character" },
    { "{\"seq\":1,\"x\":tru,", 14, "expected a value" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"comm\":\"c}", 0, "unterminated string" },
    { "{}", 2, "empty object" },
    /* wrong types */
    { "{\"pid\":\"2\",", 8, "“pid”: expected an integer" },
    { "{\"comm\":5,", 9, "“comm”: expected a string" },
    { "{\"path\":null,", 9, "“path”: expected a string" },
    { "{\"result\":true,", 11, "“result”: expected an integer" },
    { "{\"detail\":[\"a\"],", 11, "“detail”: expected a string" },
    /* a missing key: the column is the end of the line */
    { "{\"time_ns\":1,\"duration_ns\":1,\"pid\":2,\"ppid\":1,\"tid\":2,\"uid\":0,"
      "\"comm\":\"c\",\"syscall\":\"openat\",\"result\":0,\"path\":\"\",\"path2\":\"\","
      "\"detail\":\"\"}", 137, "missing key “seq”" },
    /* trailing garbage after a complete object */
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"pid\":2,\"ppid\":1,\"tid\":2,\"uid\":0,"
      "\"comm\":\"c\",\"syscall\":\"openat\",\"result\":0,\"path\":\"\",\"path2\":\"\","
      "\"detail\":\"\"} x", 146, "text after the end of the object" },
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"pid\":2,\"ppid\":1,\"tid\":2,\"uid\":0,"
      "\"comm\":\"c\",\"syscall\":\"openat\",\"result\":0,\"path\":\"\",\"path2\":\"\","
      "\"detail\":\"\"}}", 145, "text after the end of the object" },
    /* a byte escape that valid UTF-8 would have written as itself */
    { "{\"seq\":1,\"time_ns\":1,\"duration_ns\":1,\"comm\":\"\\udc41\",", 0, "lone low surrogate" },
  };
  g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *line = strchr (cases[i].head, '}') != NULL ? g_strdup (cases[i].head) :
                              g_strconcat (cases[i].head, good_tail, NULL);
      g_autofree char *prefix = g_strdup_printf ("column %u: ", cases[i].column);
      FmEvent e;

      g_test_message ("%s", line);
      g_assert_false (fm_jsonl_reader_parse_line (reader, line, strlen (line), &e, &error));
      g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
      g_assert_true (g_str_has_prefix (error->message, "column "));
      if (cases[i].column != 0 && !g_str_has_prefix (error->message, prefix))
        g_error ("case %u: wanted %s, got: %s", i, prefix, error->message);
      if (strstr (error->message, cases[i].says) == NULL)
        g_error ("case %u: wanted “%s” in: %s", i, cases[i].says, error->message);
    }
}

/* A strict RFC 4180 reader for one record, then the documented unescaping of \\ and \xNN. */
static GPtrArray *
csv_read_record (const char *s, gsize len, gsize *used)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  GByteArray *field = g_byte_array_new ();
  gsize i = 0;

  for (;;)
    {
      g_byte_array_set_size (field, 0);
      if (i < len && s[i] == '"')
        {
          for (i++;; i++)
            {
              g_assert_cmpuint (i, <, len);
              if (s[i] == '"' && i + 1 < len && s[i + 1] == '"')
                g_byte_array_append (field, (const guint8 *) "\"", 1), i++;
              else if (s[i] == '"')
                break;
              else
                g_byte_array_append (field, (const guint8 *) s + i, 1);
            }
          i++;
        }
      else
        for (; i < len && s[i] != ',' && s[i] != '\r'; i++)
          {
            g_assert_cmpint (s[i], !=, '"');
            g_assert_cmpint (s[i], !=, '\n');
            g_byte_array_append (field, (const guint8 *) s + i, 1);
          }
      /* unescape */
      {
        GByteArray *raw = g_byte_array_new ();

        for (guint k = 0; k < field->len; k++)
          {
            guint8 b = field->data[k];

            if (b == '\\' && k + 1 < field->len && field->data[k + 1] == '\\')
              k++;
            else if (b == '\\' && k + 1 < field->len && strchr ("nrt", field->data[k + 1]))
              {
                b = field->data[k + 1] == 'n' ? '\n' : field->data[k + 1] == 'r' ? '\r' : '\t';
                k++;
              }
            else if (b == '\\' && k + 3 < field->len && field->data[k + 1] == 'x')
              {
                char hexd[3] = { (char) field->data[k + 2], (char) field->data[k + 3], 0 };

                b = (guint8) strtoul (hexd, NULL, 16);
                k += 3;
              }
            else
              g_assert_cmpint (b, !=, '\\');
            g_byte_array_append (raw, &b, 1);
          }
        g_ptr_array_add (fields, g_byte_array_free_to_bytes (raw));
      }
      g_assert_cmpuint (i, <, len);
      if (s[i] == ',')
        {
          i++;
          continue;
        }
      g_assert_cmpint (s[i], ==, '\r');
      g_assert_cmpint (s[i + 1], ==, '\n');
      *used = i + 2;
      break;
    }
  g_byte_array_unref (field);
  return fields;
}

/* The csv column of @key, and how many there are: from the header, not counted by hand. */
static guint
csv_column (const char *key)
{
  g_autofree char *header = g_strdup (fm_format_header (FM_FORMAT_CSV));
  g_auto(GStrv) columns = g_strsplit (g_strchomp (header), ",", -1);

  for (guint i = 0; columns[i] != NULL; i++)
    if (g_str_equal (columns[i], key))
      return i;
  g_assert_not_reached ();
}

static guint
csv_n_columns (void)
{
  return csv_column ("detail") + 1;
}

static void
assert_field (GPtrArray *fields, guint i, const char *bytes, gsize len)
{
  gsize n;
  const void *data = g_bytes_get_data (g_ptr_array_index (fields, i), &n);

  g_assert_cmpmem (data, n, bytes, len);
}

static void
test_csv_line (void)
{
  FmEvent e = sample_event ();
  g_autoptr(GString) out = g_string_new (NULL);

  fm_format_event (FM_FORMAT_CSV, &e, out);
  g_assert_cmpstr (out->str, ==, "12,1764851696789012345,1500,812,1,813,0,sshd,openat,-13,EACCES,/etc/shadow,,O_RDONLY\r\n");
  g_string_truncate (out, 0);
  e.result = 0;
  fm_format_event (FM_FORMAT_CSV, &e, out);
  g_assert_true (g_str_has_suffix (out->str, ",openat,0,,/etc/shadow,,O_RDONLY\r\n"));
}

/* A path shortened by the one rule of the backends (fm-path.h) keeps its marker, and the
 * note, in every format: jsonl reads back the same event, text and csv hold the bytes. */
static void
test_elided_path_in_every_format (void)
{
  g_autoptr(GString) path = g_string_new (NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) csv = g_string_new (NULL);
  g_autoptr(GPtrArray) fields = NULL;
  FmEvent e = sample_event ();
  gsize used = 0;

  while (path->len < 2 * FM_PATH_MAX)
    g_string_append (path, "/dir with, \"quotes\"");
  g_string_append (path, "/name");
  g_assert_true (fm_path_elide (path, FM_PATH_MAX, FALSE));
  fm_event_set_strings (&e, "mkdir", path->str, NULL, "0755, path truncated");
  g_assert_cmpuint (e.path_len, ==, path->len);
  assert_jsonl_round_trip (&e);

  fm_format_event (FM_FORMAT_TEXT, &e, text);
  g_assert_nonnull (strstr (text->str, "\"/" FM_PATH_MARK "/"));
  g_assert_nonnull (strstr (text->str, "/name\""));
  g_assert_nonnull (strstr (text->str, "path truncated"));

  fm_format_event (FM_FORMAT_CSV, &e, csv);
  fields = csv_read_record (csv->str, csv->len, &used);
  assert_field (fields, csv_column ("path"), path->str, path->len);
  assert_field (fields, csv_column ("detail"), "0755, path truncated", 20);
}

static void
test_csv_quoting_hostile (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      FmEvent e = sample_event ();
      g_autoptr(GString) out = g_string_new (NULL);
      g_autoptr(GPtrArray) fields = NULL;
      char comm[FM_COMM_MAX];
      gsize used = 0;

      g_test_message ("%s", hostile[i].name);
      g_strlcpy (comm, hostile[i].bytes, sizeof comm);
      fm_event_set_strings (&e, comm, hostile[i].bytes, "x,y", "O_RDONLY, 0644");
      fm_format_event (FM_FORMAT_CSV, &e, out);
      g_assert_true (g_utf8_validate (out->str, out->len, NULL));
      fields = csv_read_record (out->str, out->len, &used);
      g_assert_cmpuint (used, ==, out->len);
      g_assert_cmpuint (fields->len, ==, csv_n_columns ());
      assert_field (fields, csv_column ("comm"), comm, strlen (comm));
      assert_field (fields, csv_column ("syscall"), "openat", 6);
      assert_field (fields, csv_column ("path"), hostile[i].bytes, strlen (hostile[i].bytes));
      assert_field (fields, csv_column ("path2"), "x,y", 3);
      assert_field (fields, csv_column ("detail"), "O_RDONLY, 0644", 14);
    }
}

static void
test_csv_quotes_only_when_needed (void)
{
  FmEvent e = sample_event ();
  g_autoptr(GString) out = g_string_new (NULL);

  fm_event_set_strings (&e, "c", "/a \"b\"", "/x\ty", "a,b");
  fm_format_event (FM_FORMAT_CSV, &e, out);
  g_assert_true (g_str_has_suffix (out->str, ",\"/a \"\"b\"\"\",/x\\ty,\"a,b\"\r\n"));
}

/* A file name cannot forge a csv record: CR and LF are escaped, the record is one line. */
static void
test_csv_one_line_per_record (void)
{
  FmEvent e = sample_event ();
  g_autoptr(GString) out = g_string_new (NULL);

  fm_event_set_strings (&e, "c", "/x\r\n13,0,0,1,1,1,0,evil,unlink,0,,/etc/passwd,,", "", "");
  fm_format_event (FM_FORMAT_CSV, &e, out);
  g_assert_null (strchr (out->str, '\n') == out->str + out->len - 1 ? NULL : out->str);
  g_assert_true (strstr (out->str, "/x\\r\\n13,") != NULL);
}

/* U+009B (CSI, a C1 control) and U+202E (right-to-left override) never reach the output
 * raw, in any format: jsonl writes \u009b and \u202e (the same characters when read back). */
static void
test_hostile_unicode_escaped (void)
{
  const char *name = "/x\xc2\x9b" "31m\xe2\x80\xae" "txt.exe";

  for (FmFormat f = FM_FORMAT_TEXT; f <= FM_FORMAT_CSV; f++)
    {
      FmEvent e = sample_event ();
      g_autoptr(GString) out = g_string_new (NULL);

      fm_event_set_strings (&e, "c", name, "", "");
      fm_format_event (f, &e, out);
      g_assert_null (strstr (out->str, "\xc2\x9b"));
      g_assert_null (strstr (out->str, "\xe2\x80\xae"));
      if (f == FM_FORMAT_JSONL)
        {
          g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();
          g_autoptr(GError) error = NULL;
          FmEvent back;

          g_assert_nonnull (strstr (out->str, "\"/x\\u009b31m\\u202etxt.exe\""));
          /* read back as the same characters */
          g_assert_true (fm_jsonl_reader_parse_line (reader, out->str, out->len - 1, &back, &error));
          g_assert_no_error (error);
          g_assert_cmpstr (back.path, ==, name);
        }
      else
        g_assert_nonnull (strstr (out->str, "/x\\xc2\\x9b31m\\xe2\\x80\\xaetxt.exe"));
    }
}

int
main (int argc, char **argv)
{
  /* the text format shows local time: fix the zone so the expected lines hold anywhere */
  g_setenv ("TZ", "UTC", TRUE);
  tzset ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/format/names-and-csv-header", test_names);
  g_test_add_func ("/format/text/strace-like-line", test_text_line);
  g_test_add_func ("/format/text/two-paths-no-duration-unknown-errno-mmap-hex", test_text_two_paths_and_success);
  g_test_add_func ("/format/text/hostile-strings-stay-one-printable-line", test_text_hostile);
  g_test_add_func ("/format/text/c-escapes", test_text_escapes);
  g_test_add_func ("/format/jsonl/every-field-in-order", test_jsonl_line);
  g_test_add_func ("/format/jsonl/round-trip/hostile-strings", test_jsonl_round_trip_hostile);
  g_test_add_func ("/format/jsonl/round-trip/path-of-4096-bytes", test_jsonl_round_trip_long_path);
  g_test_add_func ("/format/elided-path-keeps-its-marker-in-every-format",
                   test_elided_path_in_every_format);
  g_test_add_func ("/format/jsonl/round-trip/every-syscall", test_jsonl_round_trip_every_syscall);
  g_test_add_func ("/format/jsonl/reader/any-key-order-whitespace-unknown-keys", test_jsonl_reader_any_form);
  g_test_add_func ("/format/jsonl/reader/errors-name-the-column", test_jsonl_reader_errors);
  g_test_add_func ("/format/jsonl/reader/every-truncated-line-is-refused", test_jsonl_reader_truncated_lines);
  g_test_add_func ("/format/jsonl/reader/deeply-nested-unknown-value-is-refused", test_jsonl_reader_deep_unknown_value);
  g_test_add_func ("/format/every-syscall/hostile-strings-in-every-format", test_every_syscall_hostile);
  g_test_add_func ("/format/csv/line", test_csv_line);
  g_test_add_func ("/format/csv/rfc4180-quoting-recovers-hostile-strings", test_csv_quoting_hostile);
  g_test_add_func ("/format/csv/quotes-only-when-needed", test_csv_quotes_only_when_needed);
  g_test_add_func ("/format/csv/one-line-per-record", test_csv_one_line_per_record);
  g_test_add_func ("/format/all/c1-and-bidi-controls-escaped", test_hostile_unicode_escaped);

  return g_test_run ();
}
