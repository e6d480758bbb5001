/* Heap groups named by the variable the program assigns each block to
   (plugin/allocations.cc; the data records' "variable"): a local (p), a
   member through a pointer (s->buf), a global (g_table), an array
   element in a loop (slots[i]: one group of two allocations), realloc of
   NULL (q, by the runtime's realloc), a block allocated by a wrapper
   ("return malloc (n)"), named by the wrapper's caller (w), and no name
   for a wrapper that calls another function first (logged: that one
   might allocate, and take the name).  escape_free's block never
   escapes, so GCC deletes its malloc and free: the name set for it
   must be cleared for the next allocation (logged's, unnamed).
   sum8 is reached by seven paths (the loop's two calls share one).
   Blocks of n = 8 bytes (argc = 1), each filled by fill (k non-zero
   bytes 1..k, then zeros) and read once by sum8: one uint8_t element
   per byte, a zero byte is a zero element and 1 redundant byte.
   zeroinst-flags: -O2 -g
   zeroinst-env: ZEROINST_MODE=code,data
   expect-records: 7
   expect-data-records: 7

   k: p 3, s->buf 1, g_table 2, slots[i] 4 and 4, q 5, w 6, v 7: zero
   bytes 5 + 7 + 6 + 8 + 3 + 2 + 1 = 32 of 8 * 8 = 64.
   expect-total: int.elements=64 int.bytes=64 int.redundant_bytes=32 int.zero_elements=32
   expect-total: float.elements=0
   expect-data-total: heap.int.elements=64 heap.int.bytes=64 heap.int.redundant_bytes=32 heap.int.zero_elements=32
   expect-data-total: static.int.elements=0 stack.int.elements=0 unknown.int.elements=0

   expect-data: heap@p int variable=p allocator=malloc allocations=1 size=8 elements=8 redundant_bytes=5 zero_elements=5 map=3x5z
   expect-data: heap@member int variable=s->buf allocator=calloc allocations=1 size=8 redundant_bytes=7 map=1x7z
   expect-data: heap@global int variable=g_table allocator=malloc allocations=1 size=8 redundant_bytes=6 map=2x6z
   expect-data: heap@slot int variable=slots[i] allocator=malloc allocations=2 size=16 elements=16 redundant_bytes=8 map=4x4z
   expect-data: heap@realloc int variable=q allocator=realloc allocations=1 size=8 redundant_bytes=3 map=5x3z
   expect-data: heap@wrap int variable=w allocator=malloc allocations=1 size=8 redundant_bytes=2 map=6x2z
   expect-data: heap@logged int variable=- allocator=malloc allocations=1 size=8 redundant_bytes=1 map=7x1z
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define OPAQUE __attribute__ ((noipa))

struct holder {
  uint8_t *buf;
};
uint8_t *g_table;
uint8_t *slots[2];

/* Stores only.  */
OPAQUE void
fill (uint8_t *p, int n, int k)
{
  for (int i = 0; i < n; i++)
    p[i] = i < k ? (uint8_t) (i + 1) : 0;
}

OPAQUE int
sum8 (const uint8_t *p, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=64 bytes=64 redundant_bytes=32 zero_elements=32
  return s;
}

static int
use (uint8_t *p, int n, int k)
{
  fill (p, n, k);
  return sum8 (p, n);
}

OPAQUE void *
nothing (void)
{
  return NULL;
}

OPAQUE void *
wrap (size_t n)
{
  return malloc (n);  // [[wrap]]
}

OPAQUE void
note (size_t n)
{
  (void) n;
}

OPAQUE void *
logged (size_t n)
{
  note (n);
  return malloc (n);  // [[logged]]
}

OPAQUE int
attach (struct holder *s, int n)
{
  s->buf = calloc (n, 1);  // [[member]]
  return use (s->buf, n, 1);
}

/* GCC removes the malloc and the free: t is never more than a value.  */
OPAQUE int
escape_free (int n)
{
  uint8_t *t = malloc (n);
  t[0] = (uint8_t) n;
  int v = t[0];
  free (t);
  return v;
}

int
main (int argc, char **argv)
{
  (void) argv;
  int n = argc + 7;
  struct holder h;
  uint8_t *p = malloc (n);  // [[p]]
  int r = use (p, n, 3);
  r += attach (&h, n);
  r += use (g_table = malloc (n), n, 2);  // [[global]]
  for (int i = 0; i < 2; i++)
    r += use (slots[i] = malloc (n), n, 4);  // [[slot]]
  uint8_t *q = realloc (nothing (), n);  // [[realloc]]
  r += use (q, n, 5);
  uint8_t *w = wrap (n);
  r += use (w, n, 6);
  r += escape_free (n) - n;
  uint8_t *v = logged (n);
  r += use (v, n, 7);
  printf ("%d\n", r);
  /* The others stay: freeing them would load their pointers.  */
  free (p);
  free (q);
  free (w);
  free (v);
  return 0;
}
