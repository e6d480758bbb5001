/* Tail calls: a function that ends in "return f (...)", which GCC
   compiles to a jump at -O2, is its callee's caller on the path, at the
   tail call's line, as the source reads; so is an allocation wrapper on
   its allocation path.  The tail call stays a jump: probe's frame is at
   the same address whether main calls it or tail_probe jumps to it (the
   output, which both builds must print alike, says so).  Loops run
   count () times, which GCC cannot unroll: each keeps one call site.
   zeroinst-flags: -O2 -g
   expect-total: int.elements=60 int.redundant_bytes=338 int.zero_elements=3
   (sum's line 50 elements, 273 redundant bytes, 3 zero; first_of_big 1,
   2; cmp_vals 6, 42; main's output loads keys[0..2] = 1, 2, 3: 3, 21.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOIPA __attribute__ ((noinline, noclone))

int64_t small[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };  /* 7 redundant bytes each */
int64_t big[8];        /* 1 << 40 = 0x0000010000000000: 2 redundant bytes each */
int64_t keys[3] = { 3, 1, 2 };
volatile int64_t sink;

__attribute__ ((noipa)) int count (void) { return 2; }

NOIPA int64_t
sum (const int64_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // [[load]]
  return s;
}
// expect@load: elements=50 redundant_bytes=273 zero_elements=3

/* One site, two tail-calling functions, different values: two records,
   each under its function.  via_big runs twice (a loop in main).  A
   chain: chain's tail call enters via_small, whose tail call enters sum;
   chain runs twice.  */
// expect@load: path=sum@load,via_small@tail_small,main@call_small elements=8 redundant_bytes=56 zero_elements=0
// expect@load: path=sum@load,via_big@tail_big,main@call_big elements=16 redundant_bytes=32 zero_elements=0
// expect@load: path=sum@load,via_small@tail_small,chain@tail_chain,main@call_chain elements=8 redundant_bytes=56
NOIPA int64_t
via_small (int n)
{
  sink = n;
  return sum (small, n);  // [[tail_small]]
}

NOIPA int64_t
via_big (int n)
{
  sink = n;
  return sum (big, n);  // [[tail_big]]
}

NOIPA int64_t
chain (int n)
{
  sink = n;
  return via_small (n);  // [[tail_chain]]
}

/* A tail call into the C library, which calls back a comparator that
   ends in a tail call itself: glibc's qsort of 3, 1, 2 compares (1, 2),
   (3, 1), (3, 2), 6 loads of 7 redundant bytes.  Every comparison is
   under sort_keys, also after the first comparator's tail call.  */
// expect@cmp_load: path=cmp_vals@cmp_load,cmp@tail_cmp,*,sort_keys@tail_sort,main@call_sort elements=6 redundant_bytes=42
// expect@cmp_load: elements=6
NOIPA int
cmp_vals (const int64_t *a, const int64_t *b)
{
  int64_t x = *a, y = *b;  // [[cmp_load]]
  return (x > y) - (x < y);
}

static int
cmp (const void *a, const void *b)
{
  sink = 6;
  return cmp_vals (a, b);  // [[tail_cmp]]
}

NOIPA void
sort_keys (void)
{
  sink = 0;
  qsort (keys, 3, sizeof *keys, cmp);  // [[tail_sort]]
}

/* An allocation wrapper whose calloc is a tail call: the heap object's
   path runs through it.  h = 4 int64, h[3] = 1, all read by sum: 31
   redundant bytes, 3 zero.
   expect-data: heap@alloc int path=xcalloc@alloc,main@call_alloc allocations=1 size=32 elements=4 bytes=32 redundant_bytes=31 zero_elements=3 never_loaded_bytes=0 always_zero_bytes=31 map=24z1x7z allocator=calloc */
NOIPA int64_t *
xcalloc (size_t n)
{
  sink = 4;
  return calloc (n, sizeof (int64_t));  // [[alloc]]
}

/* One call site calls through a pointer: via_small (whose tail call
   enters sum), first_of_big, chain (through via_small to sum), then
   via_small again.  first_of_big and the second via_small are entered
   with the return address the tail calls' callees were (main's), but
   neither is the callee of the tail call made last: they are main's.  */
// expect@load: path=sum@load,via_small@tail_small,main@call_ptr elements=8 redundant_bytes=56
// expect@load: path=sum@load,via_small@tail_small,chain@tail_chain,main@call_ptr elements=4 redundant_bytes=28
// expect@first_load: path=first_of_big@first_load,main@call_ptr elements=1 redundant_bytes=2
// expect@first_load: elements=1
NOIPA int64_t first_of_big (int n) { return big[0] + n; }  // [[first_load]]
typedef int64_t (*fn_t) (int);
__attribute__ ((noipa)) fn_t
pick (int k)
{
  return k == 1 ? first_of_big : k == 2 ? chain : via_small;
}

NOIPA void *probe (void) { return __builtin_frame_address (0); }
NOIPA void *
tail_probe (void)
{
  sink = 5;
  return probe ();
}

/* After a tail-calling function returns, main's later calls are main's:
   sum (small, 2) is not under chain.  */
// expect@load: path=sum@load,main@call_direct elements=2 redundant_bytes=14
// expect@load: path=sum@load,main@call_heap elements=4 redundant_bytes=31 zero_elements=3
int
main (void)
{
  int n = count ();
  for (int i = 0; i < 8; i++)
    big[i] = (int64_t) 1 << 40;
  int64_t r = via_small (8);  // [[call_small]]
  for (int k = 0; k < n; k++)
    r += via_big (8);  // [[call_big]]
  for (int k = 0; k < n; k++)
    r += chain (4);  // [[call_chain]]
  r += sum (small, 2);  // [[call_direct]]
  sort_keys ();  // [[call_sort]]
  int64_t *h = xcalloc (4);  // [[call_alloc]]
  if (!h)
    return 1;
  h[3] = 1;
  r += sum (h, 4);  // [[call_heap]]
  free (h);
  for (int k = 0; k < 2 * n; k++)
    r += pick (k) (4);  // [[call_ptr]]
  void *direct = probe ();
  void *tail = tail_probe ();
  printf ("r = %lld, keys %lld %lld %lld; tail calls are %s\n", (long long) r,
          (long long) keys[0], (long long) keys[1], (long long) keys[2],
          direct == tail ? "jumps" : "calls");
  return 0;
}
