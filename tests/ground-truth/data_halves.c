/* Shadow halves as induction variables (plugin/instrument.cc, half_iv_p):
   in a range loop, a load of 8-aligned elements whose address steps by a
   multiple of 8 finds its shadow half in a register stepped at the loop's
   latch, not from its address.  Each walk below first marks a part of its
   object in the checked loop (a fresh slot misses), then runs the fast
   loop over elements not marked yet next to elements that are: a half
   variable that did not step, stepped too far or started one half off
   would test a marked half for an unmarked element, whose value (a subset
   of the marked elements' non-zero bytes) would then need no mark, and
   the element's bytes would stay "never loaded".
     fwd8:   uint64, forward (a step of 2 bytes of shadow per element);
     back8:  double, backward (a negative step);
     every2: uint64, every second element (16 bytes a step, the bytes in
             between never loaded);
   and back8 over a local array: stack memory has no shadow chunk, and
   the variable then stays on halves that need no mark (a variable that
   stepped there would reach halves that do, and the marks would have
   no chunk).
   zeroinst-flags: -O2 -g
   zeroinst-env: ZEROINST_MODE=code,data

   alloc_a: uint64[64] of 1; fwd8 reads elements 32..63 (checked loop),
   then 0..31 (fast), then 0..63 (fast): 128 elements, 1024 bytes, 7
   redundant bytes each (896); bytes 1-7 of every element always zero
   (448).
   expect-data: heap@alloc_a int path=main@alloc_a allocations=1 size=512 elements=128 bytes=1024 redundant_bytes=896 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=448 allocator=malloc
   alloc_b: double[32] of 1.0 (bytes 00 00 00 00 00 00 f0 3f); back8
   reads elements 15..0 (checked), then 31..0 (fast): 48 elements, 384
   bytes, none zero; bytes 0-5 of every element always zero (192).
   expect-data: heap@alloc_b float path=main@alloc_b allocations=1 size=256 elements=48 bytes=384 redundant_bytes=0 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=192 allocator=malloc
   alloc_c: uint64[32] of 2; every2 reads elements 16, 18, .. 30
   (checked), then 0, 2, .. 30 (fast): 24 elements, 192 bytes, 7
   redundant bytes each (168); the 16 odd elements never loaded (128),
   bytes 1-7 of the even ones always zero (112).
   expect-data: heap@alloc_c int path=main@alloc_c allocations=1 size=256 elements=24 bytes=192 redundant_bytes=168 zero_elements=0 never_loaded_bytes=128 always_zero_bytes=112 map=1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n allocator=malloc
   expect-data-total: heap.int.elements=152 heap.int.bytes=1216 heap.int.redundant_bytes=1064 heap.int.zero_elements=0
   expect-data-total: heap.float.elements=48 heap.float.bytes=384 heap.float.redundant_bytes=0 heap.float.zero_elements=0
   The local array: double[12] of 0.5, read by back8 twice.
   expect-data-total: stack.float.elements=24 stack.float.bytes=192 stack.float.redundant_bytes=0 stack.float.zero_elements=0
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile int zero;
uint64_t total;
double ftotal;

__attribute__ ((noipa)) uint64_t
fwd8 (const uint64_t *p, long n)
{
  uint64_t s = 0;
  for (long i = 0; i < n; i++)
    s += p[i];
  return s;
}

__attribute__ ((noipa)) double
back8 (const double *p, long n)
{
  double s = 0;
  for (long i = n - 1; i >= 0; i--)
    s += p[i];
  return s;
}

__attribute__ ((noipa)) uint64_t
every2 (const uint64_t *p, long n)
{
  uint64_t s = 0;
  for (long i = 0; i < n; i += 2)
    s += p[i];
  return s;
}

/* Each walk's calls come from one call site, in a loop of a count the
   compiler does not know: data slots are per site and calling context.  */
static const uint64_t *walk_p[3];
static long walk_n[3];

int
main (void)
{
  int z = zero;
  uint64_t *a = malloc (64 * 8);  // [[alloc_a]]
  for (long i = 0; i < 64; i++)
    a[i] = 1 + (uint64_t) z;
  walk_p[0] = a + 32, walk_n[0] = 32;
  walk_p[1] = a, walk_n[1] = 32;
  walk_p[2] = a, walk_n[2] = 64;
  for (int k = 0; k < 3 + z; k++)
    total += fwd8 (walk_p[k], walk_n[k]);

  double *b = malloc (32 * 8);  // [[alloc_b]]
  for (long i = 0; i < 32; i++)
    b[i] = 1.0 + z;
  for (int k = 0; k < 2 + z; k++)
    ftotal += back8 (b, k == 0 ? 16 : 32);

  uint64_t *c = malloc (32 * 8);  // [[alloc_c]]
  for (long i = 0; i < 32; i++)
    c[i] = 2 + (uint64_t) z;
  walk_p[0] = c + 16, walk_n[0] = 16;
  walk_p[1] = c, walk_n[1] = 32;
  for (int k = 0; k < 2 + z; k++)
    total += every2 (walk_p[k], walk_n[k]);

  double local[12];
  for (long i = 0; i < 12; i++)
    local[i] = 0.5 + z;
  for (int k = 0; k < 2 + z; k++)
    ftotal += back8 (local, 12);

  printf ("%llu %g\n", (unsigned long long) total, ftotal);
  free (a);
  free (b);
  free (c);
  return 0;
}
