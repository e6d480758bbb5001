/* Data-centric byte states of elements that are not 8-byte aligned
   doubles: members of packed structures, which straddle the 8-byte halves
   of the shadow (zeroinst-abi.h) or sit inside one at an offset known
   only at run time; 2-byte elements at every offset of a half; 16-byte
   vector loads, marked 8 bytes at a time.  Each object is 8-aligned, so
   where an element lands in its half is fixed.  Every element is read by
   a noinline function in a loop (the loop's cached object in registers)
   and qs[].b also outside one (the cached object in its slot).  -O1: one
   load per element (GIMPLE's: a target without unaligned loads splits a
   packed member only later).  Little-endian.

   The expectations come from a byte-by-byte model of the loads (each
   load marks its bytes loaded, and non-zero where the value's byte is):
   element k of recs at offset 7k, w at 7k + 1, v at 7k + 3.
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data
   expect-data-records: 5
   expect-data-records[riscv64]: 4

   recs: struct { u8 tag; u16 w; u32 v; } packed, 5 of them (35 bytes),
   w = 1, 0x100, 1, 0x100, 0 and v = 1, 0x200, 0x30000, 0x4000000, 0: the
   non-zero byte moves through the element; tags never loaded.  w at 15
   and v at 31 straddle two halves.  Redundant bytes: w 1+0+1+0+2, v
   3+2+1+0+4: 14.
   expect-data: static=recs int size=35 elements=10 bytes=30 redundant_bytes=14 zero_elements=2 never_loaded_bytes=5 always_zero_bytes=22 map=1n1x1z1x3z1n1z1x1z1x2z1n1x3z1x1z1n1z1x3z1x1n6z

   qs: struct { u32 a; u64 b; } packed, aligned (4), 3 of them (36
   bytes): b at 4 and 28 straddles, at 16 it does not.  b = 0x102, 0,
   1 << 56, each read twice: redundant 2 * (6 + 8 + 0).
   expect-data: static=qs int size=36 elements=6 bytes=48 redundant_bytes=28 zero_elements=2 never_loaded_bytes=12 always_zero_bytes=21 map=4n2x6z4n8z4n7z1x

   halves: u16[12], halves[i] = 0, 1, 0x100 by i % 3, elements 1..10
   read: every offset of a half.
   expect-data: static=halves int size=24 elements=10 bytes=20 redundant_bytes=10 zero_elements=3 never_loaded_bytes=4 always_zero_bytes=13 map=2n1x2z1x2z1x2z1x2z1x2z1x2z1x1z2n

   vecs: two vectors of 4 u32, {0, 0x100, 0, 1 << 24}, {5, 0, 0, 0x10000},
   read as vectors: 8 elements of 4 bytes.  riscv64 (GCC 12: no vector
   unit) loads them as four u64 words, 0x100 << 40, 1 << 56, 5 and
   0x10000 << 32: 2 + 0 + 7 + 1 redundant bytes, no zero element.
   expect-data: static=vecs int size=32 elements=8 bytes=32 redundant_bytes=22 zero_elements=4 never_loaded_bytes=0 always_zero_bytes=28 map=5z1x9z2x13z1x1z
   expect-data[riscv64]: static=vecs int size=32 elements=4 bytes=32 redundant_bytes=10 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=28 map=5z1x9z2x13z1x1z

   raw: 32 bytes 0x11, 0x12, ...: read as u64 through cast pointers that
   break the type's promise of 8-byte alignment, at raw + 4 (outside a
   loop) and raw + 20 (in one): the marks land on the element's own
   bytes, none before or after (x86-64 and aarch64 only: riscv64 does
   not load misaligned).
   expect-data: static=raw int size=32 elements=2 bytes=16 redundant_bytes=0 zero_elements=0 never_loaded_bytes=16 always_zero_bytes=0 map=4n8x8n8x4n
   expect-data[riscv64]: static=raw int absent
*/
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__ ((noinline))

struct __attribute__ ((packed)) rec {
  uint8_t tag;
  uint16_t w;
  uint32_t v;
};
struct __attribute__ ((packed, aligned (4))) q {
  uint32_t a;
  uint64_t b;
};
typedef uint32_t v4u __attribute__ ((vector_size (16)));

struct rec recs[5] __attribute__ ((aligned (8)));
struct q qs[3] __attribute__ ((aligned (8)));
uint16_t halves[12] __attribute__ ((aligned (8)));
v4u vecs[2];
uint8_t raw[32] __attribute__ ((aligned (8)));

NOINLINE uint64_t
read_recs (const struct rec *r, int n)
{
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += r[i].w * 3u + r[i].v;
  return s;
}

NOINLINE uint64_t
read_qs (const struct q *p, int n)
{
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s ^= p[i].b;
  return s;
}

NOINLINE uint64_t
read_b (const struct q *p)
{
  return p->b;
}

NOINLINE uint64_t
read_halves (const uint16_t *h, int from, int to)
{
  uint64_t s = 0;
  for (int i = from; i <= to; i++)
    s += h[i];
  return s;
}

NOINLINE v4u
read_vecs (const v4u *v, int n)
{
  v4u s = { 0, 0, 0, 0 };
  for (int i = 0; i < n; i++)
    s ^= v[i];
  return s;
}

NOINLINE uint64_t
read_u64 (const uint64_t *p)
{
  return *p;
}

NOINLINE uint64_t
read_u64s (const uint64_t *p, int n)
{
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];
  return s;
}

int
main (int argc, char **argv)
{
  (void) argv;
  uint32_t z = argc - 1;  /* 0: values cannot be folded */
  for (int k = 0; k < 5; k++)
    recs[k].tag = 0x55;
  recs[0].w = 1 + z, recs[0].v = 1 + z;
  recs[1].w = 0x100 + z, recs[1].v = 0x200 + z;
  recs[2].w = 1 + z, recs[2].v = 0x30000 + z;
  recs[3].w = 0x100 + z, recs[3].v = 0x4000000 + z;
  recs[4].w = z, recs[4].v = z;
  qs[0].b = 0x102 + z;
  qs[1].b = z;
  qs[2].b = ((uint64_t) 1 << 56) + z;
  for (int i = 0; i < 12; i++)
    halves[i] = (i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : 0x100) + z;
  vecs[0] = (v4u) { 0, 0x100, 0, 1u << 24 } + z;
  vecs[1] = (v4u) { 5, 0, 0, 0x10000 } + z;

  uint64_t s = read_recs (recs, 5);
  s += read_qs (qs, 3);
  for (int k = 0; k < 3; k++)
    s += read_b (&qs[k]);
  s += read_halves (halves, 1, 10);
  v4u x = read_vecs (vecs, 2);
  for (int i = 0; i < 32; i++)
    raw[i] = 0x11 + i + z;
#if defined __x86_64__ || defined __aarch64__
  s += read_u64 ((const uint64_t *) (raw + 4));
  s += read_u64s ((const uint64_t *) (raw + 20), 1);
#endif
  printf ("%llu %u %u %u %u\n", (unsigned long long) s, x[0], x[1], x[2], x[3]);
  return 0;
}
