/* Masked vector loads: GCC vectorizes a loop with a conditional load
   through a pointer it cannot prove readable (sum_where's p[i],
   scale_where's d[i]) with .MASK_LOAD: AVX-512 (mask registers) and AVX2
   (vector masks).  Each active lane is one element at its own address;
   inactive lanes are neither counted nor marked as loaded, so the data
   records show their bytes as never loaded.  The counts are those of the
   scalar program.  Checked with -fdump-tree-optimized: GCC 12 makes
   .MASK_LOAD of both loops at these flags and with -mavx2.
   zeroinst-flags: -O3 -g -mavx512f -mavx512vl
   zeroinst-env: ZEROINST_MODE=code,data

   N = 37 (not a multiple of any vector width: a partial last vector).
   q[i] = (i % 4 != 0): 27 ones, 10 zeros; as int32 a zero has 4
   redundant bytes, a one 3: 121 per pass over q, 10 zeros.
   p[i] = i: the 27 active values 1..35 are non-zero below 256: 3 each.
   d[i] = i odd ? 0.0 : 2.5 (0x4004000000000000: bytes 6 and 7 non-zero):
   of the 27 active lanes the 18 odd ones are 0.0 (8 redundant bytes each).
   main loads out[2] = 5.0 (0x4014000000000000): nothing redundant.

   expect-lines: 43 44 52 53 67
   expect-total: int.elements=101 int.bytes=404 int.redundant_bytes=323 int.zero_elements=20
   expect-total: float.elements=28 float.bytes=224 float.redundant_bytes=144 float.zero_elements=18
   expect-data-records: 4
   expect-data: static=pa int elements=27 bytes=108 redundant_bytes=81 zero_elements=0 never_loaded_bytes=40 always_zero_bytes=81 map=4n1x3z1x3z1x3z4n1x3z1x3z1x3z4n1x3z1x3z1x3z4n1x3z1x3z1x3z4n1x3z1x3z1x3z4n1x3z1x3z1x3z4n1x3z1x3z1x3z4n1x3z1x3z1x3z4n1x3z1x3z1x3z4n
   expect-data: static=qa int elements=74 bytes=296 redundant_bytes=242 zero_elements=20 never_loaded_bytes=0 always_zero_bytes=121 map=4z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z1x3z1x3z1x7z
   expect-data: static=da float elements=27 bytes=216 redundant_bytes=144 zero_elements=18 never_loaded_bytes=80 always_zero_bytes=198 map=8n14z2x8z8n14z2x8z8n14z2x8z8n14z2x8z8n14z2x8z8n14z2x8z8n14z2x8z8n14z2x8z8n14z2x8z8n
   expect-data: static=out float elements=1 bytes=8 redundant_bytes=0 zero_elements=0 never_loaded_bytes=288 always_zero_bytes=6 map=16n6z2x272n
   expect-data-total: static.int.elements=101 static.float.elements=28 heap.int.elements=0 heap.float.elements=0 stack.int.elements=0 stack.float.elements=0 unknown.int.elements=0 unknown.float.elements=0 */
#include <stdint.h>
#include <stdio.h>

#define N 37
#define NOINLINE __attribute__ ((noinline))

int32_t pa[N], qa[N];
double da[N], out[N];

NOINLINE int64_t
sum_where (const int32_t *p, const int32_t *q, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    if (q[i])  // expect: elements=37 bytes=148 redundant_bytes=121 zero_elements=10
      s += p[i];  // expect: elements=27 bytes=108 redundant_bytes=81 zero_elements=0 redmap=000x
  return s;
}

NOINLINE void
scale_where (double *o, const double *d, const int32_t *q, int n)
{
  for (int i = 0; i < n; i++)
    if (q[i])  // expect: elements=37 bytes=148 redundant_bytes=121 zero_elements=10
      o[i] = d[i] * 2.0;  // expect: elements=27 bytes=216 redundant_bytes=144 zero_elements=18
}

int
main (void)
{
  for (int i = 0; i < N; i++)
    {
      qa[i] = i % 4 != 0;
      pa[i] = i;
      da[i] = i % 2 ? 0.0 : 2.5;
    }
  int64_t s = sum_where (pa, qa, N);
  scale_where (out, da, qa, N);
  printf ("%lld %g\n", (long long) s, out[2]);  // expect: elements=1 bytes=8 redundant_bytes=0 zero_elements=0
  return 0;
}
