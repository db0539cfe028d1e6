/* fmv-highlights.c: the highlight rules; see fmv-highlights.h. */
#include "config.h"

#include "fm-filter.h"
#include "fmv-highlights.h"

typedef struct {
  char *text;
  FmFilter *filter;
  guint colour;
} Rule;

struct _FmvHighlights
{
  GObject parent_instance;
  GArray *rules;              /* Rule */
  guint next_colour;
};

G_DEFINE_FINAL_TYPE (FmvHighlights, fmv_highlights, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_free (rule->text);
  fm_filter_free (rule->filter);
}

static void
fmv_highlights_finalize (GObject *object)
{
  FmvHighlights *self = FMV_HIGHLIGHTS (object);

  g_array_unref (self->rules);
  G_OBJECT_CLASS (fmv_highlights_parent_class)->finalize (object);
}

static void
fmv_highlights_class_init (FmvHighlightsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fmv_highlights_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                   NULL, G_TYPE_NONE, 0);
}

static void
fmv_highlights_init (FmvHighlights *self)
{
  self->rules = g_array_new (FALSE, FALSE, sizeof (Rule));
  g_array_set_clear_func (self->rules, rule_clear);
}

FmvHighlights *
fmv_highlights_new (void)
{
  return g_object_new (FMV_TYPE_HIGHLIGHTS, NULL);
}

gboolean
fmv_highlights_add (FmvHighlights *self,
                    const char    *text,
                    GError       **error)
{
  Rule rule = { 0 };

  g_return_val_if_fail (FMV_IS_HIGHLIGHTS (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  for (guint i = 0; i < self->rules->len; i++)
    if (g_str_equal (g_array_index (self->rules, Rule, i).text, text))
      return TRUE;
  rule.filter = fm_filter_new (text, error);
  if (rule.filter == NULL)
    return FALSE;
  rule.text = g_strdup (text);
  rule.colour = self->next_colour;
  self->next_colour = (self->next_colour + 1) % FMV_HIGHLIGHT_N_COLOURS;
  g_array_append_val (self->rules, rule);
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}

void
fmv_highlights_remove (FmvHighlights *self,
                       guint          index)
{
  g_return_if_fail (FMV_IS_HIGHLIGHTS (self));
  g_return_if_fail (index < self->rules->len);

  g_array_remove_index (self->rules, index);
  g_signal_emit (self, signals[CHANGED], 0);
}

guint
fmv_highlights_get_n (FmvHighlights *self)
{
  g_return_val_if_fail (FMV_IS_HIGHLIGHTS (self), 0);

  return self->rules->len;
}

const char *
fmv_highlights_get_text (FmvHighlights *self,
                         guint          index)
{
  g_return_val_if_fail (FMV_IS_HIGHLIGHTS (self), NULL);
  g_return_val_if_fail (index < self->rules->len, NULL);

  return g_array_index (self->rules, Rule, index).text;
}

guint
fmv_highlights_get_colour (FmvHighlights *self,
                           guint          index)
{
  g_return_val_if_fail (FMV_IS_HIGHLIGHTS (self), 0);
  g_return_val_if_fail (index < self->rules->len, 0);

  return g_array_index (self->rules, Rule, index).colour;
}

int
fmv_highlights_match (FmvHighlights *self,
                      const FmEvent *event)
{
  g_return_val_if_fail (FMV_IS_HIGHLIGHTS (self), -1);

  for (guint i = 0; i < self->rules->len; i++)
    if (fm_filter_match (g_array_index (self->rules, Rule, i).filter, event))
      return (int) g_array_index (self->rules, Rule, i).colour;
  return -1;
}
