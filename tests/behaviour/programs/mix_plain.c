/* mix_plain.c - an object of mix_main.c compiled without the plugin: 3
   loads (sum 6) that no report counts.  */
#include <stdint.h>
int64_t plain_vals[3] = {1,2,3};
volatile int64_t plain_sink;
int64_t plain_sum (void) { int64_t s = 0; for (int i = 0; i < 3; i++) s += plain_vals[i];
  plain_sink = s; return s; }
