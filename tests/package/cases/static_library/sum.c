/* Reads 10 int64 ones: 10 elements, 70 redundant bytes. */
#include <stdint.h>
int64_t v[10];
volatile int64_t sink;
int64_t sum (void) { int64_t s = 0; for (int i = 0; i < 10; i++) s += v[i]; sink = s; return s; }
