/* test-fields.c: every field of the table (fm-event-fields.h) reaches the viewer: a
 * column that shows it (with a title, a row property and an item in the column chooser),
 * a sort that orders by it, a filter term that finds its row, a row in the Event tab and
 * the analysis's value counts. The fields are walked from the table and their values set
 * by their type, never named here, so a field added to the table is checked with no edit
 * of this file, and a part of the viewer that lists fields by hand fails for the one it
 * leaves out. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "fm-filter.h"
#include "fm-syscalls.h"
#include "fmv-analysis.h"
#include "fmv-columns.h"
#include "fmv-detail-rows.h"
#include "fmv-event-list.h"
#include "fmv-filter-term.h"
#include "fmv-row.h"
#include "fmv-store.h"

/* Two values of a field, by its type: the first orders before the second where the type
 * has an order of its own. A derived field is set through what it is derived from. */
#define SET_NUMBER(m) ev->m = second ? 2000000 : 1000000;
#define SET_U64(m) SET_NUMBER (m)
#define SET_U32(m) SET_NUMBER (m)
#define SET_I64(m) SET_NUMBER (m)
#define SET_SYSCALL(m) ev->m = fm_syscall_by_name (second ? "unlinkat" : "openat")->nr;
#define SET_BYTES(m) \
  ev->m = second ? "value-b" : "value-a"; \
  ev->m##_len = strlen (ev->m);
#define SET_UTF8(m) SET_BYTES (m)
#define SET_ERRNO(m) ev->result = second ? -ENOENT : -EACCES;
#define SET_USER(m) ev->uid = second ? 2000000 : 0;
#define SET_CASE(id, m, type, ...) \
  case FM_FIELD_##id: \
    SET_##type (m) break;

/* An ordinary event (no exec, no failure, two paths), with @field set to its first or
 * @second value. */
static void
make_event (FmEvent   *ev,
            FmFieldId  field,
            gboolean   second)
{
  *ev = (FmEvent) {
    .seq = 10,
    .time_ns = G_GUINT64_CONSTANT (1764763200000000000),
    .duration_ns = 5000,
    .pid = 100,
    .ppid = 1,
    .tid = 101,
    .uid = 1000,
    .result = 3,
    .syscall_nr = fm_syscall_by_name ("renameat2")->nr,
  };
  fm_event_set_strings (ev, "base", "/base/path", "/base/path2", "base detail");
  switch (field)
    {
      FM_EVENT_FIELDS (SET_CASE)
    case FM_N_FIELDS:
    default:
      g_assert_not_reached ();
    }
}

/* A store with the events of @field's values in @order ("ab", "ba", "aba"). */
static FmvStore *
store_of (FmFieldId   field,
          const char *order)
{
  FmvStore *store = fmv_store_new ();

  for (const char *p = order; *p != '\0'; p++)
    {
      FmEvent ev;

      make_event (&ev, field, *p == 'b');
      g_assert_true (fmv_store_append (store, &ev, NULL));
    }
  return store;
}

/* The events of @field's two values, as the store gives them back (row 0 and row 1 of
 * a store of "ab"). */
typedef struct {
  FmvStore *store;
  FmvStoreEvent stored[2];
  const FmEvent *ev[2];
} Pair;

static void
pair_init (Pair      *pair,
           FmFieldId  field)
{
  pair->store = store_of (field, "ab");
  for (guint i = 0; i < 2; i++)
    pair->ev[i] = fmv_store_get_event (pair->store, i, &pair->stored[i]);
}

static void
pair_clear (Pair *pair)
{
  g_clear_object (&pair->store);
}

/* The item of the column chooser whose action is @action, -1 when none. */
static int
chooser_item (GMenuModel *chooser,
              const char *action,
              char      **label)
{
  for (int i = 0; i < g_menu_model_get_n_items (chooser); i++)
    {
      g_autofree char *item_action = NULL;

      g_assert_true (g_menu_model_get_item_attribute (chooser, i, G_MENU_ATTRIBUTE_ACTION, "s",
                                                      &item_action));
      if (g_str_equal (item_action, action))
        {
          g_assert_true (g_menu_model_get_item_attribute (chooser, i, G_MENU_ATTRIBUTE_LABEL, "s",
                                                          label));
          return i;
        }
    }
  return -1;
}

/* @column's text for event @i of @pair, the same as the row property the cells bind. */
static char *
column_text (const FmvColumnInfo *column,
             Pair                *pair,
             guint                i)
{
  g_autoptr(FmvRow) row = fmv_row_new (pair->store, i);
  g_autofree char *property = NULL;
  char *text = column->format (column->field, pair->ev[i]);

  g_assert_nonnull (text);
  g_assert_nonnull (g_object_class_find_property (G_OBJECT_GET_CLASS (row), column->name));
  g_object_get (row, column->name, &property, NULL);
  g_assert_cmpstr (property, ==, text);
  return text;
}

/* A column shows the field: its own, or the one that shows it beside its own field's;
 * its text tells the two values apart, as the row property the cells bind does; and the
 * chooser has an item for it, titled as the column. At most one field has no column:
 * the sequence number, the list's own order. */
static void
test_fields_have_a_column_and_a_chooser_item (void)
{
  g_autoptr(GMenu) chooser = g_menu_new ();
  guint without_column = 0;

  fmv_columns_append_chooser (chooser);
  g_assert_cmpint (g_menu_model_get_n_items (G_MENU_MODEL (chooser)), ==, fmv_columns_get_n ());
  for (FmFieldId f = 0; f < FM_N_FIELDS; f++)
    {
      Pair pair;
      guint c = 0, own = 0;
      const FmvColumnInfo *column;
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;
      g_autofree char *action = NULL;
      g_autofree char *detailed = NULL;
      g_autofree char *label = NULL;

      g_test_message ("field %s", fm_event_fields[f].filter_name);
      if (!fmv_columns_find_shown (f, &c))
        {
          g_assert_false (fmv_columns_find_field (f, &c));
          g_assert_cmpuint (++without_column, <=, 1);
          continue;
        }
      column = fmv_columns_get (c);
      if (fmv_columns_find_field (f, &own))
        {
          g_assert_cmpuint (own, ==, c);
          g_assert_cmpint (column->field, ==, f);
        }
      g_assert_nonnull (column->name);
      g_assert_cmpstr (column->title, !=, "");
      g_assert_cmpint (column->width, >, 0);

      pair_init (&pair, f);
      a = column_text (column, &pair, 0);
      b = column_text (column, &pair, 1);
      g_assert_cmpstr (a, !=, b);
      pair_clear (&pair);

      action = fmv_columns_action_name (c);
      detailed = g_strdup_printf ("win.%s", action);
      g_assert_cmpint (chooser_item (G_MENU_MODEL (chooser), detailed, &label), ==, (int) c);
      g_assert_cmpstr (label, ==, column->title);
    }
}

/* Whether the first shown row of a list sorted by @field is the event of the field's
 * first value. */
static gboolean
sorted_first_is_a (FmFieldId   field,
                   const char *order,
                   gboolean    descending)
{
  g_autoptr(FmvStore) store = store_of (field, order);
  g_autoptr(FmvEventList) list = fmv_event_list_new (store);

  fmv_event_list_set_sort (list, field, descending);
  fmv_event_list_wait (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 2);
  return order[fmv_event_list_get_row (list, 0)] == 'a';
}

/* Sorting by the field puts the same event first whichever came first, the other one
 * when descending; a stored field's first value first when ascending (a derived one
 * sorts as what it is derived from: the uid, the result). */
static void
test_fields_sort_two_rows_by_their_value (void)
{
  for (FmFieldId f = 0; f < FM_N_FIELDS; f++)
    {
      gboolean a_first = sorted_first_is_a (f, "ab", FALSE);

      g_test_message ("field %s", fm_event_fields[f].filter_name);
      g_assert_cmpint (sorted_first_is_a (f, "ba", FALSE), ==, a_first);
      g_assert_cmpint (sorted_first_is_a (f, "ab", TRUE), ==, !a_first);
      g_assert_cmpint (sorted_first_is_a (f, "ba", TRUE), ==, !a_first);
      if (fm_field_is_stored (&fm_event_fields[f]))
        g_assert_true (a_first);
    }
}

/* The term built from a row's value matches that row and not the one with the field's
 * other value. */
static void
test_fields_terms_match_their_row (void)
{
  for (FmFieldId f = 0; f < FM_N_FIELDS; f++)
    {
      Pair pair;

      pair_init (&pair, f);
      for (guint i = 0; i < 2; i++)
        {
          g_autofree char *term = fmv_filter_term (f, pair.ev[i]);
          g_autoptr(GError) error = NULL;
          g_autoptr(FmFilter) filter = NULL;

          g_test_message ("field %s: %s", fm_event_fields[f].filter_name, term);
          filter = fm_filter_new (term, &error);
          g_assert_no_error (error);
          g_assert_true (fm_filter_match (filter, pair.ev[i]));
          g_assert_false (fm_filter_match (filter, pair.ev[1 - i]));
        }
      pair_clear (&pair);
    }
}

/* A stored field has a labelled row of its own in the Event tab, whose text tells the
 * two values apart; a derived one changes the text of some row (its source's). */
static void
test_fields_have_a_detail_row (void)
{
  for (FmFieldId f = 0; f < FM_N_FIELDS; f++)
    {
      Pair pair;
      guint n_differ = 0;

      g_test_message ("field %s", fm_event_fields[f].filter_name);
      pair_init (&pair, f);
      for (guint r = 0; r < FMV_DETAIL_N_ROWS; r++)
        {
          g_autofree char *a = NULL;
          g_autofree char *b = NULL;

          if (!fmv_detail_row_exists (r))
            continue;
          g_assert_cmpstr (fmv_detail_row_label (r), !=, "");
          a = fmv_detail_row_text (r, pair.ev[0]);
          b = fmv_detail_row_text (r, pair.ev[1]);
          if (g_strcmp0 (a, b) != 0)
            n_differ++;
          if (r == f)
            {
              g_assert_nonnull (a);
              g_assert_nonnull (b);
              g_assert_cmpstr (a, !=, b);
            }
        }
      g_assert_cmpint (fmv_detail_row_exists (f), ==, fm_field_is_stored (&fm_event_fields[f]));
      g_assert_cmpuint (n_differ, >=, 1);
      pair_clear (&pair);
    }
}

/* Counting the values of the field among the rows of "aba": two values, the first twice
 * (at row 0), the second once (at row 1). */
static void
test_fields_counted_by_value (void)
{
  static const guint32 rows[] = { 0, 1, 2 };

  for (FmFieldId f = 0; f < FM_N_FIELDS; f++)
    {
      g_autoptr(FmvStore) store = store_of (f, "aba");
      g_autoptr(GArray) counts = fmv_analysis_count_values (store, rows, G_N_ELEMENTS (rows), f);

      g_test_message ("field %s", fm_event_fields[f].filter_name);
      g_assert_cmpuint (counts->len, ==, 2);
      g_assert_cmpuint (g_array_index (counts, FmvValueCount, 0).count, ==, 2);
      g_assert_cmpuint (g_array_index (counts, FmvValueCount, 0).row, ==, 0);
      g_assert_cmpuint (g_array_index (counts, FmvValueCount, 1).count, ==, 1);
      g_assert_cmpuint (g_array_index (counts, FmvValueCount, 1).row, ==, 1);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viewer/fields/have-a-column-and-a-chooser-item",
                   test_fields_have_a_column_and_a_chooser_item);
  g_test_add_func ("/viewer/fields/sort-two-rows-by-their-value", test_fields_sort_two_rows_by_their_value);
  g_test_add_func ("/viewer/fields/terms-match-their-row", test_fields_terms_match_their_row);
  g_test_add_func ("/viewer/fields/have-a-detail-row", test_fields_have_a_detail_row);
  g_test_add_func ("/viewer/fields/counted-by-value", test_fields_counted_by_value);

  return g_test_run ();
}
