/* Data-centric analysis of lists walked by small functions in two
   threads while a third allocates, reads and frees blocks without pause:
   every free of a block that was read starts a new generation of the
   data slots, so the walkers' lookups of their last object (made without
   the objects' lock, object_cache.c) keep meeting a changed generation.
   Counts must come out exact all the same.
   zeroinst-flags: -O1 -g -pthread
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-plugin-args: exclude=spawn_join:node_at
   expect-data-records: 2

   Each walker makes a list of 100 nodes {key = 1, next = (i + 1) % 100}
   (uint64, 16 bytes) and walks it 200 times, reading key and next through
   noinline functions.  Per round: 200 elements, key 7 redundant bytes
   each (700), next 99 * 7 + 8 (node 99: 0, a zero element) = 701.  Two
   walkers, 200 rounds: 80000 elements, 560400 redundant, 400 zero.
   Always zero per node 7 + 7 (node 99: 8): 14 * 200 + 2 = 2802.
   The churner allocates 20000 blocks {1, 0} of 16 bytes and reads both
   fields of each before freeing it: 40000 elements, 20000 * (7 + 8) =
   300000 redundant, 20000 zero; always zero 15 per block.
   expect-data: heap@alloc_walk int path=make_list@alloc_walk,walker@call_make allocations=200 size=3200 elements=80000 bytes=640000 redundant_bytes=560400 zero_elements=400 never_loaded_bytes=0 always_zero_bytes=2802 map=1x7z1x7z allocator=malloc
   expect-data: heap@alloc_churn int path=churn_one@alloc_churn,churner@call_churn allocations=20000 size=320000 elements=40000 bytes=320000 redundant_bytes=300000 zero_elements=20000 never_loaded_bytes=0 always_zero_bytes=300000 map=1x15z allocator=malloc
   expect-data-total: heap.int.elements=120000 heap.float.elements=0 static.int.elements=0 stack.int.elements=0 unknown.int.elements=0
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100
#define ROUNDS 200
#define CHURN 20000

struct node {
  uint64_t key, next;
};

static struct node *lists[2][N];

__attribute__ ((noinline)) struct node *
node_at (int w, uint64_t i)
{
  return lists[w][i];
}

__attribute__ ((noinline)) uint64_t key_of (const struct node *n) { return n->key; }
__attribute__ ((noinline)) uint64_t next_of (const struct node *n) { return n->next; }

__attribute__ ((noinline)) void
make_list (int w)
{
  for (uint64_t i = 0; i < N; i++)
    {
      struct node *n = malloc (sizeof *n);  // [[alloc_walk]]
      if (!n)
        exit (1);
      n->key = 1;
      n->next = (i + 1) % N;
      lists[w][i] = n;
    }
}

static void *
walker (void *arg)
{
  int w = (int) (intptr_t) arg;
  make_list (w);  // [[call_make]]
  uint64_t s = 0;
  for (int round = 0; round < ROUNDS; round++)
    {
      uint64_t i = 0;
      do
        {
          struct node *n = node_at (w, i);
          s += key_of (n);
          i = next_of (n);
        }
      while (i != 0);
    }
  return (void *) (uintptr_t) s;
}

__attribute__ ((noinline)) uint64_t
churn_one (void)
{
  struct node *n = malloc (sizeof *n);  // [[alloc_churn]]
  if (!n)
    exit (1);
  n->key = 1;
  n->next = 0;
  uint64_t s = key_of (n) + next_of (n);
  free (n);
  return s;
}

static void *
churner (void *arg)
{
  (void) arg;
  uint64_t s = 0;
  for (int k = 0; k < CHURN; k++)
    s += churn_one ();  // [[call_churn]]
  return (void *) (uintptr_t) s;
}

__attribute__ ((noinline)) uint64_t
spawn_join (void)
{
  pthread_t t[3];
  pthread_create (&t[0], NULL, churner, NULL);
  pthread_create (&t[1], NULL, walker, (void *) 0);
  pthread_create (&t[2], NULL, walker, (void *) 1);
  uint64_t s = 0;
  for (int k = 0; k < 3; k++)
    {
      void *r;
      pthread_join (t[k], &r);
      s += (uint64_t) (uintptr_t) r;
    }
  return s;
}

int
main (void)
{
  printf ("%llu\n", (unsigned long long) spawn_join ());
  return 0;
}
