/* Calling contexts: records are split by full call path, and each path's
   counts are exact.  Frames are checked by function and line ([[labels]]
   mark the lines).  -g gives the lines of call sites.
   zeroinst-flags: -O1 -g -pthread
   zeroinst-plugin-args: exclude=spawn
   expect-total: int.elements=43 int.redundant_bytes=224 int.zero_elements=0 */
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int64_t small[8];      /* 1: 7 redundant bytes each */
int64_t big[8];        /* 1 << 40 = 0x0000010000000000: 2 redundant bytes each */
volatile int64_t sink;

__attribute__ ((noinline)) int64_t
sum (const int64_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // [[load]]
  sink = s;
  return s;
}

/* One site, two paths, different values: two records.  */
// expect@load: path=sum@load,via_small@call_small,main@main_small elements=8 redundant_bytes=56 zero_elements=0 redmap=0000000x
// expect@load: path=sum@load,via_big@call_big,main@main_big elements=8 redundant_bytes=16 zero_elements=0 redmap=00x00000
__attribute__ ((noinline)) int64_t via_small (void) { int64_t r = sum (small, 8); sink = r; return r; }  // [[call_small]]
__attribute__ ((noinline)) int64_t via_big (void) { int64_t r = sum (big, 8); sink = r; return r; }  // [[call_big]]

/* Recursion: rec (5) loads vals[5..1] (7 redundant bytes each).  The first
   activation (called from main) loads vals[5]; the recursive ones share
   one folded path: (rec, its recursive call site) is an ancestor.  */
int64_t vals[6] = { 0, 1, 2, 3, 4, 5 };
__attribute__ ((noinline)) int64_t
rec (int n)
{
  if (n == 0)
    return 0;
  int64_t r = rec (n - 1);  // [[rec_call]]
  sink = r;
  return vals[n] + r;  // [[rec_load]]
}
// expect@rec_load: path=rec@rec_load,main@main_rec elements=1 redundant_bytes=7
// expect@rec_load: path=rec@rec_load,rec@rec_call,main@main_rec elements=4 redundant_bytes=28

/* Recursion through two call sites: rec2 (5) calls itself at odd_call for
   odd n and at even_call for even n, and loads vals[5..1].  The first
   activation (from main) loads vals[5]; the first recursive one (n = 4,
   from odd_call) gets a node of its own; deeper activations continue in
   that node whichever site they come through (otherwise n = 3 and n = 1
   would get an even_call node below it, and with k sites up to k! nodes
   would appear).  */
__attribute__ ((noinline, noclone)) int64_t
rec2 (int n)
{
  if (n == 0)
    return 0;
  int64_t r;
  if (n & 1)
    {
      sink = 1;
      r = rec2 (n - 1);  // [[odd_call]]
    }
  else
    {
      sink = 2;
      r = rec2 (n - 1);  // [[even_call]]
    }
  sink = r;
  return vals[n] + r;  // [[rec2_load]]
}
// expect@rec2_load: path=rec2@rec2_load,main@main_rec2 elements=1 redundant_bytes=7
// expect@rec2_load: path=rec2@rec2_load,rec2@odd_call,main@main_rec2 elements=4 redundant_bytes=28

/* A frame GCC inlined is a frame of its own, marked inlined, with the
   line it was inlined from: small[3] = 1, 7 redundant bytes.  */
static inline int64_t get_elem (const int64_t *p, int i) { return p[i]; }  // [[inl_load]]
__attribute__ ((noinline)) int64_t use_inline (int i) { return get_elem (small, i); }  // [[inl_call]]
// expect@inl_load: path=get_elem@inl_load(inlined),use_inline@inl_call,main@main_inl elements=1 redundant_bytes=7 function=get_elem

/* Two levels of inlining: every inlined frame is in the path, each with
   the line its caller called it from (small[3] = 1, 7 redundant bytes).  */
static inline int64_t get2 (const int64_t *p, int i) { return p[i]; }  // [[inl2_load]]
static inline int64_t mid2 (const int64_t *p, int i) { return get2 (p, i + 1); }  // [[inl2_mid]]
__attribute__ ((noinline)) int64_t use_inline2 (int i) { return mid2 (small, i); }  // [[inl2_call]]
// expect@inl2_load: path=get2@inl2_load(inlined),mid2@inl2_mid(inlined),use_inline2@inl2_call,main@main_inl2 elements=1 redundant_bytes=7 function=get2

/* A comparator called back by qsort (glibc 2.36's merge sort: sorting
   1,2,3,4 compares 1-2, 3-4, 1-3, 2-3: 4 calls, 8 int32 loads, 3 redundant
   bytes each), with libc's frames between it and main (qsort tail-calls
   qsort_r, whose frame shows).  */
int32_t keys[4] = { 1, 2, 3, 4 };
static int
cmp (const void *a, const void *b)
{
  int32_t x = *(const int32_t *) a, y = *(const int32_t *) b;  // [[cmp_load]]
  return (x > y) - (x < y);
}
// expect@cmp_load: path=cmp@cmp_load,*,qsort_r:?,main@main_qsort elements=8 redundant_bytes=24

/* A thread's start routine: the path ends there.  */
static void *
worker (void *arg)
{
  sink = sum (small, 4);  // [[worker_call]]
  return arg;
}
// expect@load: path=sum@load,worker@worker_call elements=4 redundant_bytes=28

/* Not instrumented (exclude=spawn): pthread_join loads the pthread_t,
   an address whose zero bytes depend on the memory layout.  */
static __attribute__ ((noinline)) void
spawn (void)
{
  pthread_t t;
  pthread_create (&t, NULL, worker, NULL);
  pthread_join (t, NULL);
}

/* longjmp out of instrumented frames: after setjmp returns the second
   time, the context is setter's again.  */
jmp_buf jb;
__attribute__ ((noinline)) void jumper (void) { sink = sum (small, 2); longjmp (jb, 1); }  // [[jumper_call]]
__attribute__ ((noinline)) int64_t
setter (void)
{
  if (setjmp (jb) == 0)
    jumper ();  // [[setter_jump]]
  return sum (big, 1);  // [[after_longjmp]]
}
// expect@load: path=sum@load,jumper@jumper_call,setter@setter_jump,main@main_setter elements=2 redundant_bytes=14
// expect@load: path=sum@load,setter@after_longjmp,main@main_setter elements=1 redundant_bytes=2

int
main (void)
{
  for (int i = 0; i < 8; i++)
    {
      small[i] = 1;
      big[i] = (int64_t) 1 << 40;
    }
  printf ("%lld\n", (long long) via_small ());  // [[main_small]]
  printf ("%lld\n", (long long) via_big ());  // [[main_big]]
  printf ("%lld\n", (long long) rec (5));  // [[main_rec]]
  printf ("%lld\n", (long long) rec2 (5));  // [[main_rec2]]
  printf ("%lld\n", (long long) use_inline (3));  // [[main_inl]]
  printf ("%lld\n", (long long) use_inline2 (2));  // [[main_inl2]]
  qsort (keys, 4, sizeof keys[0], cmp);  // [[main_qsort]]
  spawn ();
  printf ("%lld\n", (long long) setter ());  // [[main_setter]]
  return 0;
}
