/* fmv-renderer.c: the cairo renderer where OpenGL is rendered in software.
 *
 * GTK 4 draws with OpenGL wherever a context can be made, and on a machine without a GPU
 * (a VM, a remote or headless X server) Mesa makes one that renders on the CPU
 * (llvmpipe). A live capture repaints the list several times a second; there, each GL
 * frame is rendered by the CPU and then copied whole to the X server, which kept the
 * viewer's main loop waiting: it took in a fraction of a busy capture and answered keys
 * late, where the cairo renderer, which draws only what changed, kept up
 * (bench/bench-viewer-load.sh). So, unless the user named a renderer (GSK_RENDERER), the
 * viewer asks the display for a GL context before any window exists, and if its renderer
 * is a software one, sets GSK_RENDERER=cairo: GTK reads it when the first window is
 * realized. */
#include "config.h"

#include <epoxy/gl.h>
#include <gtk/gtk.h>

#include "fmv-renderer.h"

/* Mesa's software rasterizers name themselves so in GL_RENDERER ("llvmpipe (LLVM 15.0.6,
 * 256 bits)", "softpipe", "Software Rasterizer" for swrast). */
gboolean
fmv_renderer_name_is_software (const char *gl_renderer)
{
  static const char *const software[] = { "llvmpipe", "softpipe", "swrast", "software rasterizer" };
  g_autofree char *lower = NULL;

  g_return_val_if_fail (gl_renderer != NULL, FALSE);

  lower = g_ascii_strdown (gl_renderer, -1);
  for (gsize i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (lower, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* NULL when no GL context can be made: GTK then picks cairo by itself. */
static char *
dup_gl_renderer (GdkDisplay *display)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkGLContext) context = gdk_display_create_gl_context (display, &error);
  const GLubyte *name;
  char *result = NULL;

  if (context == NULL || !gdk_gl_context_realize (context, &error))
    {
      g_debug ("renderer: no OpenGL context (%s)", error ? error->message : "unknown reason");
      return NULL;
    }
  gdk_gl_context_make_current (context);
  name = glGetString (GL_RENDERER);
  if (name != NULL)
    result = g_strdup ((const char *) name);
  gdk_gl_context_clear_current ();
  return result;
}

/* Called in main(), before the application runs: GSK_RENDERER must be set while the
 * process has no other thread that could read the environment. */
void
fmv_renderer_choose (void)
{
  g_autofree char *gl_renderer = NULL;
  const char *chosen = g_getenv ("GSK_RENDERER");

  if (chosen != NULL && *chosen != '\0')
    {
      g_debug ("renderer: %s (GSK_RENDERER)", chosen);
      return;
    }
  /* No display (--help, or none to open): the application says so itself. */
  if (!gtk_init_check ())
    return;
  gl_renderer = dup_gl_renderer (gdk_display_get_default ());
  if (gl_renderer == NULL || !fmv_renderer_name_is_software (gl_renderer))
    {
      g_debug ("renderer: GTK's default (OpenGL: %s)", gl_renderer ? gl_renderer : "none");
      return;
    }
  g_debug ("renderer: cairo, OpenGL is rendered in software (%s)", gl_renderer);
  if (!g_setenv ("GSK_RENDERER", "cairo", TRUE))
    g_warning ("cannot set GSK_RENDERER=cairo: the windows are drawn by %s", gl_renderer);
}
