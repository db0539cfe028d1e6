/* fm-bench-count.c: the benchmark's counting end of `filemonctl watch --json | ...`: counts
 * the JSON Lines events on stdin, those of one pid, and the holes in their sequence numbers,
 * cheaply enough that it never is the slow end of the pipe.
 *
 *   fm-bench-count [--pid=PID] [--comm=NAME] [--until-path=PATH]
 *
 * At end of input, or at the first event whose path is PATH (not counted: a load
 * generator's end marker, so that the count ends when the reader has caught up rather than
 * after a guessed delay), prints key=value lines: events, pid_events (those of PID, or of
 * processes named NAME: a load generator's pid is not known before it starts; with an end
 * marker, only those of the process that made it), first_seq,
 * last_seq, seq_holes (sequence numbers missing between first_seq and last_seq),
 * until_seen (1 when PATH was seen). It reads only the "seq", "pid" and "comm" members,
 * which filemon's jsonl writer puts first on every line, and looks for "path":"PATH"
 * anywhere in the line (PATH without characters JSON escapes; an exec of the load
 * generator shows it in its arguments, not as its path). */
#define _GNU_SOURCE   /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUF_SIZE (1 << 20)
#define MAX_NAMED 64

typedef struct {
  unsigned long long events, pid_events, first_seq, last_seq, holes;
  unsigned long pid;
  char comm_key[64];      /* "comm":"NAME" */
  size_t comm_key_len;
  char until_key[4200];   /* "path":"PATH" */
  size_t until_key_len;
  int until_seen;
  /* events per process named NAME, for the one that makes the end marker */
  struct { unsigned long pid; unsigned long long n; } named[MAX_NAMED];
  unsigned n_named;
} Counts;

static void
count_named (Counts *c, unsigned long pid)
{
  unsigned i;

  for (i = 0; i < c->n_named && c->named[i].pid != pid; i++)
    ;
  if (i == c->n_named)
    {
      if (c->n_named == MAX_NAMED)
        return;
      c->named[c->n_named++].pid = pid;
    }
  c->named[i].n++;
}

/* At the end marker of process @pid: only its events count. */
static void
end_at (Counts *c, unsigned long pid)
{
  c->until_seen = 1;
  if (c->pid != 0 || c->comm_key_len == 0)
    return;
  c->pid_events = 0;
  for (unsigned i = 0; i < c->n_named; i++)
    if (c->named[i].pid == pid)
      c->pid_events = c->named[i].n;
}

static void
count_line (Counts *c, const char *line, size_t len)
{
  static const char seq_key[] = "{\"seq\":";
  static const char pid_key[] = ",\"pid\":";
  unsigned long long seq;
  unsigned long pid = 0;
  const char *p;
  char *end;

  if (len < sizeof seq_key || memcmp (line, seq_key, sizeof seq_key - 1) != 0)
    return;   /* not an event line */
  seq = strtoull (line + sizeof seq_key - 1, &end, 10);
  p = memmem (end, len - (size_t) (end - line), pid_key, sizeof pid_key - 1);
  if (p != NULL)
    pid = strtoul (p + sizeof pid_key - 1, NULL, 10);
  if (c->until_key_len > 0 && memmem (line, len, c->until_key, c->until_key_len) != NULL)
    {
      end_at (c, pid);
      return;
    }
  if (c->events == 0)
    c->first_seq = seq;
  else if (seq > c->last_seq + 1)
    c->holes += seq - c->last_seq - 1;
  c->last_seq = seq;
  c->events++;
  if (c->pid != 0 && pid == c->pid)
    c->pid_events++;
  else if (c->comm_key_len > 0 &&
           memmem (end, len - (size_t) (end - line), c->comm_key, c->comm_key_len) != NULL)
    {
      c->pid_events++;
      count_named (c, pid);
    }
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
      else if (strncmp (argv[i], "--until-path=", 13) == 0 && argv[i][13] != '\0'
               && strlen (argv[i] + 13) < 4096)
        c.until_key_len = (size_t) snprintf (c.until_key, sizeof c.until_key,
                                             "\"path\":\"%s\"", argv[i] + 13);
      else
        {
          fprintf (stderr, "usage: fm-bench-count [--pid=PID] [--comm=NAME] "
                   "[--until-path=PATH]\n");
          return 2;
        }
    }

  while (!c.until_seen)
    {
      ssize_t n = read (0, buf + have, BUF_SIZE - have);
      size_t start = 0;

      if (n < 0)
        {
          perror ("fm-bench-count: read");
          return 1;
        }
      have += (size_t) n;
      for (size_t i = 0; i < have && !c.until_seen; i++)
        if (buf[i] == '\n')
          {
            count_line (&c, buf + start, i - start);
            start = i + 1;
          }
      if (c.until_seen)
        break;
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
  printf ("events=%llu\npid_events=%llu\nfirst_seq=%llu\nlast_seq=%llu\nseq_holes=%llu\n"
          "until_seen=%d\n",
          c.events, c.pid_events, c.first_seq, c.last_seq, c.holes, c.until_seen);
  return 0;
}
