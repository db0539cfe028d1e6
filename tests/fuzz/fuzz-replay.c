/* fuzz-replay.c: runs a fuzz target over every file of the directories it is given (the
 * seed corpus and the crashes found so far), for builds without libFuzzer. */
#include <stdio.h>

#include "fuzz-target.h"

int
main (int argc, char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GDir) dir = g_dir_open (argv[i], 0, &error);
      const char *name;

      if (dir == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (argv[i], name, NULL);
          g_autofree char *data = NULL;
          gsize len;

          if (!g_file_get_contents (path, &data, &len, &error))
            {
              fprintf (stderr, "%s\n", error->message);
              return 1;
            }
          LLVMFuzzerTestOneInput ((const guint8 *) data, len);
          n++;
        }
    }
  if (n == 0)
    {
      fprintf (stderr, "no inputs: the corpus is missing\n");
      return 1;
    }
  printf ("%u inputs ran clean\n", n);
  return 0;
}
