/* Data-centric analysis of heap objects (SPEC 5): records grouped by
   allocation call path (alloc_path[0] = the allocator's caller at the
   call's line: -g), freed memory reused by the next allocation, a loop
   allocating at one line, one allocation line reached by two paths,
   realloc that moves the object, realloc that shrinks and grows it back
   (the dropped bytes' map state is gone), realloc (NULL, n), posix_memalign,
   aligned_alloc and memalign.  Every object is written by main and read by
   noinline functions (-O1: one scalar load per element); libc's own reads
   (calloc's zeroing, realloc's copy) are not instrumented and count for
   nothing.  Little-endian byte maps: byte 0 is the least significant.
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data
   expect-records: 14
   expect-data-records: 11

   heap int:   a 16/64/49/1, loop 10/80/71/1, r 10/40/34/4, g 18/72/54/0,
               q 3/24/18/0, pm 16/128/120/15, ma 4/32/24/0
               (elements/bytes/redundant/zero): 77/440/370/21
   heap float: b 8/64/8/1, h1+h2 20/160/152/19, aa 8/32/0/0: 36/256/160/20
   stack int:  pm_alloc's load of its pointer variable: 1 element, 8 bytes
               (its redundant bytes depend on the address: 2 on x86_64,
               where heap addresses are 0x55..-0x56.. followed by 5 bytes)
   expect-data-total: heap.int.elements=77 heap.int.bytes=440 heap.int.redundant_bytes=370 heap.int.zero_elements=21
   expect-data-total: heap.float.elements=36 heap.float.bytes=256 heap.float.redundant_bytes=160 heap.float.zero_elements=20
   expect-data-total: stack.int.elements=1 stack.int.bytes=8 stack.int.zero_elements=0
   expect-data-total[x86_64]: stack.int.redundant_bytes=2
   expect-data-total: static.int.elements=0 static.float.elements=0 stack.float.elements=0 unknown.int.elements=0 unknown.float.elements=0
   expect-total: int.elements=78 int.bytes=448 int.zero_elements=21 float.elements=36 float.bytes=256 float.redundant_bytes=160 float.zero_elements=20
   expect-total[x86_64]: int.redundant_bytes=372
*/
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline))

NOINLINE int64_t
sum32 (const int32_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=44 bytes=176 redundant_bytes=137 zero_elements=5
  return s;
}
/* sum32: a (16: 49 redundant, 1 zero), r before realloc (2: 6), r after
   (8: 28, 4 zero), g (16: 48 and 2: 6).  */

NOINLINE int64_t
sum64 (const int64_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=33 bytes=264 redundant_bytes=233 zero_elements=16
  return s;
}
/* sum64: loop (10: 71, 1 zero), q (3: 18), pm (16: 120, 15 zero),
   ma (4: 24).  */

NOINLINE double
sumd (const double *p, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=28 bytes=224 redundant_bytes=160 zero_elements=20
  return s;
}

NOINLINE double
sumf (const float *p, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=8 bytes=32 redundant_bytes=0 zero_elements=0
  return s;
}

/* One allocation line, two call paths (main's two calls): two records.
   Not a tail call (the check follows), so xalloc's frame is on the stack.
   h1 = xalloc (10): calloc'ed, h1[9] = 2.0 (0x4000000000000000: "7z1x"),
     all 10 read: 9 zero elements, redundant 72, always zero 72 + 7 = 79,
     map "79z1x".
   h2 = xalloc (10): all zero, all 10 read: redundant 80, 10 zero
     elements, always zero 80, map "80z".
   expect-data: heap@alloc_helper float path=xalloc@alloc_helper,main@call_h1 allocations=1 size=80 elements=10 bytes=80 redundant_bytes=72 zero_elements=9 never_loaded_bytes=0 always_zero_bytes=79 map=79z1x allocator=calloc granule=1
   expect-data: heap@alloc_helper float path=xalloc@alloc_helper,main@call_h2 allocations=1 size=80 elements=10 bytes=80 redundant_bytes=80 zero_elements=10 never_loaded_bytes=0 always_zero_bytes=80 map=80z allocator=calloc
   Both together (map merged offset by offset):
   expect-data: heap@alloc_helper float allocations=2 size=160 elements=20 bytes=160 redundant_bytes=152 zero_elements=19 never_loaded_bytes=0 always_zero_bytes=159 map=79z1x
   expect-data: heap@alloc_helper int absent */
NOINLINE double *
xalloc (int n)
{
  double *p = calloc (n, sizeof *p);  // [[alloc_helper]]
  if (!p)
    abort ();
  return p;
}

/* posix_memalign stores the pointer in p, which must then be loaded (the
   one stack load of this test).
   pm = pm_alloc (64, 128): 16 int64, 0 except pm[15] = -1: 15 zero
   elements (8 redundant bytes each: 120), always zero 120, map "120z8x".
   expect-data: heap@alloc_pm int path=pm_alloc@alloc_pm,main@call_pm allocations=1 size=128 elements=16 bytes=128 redundant_bytes=120 zero_elements=15 never_loaded_bytes=0 always_zero_bytes=120 map=120z8x allocator=posix_memalign */
NOINLINE void *
pm_alloc (size_t align, size_t n)
{
  void *p;
  if (posix_memalign (&p, align, n) != 0)  // [[alloc_pm]]
    abort ();
  return p;  // expect: elements=1 bytes=8 zero_elements=0 [x86_64] redundant_bytes=2
}

int
main (int argc, char **argv)
{
  (void) argv;
  int z = argc - 1;  /* 0: values cannot be folded */
  int64_t s = 0;
  double d = 0;

  /* a: 16 int32, a[i] = i.  Element 0 zero (4 redundant), 1..15 three
     zero high bytes each: redundant 4 + 45 = 49, always zero 49.  Loads
     before the free belong to a.
     expect-data: heap@alloc_a int path=main@alloc_a allocations=1 size=64 elements=16 bytes=64 redundant_bytes=49 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=49 map=4z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z allocator=malloc
     expect-data: heap@alloc_a float absent */
  int32_t *a = malloc (64);  // [[alloc_a]]
  for (int i = 0; i < 16; i++)
    a[i] = i + z;
  s += sum32 (a, 16);
  free (a);

  /* b gets a's memory back (same size, glibc's tcache): b's loads belong
     to b.  b[i] = i (as double): 0.0 is the one zero element (redundant
     8); 1.0 = 0x3FF0.. "6z2x", 2.0 = 0x4000.. "7z1x", 3.0..7.0 = 0x4008..,
     0x4010.., 0x4014.., 0x4018.., 0x401C..: "6z2x".  Always zero
     8 + 6 + 7 + 5 * 6 = 51.
     expect-data: heap@alloc_b float path=main@alloc_b allocations=1 size=64 elements=8 bytes=64 redundant_bytes=8 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=51 map=14z2x7z1x6z2x6z2x6z2x6z2x6z2x allocator=malloc
     expect-data: heap@alloc_b int absent */
  double *b = malloc (64);  // [[alloc_b]]
  for (int i = 0; i < 8; i++)
    b[i] = i + z;
  d += sumd (b, 8);
  free (b);

  /* Four allocations at one line: 16, 32, 48, 64 bytes (size 160), each
     of 2 (k + 1) int64 all equal to k; only the first k + 1 read:
     10 elements.  k = 0: one zero element (8 redundant); k = 1..3: 9
     elements of 7 redundant bytes (63): redundant 71, always zero 8 + 63.
     Never loaded: 8 + 16 + 24 + 32 = 80.  Map (64 bytes, the largest):
     offsets 0..31 are element 0..3 of some allocation with k >= 1 (byte 0
     of each is x), 32..63 were never loaded in any.
     expect-data: heap@alloc_loop int path=main@alloc_loop allocations=4 size=160 elements=10 bytes=80 redundant_bytes=71 zero_elements=1 never_loaded_bytes=80 always_zero_bytes=71 map=1x7z1x7z1x7z1x7z32n allocator=malloc */
  for (int k = 0; k < 4; k++)
    {
      int64_t *p = malloc ((k + 1) * 16);  // [[alloc_loop]]
      for (int j = 0; j < 2 * (k + 1); j++)
        p[j] = k + z;
      s += sum64 (p, k + 1);
      free (p);
    }

  double *h1 = xalloc (10);  // [[call_h1]]
  h1[9] = 2.0 + z;
  double *h2 = xalloc (10);  // [[call_h2]]
  d += sumd (h1, 10);
  d += sumd (h2, 10);
  free (h1);
  free (h2);

  /* realloc keeps the object: its group stays alloc_r, allocations 1,
     size the last size (4096).  r[0..3] = 5; r[0], r[1] read (3 redundant
     bytes each); blk keeps r from growing in place, so the realloc moves
     it (realloc's copy is not a load).  After it r[4..7] = 0 and r[0..7]
     are read: four 5s (3 each) and four zeros (4 each).  Elements 2 + 8,
     redundant 6 + 12 + 16 = 34, zero 4.  Bytes 0..15: "1x3z" x 4; 16..31
     always zero; 32..4095 never loaded (4064); always zero 12 + 16 = 28.
     expect-data: heap@alloc_r int path=main@alloc_r allocations=1 size=4096 elements=10 bytes=40 redundant_bytes=34 zero_elements=4 never_loaded_bytes=4064 always_zero_bytes=28 map=1x3z1x3z1x3z1x19z4064n allocator=malloc
     expect-data: heap@realloc_r int absent
     expect-data: heap@alloc_blk int absent */
  int32_t *r = malloc (16);  // [[alloc_r]]
  void *blk = malloc (16);  // [[alloc_blk]]
  for (int i = 0; i < 4; i++)
    r[i] = 5 + z;
  s += sum32 (r, 2);
  r = realloc (r, 4096);  // [[realloc_r]]
  if (!r)
    abort ();
  for (int i = 4; i < 8; i++)
    r[i] = z;
  s += sum32 (r, 8);
  free (r);
  free (blk);

  /* Shrink, then grow back: g = 16 int32 = 1, all read (3 redundant
     each: 48); realloc to 16 bytes keeps bytes 0..15; realloc to 64 again:
     bytes 16..63 start never loaded, whatever they saw before.  g[0..1]
     read again (6).  18 elements, 72 bytes, redundant 54; the map: bytes
     0..15 "1x3z" x 4, then 48 never loaded; always zero 12.  size 64.
     expect-data: heap@alloc_g int path=main@alloc_g allocations=1 size=64 elements=18 bytes=72 redundant_bytes=54 zero_elements=0 never_loaded_bytes=48 always_zero_bytes=12 map=1x3z1x3z1x3z1x3z48n allocator=malloc */
  int32_t *g = malloc (64);  // [[alloc_g]]
  for (int i = 0; i < 16; i++)
    g[i] = 1 + z;
  s += sum32 (g, 16);
  g = realloc (g, 16);
  if (!g)
    abort ();
  g = realloc (g, 64);
  if (!g)
    abort ();
  s += sum32 (g, 2);
  free (g);

  /* realloc (NULL, 24) is a new allocation at its own line (NULL from z:
     GCC turns a literal realloc (NULL, n) into malloc (n)).  q[i] = 0x100:
     bytes 00 01 00 00 00 00 00 00: redundant 6 each (18), always zero 7
     each (21).
     expect-data: heap@realloc_null int path=main@realloc_null allocations=1 size=24 elements=3 bytes=24 redundant_bytes=18 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=21 map=1z1x7z1x7z1x6z allocator=realloc */
  int64_t *q = realloc ((void *) (uintptr_t) z, 24);  // [[realloc_null]]
  if (!q)
    abort ();
  for (int i = 0; i < 3; i++)
    q[i] = 0x100 + z;
  s += sum64 (q, 3);
  free (q);

  int64_t *pm = pm_alloc (64, 128);  // [[call_pm]]
  for (int i = 0; i < 16; i++)
    pm[i] = i == 15 ? -1 : z;
  s += sum64 (pm, 16);
  free (pm);

  /* aligned_alloc (32, 64): 16 floats = 1.0f (0x3F800000: bytes 00 00 80
     3F, "2z2x"), only the first 8 read: no zero element, no redundant
     byte, always zero 8 * 2 = 16, never loaded 32.
     expect-data: heap@alloc_aa float path=main@alloc_aa allocations=1 size=64 elements=8 bytes=32 redundant_bytes=0 zero_elements=0 never_loaded_bytes=32 always_zero_bytes=16 map=2z2x2z2x2z2x2z2x2z2x2z2x2z2x2z2x32n allocator=aligned_alloc */
  float *aa = aligned_alloc (32, 64);  // [[alloc_aa]]
  if (!aa)
    abort ();
  for (int i = 0; i < 16; i++)
    aa[i] = 1.0f + z;
  d += sumf (aa, 8);
  free (aa);

  /* memalign (16, 32): 4 int64 = 0x7f00 (bytes 00 7f 00 ..: redundant 6,
     7 zero bytes each).
     expect-data: heap@alloc_ma int path=main@alloc_ma allocations=1 size=32 elements=4 bytes=32 redundant_bytes=24 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=28 map=1z1x7z1x7z1x7z1x6z allocator=memalign */
  int64_t *ma = memalign (16, 32);  // [[alloc_ma]]
  if (!ma)
    abort ();
  for (int i = 0; i < 4; i++)
    ma[i] = 0x7f00 + z;
  s += sum64 (ma, 4);
  free (ma);

  printf ("%lld %g\n", (long long) s, d);
  return 0;
}
