/* Contexts off (ZEROINST_CONTEXTS=0 at run time, or the plugin's
   no-contexts option): one record per site, whatever the caller, and the
   path is the site's own frame.  sum loads small[] (1: 7 redundant bytes)
   through two callers, 3 + 5 elements.
   zeroinst-flags: -O1 -g
   expect-records: 1
   expect-total: int.elements=8 int.redundant_bytes=56 */
#include <stdint.h>
#include <stdio.h>

int64_t small[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
volatile int64_t sink;
#define NOINLINE __attribute__ ((noinline))
NOINLINE int64_t sum (int n) { int64_t s = 0; for (int i = 0; i < n; i++) s += small[i]; sink = s; return s; }  // expect: path=sum:? elements=8 redundant_bytes=56
NOINLINE int64_t a (void) { int64_t r = sum (3); sink = r; return r; }
NOINLINE int64_t b (void) { int64_t r = sum (5); sink = r; return r; }

int
main (void)
{
  printf ("%lld %lld\n", (long long) a (), (long long) b ());
  return 0;
}
