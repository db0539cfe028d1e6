/* fmv-main.c: filemon-viewer's entry point. */
#include "config.h"

#include "fmv-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FmvApplication) app = fmv_application_new ();

  g_set_application_name ("filemon Viewer");
  return g_application_run (G_APPLICATION (app), argc, argv);
}
