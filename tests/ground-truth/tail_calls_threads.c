/* Tail calls in threads that end: each worker's tree holds a tail node
   (mid's tail call to leaf).  A tail node keeps the code range of its
   callee in the place where a function's node keeps its own slots
   (runtime/contexts/contexts.h, struct zi_node); the tree is freed when the
   thread ends (contexts.c, zi_contexts_thread_ended), and that range
   must not be freed as slots.  Two workers one after the other, each
   calling mid twice: leaf loads data[1] (2) and data[2] (3), four
   elements of three redundant bytes each, under mid's tail call in each
   worker.  (main's loads of the thread handles and sink are not
   checked: the handles' values differ from run to run.)
   zeroinst-flags: -O2 -g -pthread
   data: bytes 4-11 loaded, bytes 4 and 8 non-zero.
   expect-data: static=data int size=16 elements=4 bytes=16 redundant_bytes=12 zero_elements=0 never_loaded_bytes=8 always_zero_bytes=6 map=4n1x3z1x3z4n module=inst */
#include <pthread.h>
#include <stdio.h>

int data[4] = { 1, 2, 3, 4 };
volatile int sink;

__attribute__ ((noipa)) int
leaf (int i)
{
  return data[i];  // [[load]]
}
// expect@load: path=leaf@load,mid@tail,worker@call,* elements=4 bytes=16 redundant_bytes=12 zero_elements=0

__attribute__ ((noinline, noclone)) int
mid (int i)
{
  return leaf (i + 1);  // [[tail]]
}

static void *
worker (void *arg)
{
  int s = 0;
  for (int i = 0; i < 2; i++)
    s += mid (i);  // [[call]]
  sink = s;
  return arg;
}

int
main (void)
{
  for (int k = 0; k < 2; k++)
    {
      pthread_t t;
      if (pthread_create (&t, NULL, worker, NULL) != 0 || pthread_join (t, NULL) != 0)
        return 1;
    }
  printf ("%d\n", sink);
  return 0;
}
