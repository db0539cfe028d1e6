/* fm-loadgen.c: the benchmark's load: a tight loop of one file syscall, reporting its own
 * rate, so the same binary measures the untraced and the traced machine side by side.
 *
 *   fm-loadgen [--op=open-missing|open-close|stat|getppid] [--count=N] [--path=P]
 *
 * Prints one line: "<op> <count> <seconds> <calls/s>". open-missing is the failed-openat loop
 * that ENVIRONMENT.md's peer measurements use, so the ratios compare with those; getppid is
 * the control: a syscall no tracer here is asked to trace. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static int
usage (void)
{
  fprintf (stderr, "usage: fm-loadgen [--op=open-missing|open-close|stat|getppid] [--count=N] [--path=P]\n");
  return 2;
}

int
main (int argc, char **argv)
{
  const char *op = "open-missing";
  const char *path = NULL;
  unsigned long long count = 1000000;
  unsigned long long unexpected = 0;
  double start, elapsed;

  for (int i = 1; i < argc; i++)
    {
      if (strncmp (argv[i], "--op=", 5) == 0)
        op = argv[i] + 5;
      else if (strncmp (argv[i], "--count=", 8) == 0)
        {
          char *end = NULL;
          errno = 0;
          count = strtoull (argv[i] + 8, &end, 10);
          if (errno != 0 || end == argv[i] + 8 || *end != '\0' || count == 0)
            return usage ();
        }
      else if (strncmp (argv[i], "--path=", 7) == 0)
        path = argv[i] + 7;
      else
        return usage ();
    }

  start = now ();
  if (strcmp (op, "open-missing") == 0)
    {
      if (path == NULL)
        path = "/nonexistent/filemon-bench";
      for (unsigned long long i = 0; i < count; i++)
        if (open (path, O_RDONLY) >= 0 || errno != ENOENT)
          unexpected++;
    }
  else if (strcmp (op, "open-close") == 0)
    {
      if (path == NULL)
        path = "/etc/hostname";
      for (unsigned long long i = 0; i < count; i++)
        {
          int fd = open (path, O_RDONLY | O_CLOEXEC);
          if (fd < 0)
            unexpected++;
          else
            close (fd);
        }
    }
  else if (strcmp (op, "stat") == 0)
    {
      struct stat st;
      if (path == NULL)
        path = "/etc/hostname";
      for (unsigned long long i = 0; i < count; i++)
        if (stat (path, &st) != 0)
          unexpected++;
    }
  else if (strcmp (op, "getppid") == 0)
    {
      pid_t parent = getppid ();
      for (unsigned long long i = 0; i < count; i++)
        if (syscall (SYS_getppid) != parent)   /* not glibc's: it must reach the kernel */
          unexpected++;
    }
  else
    return usage ();
  elapsed = now () - start;

  printf ("%s %llu %.6f %.0f\n", op, count, elapsed, (double) count / elapsed);
  if (unexpected > 0)
    {
      fprintf (stderr, "fm-loadgen: %llu calls did not behave as expected\n", unexpected);
      return 1;
    }
  return 0;
}
