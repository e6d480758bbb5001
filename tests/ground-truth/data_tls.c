/* Thread-local variables are data objects: each thread's instance is an
   object at the variable's offset in the thread's TLS block, and all
   instances of a variable are one record ("thread_local": true), its
   allocations the number of instances read and its size, counts and
   byte map those of the instances summed (the map OR-ed by offset).
   Main and two concurrent workers each fill their own tl and sum a part
   of it; then six workers one after the other do the same (the C library
   gives each the stack, and so the TLS addresses, of the one before: an
   ended thread's instances are buried before the next one's are added).
   Before thread-local variables were objects, the workers' loads were
   stack (their TLS lies in their stack mapping) and main's unknown
   memory.  spawn_join is not instrumented: pthread_join loads pthread_t
   values, which are addresses.  -O1: one scalar load per element, and
   one load of acc per call of sum (added to, stored, returned from the
   register).  sum has two calling contexts (main, worker): two code
   records per line.
   zeroinst-flags: -O1 -g -pthread
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-plugin-args: exclude=spawn_join
   expect-records: 4
   expect-data-records: 2

   tl (int32_t[64]), filled with k in elements 0..7 and 0 elsewhere, k = 1
   in main and 2, 3 in the workers.  main sums 64 elements: 8 of value k
   (3 redundant bytes each) and 56 zeros (4 each): 64/256/248/56
   (elements/bytes/redundant/zero).  A concurrent worker sums 32: 8 of k
   and 24 zeros: 32/128/120/24.  A later one (k = 4..9) sums 8, all k:
   8/32/24/0.  In all 64 + 64 + 48 = 176 elements, 704 bytes, 248 + 240
   + 144 = 632 redundant, 56 + 48 = 104 zero.
   Nine instances of 256 bytes: size 2304, allocations 9.  Never loaded:
   a concurrent worker's elements 32..63 (128 bytes), a later one's
   8..63 (224): 2 * 128 + 6 * 224 = 1600.  Always zero: main 8 * 3 + 56
   * 4 = 248, a concurrent worker 8 * 3 + 24 * 4 = 120, a later one 8 *
   3: 248 + 240 + 144 = 632.
   Map by offset: elements 0..7 "1x3z"; 8..31 zero in main and the
   concurrent workers; 32..63 zero in main, never loaded in the others:
   z over n.  So "1x3z" seven times, then 1x and 3 + 24 * 4 + 32 * 4 =
   227 z.
   expect-data: static=tl int thread_local=True module=inst size=2304 allocations=9 elements=176 bytes=704 redundant_bytes=632 zero_elements=104 never_loaded_bytes=1600 always_zero_bytes=632 map=1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x227z

   acc (int64_t, initialized to 0x100: every thread's instance starts
   from the module's TLS image) is loaded once per sum, always 0x100:
   bytes 00 01 00 00 00 00 00 00, 6 redundant (the top six), not zero.
   9 loads: 9/72/54/0.  Nine instances: size 72; always zero bytes 0 and
   2..7 of each: 63; map "1z1x6z".
   expect-data: static=acc int thread_local=True size=72 allocations=9 elements=9 bytes=72 redundant_bytes=54 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=63 map=1z1x6z

   expect-total: int.elements=185 int.bytes=776 int.redundant_bytes=686 int.zero_elements=104
   expect-data-total: static.int.elements=185 static.int.bytes=776 static.int.redundant_bytes=686 static.int.zero_elements=104
   expect-data-total: stack.int.elements=0 unknown.int.elements=0 heap.int.elements=0
*/
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__ ((noinline))

_Thread_local int32_t tl[64];
static _Thread_local int64_t acc = 0x100;

NOINLINE void
fill (int32_t k)
{
  for (int i = 0; i < 64; i++)
    tl[i] = i < 8 ? k : 0;
}

NOINLINE int64_t
sum (int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += tl[i];  // expect: elements=176 bytes=704 redundant_bytes=632 zero_elements=104
  acc += s;  // expect: elements=9 bytes=72 redundant_bytes=54 zero_elements=0
  return acc;
}

/* ARG: k + 256 * the elements to sum.  */
static void *
worker (void *arg)
{
  fill ((int32_t) ((intptr_t) arg & 255));
  return (void *) (intptr_t) sum ((int) ((intptr_t) arg >> 8));
}

/* Each worker's result is 0x100 + 8 k.  */
NOINLINE int
spawn_join (void)
{
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create (&t[i], NULL, worker, (void *) (intptr_t) (i + 2 + 32 * 256)))
      return 1;
  int bad = 0;
  for (int i = 0; i < 2; i++)
    {
      void *r;
      pthread_join (t[i], &r);
      bad |= (intptr_t) r != 0x100 + 8 * (i + 2);
    }
  for (int k = 4; k <= 9; k++)
    {
      pthread_t one;
      void *r;
      if (pthread_create (&one, NULL, worker, (void *) (intptr_t) (k + 8 * 256))
          || pthread_join (one, &r))
        return 1;
      bad |= (intptr_t) r != 0x100 + 8 * k;
    }
  return bad;
}

int
main (void)
{
  fill (1);
  int64_t r = sum (64);
  int bad = spawn_join ();
  printf ("%lld %d\n", (long long) r, bad);
  return r != 0x108 || bad;
}
