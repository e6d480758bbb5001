/* fork_data.c - Data mode: the parent loads all of tab (100 int32) and of
   a heap block h (64 int32) and 100 of ones, then forks; the child loads
   10 of tab and 3 of h and exits; the parent then loads 5 of tab.
   Expected: the child's data records hold its own loads only: tab 10
   elements with 360 of its 400 bytes never loaded, h 3 with 244 of 256,
   no record of ones.  The parent's: tab 105, h 64, ones 100 (7200 of its
   8000 bytes never loaded).  */
#include "prelude.h"
int32_t tab[100];
__attribute__ ((noinline)) int64_t sum_tab (int n)
{ int64_t s = 0; for (int i = 0; i < n; i++) s += tab[i]; sink = s; return s; }
__attribute__ ((noinline)) int64_t sum_h (const int32_t *h, int n)
{ int64_t s = 0; for (int i = 0; i < n; i++) s += h[i]; sink = s; return s; }
int main (void) { init (); for (int i = 0; i < 100; i++) tab[i] = i + 1;
  int32_t *h = malloc (64 * sizeof *h); for (int i = 0; i < 64; i++) h[i] = 7;
  printf ("%lld %lld %lld\n", (long long) load_ones (100), (long long) sum_tab (100),
          (long long) sum_h (h, 64));
  fflush (stdout);
  pid_t p = fork ();
  if (p == 0) { printf ("child %lld %lld\n", (long long) sum_tab (10), (long long) sum_h (h, 3));
                exit (0); }
  int st; waitpid (p, &st, 0); printf ("parent %lld\n", (long long) sum_tab (5));
  free (h); return WEXITSTATUS (st); }
