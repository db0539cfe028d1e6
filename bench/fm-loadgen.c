/* fm-loadgen.c: the benchmark's load: a tight loop of one file syscall, reporting its own
 * rate, so the same binary measures the untraced and the traced machine side by side.
 *
 *   fm-loadgen [--op=open-missing|open-close|stat|getppid] [--count=N | --seconds=S]
 *              [--rate=R] [--path=P] [--cpu=N] [--end-marker=PATH]
 *
 * --seconds runs for about S seconds instead of a fixed count (so that a tracer 100 times
 * slower still gives a run of sensible length); --rate paces the loop to about R calls/s
 * (delivery at a given offered rate rather than at the machine's limit). Calls run in
 * chunks of CHUNK between two looks at the clock, so the clock costs nothing measurable.
 * --cpu runs the loop on one CPU: the virtual CPUs of a machine can differ in speed by a
 * third, so ratios are only meaningful between runs on the same one. --end-marker makes one
 * more (failing) openat of PATH after the loop, which tells a reader of the capture that
 * the load's events end there.
 *
 * Prints one line: "<op> <count> <seconds> <calls/s> <calls/CPU-s>", the calls actually
 * made, per second of wall time and per second the process ran (user + system): the second
 * rate leaves out the time other work on the machine took the CPU. open-missing
 * is the failed-openat loop that ENVIRONMENT.md's peer measurements use, so the ratios
 * compare with those; getppid is the control: a syscall no tracer here is asked to trace. */
#define _GNU_SOURCE   /* sched_setaffinity */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 256ULL

typedef enum { OP_OPEN_MISSING, OP_OPEN_CLOSE, OP_STAT, OP_GETPPID } Op;

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static double
cpu_seconds (void)
{
  struct rusage ru;

  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return 0;
  return (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6
         + (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6;
}

static int
usage (void)
{
  fprintf (stderr, "usage: fm-loadgen [--op=open-missing|open-close|stat|getppid] "
           "[--count=N | --seconds=S] [--rate=R] [--path=P] [--cpu=N] [--end-marker=PATH]\n");
  return 2;
}

/* Makes @n calls of @op; returns how many did not behave as expected. */
static unsigned long long
run_chunk (Op op, const char *path, pid_t parent, unsigned long long n)
{
  unsigned long long unexpected = 0;
  struct stat st;

  switch (op)
    {
    case OP_OPEN_MISSING:
      for (unsigned long long i = 0; i < n; i++)
        if (open (path, O_RDONLY) >= 0 || errno != ENOENT)
          unexpected++;
      break;
    case OP_OPEN_CLOSE:
      for (unsigned long long i = 0; i < n; i++)
        {
          int fd = open (path, O_RDONLY | O_CLOEXEC);
          if (fd < 0)
            unexpected++;
          else
            close (fd);
        }
      break;
    case OP_STAT:
      for (unsigned long long i = 0; i < n; i++)
        if (stat (path, &st) != 0)
          unexpected++;
      break;
    case OP_GETPPID:
      for (unsigned long long i = 0; i < n; i++)
        if (syscall (SYS_getppid) != parent)   /* not glibc's: it must reach the kernel */
          unexpected++;
      break;
    }
  return unexpected;
}

static int
parse_number (const char *text, double *out)
{
  char *end = NULL;

  errno = 0;
  *out = strtod (text, &end);
  return errno == 0 && end != text && *end == '\0' && *out > 0;
}

int
main (int argc, char **argv)
{
  const char *op_name = "open-missing";
  const char *path = NULL, *end_marker = NULL;
  long cpu = -1;
  unsigned long long count = 1000000, done = 0, unexpected = 0;
  double seconds = 0, rate = 0, start, elapsed, cpu_start, cpu_used;
  pid_t parent = getppid ();
  Op op;

  for (int i = 1; i < argc; i++)
    {
      if (strncmp (argv[i], "--op=", 5) == 0)
        op_name = argv[i] + 5;
      else if (strncmp (argv[i], "--count=", 8) == 0)
        {
          char *end = NULL;
          errno = 0;
          count = strtoull (argv[i] + 8, &end, 10);
          if (errno != 0 || end == argv[i] + 8 || *end != '\0' || count == 0)
            return usage ();
        }
      else if (strncmp (argv[i], "--seconds=", 10) == 0)
        {
          if (!parse_number (argv[i] + 10, &seconds))
            return usage ();
        }
      else if (strncmp (argv[i], "--rate=", 7) == 0)
        {
          if (!parse_number (argv[i] + 7, &rate))
            return usage ();
        }
      else if (strncmp (argv[i], "--path=", 7) == 0)
        path = argv[i] + 7;
      else if (strncmp (argv[i], "--cpu=", 6) == 0)
        {
          char *end = NULL;
          errno = 0;
          cpu = strtol (argv[i] + 6, &end, 10);
          if (errno != 0 || end == argv[i] + 6 || *end != '\0' || cpu < 0 || cpu >= CPU_SETSIZE)
            return usage ();
        }
      else if (strncmp (argv[i], "--end-marker=", 13) == 0 && argv[i][13] != '\0')
        end_marker = argv[i] + 13;
      else
        return usage ();
    }

  if (strcmp (op_name, "open-missing") == 0)
    op = OP_OPEN_MISSING;
  else if (strcmp (op_name, "open-close") == 0)
    op = OP_OPEN_CLOSE;
  else if (strcmp (op_name, "stat") == 0)
    op = OP_STAT;
  else if (strcmp (op_name, "getppid") == 0)
    op = OP_GETPPID;
  else
    return usage ();
  if (path == NULL)
    path = op == OP_OPEN_MISSING ? "/nonexistent/filemon-bench" : "/etc/hostname";
  if (cpu >= 0)
    {
      cpu_set_t set;

      CPU_ZERO (&set);
      CPU_SET (cpu, &set);
      if (sched_setaffinity (0, sizeof set, &set) != 0)
        {
          fprintf (stderr, "fm-loadgen: cannot run on CPU %ld: %s\n", cpu, strerror (errno));
          return 1;
        }
    }

  start = now ();
  cpu_start = cpu_seconds ();
  for (;;)
    {
      unsigned long long n = CHUNK;
      double t;

      if (seconds == 0 && count - done < n)
        n = count - done;
      if (n == 0)
        break;
      unexpected += run_chunk (op, path, parent, n);
      done += n;
      t = now () - start;
      if (seconds > 0 && t >= seconds)
        break;
      if (rate > 0 && done / rate > t)
        {
          double ahead = done / rate - t;
          struct timespec ts = { (time_t) ahead, (long) ((ahead - (time_t) ahead) * 1e9) };
          nanosleep (&ts, NULL);
        }
    }
  elapsed = now () - start;
  cpu_used = cpu_seconds () - cpu_start;
  if (end_marker != NULL && open (end_marker, O_RDONLY) >= 0)
    {
      fprintf (stderr, "fm-loadgen: the end marker %s exists\n", end_marker);
      return 1;
    }

  printf ("%s %llu %.6f %.0f %.0f\n", op_name, done, elapsed, (double) done / elapsed,
          cpu_used > 0 ? (double) done / cpu_used : 0.0);
  if (unexpected > 0)
    {
      fprintf (stderr, "fm-loadgen: %llu calls did not behave as expected\n", unexpected);
      return 1;
    }
  return 0;
}
