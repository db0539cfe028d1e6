/* fmv-main.c: filemon-viewer's entry point. */
#include "config.h"

#include "fmv-application.h"
#include "fmv-renderer.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FmvApplication) app = NULL;

  fmv_renderer_choose ();
  app = fmv_application_new ();
  g_set_application_name ("filemon Viewer");
  return g_application_run (G_APPLICATION (app), argc, argv);
}
