// C++ exceptions thrown through instrumented frames: after the catch, the
// context is the catching function's again.
// zeroinst-flags: -O1 -g
// expect-total: int.elements=10 int.redundant_bytes=70
#include <cstdint>
#include <cstdio>

int64_t small[8];      // 1: 7 redundant bytes each
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

__attribute__ ((noinline)) void
inner (void)
{
  sink = sum (small, 4);  // [[inner_call]]
  throw 42;
}

__attribute__ ((noinline)) void
middle (void)
{
  inner ();  // [[middle_call]]
  sink = 0;
}

__attribute__ ((noinline)) int64_t
catcher (void)
{
  try
    {
      middle ();  // [[catcher_call]]
    }
  catch (int)
    {
    }
  int64_t r = sum (small, 6);  // [[after_catch]]
  sink = r;     // (not a tail call: catcher's frame stays on the stack)
  return r;
}
// expect@load: path=sum@load,inner@inner_call,middle@middle_call,catcher@catcher_call,main@main_call elements=4 redundant_bytes=28
// expect@load: path=sum@load,catcher@after_catch,main@main_call elements=6 redundant_bytes=42

int
main ()
{
  for (int i = 0; i < 8; i++)
    small[i] = 1;
  std::printf ("%lld\n", (long long) catcher ());  // [[main_call]]
  return 0;
}
