#include "table.h"

uint32_t counts[N];

uint64_t
total (const uint32_t *c, int n)
{
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += c[i];
  return s;
}
