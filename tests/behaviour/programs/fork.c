/* fork.c - The parent loads 100, forks; the child loads 10 and exits; the
   parent then loads 5.  Expected: the parent's report 105 elements, the
   child's (its pid appended) 10.  */
#include "prelude.h"
int main (void) { init (); load_ones (100); fflush (stdout);
  pid_t p = fork ();
  if (p == 0) { printf ("child %lld\n", (long long) load_ones (10)); exit (0); }
  int st; waitpid (p, &st, 0); printf ("parent %lld\n", (long long) load_ones (5));
  return WEXITSTATUS (st); }
