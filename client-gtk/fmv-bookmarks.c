/* fmv-bookmarks.c: the bookmarked events; see fmv-bookmarks.h. */
#include "config.h"

#include "fmv-bookmarks.h"

struct _FmvBookmarks
{
  GObject parent_instance;
  GHashTable *rows;           /* set of GUINT_TO_POINTER (row + 1) */
};

G_DEFINE_FINAL_TYPE (FmvBookmarks, fmv_bookmarks, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
fmv_bookmarks_finalize (GObject *object)
{
  g_hash_table_unref (FMV_BOOKMARKS (object)->rows);
  G_OBJECT_CLASS (fmv_bookmarks_parent_class)->finalize (object);
}

static void
fmv_bookmarks_class_init (FmvBookmarksClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fmv_bookmarks_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                   NULL, G_TYPE_NONE, 0);
}

static void
fmv_bookmarks_init (FmvBookmarks *self)
{
  self->rows = g_hash_table_new (NULL, NULL);
}

FmvBookmarks *
fmv_bookmarks_new (void)
{
  return g_object_new (FMV_TYPE_BOOKMARKS, NULL);
}

gboolean
fmv_bookmarks_toggle (FmvBookmarks *self,
                      guint         row)
{
  gboolean added;

  g_return_val_if_fail (FMV_IS_BOOKMARKS (self), FALSE);
  g_return_val_if_fail (row < G_MAXUINT, FALSE);

  added = g_hash_table_add (self->rows, GUINT_TO_POINTER (row + 1));
  if (!added)
    g_hash_table_remove (self->rows, GUINT_TO_POINTER (row + 1));
  g_signal_emit (self, signals[CHANGED], 0);
  return added;
}

gboolean
fmv_bookmarks_contains (FmvBookmarks *self,
                        guint         row)
{
  g_return_val_if_fail (FMV_IS_BOOKMARKS (self), FALSE);

  return g_hash_table_contains (self->rows, GUINT_TO_POINTER (row + 1));
}

guint
fmv_bookmarks_get_n (FmvBookmarks *self)
{
  g_return_val_if_fail (FMV_IS_BOOKMARKS (self), 0);

  return g_hash_table_size (self->rows);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

GArray *
fmv_bookmarks_dup_rows (FmvBookmarks *self)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (FMV_IS_BOOKMARKS (self), rows);

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint32 row = GPOINTER_TO_UINT (key) - 1;

      g_array_append_val (rows, row);
    }
  g_array_sort (rows, compare_rows);
  return rows;
}

static gboolean
is_before (gpointer key,
           gpointer value,
           gpointer user_data)
{
  return GPOINTER_TO_UINT (key) - 1 < GPOINTER_TO_UINT (user_data);
}

void
fmv_bookmarks_forget_before (FmvBookmarks *self,
                             guint         first)
{
  g_return_if_fail (FMV_IS_BOOKMARKS (self));

  if (g_hash_table_foreach_remove (self->rows, is_before, GUINT_TO_POINTER (first)) > 0)
    g_signal_emit (self, signals[CHANGED], 0);
}

void
fmv_bookmarks_clear (FmvBookmarks *self)
{
  g_return_if_fail (FMV_IS_BOOKMARKS (self));

  if (g_hash_table_size (self->rows) == 0)
    return;
  g_hash_table_remove_all (self->rows);
  g_signal_emit (self, signals[CHANGED], 0);
}
