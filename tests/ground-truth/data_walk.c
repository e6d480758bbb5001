/* Data-centric analysis of a linked structure walked by small functions:
   every node is a heap block of its own, and each field is read by a
   noinline function, so each site sees a new block at every call (the
   runtime's miss path for every node; the first site to reach a node
   looks it up, the others find it as the thread's last object).  Nodes
   alternate between two allocation paths along the first walk (the
   target of every site changes at every node), and the second walk
   visits the nodes of one path only (the target stays).
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-plugin-args: exclude=node_at
   expect-data-records: 2

   200 nodes of four uint64 fields (32 bytes): key = i; weight = 0 for
   even i, 0x0100000000000001 for odd i; next = (i + 1) % 200; skip =
   (i + 2) % 200 for even i, never read for odd i.  Even nodes come from
   alloc_even, odd ones from alloc_odd.  Walk 1 (two rounds) reads key,
   weight and next of every node; walk 2 (three rounds) reads key and skip
   of the even nodes.  node_at reads the static array of node addresses
   (not instrumented: addresses are not the point here).

   alloc_even (100 nodes), per round of walk 1: key 1 zero (i = 0) + 99
   with 7 redundant bytes = 701 redundant; weight 100 zero elements (800);
   next (odd 1..199) 700.  Per round of walk 2: key 701, skip 99 * 7 + 8
   (i = 198: 0) = 701, 1 zero.  Two rounds and three rounds:
   elements 2 * 300 + 3 * 200 = 1200, redundant 2 * 2201 + 3 * 1402 = 8608,
   zero 2 * 101 + 3 * 2 = 208.  Map: key 1x7z, weight 8z, next 1x7z,
   skip 1x7z.  Always zero per node: key 7 (node 0: 8), weight 8, next 7,
   skip 7 (node 198: 8): 29 * 100 + 2 = 2902.

   alloc_odd (100 nodes), per round of walk 1: key (odd) 700; weight
   0x0100000000000001 0 (its zero bytes are not leading); next (even,
   node 199: 0) 99 * 7 + 8 = 701, 1 zero.  Two rounds: elements 600,
   redundant 2802, zero 2.  Map: key 1x7z, weight 1x6z1x, next 1x7z, skip
   never loaded 8n.  Always zero per node: 7 + 6 + 7 (node 199: 8):
   2001; never loaded 8 per node: 800.
   expect-data: heap@alloc_even int path=fresh@alloc_even,main@call_fresh allocations=100 size=3200 elements=1200 bytes=9600 redundant_bytes=8608 zero_elements=208 never_loaded_bytes=0 always_zero_bytes=2902 map=1x15z1x7z1x7z allocator=malloc
   expect-data: heap@alloc_odd int path=fresh@alloc_odd,main@call_fresh allocations=100 size=3200 elements=600 bytes=4800 redundant_bytes=2802 zero_elements=2 never_loaded_bytes=800 always_zero_bytes=2001 map=1x7z1x6z2x7z8n allocator=malloc
   expect-data-total: heap.int.elements=1800 heap.int.bytes=14400 heap.int.redundant_bytes=11410 heap.int.zero_elements=210
   expect-data-total: heap.float.elements=0 static.int.elements=0 stack.int.elements=0 unknown.int.elements=0
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 200

struct node {
  uint64_t key, weight, next, skip;
};

static struct node *pool[N];

__attribute__ ((noinline)) struct node *
node_at (uint64_t i)
{
  return pool[i];
}

__attribute__ ((noinline)) uint64_t key_of (const struct node *n) { return n->key; }
__attribute__ ((noinline)) uint64_t weight_of (const struct node *n) { return n->weight; }
__attribute__ ((noinline)) uint64_t next_of (const struct node *n) { return n->next; }
__attribute__ ((noinline)) uint64_t skip_of (const struct node *n) { return n->skip; }

__attribute__ ((noinline)) struct node *
fresh (uint64_t i)
{
  struct node *n;
  if (i % 2 == 0)
    n = malloc (sizeof *n);  // [[alloc_even]]
  else
    n = malloc (sizeof *n);  // [[alloc_odd]]
  if (!n)
    exit (1);
  n->key = i;
  n->weight = i % 2 ? 0x0100000000000001ull : 0;
  n->next = (i + 1) % N;
  n->skip = (i + 2) % N;
  return n;
}

int
main (void)
{
  for (uint64_t i = 0; i < N; i++)
    pool[i] = fresh (i);  // [[call_fresh]]
  uint64_t s = 0;
  for (int round = 0; round < 2; round++)
    {
      uint64_t i = 0;
      do
        {
          struct node *n = node_at (i);
          s = s * 31 + key_of (n) * 3 + weight_of (n);
          i = next_of (n);
        }
      while (i != 0);
    }
  for (int round = 0; round < 3; round++)
    {
      uint64_t i = 0;
      do
        {
          struct node *n = node_at (i);
          s = s * 31 + key_of (n);
          i = skip_of (n);
        }
      while (i != 0);
    }
  printf ("%llu\n", (unsigned long long) s);
  return 0;
}
