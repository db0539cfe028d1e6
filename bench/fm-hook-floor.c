/* fm-hook-floor.c: runs a command while two empty programs are attached to the syscall
 * tracepoints filemond uses. What a syscall then loses is what any system-wide syscall
 * hook costs it before a program does any work (the syscall's slow path, two tracepoint
 * calls): the floor under which no kernel filter can bring an excluded process, shown in
 * the benchmark next to filemond's kernel-filter ratios.
 *
 *   fm-hook-floor COMMAND [ARG...]
 *
 * Exits with the command's status (or 1 if the programs could not be attached). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fm-hook-floor.skel.h"

int
main (int argc, char **argv)
{
  struct fm_hook_floor_bpf *skel;
  pid_t child;
  int status, err;

  if (argc < 2)
    {
      fprintf (stderr, "usage: fm-hook-floor COMMAND [ARG...]\n");
      return 2;
    }
  skel = fm_hook_floor_bpf__open_and_load ();
  if (skel == NULL)
    {
      fprintf (stderr, "fm-hook-floor: loading the programs: %s\n", strerror (errno));
      return 1;
    }
  err = fm_hook_floor_bpf__attach (skel);
  if (err != 0)
    {
      fprintf (stderr, "fm-hook-floor: attaching the programs: %s\n", strerror (-err));
      fm_hook_floor_bpf__destroy (skel);
      return 1;
    }

  child = fork ();
  if (child < 0)
    {
      fprintf (stderr, "fm-hook-floor: fork: %s\n", strerror (errno));
      fm_hook_floor_bpf__destroy (skel);
      return 1;
    }
  if (child == 0)
    {
      execvp (argv[1], argv + 1);
      fprintf (stderr, "fm-hook-floor: %s: %s\n", argv[1], strerror (errno));
      _exit (127);
    }
  while (waitpid (child, &status, 0) < 0)
    if (errno != EINTR)
      {
        fprintf (stderr, "fm-hook-floor: waitpid: %s\n", strerror (errno));
        fm_hook_floor_bpf__destroy (skel);
        return 1;
      }
  fm_hook_floor_bpf__destroy (skel);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}
