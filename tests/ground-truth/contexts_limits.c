/* Limits of contexts: main -> f1 -> f2 -> f3 -> leaf, each loading one
   int64 (vals[i] = i: 7 redundant bytes; vals[0] = 0: 8 and a zero).
   With ZEROINST_MAX_DEPTH=3 paths keep 3 instrumented activations (main,
   f1, f2): f3's and leaf's loads are counted under f2's activation, with
   "..." for the frames left out.
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MAX_DEPTH=3
   expect-total: int.elements=5 int.redundant_bytes=36 int.zero_elements=1 */
#include <stdint.h>
#include <stdio.h>

int64_t vals[5] = { 0, 1, 2, 3, 4 };
volatile int64_t sink;
#define NOINLINE __attribute__ ((noinline))
NOINLINE int64_t leaf (void) { return vals[4]; }  // [[leaf_load]]
NOINLINE int64_t f3 (void) { int64_t r = leaf (); sink = r; return r + vals[3]; }  // [[f3_load]]
NOINLINE int64_t f2 (void) { int64_t r = f3 (); sink = r; return r + vals[2]; }  // [[f2_load]]
NOINLINE int64_t f1 (void) { int64_t r = f2 (); sink = r; return r + vals[1]; }  // [[f1_load]]
// expect@leaf_load: path=leaf@leaf_load,...,f1@f1_load,main@main_call elements=1 redundant_bytes=7
// expect@f3_load: path=f3@f3_load,...,f1@f1_load,main@main_call elements=1 redundant_bytes=7
// expect@f2_load: path=f2@f2_load,f1@f1_load,main@main_call elements=1 redundant_bytes=7
// expect@f1_load: path=f1@f1_load,main@main_call elements=1 redundant_bytes=7

int
main (void)
{
  int64_t r = f1 ();  // [[main_call]]
  printf ("%lld\n", (long long) (r + vals[0]));  // expect: elements=1 redundant_bytes=8 zero_elements=1 path=main:?
  return 0;
}
