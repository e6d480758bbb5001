#include <stdint.h>
#define N 64
extern uint32_t counts[N];
uint64_t total (const uint32_t *c, int n);
