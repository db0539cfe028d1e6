/* fmv-renderer.h: which GSK renderer the viewer's windows use. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void fmv_renderer_choose (void);
gboolean fmv_renderer_name_is_software (const char *gl_renderer);

G_END_DECLS
