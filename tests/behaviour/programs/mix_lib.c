/* mix_lib.c - the instrumented shared library of mix_main.c: 6 loads of
   lib_ones (sum 6).  */
#include <stdint.h>
int64_t lib_ones[6] = {1,1,1,1,1,1};
volatile int64_t lib_sink;
__attribute__ ((noinline)) int64_t lib_sum (void) { int64_t s = 0;
  for (int i = 0; i < 6; i++) s += lib_ones[i]; lib_sink = s; return s; }
