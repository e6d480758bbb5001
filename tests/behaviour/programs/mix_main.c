/* mix_main.c - an instrumented main with mix_lib.c's library (6 loads)
   and mix_plain.c's uninstrumented object; 4 loads of its own, in
   load_ones.  Prints 16.  Expected: sites of mix_lib.c (6 elements) and
   of prelude.h's load_ones (4), nothing of mix_plain.c.  */
#include "prelude.h"
int64_t lib_sum (void);
int64_t plain_sum (void);
int main (void) { init (); printf ("%lld\n", (long long) (lib_sum () + load_ones (4) + plain_sum ()));
  return 0; }
