/* test-event-fields.c: every field of the field table (common/fm-event-fields.h) reaches
 * every form of the event. For each field, two events that differ in that field alone
 * must differ in the stream record, the GVariant, the jsonl line and the csv record, and
 * each must come back from them whole; a filter on the field must tell them apart; the
 * table's stream offsets must tile the record's fixed part. The contract's documents
 * must say what the table makes: the Events signal's type in the interface XML, its
 * field list there, the record's layout in doc/stream-format.md. A field added to the
 * table but missed by a consumer or a document fails here (the help, man page and
 * completion are checked by tests/cli/test-fields.sh). */
#include <string.h>

#include "fm-codec.h"
#include "fm-dbus-generated.h"
#include "fm-filter.h"
#include "fm-format.h"
#include "fm-stream.h"
#include "fm-syscalls.h"

#define CHANGED_TEXT "zz-changed"

static FmEvent
base_event (void)
{
  FmEvent e = { .seq = 5, .time_ns = G_GUINT64_CONSTANT (1764851696789012345),
                .duration_ns = 1500, .pid = 812, .ppid = 1, .tid = 813, .uid = 0,
                .result = 3 };

  e.syscall_nr = fm_syscall_by_name ("openat")->nr;
  fm_event_set_strings (&e, "sshd", "/etc/shadow", "", "O_RDONLY");
  return e;
}

/* @e with field @id changed, and a filter text that matches the changed value. */
#define VARY_NUMBER(m) \
  e->m += 7; \
  return g_strdup_printf ("%s=%" G_GINT64_FORMAT, name, (gint64) e->m);
#define VARY_U64(m) VARY_NUMBER (m)
#define VARY_U32(m) VARY_NUMBER (m)
#define VARY_I64(m) VARY_NUMBER (m)
#define VARY_SYSCALL(m) \
  e->m = fm_syscall_by_name ("close")->nr; \
  return g_strdup_printf ("%s=close", name);
#define VARY_BYTES(m) \
  e->m = CHANGED_TEXT; \
  e->m##_len = strlen (CHANGED_TEXT); \
  return g_strdup_printf ("%s='" CHANGED_TEXT "'", name);
#define VARY_UTF8(m) VARY_BYTES (m)
/* the derived fields change with what they are derived from */
#define VARY_ERRNO(m) \
  e->result = -13; \
  return g_strdup_printf ("%s=EACCES", name);
#define VARY_USER(m) \
  e->uid = 65534; \
  return g_strdup_printf ("%s=nobody", name);
#define VARY(id, m, type, ...) case FM_FIELD_##id: { VARY_##type (m) }

static char *
vary (FmEvent *e, FmFieldId id)
{
  const char *name = fm_event_fields[id].filter_name;

  switch (id)
    {
    FM_EVENT_FIELDS (VARY)
    case FM_N_FIELDS:
      break;
    }
  g_assert_not_reached ();
}

static GBytes *
record_of (const FmEvent *e)
{
  g_autoptr(GByteArray) rec = g_byte_array_new ();

  fm_record_append_event (rec, e);
  return g_byte_array_free_to_bytes (g_steal_pointer (&rec));
}

static char *
line_of (FmFormat format, const FmEvent *e)
{
  GString *out = g_string_new (NULL);

  fm_format_event (format, e, out);
  return g_string_free (out, FALSE);
}

static void
assert_stream_round_trip (const FmEvent *e, GBytes *rec)
{
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (rec, &len);
  FmEvent back;

  g_assert_true (fm_record_decode_event (data, len, &back, &error));
  g_assert_no_error (error);
  g_assert_true (fm_event_equal (e, &back));
}

static void
assert_variant_round_trip (const FmEvent *e, GVariant *v)
{
  g_autoptr(GError) error = NULL;
  FmEvent back;

  g_assert_true (fm_event_from_variant (v, &back, &error));
  g_assert_no_error (error);
  g_assert_true (fm_event_equal (e, &back));
}

static void
assert_jsonl_round_trip (const FmEvent *e, const char *line)
{
  g_autoptr(FmJsonlReader) reader = fm_jsonl_reader_new ();
  g_autoptr(GError) error = NULL;
  FmEvent back;

  g_assert_true (fm_jsonl_reader_parse_line (reader, line, strlen (line) - 1, &back, &error));
  g_assert_no_error (error);
  g_assert_true (fm_event_equal (e, &back));
}

static guint
csv_columns (const char *line)
{
  guint n = 1;

  for (const char *p = line; *p != '\0'; p++)
    n += *p == ',';
  return n;
}

static void
test_field_reaches_every_form (gconstpointer data)
{
  FmFieldId id = GPOINTER_TO_UINT (data);
  const FmFieldInfo *field = &fm_event_fields[id];
  FmEvent a = base_event (), b = base_event ();
  g_autofree char *filter_text = vary (&b, id);
  g_autoptr(GBytes) rec_a = record_of (&a), rec_b = record_of (&b);
  g_autoptr(GVariant) v_a = g_variant_ref_sink (fm_event_to_variant (&a));
  g_autoptr(GVariant) v_b = g_variant_ref_sink (fm_event_to_variant (&b));
  g_autofree char *jsonl_a = line_of (FM_FORMAT_JSONL, &a), *jsonl_b = line_of (FM_FORMAT_JSONL, &b);
  g_autofree char *csv_a = line_of (FM_FORMAT_CSV, &a), *csv_b = line_of (FM_FORMAT_CSV, &b);
  g_autofree char *header = g_strdup (fm_format_header (FM_FORMAT_CSV));
  g_auto(GStrv) columns = NULL;
  g_autoptr(FmFilter) filter = NULL;
  g_autoptr(GError) error = NULL;

  g_test_message ("field %s, filter %s", field->filter_name, filter_text);

  /* every form tells the two apart (a derived field varies what it is derived from) */
  g_assert_false (fm_event_equal (&a, &b));
  g_assert_false (g_bytes_equal (rec_a, rec_b));
  g_assert_false (g_variant_equal (v_a, v_b));
  g_assert_cmpstr (jsonl_a, !=, jsonl_b);
  g_assert_cmpstr (csv_a, !=, csv_b);
  assert_stream_round_trip (&b, rec_b);
  assert_variant_round_trip (&b, v_b);

  /* jsonl and csv write every field that has a key, csv in the header's columns */
  g_strchomp (header);
  columns = g_strsplit (header, ",", -1);
  if (field->key != NULL)
    {
      g_autofree char *key = g_strdup_printf ("\"%s\":", field->key);

      g_assert_nonnull (strstr (jsonl_b, key));
      g_assert_true (g_strv_contains ((const char *const *) columns, field->key));
    }
  g_assert_cmpuint (csv_columns (csv_b), ==, g_strv_length (columns));
  assert_jsonl_round_trip (&b, jsonl_b);

  /* the filter reads the field */
  filter = fm_filter_new (filter_text, &error);
  g_assert_no_error (error);
  g_assert_true (fm_filter_match (filter, &b));
  g_assert_false (fm_filter_match (filter, &a));
}

static void
test_gvariant_type_has_one_child_per_stored_field (void)
{
  const GVariantType *type = FM_EVENT_VARIANT_TYPE;
  guint stored = 0;

  for (guint i = 0; i < FM_N_FIELDS; i++)
    stored += fm_field_is_stored (&fm_event_fields[i]);
  g_assert_true (g_variant_type_is_tuple (type));
  g_assert_cmpuint (g_variant_type_n_items (type), ==, stored);
}

/* The Events signal as the XML declares it (the code gdbus-codegen made from it): the
 * contract the table's GVariant must be, as the daemon emits it and clients decode it. */
static void
test_gvariant_type_is_the_xml_signature (void)
{
  GDBusInterfaceInfo *info = fm_filemond1_interface_info ();
  GDBusSignalInfo *events = g_dbus_interface_info_lookup_signal (info, "Events");

  g_assert_nonnull (events);
  g_assert_nonnull (events->args[0]);
  g_assert_null (events->args[1]);
  g_assert_cmpstr (events->args[0]->signature, ==, "a" FM_EVENT_VARIANT_TYPE_STRING);
}

static char *
source_file (const char *relative)
{
  const char *root = g_getenv ("FILEMON_SOURCE_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_nonnull (root);
  path = g_build_filename (root, relative, NULL);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The GVariant type of each stored field, by FmFieldId. */
#define GVARIANT_OF(id, m, type, ...) FM_FIELD_IF_STORED_##type ([FM_FIELD_##id] = FM_FIELD_GVARIANT_##type,)
static const char *const gvariant_of[FM_N_FIELDS] = { FM_EVENT_FIELDS (GVARIANT_OF) };

/* The XML's documentation of the Events record (copied into doc/dbus-api.md) lists the
 * stored fields, by their filter names, with their types, in the tuple's order. */
static void
test_xml_documents_every_field (void)
{
  g_autofree char *xml = source_file ("dbus/org.filemond.Filemond1.xml");
  const char *intro = "Event record fields, as in the Events signal (a" FM_EVENT_VARIANT_TYPE_STRING "):\n";
  const char *at = strstr (xml, intro);
  g_auto(GStrv) lines = NULL;
  guint line = 0;

  g_assert_nonnull (at);
  lines = g_strsplit (at + strlen (intro), "\n", -1);
  for (guint i = 0; i < FM_N_FIELDS; i++)
    {
      const FmFieldInfo *f = &fm_event_fields[i];
      g_auto(GStrv) words = NULL;

      if (!fm_field_is_stored (f))
        continue;
      /* a field's first line is indented by 4; its continuation lines by more */
      while (lines[line] != NULL && g_str_has_prefix (lines[line], "     "))
        line++;
      g_assert_nonnull (lines[line]);
      g_assert_true (g_str_has_prefix (lines[line], "    "));
      words = g_strsplit_set (lines[line] + 4, " ", 3);
      g_test_message ("field %s: %s", f->filter_name, lines[line]);
      g_assert_cmpstr (words[0], ==, f->filter_name);
      g_assert_cmpstr (g_strchug (words[2]), !=, "");
      g_assert_true (g_str_has_prefix (words[2], gvariant_of[i]));
      g_assert_true (g_ascii_isspace (words[2][strlen (gvariant_of[i])]));
      line++;
    }
  /* and no other */
  while (lines[line] != NULL && g_str_has_prefix (lines[line], "     "))
    line++;
  g_assert_nonnull (lines[line]);
  g_assert_false (g_str_has_prefix (lines[line], "    "));
}

static void
test_stream_offsets_tile_the_fixed_part (void)
{
  guint8 owner[FM_RECORD_EVENT_FIXED];

  /* bytes 0..5 are the record's size and type, 6..7 its aux (the syscall) */
  memset (owner, 0xff, sizeof owner);
  for (guint i = 0; i < FM_N_FIELDS; i++)
    {
      const FmFieldInfo *f = &fm_event_fields[i];

      if (!fm_field_is_stored (f))
        continue;
      g_assert_cmpuint (f->stream_size, >, 0);
      g_assert_cmpuint (f->stream_offset + f->stream_size, <=, FM_RECORD_EVENT_FIXED);
      for (guint b = f->stream_offset; b < f->stream_offset + f->stream_size; b++)
        {
          g_assert_cmpuint (owner[b], ==, 0xff);
          owner[b] = (guint8) i;
        }
    }
  for (guint b = 6; b < FM_RECORD_EVENT_FIXED; b++)
    g_assert_cmpuint (owner[b], !=, 0xff);
}

/* The section of @doc from the line @heading to the next heading. */
static char *
doc_section (const char *doc, const char *heading)
{
  const char *start = strstr (doc, heading);
  const char *end;

  g_assert_nonnull (start);
  end = strstr (start + strlen (heading), "\n#");
  return end != NULL ? g_strndup (start, end - start) : g_strdup (start);
}

/* doc/stream-format.md, which readers in other languages are written from, gives the
 * event record's fixed part as the table makes it: a row per stored field, at its
 * offset, of its size, named by its key (a string by key_len), and no other row; then
 * the strings, the size formula and the bound on a record. */
static void
test_stream_doc_gives_the_computed_layout (void)
{
  g_autofree char *doc = source_file ("doc/stream-format.md");
  g_autofree char *event = doc_section (doc, "### Event (type 1; aux = the x86_64 syscall number)");
  g_autoptr(GString) strings = g_string_new (NULL);
  g_autoptr(GString) formula = g_string_new ("size = ");
  g_autofree char *strings_row = NULL;
  g_autofree char *bound = NULL;
  g_auto(GStrv) lines = g_strsplit (event, "\n", -1);
  guint rows = 0, stored_rows = 0, n_strings = 0;

  g_string_append_printf (formula, "%u", (guint) FM_RECORD_EVENT_FIXED);
  for (guint i = 0; i < FM_N_FIELDS; i++)
    {
      const FmFieldInfo *f = &fm_event_fields[i];
      g_autofree char *row = NULL;
      gboolean is_string = f->type == FM_FIELD_TYPE_BYTES || f->type == FM_FIELD_TYPE_UTF8;

      if (!fm_field_is_stored (f) || f->type == FM_FIELD_TYPE_SYSCALL)
        continue;
      row = g_strdup_printf ("\n| %u | %u | %s%s%s", f->stream_offset, f->stream_size, f->key,
                             is_string ? "_len" : "", is_string ? ", u16" : ",");
      g_test_message ("field %s: %s", f->filter_name, row + 1);
      g_assert_nonnull (strstr (event, row));
      stored_rows++;
      if (is_string)
        {
          g_string_append_printf (strings, "%s, NUL, ", f->key);
          g_string_append_printf (formula, " + %s_len", f->key);
          n_strings++;
        }
    }
  g_string_truncate (strings, strings->len - 2);
  strings_row = g_strdup_printf ("\n| %u | ... | %s |\n", (guint) FM_RECORD_EVENT_FIXED, strings->str);
  g_assert_nonnull (strstr (event, strings_row));
  g_string_append_printf (formula, " + %u`", n_strings);
  g_assert_nonnull (strstr (event, formula->str));

  /* the table's rows: its header, the rule, the fields, the strings */
  for (guint l = 0; lines[l] != NULL; l++)
    rows += lines[l][0] == '|';
  g_assert_cmpuint (rows, ==, 2 + stored_rows + 1);

  /* the bound on any record's size, which readers check before reading one */
  bound = g_strdup_printf ("(8 .. %u)", (guint) FM_RECORD_MAX_SIZE);
  g_assert_nonnull (strstr (doc, bound));
  g_free (bound);
  bound = g_strdup_printf ("above %u bytes", (guint) FM_RECORD_MAX_SIZE);
  g_assert_nonnull (strstr (doc, bound));
}

static void
test_names_are_unique (void)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < FM_N_FIELDS; i++)
    {
      const FmFieldInfo *f = &fm_event_fields[i];

      g_assert_cmpuint (f->id, ==, i);
      g_assert_true (g_hash_table_add (names, (gpointer) f->filter_name));
      if (f->key != NULL)
        g_assert_true (g_hash_table_add (keys, (gpointer) f->key));
      g_assert_true (g_str_has_prefix (f->completion, f->filter_name));
      g_assert_cmpuint (strlen (f->completion), ==, strlen (f->filter_name) + 1);
      g_assert_cmpstr (f->help, !=, "");
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < FM_N_FIELDS; i++)
    {
      g_autofree char *path = g_strdup_printf ("/event-fields/%s/reaches-every-form",
                                               fm_event_fields[i].filter_name);

      g_test_add_data_func (path, GUINT_TO_POINTER (i), test_field_reaches_every_form);
    }
  g_test_add_func ("/event-fields/gvariant-type/one-child-per-stored-field",
                   test_gvariant_type_has_one_child_per_stored_field);
  g_test_add_func ("/event-fields/gvariant-type/is-the-xml-signature",
                   test_gvariant_type_is_the_xml_signature);
  g_test_add_func ("/event-fields/xml/documents-every-field", test_xml_documents_every_field);
  g_test_add_func ("/event-fields/stream/offsets-tile-the-fixed-part",
                   test_stream_offsets_tile_the_fixed_part);
  g_test_add_func ("/event-fields/stream/doc-gives-the-computed-layout",
                   test_stream_doc_gives_the_computed_layout);
  g_test_add_func ("/event-fields/table/names-unique-and-described", test_names_are_unique);
  return g_test_run ();
}
