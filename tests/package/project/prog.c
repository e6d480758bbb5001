/* Reads 10 int64 ones: 10 elements, 70 redundant bytes. */
#include <stdint.h>
#include <stdio.h>
int64_t v[10];
volatile int64_t sink;
__attribute__ ((noinline)) int64_t sum (void) { int64_t s = 0; for (int i = 0; i < 10; i++) s += v[i]; sink = s; return s; }
int main (void) { for (int i = 0; i < 10; i++) v[i] = 1; printf ("%lld\n", (long long) sum ()); return 0; }
