/* launcher.c - runs a workload for run-bench and writes its peak RSS,
   user and system CPU seconds and wall seconds to a file.

   Linux carries the peak RSS of the process image that calls exec() into
   the new program's ru_maxrss, so a workload started directly from
   run-bench's Python process (~20 MB) would never report less than
   Python's own RSS.  This launcher (a few hundred KB) forks and execs the
   workload, reaps it with wait4 and writes its rusage; it exits as the
   workload did (re-raising its fatal signal).

   Usage: launcher OUT PROG [ARGS]  */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main (int argc, char **argv)
{
  if (argc < 3) { fprintf (stderr, "usage: launcher OUT PROG [ARGS]\n"); return 126; }
  struct timespec t0, t1;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  pid_t pid = fork ();
  if (pid < 0) { perror ("fork"); return 126; }
  if (pid == 0) { execvp (argv[2], argv + 2); perror (argv[2]); _exit (127); }
  int st; struct rusage ru;
  if (wait4 (pid, &st, 0, &ru) < 0) { perror ("wait4"); return 126; }
  clock_gettime (CLOCK_MONOTONIC, &t1);
  FILE *f = fopen (argv[1], "w");
  if (!f) { perror (argv[1]); return 126; }
  fprintf (f, "%ld %.6f %.6f %.9f\n", ru.ru_maxrss,
           ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6,
           ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6,
           (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
  fclose (f);
  if (WIFSIGNALED (st)) { signal (WTERMSIG (st), SIG_DFL); raise (WTERMSIG (st)); }
  return WIFEXITED (st) ? WEXITSTATUS (st) : 126;
}
