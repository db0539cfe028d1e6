/* fmv-cell-text.c: one line of text in a cell of the event list, laid out only when drawn;
 * see fmv-cell-text.h. */
#include "config.h"

#include <math.h>

#include "fmv-cell-text.h"

struct _FmvCellText
{
  GtkWidget parent_instance;

  char *text;
  float xalign;
  PangoEllipsizeMode ellipsize;
  gboolean tabular_figures;
  PangoLayout *layout;        /* made at the first draw of a text; NULL until then */
  int line_height;            /* one line of the font, -1 until measured */
};

G_DEFINE_FINAL_TYPE (FmvCellText, fmv_cell_text, GTK_TYPE_WIDGET)

/* What the font decides (its size, its weight: a failed call's row is bold when selected)
 * comes from the CSS: a change there lays the text out again and measures the line again. */
static void
font_changed (FmvCellText *self)
{
  g_clear_object (&self->layout);
  self->line_height = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static PangoLayout *
ensure_layout (FmvCellText *self)
{
  if (self->layout == NULL)
    {
      self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->text);
      pango_layout_set_single_paragraph_mode (self->layout, TRUE);
      pango_layout_set_ellipsize (self->layout, self->ellipsize);
      if (self->tabular_figures)
        {
          PangoAttrList *attrs = pango_attr_list_new ();

          pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
          pango_layout_set_attributes (self->layout, attrs);
          pango_attr_list_unref (attrs);
        }
    }
  return self->layout;
}

static void
fmv_cell_text_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  FmvCellText *self = FMV_CELL_TEXT (widget);

  /* The columns have fixed widths: a cell takes what its column gives. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = *natural = 0;
      return;
    }
  if (self->line_height < 0)
    {
      g_autoptr(PangoLayout) line = gtk_widget_create_pango_layout (widget, NULL);

      pango_layout_get_pixel_size (line, NULL, &self->line_height);
    }
  *minimum = *natural = self->line_height;
}

static void
get_color (GtkWidget *widget,
           GdkRGBA   *color)
{
#if GTK_CHECK_VERSION (4, 10, 0)
  gtk_widget_get_color (widget, color);
#else
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), color);
#endif
}

static void
fmv_cell_text_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  FmvCellText *self = FMV_CELL_TEXT (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  PangoLayout *layout;
  PangoRectangle logical;
  GdkRGBA color;
  float x, y;

  if (self->text == NULL || *self->text == '\0' || width <= 0)
    return;
  layout = ensure_layout (self);
  pango_layout_set_width (layout, self->ellipsize != PANGO_ELLIPSIZE_NONE ? width * PANGO_SCALE : -1);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  /* as a label aligns it; a text wider than the cell (a time in bold, when its failed row
   * is selected) shows its start and runs on past the cell's edge, as a label's did */
  if (self->ellipsize == PANGO_ELLIPSIZE_NONE && logical.width > width)
    /* a column too narrow for its figures; the Xvfb tests read this line */
    g_debug ("cell text clipped: %s (%d of %d px)", self->text, logical.width, width);
  x = MAX (0, floorf (self->xalign * (width - logical.width))) - logical.x;
  y = floorf ((height - logical.height) / 2.0f) - logical.y;
  get_color (widget, &color);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
fmv_cell_text_css_changed (GtkWidget         *widget,
                           GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (fmv_cell_text_parent_class)->css_changed (widget, change);
  font_changed (FMV_CELL_TEXT (widget));
}

static void
fmv_cell_text_system_setting_changed (GtkWidget        *widget,
                                      GtkSystemSetting  setting)
{
  GTK_WIDGET_CLASS (fmv_cell_text_parent_class)->system_setting_changed (widget, setting);
  font_changed (FMV_CELL_TEXT (widget));
}

static void
fmv_cell_text_finalize (GObject *object)
{
  FmvCellText *self = FMV_CELL_TEXT (object);

  g_clear_object (&self->layout);
  g_free (self->text);
  G_OBJECT_CLASS (fmv_cell_text_parent_class)->finalize (object);
}

static void
fmv_cell_text_class_init (FmvCellTextClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = fmv_cell_text_finalize;
  widget_class->measure = fmv_cell_text_measure;
  widget_class->snapshot = fmv_cell_text_snapshot;
  widget_class->css_changed = fmv_cell_text_css_changed;
  widget_class->system_setting_changed = fmv_cell_text_system_setting_changed;
  gtk_widget_class_set_css_name (widget_class, "label");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
fmv_cell_text_init (FmvCellText *self)
{
  self->line_height = -1;
}

GtkWidget *
fmv_cell_text_new (float              xalign,
                   PangoEllipsizeMode ellipsize,
                   gboolean           tabular_figures)
{
  FmvCellText *self = g_object_new (FMV_TYPE_CELL_TEXT, NULL);

  self->xalign = xalign;
  self->ellipsize = ellipsize;
  self->tabular_figures = tabular_figures;
  return GTK_WIDGET (self);
}

void
fmv_cell_text_set_text (FmvCellText *self,
                        const char  *text)
{
  g_return_if_fail (FMV_IS_CELL_TEXT (self));

  if (g_strcmp0 (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  if (self->layout != NULL)
    pango_layout_set_text (self->layout, self->text != NULL ? self->text : "", -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->text != NULL ? self->text : "", -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
fmv_cell_text_get_text (FmvCellText *self)
{
  g_return_val_if_fail (FMV_IS_CELL_TEXT (self), NULL);

  return self->text;
}
