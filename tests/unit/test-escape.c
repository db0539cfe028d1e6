/* test-escape.c: the \xNN escaping of names, pinned byte for byte in each place that writes
 * it (text lines, csv fields, the detail decoder), over valid UTF-8, C0, DEL, C1, bidi
 * controls, bytes that are not UTF-8 and the characters each form quotes itself; and
 * fm_escape_text, which filemonctl applies to text the daemon relays. */
#include <string.h>

#include "fm-escape.h"
#include "fm-event.h"
#include "fm-format.h"
#include "fm-syscalls.h"

static const struct {
  const char *name;
  const char *bytes;
  const char *text;     /* the text line from the call on */
  const char *csv;      /* the csv line's path, path2 and detail */
  const char *detail;   /* setxattr's detail with the bytes as the xattr name */
} cases[] = {
  { "valid-utf8", "pl\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
    "openat(\"pl\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", pl\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80) = 3",
    "pl\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80,,pl\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
    "\"pl\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", size=0" },
  { "c0", "\x1b[31m\x07\x01",
    "openat(\"\\x1b[31m\\x07\\x01\", \\x1b[31m\\x07\\x01) = 3",
    "\\x1b[31m\\x07\\x01,,\\x1b[31m\\x07\\x01",
    "\"\\x1b[31m\\x07\\x01\", size=0" },
  { "del", "\x7f",
    "openat(\"\\x7f\", \\x7f) = 3",
    "\\x7f,,\\x7f",
    "\"\\x7f\", size=0" },
  { "c1", "\xc2\x9b\xc2\x85",
    "openat(\"\\xc2\\x9b\\xc2\\x85\", \\xc2\\x9b\\xc2\\x85) = 3",
    "\\xc2\\x9b\\xc2\\x85,,\\xc2\\x9b\\xc2\\x85",
    "\"\\xc2\\x9b\\xc2\\x85\", size=0" },
  { "bidi", "\xe2\x80\xae" "x\xe2\x81\xa6",
    "openat(\"\\xe2\\x80\\xaex\\xe2\\x81\\xa6\", \\xe2\\x80\\xaex\\xe2\\x81\\xa6) = 3",
    "\\xe2\\x80\\xaex\\xe2\\x81\\xa6,,\\xe2\\x80\\xaex\\xe2\\x81\\xa6",
    "\"\\xe2\\x80\\xaex\\xe2\\x81\\xa6\", size=0" },
  { "not-utf8", "\xff\xfe\x80",
    "openat(\"\\xff\\xfe\\x80\", \\xff\\xfe\\x80) = 3",
    "\\xff\\xfe\\x80,,\\xff\\xfe\\x80",
    "\"\\xff\\xfe\\x80\", size=0" },
  { "truncated", "\xe2\x82",
    "openat(\"\\xe2\\x82\", \\xe2\\x82) = 3",
    "\\xe2\\x82,,\\xe2\\x82",
    "\"\\xe2\\x82\", size=0" },
  { "overlong", "\xc0\xaf",
    "openat(\"\\xc0\\xaf\", \\xc0\\xaf) = 3",
    "\\xc0\\xaf,,\\xc0\\xaf",
    "\"\\xc0\\xaf\", size=0" },
  { "surrogate", "\xed\xa0\x80",
    "openat(\"\\xed\\xa0\\x80\", \\xed\\xa0\\x80) = 3",
    "\\xed\\xa0\\x80,,\\xed\\xa0\\x80",
    "\"\\xed\\xa0\\x80\", size=0" },
  { "above-unicode", "\xf4\x90\x80\x80",
    "openat(\"\\xf4\\x90\\x80\\x80\", \\xf4\\x90\\x80\\x80) = 3",
    "\\xf4\\x90\\x80\\x80,,\\xf4\\x90\\x80\\x80",
    "\"\\xf4\\x90\\x80\\x80\", size=0" },
  { "quoted-by-each-form", "a\\b\"c\n\t\r",
    "openat(\"a\\\\b\\\"c\\n\\t\\x0d\", a\\b\"c\\n\\t\\x0d) = 3",
    "\"a\\\\b\"\"c\\n\\t\\r\",,\"a\\\\b\"\"c\\n\\t\\r\"",
    "\"a\\\\b\\\"c\\n\\t\\x0d\", size=0" },
};

static void
format_case (FmFormat format, const char *bytes, GString *out)
{
  FmEvent e = { 0 };

  e.syscall_nr = fm_syscall_by_name ("openat")->nr;
  e.pid = 1;
  e.result = 3;
  /* the same bytes as path and detail: text escapes them in two different modes */
  fm_event_set_strings (&e, "sh", bytes, NULL, bytes);
  fm_format_event (format, &e, out);
}

static char *
xattr_detail (const char *bytes)
{
  guint64 args[FM_SYSCALL_MAX_ARGS] = { 0 };
  const char *strings[FM_SYSCALL_MAX_ARGS] = { NULL };
  GString *out = g_string_new ("");

  strings[1] = bytes;
  fm_syscall_format_detail (fm_syscall_by_name ("setxattr"), args, strings, out);
  return g_string_free (out, FALSE);
}

static void
test_text (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) out = g_string_new ("");

      g_test_message ("%s", cases[i].name);
      format_case (FM_FORMAT_TEXT, cases[i].bytes, out);
      g_assert_true (g_str_has_suffix (out->str, "\n"));
      g_string_truncate (out, out->len - 1);
      g_assert_nonnull (strstr (out->str, "openat("));
      g_assert_cmpstr (strstr (out->str, "openat("), ==, cases[i].text);
    }
}

static void
test_csv (void)
{
  const char *before = ",openat,3,,";

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) out = g_string_new ("");
      const char *fields;

      g_test_message ("%s", cases[i].name);
      format_case (FM_FORMAT_CSV, cases[i].bytes, out);
      g_assert_true (g_str_has_suffix (out->str, "\r\n"));
      g_string_truncate (out, out->len - 2);
      fields = strstr (out->str, before);
      g_assert_nonnull (fields);
      g_assert_cmpstr (fields + strlen (before), ==, cases[i].csv);
    }
}

static void
test_detail (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = xattr_detail (cases[i].bytes);

      g_test_message ("%s", cases[i].name);
      g_assert_cmpstr (got, ==, cases[i].detail);
    }
}

/* A name longer than the detail allows is cut between escapes, never inside one. */
static void
assert_cut (char first, const char *unit_in, const char *unit_out, guint n_units)
{
  char in[1101];
  g_autoptr(GString) want = g_string_new ("\"");
  g_autofree char *got = NULL;

  memset (in, first, sizeof in - 1);
  in[sizeof in - 1] = '\0';
  for (gsize j = 0; unit_in != NULL && j + strlen (unit_in) < sizeof in; j += 7)
    memcpy (in + j, unit_in, strlen (unit_in));
  for (guint k = 0; k < n_units; k++)
    g_string_append (want, unit_out);
  g_string_append (want, "...\"");
  got = xattr_detail (in);
  g_assert_cmpstr (got, ==, want->str);
}

static void
test_detail_cut (void)
{
  assert_cut ('\x01', NULL, "\\x01", 254);
  assert_cut ('a', "\xe2\x80\xae", "\\xe2\\x80\\xaeaaaa", 63);
}

/* Text a client prints that the daemon relayed: only the unsafe bytes change, no quoting. */
static void
test_text_relayed (void)
{
  static const struct {
    const char *in;
    const char *want;
  } relayed[] = {
    { "stap: error: \"x\" at /a\\b: \xc3\xa9", "stap: error: \"x\" at /a\\b: \xc3\xa9" },
    { "\x1b[2J\n\t\x7f", "\\x1b[2J\\x0a\\x09\\x7f" },
    { "\xc2\x9b" "1m", "\\xc2\\x9b" "1m" },
    { "a\xe2\x80\xae" "b", "a\\xe2\\x80\\xae" "b" },
    { "\xff\xe2\x82", "\\xff\\xe2\\x82" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (relayed); i++)
    {
      g_autofree char *got = fm_escape_text (relayed[i].in);

      g_assert_cmpstr (got, ==, relayed[i].want);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/escape/text-line", test_text);
  g_test_add_func ("/escape/csv-field", test_csv);
  g_test_add_func ("/escape/detail-xattr-name", test_detail);
  g_test_add_func ("/escape/detail-cut-between-escapes", test_detail_cut);
  g_test_add_func ("/escape/relayed-text", test_text_relayed);
  return g_test_run ();
}
