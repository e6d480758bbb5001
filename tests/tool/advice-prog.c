/* advice-prog.c - a program on which each rule of `zeroinst show`'s advice
   must fire, or must not, with the bytes saved known in advance.

   Built with `zeroinst-cc -O1 -g` and run with ZEROINST_MODE=code,data by
   advice_check.py, which holds the expected advice lines; the figures in
   them are derived here, next to the code they come from.  -O1 keeps every
   loop scalar (no vectorization), so each element is one load.  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1000

/* narrower type, fires: 1..200 in a uint64_t.  1000 elements of 8 bytes,
   top 7 zero -> uint8_t would load 1000 * 7 = 7000 fewer bytes (87.50%).  */
static uint64_t small[N];
/* narrower type, fires with a signed choice: 0..9,990,000 < 2^24 in a
   uint64_t (top 5 bytes zero, 3 needed, so a 4-byte type has a zero byte
   to spare) -> int32_t or uint32_t, 1000 * 4 = 4000 fewer bytes (50.00%).  */
static uint64_t mid[N];
/* narrower type, must not fire: 0..9,990,000 in an int32_t.  Its top byte
   is always zero, but the 3 bytes needed take a 4-byte type anyway.  */
static int32_t wide[N];

/* sparse data, fires at the site and on the object: 4096 doubles, every
   64th 1.0, the rest 0.0.  Site: 4032 of 4096 elements zero (98.44%), 4032
   * 8 = 32256 fewer bytes.  Object: always-zero bytes are the zero
   elements' 32256 plus the 6 low bytes of each of the 64 1.0s (0x3ff0...):
   32640 of 32768.  Its map: "6z2x", then 63 times "510z2x" (the 63 zero
   elements and the next 1.0's low bytes), then "504z": 64 zero regions of
   64+ bytes, 63 * 510 + 504 = 32634 bytes, the largest (first) bytes
   8..517.  */
static double grid[4096];
/* sparse data, must not fire: half of the elements zero.  */
static double dense[4096];

/* zero guard, fires: *kappa is 0.0 in 950 of 1000 calls (95.00%): 950 * 8
   = 7600 bytes of zeros.  must not fire: *other is zero in half.  */
static double kappa_value, other_value;

/* never read, fires (shrink): a 4096-byte block of which the first 1024
   bytes are read -> bytes 1024..4095 never loaded (3072, 75.00%).  */
static uint8_t *block;

/* never read, fires (split): 256 records of 16 bytes whose key alone is
   read -> bytes 4..15 of every 16-byte element (3072 of 4096 bytes).  The
   keys have a non-zero top byte, so no narrower type.  */
struct record
{
  int32_t key;
  int32_t cold[3];
};
static struct record records[256];

/* never read, must not fire: the first half is read as integers, the
   second as doubles, so each kind alone never loaded half of it.  */
static union
{
  uint64_t i[512];
  double d[512];
} both;

__attribute__ ((noinline)) static double
scale (const double *kappa, double v)
{
  return *kappa * v;
}

__attribute__ ((noinline)) static double
scale_other (const double *other, double v)
{
  return *other * v;
}

int
main (void)
{
  block = malloc (4096);
  if (!block)
    return 1;
  for (int i = 0; i < N; i++)
    {
      small[i] = (uint64_t) (i % 200 + 1);
      mid[i] = (uint64_t) i * 10000;
      wide[i] = i * 10000;
    }
  for (int i = 0; i < 4096; i++)
    {
      grid[i] = i % 64 == 0 ? 1.0 : 0.0;
      dense[i] = i % 2 ? 2.5 : 0.0;
      block[i] = (uint8_t) (i % 255 + 1);
    }
  for (int i = 0; i < 256; i++)
    records[i].key = 0x7f000000 | (i + 1);
  for (int i = 0; i < 256; i++)
    {
      both.i[i] = 0x8000000000000001u + (uint64_t) i;
      both.d[256 + i] = 1.5 + i;
    }

  uint64_t s = 0;
  for (int i = 0; i < N; i++)
    s += small[i];
  for (int i = 0; i < N; i++)
    s += mid[i];
  for (int i = 0; i < N; i++)
    s += (uint64_t) wide[i];
  double d = 0;
  for (int i = 0; i < 4096; i++)
    d += grid[i];
  for (int i = 0; i < 4096; i++)
    d += dense[i];
  for (int i = 0; i < N; i++)
    {
      kappa_value = i % 20 == 0 ? 1.0 : 0.0;
      other_value = i % 2 ? 3.0 : 0.0;
      d += scale (&kappa_value, i) + scale_other (&other_value, i);
    }
  for (int i = 0; i < 1024; i++)
    s += block[i];
  for (int i = 0; i < 256; i++)
    s += (uint64_t) records[i].key;
  for (int i = 0; i < 256; i++)
    s += both.i[i];
  for (int i = 256; i < 512; i++)
    d += both.d[i];
  printf ("%llu %.1f\n", (unsigned long long) s, d);
  free (block);
  return 0;
}
