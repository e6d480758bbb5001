/* Not instrumented: fills v, prints sum () (10). */
#include <stdint.h>
#include <stdio.h>
extern int64_t v[10];
int64_t sum (void);
int main (void) { for (int i = 0; i < 10; i++) v[i] = 1; printf ("%lld\n", (long long) sum ()); return 0; }
