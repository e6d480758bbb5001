/* Data-centric attribution by data slots that the end of another object
   made stale (runtime/data/object_cache.c, still_current): the runtime keeps
   a stale slot whose element still lies in its range when no loaded
   object of the slot's own group ended or moved since it was filled,
   and looks again when one did.  The blocks are larger than the chunk
   tables take (64 KiB), so they have no group ids and every stale miss
   reaches the runtime.
   zeroinst-flags: -O2 -g
   zeroinst-env: ZEROINST_MODE=code,data

   kept: one block of 100,000 bytes, int32 words {0x100, 1, 0x10000, 0,
   ...}.  One site (get_kept, one call site) reads word 0, then a block
   of path other (int32 {2, 0, 0, 0}, read by get_other) is freed, then
   the site reads word 1, which finds its slot stale, with the element in
   its range and its group's objects untouched: the runtime keeps the
   slot and returns its chunk, in which generated code marks the word;
   then word 2 (a hit).  3 elements: 0x100 (2 redundant bytes), 1 (3) and
   0x10000 (1); bytes 0, 2, 3, 5-7, 8, 9 and 11 always zero.
   expect-data: heap@kept int path=main@kept allocations=1 size=100000 elements=3 bytes=12 redundant_bytes=6 zero_elements=0 never_loaded_bytes=99988 always_zero_bytes=9
   expect-data: heap@other int path=main@other allocations=1 size=16 elements=1 bytes=4 redundant_bytes=3 zero_elements=0 never_loaded_bytes=12 always_zero_bytes=3 map=1x3z12n

   reused: a block A of 100,000 bytes on path first, whose word 0 (1)
   one site (get_reused, one call site) reads; A is freed and B, of the
   same size on path second, is allocated at A's address, word 0 = 7,
   and the site reads it: its slot holds A's range, stale, and A's group
   had an object end since it was filled, so the runtime looks again and
   the element is B's, not A's.  Then B's word 0 once more (a hit).
   expect-data: heap@first int path=main@first allocations=1 size=100000 elements=1 bytes=4 redundant_bytes=3 zero_elements=0 never_loaded_bytes=99996 always_zero_bytes=3
   expect-data: heap@second int path=main@second allocations=1 size=100000 elements=2 bytes=8 redundant_bytes=6 zero_elements=0 never_loaded_bytes=99996 always_zero_bytes=3
   The fifth record is that of "zero", a static the loops read.
   expect-data-total: heap.int.elements=7 heap.int.bytes=28 heap.int.redundant_bytes=18 heap.int.zero_elements=0
   expect-data-records: 5
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG 100000
#define NOIPA __attribute__ ((noipa))

volatile int zero;

NOIPA int32_t get_kept (const int32_t *p, int i) { return p[i]; }
NOIPA int32_t get_other (const int32_t *p) { return p[0]; }
NOIPA int32_t get_reused (const int32_t *p) { return p[0]; }

int
main (void)
{
  int64_t s = 0;

  int32_t *kept = malloc (BIG);  // [[kept]]
  if (!kept)
    abort ();
  memset (kept, 0, BIG);
  kept[0] = 0x100;
  kept[1] = 1;
  kept[2] = 0x10000;
  for (int k = 0; k < 3 + zero; k++)
    {
      if (k == 1)
        {
          int32_t *other = malloc (16);  // [[other]]
          if (!other)
            abort ();
          memset (other, 0, 16);
          other[0] = 2;
          s += get_other (other);
          free (other);
        }
      /* One call site, so one context and one data slot.  */
      s += get_kept (kept, k);
    }

  int32_t *a = malloc (BIG);  // [[first]]
  if (!a)
    abort ();
  memset (a, 0, BIG);
  a[0] = 1;
  /* Compared as a number: GCC may take two blocks malloc returned for
     different ones.  */
  volatile uintptr_t a_at = (uintptr_t) a;
  int32_t *seq[3] = { a, NULL, NULL };
  for (int k = 0; k < 3 + zero; k++)
    {
      if (k == 1)
        {
          free (a);
          int32_t *b = malloc (BIG);  // [[second]]
          if (!b)
            abort ();
          if ((uintptr_t) b != a_at)
            {
              fprintf (stderr, "reused: the new block is not at the freed one's address\n");
              abort ();
            }
          memset (b, 0, BIG);
          b[0] = 7;
          seq[1] = seq[2] = b;
        }
      s += get_reused (seq[k]);
    }
  printf ("%lld\n", (long long) s);
  return 0;
}
