#include <stdio.h>
#include "table.h"

int
main (int argc, char **argv)
{
  for (int i = 0; i < N; i += 8)
    counts[i] = (uint32_t) (i + argc);
  printf ("total %llu\n", (unsigned long long) total (counts, N));
  return 0;
}
