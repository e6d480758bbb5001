/* fork-prog.c - a parent and three forked children, each writing its own
   report; `zeroinst merge` of the four (tests/tool/fork_check.py).

   Process k (the parent is 0, children 1..3) sets the first 25k of the 100
   uint16_t elements of v to 1 and the rest to 0, then sum_v loads each
   once.  Per process: 100 elements, 200 bytes, zero elements 100 - 25k,
   redundant bytes 1 per 1 and 2 per 0: 25k + 2(100 - 25k) = 200 - 25k
   (200, 175, 150, 125).  The parent waits for its children before it
   loads, so the four reports are complete when it exits.  */
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static uint16_t v[100];

__attribute__ ((noinline)) static unsigned
sum_v (int k)
{
  for (int i = 0; i < 100; i++)
    v[i] = i < 25 * k;
  unsigned s = 0;
  for (int i = 0; i < 100; i++)
    s += v[i];
  return s;
}

/* Fork the three children; returns k: 0 in the parent (after the
   children ended), 1..3 in a child.  */
static int
start_processes (void)
{
  for (int k = 1; k <= 3; k++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        return k;
      if (pid > 0)
        waitpid (pid, NULL, 0);
    }
  return 0;
}

int
main (void)
{
  /* One call of sum_v, so that all four records share their call path.  */
  int k = start_processes ();
  printf ("%s %d: %u\n", k ? "child" : "parent", k, sum_v (k));
  return 0;
}
