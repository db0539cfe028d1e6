/* fm-bench-count.c: the benchmark's counting end of `filemonctl watch --json | ...`: counts
 * the JSON Lines events on stdin, those of one pid, and the holes in their sequence numbers,
 * cheaply enough that it never is the slow end of the pipe.
 *
 *   fm-bench-count [--pid=PID] [--comm=NAME]
 *
 * At end of input prints key=value lines: events, pid_events (those of PID, or of processes
 * named NAME: a load generator's pid is not known before it starts), first_seq, last_seq,
 * seq_holes (sequence numbers missing between first_seq and last_seq). It reads only the
 * "seq", "pid" and "comm" members, which filemon's jsonl writer puts first on every line. */
#define _GNU_SOURCE   /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUF_SIZE (1 << 20)

typedef struct {
  unsigned long long events, pid_events, first_seq, last_seq, holes;
  unsigned long pid;
  char comm_key[64];      /* "comm":"NAME" */
  size_t comm_key_len;
} Counts;

static void
count_line (Counts *c, const char *line, size_t len)
{
  static const char seq_key[] = "{\"seq\":";
  static const char pid_key[] = ",\"pid\":";
  unsigned long long seq;
  const char *p;
  char *end;

  if (len < sizeof seq_key || memcmp (line, seq_key, sizeof seq_key - 1) != 0)
    return;   /* not an event line */
  seq = strtoull (line + sizeof seq_key - 1, &end, 10);
  if (c->events == 0)
    c->first_seq = seq;
  else if (seq > c->last_seq + 1)
    c->holes += seq - c->last_seq - 1;
  c->last_seq = seq;
  c->events++;
  p = memmem (end, len - (size_t) (end - line), pid_key, sizeof pid_key - 1);
  if (p != NULL && c->pid != 0 && strtoul (p + sizeof pid_key - 1, NULL, 10) == c->pid)
    c->pid_events++;
  else if (c->comm_key_len > 0 &&
           memmem (end, len - (size_t) (end - line), c->comm_key, c->comm_key_len) != NULL)
    c->pid_events++;
}

int
main (int argc, char **argv)
{
  static char buf[BUF_SIZE + 1];
  Counts c = { 0 };
  size_t have = 0;

  for (int i = 1; i < argc; i++)
    {
      if (strncmp (argv[i], "--pid=", 6) == 0)
        c.pid = strtoul (argv[i] + 6, NULL, 10);
      else if (strncmp (argv[i], "--comm=", 7) == 0 && strlen (argv[i] + 7) < 32)
        c.comm_key_len = (size_t) snprintf (c.comm_key, sizeof c.comm_key, "\"comm\":\"%s\"",
                                            argv[i] + 7);
      else
        {
          fprintf (stderr, "usage: fm-bench-count [--pid=PID] [--comm=NAME]\n");
          return 2;
        }
    }

  for (;;)
    {
      ssize_t n = read (0, buf + have, BUF_SIZE - have);
      size_t start = 0;

      if (n < 0)
        {
          perror ("fm-bench-count: read");
          return 1;
        }
      have += (size_t) n;
      for (size_t i = 0; i < have; i++)
        if (buf[i] == '\n')
          {
            count_line (&c, buf + start, i - start);
            start = i + 1;
          }
      if (n == 0)
        {
          if (start < have)
            count_line (&c, buf + start, have - start);
          break;
        }
      /* a line longer than the buffer is no event line of ours: drop it */
      if (start == 0 && have == BUF_SIZE)
        start = have;
      memmove (buf, buf + start, have - start);
      have -= start;
    }
  printf ("events=%llu\npid_events=%llu\nfirst_seq=%llu\nlast_seq=%llu\nseq_holes=%llu\n",
          c.events, c.pid_events, c.first_seq, c.last_seq, c.holes);
  return 0;
}
