/* Data-centric analysis in range loops (plugin/instrument.cc,
   version_ranges): loops whose loads walk an object at an affine address
   run without range checks when the two ends of each walk lie in the
   object the load's data slot holds.  Each function below is called so
   that its loop runs both ways: first on a fresh slot (checked: it
   misses, and the slot gets the object), then on the same object (the
   test holds: no checks), then on another object (the test fails: the
   checked loop misses again).  A test that trusted a slot it should not
   would count elements to the wrong object.
     fwd:     one int64 load, forward; also a call of 0 iterations and a
              walk of a part of the object;
     back:    int32, backward (the last address is the lowest);
     stride3: int16, every third element (bytes in between never loaded);
     some:    an int32 load in only some iterations (a bound one step
              beyond what it reads would do no harm here: the object
              is larger), and the uint8 selector read in every one;
     dot:     two loads, two objects;
     every8k: every 8192nd int64 of a block of 100 MiB aligned to 64 MiB,
              which crosses from one shadow region into the next (data
              slots hold the part of an object in one region): first the
              part in the first region (the slot gets it), then the whole
              (the walk starts in the slot's range but ends beyond it: the
              test fails, and the checked loop misses at the crossing);
   and a freed block whose address the next allocation gets (glibc's
   tcache): the slot's range still covers the address, and only its
   generation tells that the object is another.  fwd also reads a local
   array: stack memory, whose elements are counted without marks.
   zeroinst-flags: -O2 -g
   zeroinst-env: ZEROINST_MODE=code,data

   alloc_a: int64[64] of 1; fwd reads all of it three times and
   elements 32..47 once: 208 elements, 1664 bytes, 7 redundant bytes
   each (1456), bytes 1-7 always zero (448).
   expect-data: heap@alloc_a int path=main@alloc_a allocations=1 size=512 elements=208 bytes=1664 redundant_bytes=1456 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=448 allocator=malloc
   alloc_b: int64[16] of 0, read twice between the reads of alloc_a: 32
   elements, all redundant and zero.
   expect-data: heap@alloc_b int path=main@alloc_b allocations=1 size=128 elements=32 bytes=256 redundant_bytes=256 zero_elements=32 never_loaded_bytes=0 always_zero_bytes=128 map=128z allocator=malloc
   alloc_c: int64[16] of 2, read twice, freed; alloc_d: int64[16] of 0
   at (usually) the same address, read twice.
   expect-data: heap@alloc_c int path=main@alloc_c allocations=1 size=128 elements=32 bytes=256 redundant_bytes=224 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=112 allocator=malloc
   expect-data: heap@alloc_d int path=main@alloc_d allocations=1 size=128 elements=32 bytes=256 redundant_bytes=256 zero_elements=32 never_loaded_bytes=0 always_zero_bytes=128 map=128z allocator=malloc
   alloc_e: int32[100] of 0x10000, read backward twice: 200 elements, one
   redundant byte each (the high byte); bytes 0, 1 and 3 always zero.
   expect-data: heap@alloc_e int path=main@alloc_e allocations=1 size=400 elements=200 bytes=800 redundant_bytes=200 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=300 allocator=malloc
   alloc_f: int16[30] of 0x101, elements 0, 3, .. 27 read twice: 20
   elements, none redundant; 40 of its 60 bytes never loaded.
   expect-data: heap@alloc_f int path=main@alloc_f allocations=1 size=60 elements=20 bytes=40 redundant_bytes=0 zero_elements=0 never_loaded_bytes=40 always_zero_bytes=0 map=2x4n2x4n2x4n2x4n2x4n2x4n2x4n2x4n2x4n2x4n allocator=malloc
   alloc_g: int32[20] of i, of which some reads 0, 4, 8, 12, 16 twice: 10
   elements; element 0 is zero (4 redundant bytes), the others have 3:
   32; bytes 1-3 of those read and byte 0 of the first always zero (16);
   60 bytes never loaded.
   expect-data: heap@alloc_g int path=main@alloc_g allocations=1 size=80 elements=10 bytes=40 redundant_bytes=32 zero_elements=2 never_loaded_bytes=60 always_zero_bytes=16 map=4z12n1x3z12n1x3z12n1x3z12n1x3z12n allocator=malloc
   sel: uint8[20], 1 at 0, 4, 8, 12 and 16, read by some twice: 40
   elements, 30 of them zero (a zero uint8 is one redundant byte).
   expect-data: static=sel int size=20 elements=40 bytes=40 redundant_bytes=30 zero_elements=30 never_loaded_bytes=0 always_zero_bytes=15 map=1x3z1x3z1x3z1x3z1x3z module=inst
   alloc_h1: int64[8] of 3, alloc_h2: int64[8] of 0x100, both read by
   dot three times: 24 elements each, 7 and 6 redundant bytes each.
   expect-data: heap@alloc_h1 int path=main@alloc_h1 allocations=1 size=64 elements=24 bytes=192 redundant_bytes=168 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=56 allocator=malloc
   expect-data: heap@alloc_h2 int path=main@alloc_h2 allocations=1 size=64 elements=24 bytes=192 redundant_bytes=144 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=56 allocator=malloc
   alloc_big: int64 elements 0, 8192, ... of 1 (the others never
   written): elements 0..4095 * 8192 (32 MiB) read first, 512, then all
   1600: 2112 elements, 7 redundant bytes each; 1600 * 8 bytes loaded,
   7 of each always zero.
   expect-data: heap@alloc_big int path=main@alloc_big allocations=1 size=104857600 elements=2112 bytes=16896 redundant_bytes=14784 zero_elements=0 never_loaded_bytes=104844800 always_zero_bytes=11200 allocator=aligned_alloc
   expect-data-total: heap.int.elements=2694 heap.int.bytes=20592 heap.int.redundant_bytes=17520 heap.int.zero_elements=66
   The local array: int64[16] of 5, read by fwd twice.
   expect-data-total: stack.int.elements=32 stack.int.bytes=256 stack.int.redundant_bytes=224 stack.int.zero_elements=0
   alloc_fl: float[40], 1.5f (bytes 00 00 c0 3f) at 1, 9, .. 33, else
   0.0f (the high lane of an eight-byte word), read by fscale twice in
   vectors (eight bytes of the value counted at a time, folded and
   counted at the loop's exit): 80 elements, 70 zero (280 redundant
   bytes); always zero 35 * 4 + 5 * 2.
   expect-data: heap@alloc_fl float path=main@alloc_fl allocations=1 size=160 elements=80 bytes=320 redundant_bytes=280 zero_elements=70 never_loaded_bytes=0 always_zero_bytes=150 map=6z2x30z2x30z2x30z2x30z2x24z allocator=malloc
   expect-data-total: heap.float.elements=80 heap.float.bytes=320 heap.float.redundant_bytes=280 heap.float.zero_elements=70
   expect-data-total: unknown.int.elements=0
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile int64_t zero;
int64_t total;
unsigned char sel[20];

__attribute__ ((noipa)) int64_t
fwd (const int64_t *p, long n)
{
  int64_t s = 0;
  for (long i = 0; i < n; i++)
    s += p[i];
  return s;
}

__attribute__ ((noipa)) int64_t
back (const int32_t *p, long n)
{
  int64_t s = 0;
  for (long i = n - 1; i >= 0; i--)
    s += p[i];
  return s;
}

__attribute__ ((noipa)) int64_t
stride3 (const int16_t *p, long n)
{
  int64_t s = 0;
  for (long i = 0; i < n; i += 3)
    s += p[i];
  return s;
}

__attribute__ ((noipa)) int64_t
some (const int32_t *p, long n)
{
  int64_t s = 0;
  for (long i = 0; i < n; i++)
    if (sel[i])
      s += p[i];
  return s;
}

__attribute__ ((noipa)) int64_t
dot (const int64_t *a, const int64_t *b, long n)
{
  int64_t s = 0;
  for (long i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

__attribute__ ((noipa)) int64_t
every8k (const int64_t *p, long n)
{
  int64_t s = 0;
  for (long i = 0; i < n; i += 8192)
    s += p[i];
  return s;
}

/* Vectorized: float lanes counted eight bytes at a time.  */
__attribute__ ((noipa, optimize ("O3"))) void
fscale (float *restrict q, const float *restrict p, long n)
{
  for (long i = 0; i < n; i++)
    q[i] = p[i] * 2.0f;
}

/* N int64 of V + zero (not known to the compiler).  */
static int64_t *
fill64 (int64_t *p, long n, int64_t v)
{
  int64_t z = zero;
  for (long i = 0; i < n; i++)
    p[i] = v + z;
  return p;
}

/* The calls of each function come from one call site (a loop over
   the arguments, of a count the compiler does not know, so that it
   does not unroll it): data slots are per site and calling context.  */
static const int64_t *fwd_p[8];
static long fwd_n[8];

int
main (void)
{
  int64_t z = zero;
  int64_t *a = fill64 (malloc (64 * 8), 64, 1);  // [[alloc_a]]
  int64_t *b = fill64 (malloc (16 * 8), 16, 0);  // [[alloc_b]]
  /* a (misses), b (the test fails), a (fails), a with no iteration, a
     part of a (holds), b (fails), a (fails).  */
  const int64_t *ps[7] = { a, b, a, a, a + 32, b, a };
  const long ns[7] = { 64, 16, 64, 0, 16, 16, 64 };
  for (int k = 0; k < 7; k++)
    fwd_p[k] = ps[k], fwd_n[k] = ns[k];
  for (int k = 0; k < 7 + (int) z; k++)
    total += fwd (fwd_p[k], fwd_n[k]);

  /* c (misses), c (holds), then d at c's address: its range is c's, and
     only the generation tells (fails), d (holds).  */
  int64_t *c = fill64 (malloc (16 * 8), 16, 2);  // [[alloc_c]]
  int64_t *d = NULL;
  for (int k = 0; k < 4 + (int) z; k++)
    {
      if (k == 2)
        {
          free (c);
          c = d = malloc (16 * 8);  // [[alloc_d]]
          fill64 (d, 16, 0);
        }
      total += fwd (c, 16);
    }

  int32_t *e = malloc (100 * 4);  // [[alloc_e]]
  for (long i = 0; i < 100; i++)
    e[i] = 0x10000 + (int32_t) z;
  for (int k = 0; k < 2 + (int) z; k++)
    total += back (e, 100);

  int16_t *f = malloc (30 * 2);  // [[alloc_f]]
  for (long i = 0; i < 30; i++)
    f[i] = 0x101 + (int16_t) z;
  for (int k = 0; k < 2 + (int) z; k++)
    total += stride3 (f, 30);

  int32_t *g = malloc (20 * 4);  // [[alloc_g]]
  for (long i = 0; i < 20; i++)
    {
      g[i] = (int32_t) (i + z);
      sel[i] = i % 4 == 0;
    }
  for (int k = 0; k < 2 + (int) z; k++)
    total += some (g, 20);

  int64_t *h1 = fill64 (malloc (8 * 8), 8, 3);      // [[alloc_h1]]
  int64_t *h2 = fill64 (malloc (8 * 8), 8, 0x100);  // [[alloc_h2]]
  for (int r = 0; r < 3 + (int) z; r++)
    total += dot (h1, h2, 8);

  /* 64 MiB: the shadow's regions (include/zeroinst-abi.h).  */
  long big_n = (100l << 20) / 8;
  int64_t *big = aligned_alloc (1l << 26, 100l << 20);  // [[alloc_big]]
  for (long i = 0; i < big_n; i += 8192)
    big[i] = 1 + z;
  for (int k = 0; k < 2 + (int) z; k++)
    total += every8k (big, k == 0 ? (32l << 20) / 8 : big_n);

  float *fl = malloc (40 * 4);  // [[alloc_fl]]
  float *fq = malloc (40 * 4);
  for (long i = 0; i < 40; i++)
    fl[i] = i % 8 == 1 ? 1.5f + (float) z : 0.0f;
  for (int k = 0; k < 2 + (int) z; k++)
    fscale (fq, fl, 40);
  free (fq);

  int64_t local[16];
  fill64 (local, 16, 5);
  for (int k = 0; k < 2 + (int) z; k++)
    total += fwd (local, 16);

  printf ("%lld\n", (long long) total);
  free (a);
  free (b);
  free (d);
  free (e);
  free (f);
  free (g);
  free (h1);
  free (h2);
  free (big);
  free (fl);
  return 0;
}
