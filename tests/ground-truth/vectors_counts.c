/* Vector counters (plugin/instrument.cc, vector_count_type): in a loop
   whose counters are kept in registers, the lanes of a vector of 4-byte
   integers, 4-byte floats or 8-byte floats are counted by vector
   operations into accumulators of one lane per lane, which are folded at
   the loop's exits and before each runtime call of its data path.  A loop
   whose bound does not show that 32-bit lanes cannot overflow counts
   lane by lane, 4-byte floats eight bytes at a time (sum_u_any, sum_f_any:
   a pointer and a long count).  sum_u runs twice: in data mode the second
   time as its range loop (the object known on entry), whose loads share
   the checked loop's accumulators.  The vector
   types are GCC's own (vector_size), so the loads are vectors at any
   level of optimization; "#pragma GCC unroll 1" keeps each loop a loop.
   Values on every boundary of the highest non-zero byte (SPEC section 3:
   an integer element's redundant bytes are 3 - hb + (v == 0), hb the
   index of the highest non-zero byte of v | 1; a float's are all 4 or 8
   when it is zero, -0.0 included).

   u, 16 values, each vector's lanes in turn, repeated 4 times:
       value      0  1  ff 100 ffff 10000 ffffff 1000000
       redundant  4  3  3  2   2    1     1      0
       zero bytes 4  3  3  3   2    3     1      3
       value      7fffffff 80000000 ffffffff 12 1234 123456 12345678 0
       redundant  0        0        0        3  2    1      0        4
       zero bytes 0        3        0        3  2    1      0        4
     per 16 elements 26 redundant bytes, 2 zeros, 35 zero bytes of 64.
   w: every lane 5 but the last of each vector, 1000000: the OR has a
     byte of the highest lane (a fold that lost the vector's upper half
     would show 000x); 24 * 3 redundant bytes.
   f: 0.0, -0.0, 1.0, NaN, the least denormal, -1.5, 0.0, 3.0: 3 zeros
     per 8; d: 0.0, -0.0, 2.5, 1e-310: 2 zeros per 4.
   alternate (data mode): loads a[i] and b[i] in turn, two heap blocks
     of different allocation paths, so every element is another object's
     than the last and each miss first adds the accumulators to the
     slot: a's odd vectors {0, 100, 10000, 1000000} (redundant 4 + 2 + 1
     + 0 = 7, 1 zero, 13 zero bytes), b's even ones {7, 0, 0, ffffffff}
     (11, 2 zeros, 11 zero bytes); the other vectors never loaded.
   alternate_f: the same with floats, af's odd vectors {0.0, 1.0, -0.0,
     2.0} (2 zeros; zero bytes 4 + 2 + 3 + 3 = 12: 1.0 is 3f800000), bf's
     even ones {0, 0, 0, the least denormal} (3 zeros, 15 zero bytes).
   zeroinst-flags: -O2 -g
   zeroinst-env: ZEROINST_MODE=code,data
   expect-data: static=u int elements=192 bytes=768 redundant_bytes=312 zero_elements=24 never_loaded_bytes=0 always_zero_bytes=140
   expect-data: static=w int elements=32 bytes=128 redundant_bytes=72 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=96
   expect-data: static=f float elements=64 bytes=256 redundant_bytes=96 zero_elements=24 never_loaded_bytes=0
   expect-data: static=d float elements=16 bytes=128 redundant_bytes=64 zero_elements=8 never_loaded_bytes=0
   expect-data: heap@alloc_a int allocations=1 size=128 elements=16 bytes=64 redundant_bytes=28 zero_elements=4 never_loaded_bytes=64 always_zero_bytes=52
   expect-data: heap@alloc_b int allocations=1 size=128 elements=16 bytes=64 redundant_bytes=44 zero_elements=8 never_loaded_bytes=64 always_zero_bytes=44
   expect-data: heap@alloc_af float allocations=1 size=128 elements=16 bytes=64 redundant_bytes=32 zero_elements=8 never_loaded_bytes=64 always_zero_bytes=48
   expect-data: heap@alloc_bf float allocations=1 size=128 elements=16 bytes=64 redundant_bytes=48 zero_elements=12 never_loaded_bytes=64 always_zero_bytes=60 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t v4u __attribute__ ((vector_size (16)));
typedef float v4f __attribute__ ((vector_size (16)));
typedef double v2d __attribute__ ((vector_size (16)));

#define NU 16
v4u u[NU], w[8];
v4f f[8];
v2d d[8];

#define NOINLINE __attribute__ ((noipa))

NOINLINE uint32_t
sum_u (void)
{
  v4u s = { 0, 0, 0, 0 };
#pragma GCC unroll 1
  for (int i = 0; i < NU; i++)
    s += u[i];  // expect: elements=128 bytes=512 redundant_bytes=208 zero_elements=16 redmap=xxxx lanes=4
  return s[0] ^ s[1] ^ s[2] ^ s[3];
}

NOINLINE uint32_t
sum_u_any (const v4u *p, long n)
{
  v4u s = { 0, 0, 0, 0 };
#pragma GCC unroll 1
  for (long i = 0; i < n; i++)
    s += p[i];  // expect: elements=64 bytes=256 redundant_bytes=104 zero_elements=8 redmap=xxxx lanes=4
  return s[0] ^ s[1] ^ s[2] ^ s[3];
}

NOINLINE uint32_t
or_w (void)
{
  v4u s = { 0, 0, 0, 0 };
#pragma GCC unroll 1
  for (int i = 0; i < 8; i++)
    s |= w[i];  // expect: elements=32 bytes=128 redundant_bytes=72 zero_elements=0 redmap=x00x lanes=4
  return s[0] | s[1] | s[2] | s[3];
}

NOINLINE float
sum_f (void)
{
  v4f s = { 0, 0, 0, 0 };
#pragma GCC unroll 1
  for (int i = 0; i < 8; i++)
    s += f[i] * f[i];  // expect: elements=32 bytes=128 redundant_bytes=48 zero_elements=12 lanes=4
  return s[0] + s[1] + s[2] + s[3];
}

NOINLINE float
sum_f_any (const v4f *p, long n)
{
  v4f s = { 0, 0, 0, 0 };
#pragma GCC unroll 1
  for (long i = 0; i < n; i++)
    s += p[i] * p[i];  // expect: elements=32 bytes=128 redundant_bytes=48 zero_elements=12 lanes=4
  return s[0] + s[1] + s[2] + s[3];
}

NOINLINE double
sum_d (void)
{
  v2d s = { 0, 0 };
#pragma GCC unroll 1
  for (int i = 0; i < 8; i++)
    s += d[i];  // expect: elements=16 bytes=128 redundant_bytes=64 zero_elements=8 lanes=2
  return s[0] + s[1];
}

NOINLINE uint32_t
alternate (const v4u *a, const v4u *b)
{
  v4u s = { 0, 0, 0, 0 };
#pragma GCC unroll 1
  for (int i = 0; i < 8; i++)
    s += (i & 1 ? a : b)[i];  // expect: elements=32 bytes=128 redundant_bytes=72 zero_elements=12 lanes=4
  return s[0] ^ s[1] ^ s[2] ^ s[3];
}

NOINLINE float
alternate_f (const v4f *a, const v4f *b)
{
  v4f s = { 0, 0, 0, 0 };
#pragma GCC unroll 1
  for (int i = 0; i < 8; i++)
    s += (i & 1 ? a : b)[i];  // expect: elements=32 bytes=128 redundant_bytes=80 zero_elements=20 lanes=4
  return s[0] + s[1] + s[2] + s[3];
}

int
main (void)
{
  static const uint32_t pattern[16] = { 0, 1, 0xff, 0x100, 0xffff, 0x10000, 0xffffff, 0x1000000,
                                        0x7fffffff, 0x80000000, 0xffffffff, 0x12, 0x1234,
                                        0x123456, 0x12345678, 0 };
  for (int i = 0; i < NU; i++)
    for (int k = 0; k < 4; k++)
      u[i][k] = pattern[(4 * i + k) % 16];
  for (int i = 0; i < 8; i++)
    for (int k = 0; k < 4; k++)
      w[i][k] = k == 3 ? 0x1000000 : 5;
  uint32_t nan = 0x7fc00000, tiny = 1;
  float fv[8] = { 0.0f, -0.0f, 1.0f, 0, 0, -1.5f, 0.0f, 3.0f };
  memcpy (&fv[3], &nan, 4);
  memcpy (&fv[4], &tiny, 4);
  for (int i = 0; i < 8; i++)
    for (int k = 0; k < 4; k++)
      f[i][k] = fv[(4 * i + k) % 8];
  double dv[4] = { 0.0, -0.0, 2.5, 1e-310 };
  for (int i = 0; i < 8; i++)
    for (int k = 0; k < 2; k++)
      d[i][k] = dv[(2 * i + k) % 4];
  v4u *a = malloc (8 * sizeof *a);  /* [[alloc_a]] */
  v4u *b = malloc (8 * sizeof *b);  /* [[alloc_b]] */
  v4f *af = malloc (8 * sizeof *af);  /* [[alloc_af]] */
  v4f *bf = malloc (8 * sizeof *bf);  /* [[alloc_bf]] */
  if (!a || !b || !af || !bf)
    return 1;
  float least;
  memcpy (&least, &tiny, 4);
  for (int i = 0; i < 8; i++)
    {
      a[i] = (v4u) { 0, 0x100, 0x10000, 0x1000000 };
      b[i] = (v4u) { 7, 0, 0, 0xffffffff };
      af[i] = (v4f) { 0.0f, 1.0f, -0.0f, 2.0f };
      bf[i] = (v4f) { 0.0f, 0.0f, 0.0f, least };
    }
  /* The volatile counts hide the bound from the compiler.  */
  volatile long nu = NU, nf = 8;
  unsigned su = sum_u ();
  su ^= sum_u ();
  printf ("%x %x %x %g %g %g %x %g\n", su, (unsigned) sum_u_any (u, nu), (unsigned) or_w (),
          (double) sum_f (), (double) sum_f_any (f, nf), sum_d (), (unsigned) alternate (a, b),
          (double) alternate_f (af, bf));
  free (a);
  free (b);
  free (af);
  free (bf);
  return 0;
}
