/* fork_kept.c - Data mode, one call site of sum_tab before and after a
   fork: the parent loads all of tab (100 int32), then the child loads 10
   through the same data slot, which the fork made stale.  Its object is
   alive and no object of its group ended, but the child forgot its
   parent's data, so the runtime must look again rather than keep the
   slot.  Expected: the child's record of tab holds its 10 elements, 40
   bytes loaded and 360 never loaded (not 400, as when its loads went
   unrecorded as loads); the parent's 100 elements, 400 bytes, 0 never
   loaded.  */
#include "prelude.h"
int32_t tab[100];
volatile int rounds = 2;
__attribute__ ((noinline)) int64_t sum_tab (int n)
{ int64_t s = 0; for (int i = 0; i < n; i++) s += tab[i]; sink = s; return s; }
int main (void) { for (int i = 0; i < 100; i++) tab[i] = i + 1;
  pid_t p = 1;
  for (int k = 0; k < rounds; k++)
    {
      if (k == 1)
        {
          fflush (stdout);
          p = fork ();
          if (p != 0) { int st; waitpid (p, &st, 0); return WEXITSTATUS (st); }
        }
      /* One call site: one context, one data slot.  */
      printf ("%s %lld\n", p ? "parent" : "child", (long long) sum_tab (k ? 10 : 100));
    }
  return 0; }
