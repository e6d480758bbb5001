/* Gathers: GCC vectorizes loops over a[idx[i]] with x86's gather
   builtins when the tuning asks for them (-mtune=skylake-avx512: AVX-512
   forms with mask registers; the _avx2 variant, -mtune=skylake: AVX2
   forms with vector masks).  Each gathered lane is one element at its own
   address, base + idx[i] * 4; lanes a conditional gather leaves out are
   neither counted nor marked.  Checked with -fdump-tree-optimized: GCC 12
   makes __builtin_ia32_gather3siv8si (32-bit indices), gather3div8si
   (64-bit indices: fewer index lanes than data lanes) and, in
   sum_where, a .MASK_LOAD of idx and a gather under its mask.
   zeroinst-flags: -O3 -g -mavx512f -mavx512vl -mtune=skylake-avx512
   zeroinst-env: ZEROINST_MODE=code,data

   N = 37 (a partial last vector).  a[j] = 3 * j (j < 64): 0 for j = 0
   (4 redundant bytes), else non-zero below 256 (3).  idx[i] = 7 * i % 64:
   37 distinct indices, 0 only for i = 0; as int32 the same redundancy as
   a's values, as int64 8 and 7.  q[i] = (i % 4 != 0): 27 ones (3
   redundant bytes), 10 zeros (4).

   expect-lines: 42 52 61 62
   expect-total: int.elements=239 int.bytes=1104 int.redundant_bytes=879 int.zero_elements=14
   expect-data-records: 4
   expect-data: static=a int elements=101 bytes=404 redundant_bytes=305 zero_elements=2 never_loaded_bytes=108 always_zero_bytes=112
   expect-data: static=idx int elements=64 bytes=256 redundant_bytes=193 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=112
   expect-data: static=idx64 int elements=37 bytes=296 redundant_bytes=260 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=260
   expect-data: static=q int elements=37 bytes=148 redundant_bytes=121 zero_elements=10 never_loaded_bytes=0 always_zero_bytes=121
   expect-data-total: static.int.elements=239 heap.int.elements=0 stack.int.elements=0 unknown.int.elements=0 */
#include <stdint.h>
#include <stdio.h>

#define N 37
#define M 64
#define NOINLINE __attribute__ ((noinline))

int32_t a[M], idx[N], q[N];
int64_t idx64[N];

NOINLINE int64_t
sum_at (const int32_t *p, const int32_t *ix, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[ix[i]];  // [[sum_at]]
  return s;
}
// expect@sum_at: elements=74 bytes=296 redundant_bytes=224 zero_elements=2

NOINLINE int64_t
sum_at64 (const int32_t *p, const int64_t *ix, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[ix[i]];  // expect: elements=74 bytes=444 redundant_bytes=372 zero_elements=2
  return s;
}

NOINLINE int64_t
sum_where (const int32_t *p, const int32_t *ix, const int32_t *c, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    if (c[i])  // expect: elements=37 bytes=148 redundant_bytes=121 zero_elements=10
      s += p[ix[i]];  // expect: elements=54 bytes=216 redundant_bytes=162 zero_elements=0
  return s;
}

int
main (void)
{
  for (int j = 0; j < M; j++)
    a[j] = 3 * j;
  for (int i = 0; i < N; i++)
    {
      idx[i] = idx64[i] = 7 * i % M;
      q[i] = i % 4 != 0;
    }
  printf ("%lld %lld %lld\n", (long long) sum_at (a, idx, N), (long long) sum_at64 (a, idx64, N),
          (long long) sum_where (a, idx, q, N));
  return 0;
}
