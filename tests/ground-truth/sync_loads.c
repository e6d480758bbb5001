/* -fplugin-arg-zeroinst-no-sync-loads: atomic loads (C11 atomic_load,
   __atomic_load_n) and volatile loads are not counted, in code mode nor
   in data mode: wait polls an atomic flag and a volatile countdown, as
   a spin-wait does.  The plain load of table is counted as always.
   misc.c checks that such loads count by default.
   zeroinst-flags: -O1 -g
   zeroinst-plugin-args: no-sync-loads
   zeroinst-env: ZEROINST_MODE=code,data
   table[i] = i + 1 for i < 4, read once each: 3 redundant bytes each.
   expect-records: 1
   expect-total: int.elements=4 int.bytes=16 int.redundant_bytes=12 int.zero_elements=0
   expect-data-records: 1
   expect-data: static=table int elements=4 bytes=16 redundant_bytes=12 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=12 map=1x3z1x3z1x3z1x3z */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__ ((noinline))

atomic_int ready = 1;
int32_t stamp = 7;
volatile int32_t countdown = 5;
int32_t table[4];

NOINLINE int
wait (void)
{
  int polls = 0;
  while (!atomic_load (&ready))
    polls++;
  while (countdown > 0)
    {
      countdown = countdown - 1;
      polls++;
    }
  return polls + __atomic_load_n (&stamp, __ATOMIC_ACQUIRE);
}

NOINLINE int32_t
sum (int n)
{
  int32_t s = 0;
  for (int i = 0; i < n; i++)
    s += table[i];  // expect: elements=4 bytes=16 redundant_bytes=12 zero_elements=0
  return s;
}

int
main (void)
{
  for (int i = 0; i < 4; i++)
    table[i] = i + 1;
  printf ("%d %d\n", wait (), sum (4));
  return 0;
}
