/* diff-prog.c - one program before and after the fix that `zeroinst
   show` advises, for `zeroinst diff` (diff_check.py builds it twice).

   counts[] holds 1..200.  Before (plain build): uint64_t, so 3 passes over
   1000 elements load 24000 bytes of which 7 per element, 21000, are
   redundant.  After (-DFIXED): uint8_t, 3000 bytes and none redundant
   (no value is 0).  The fixed build reads counts[] on another line, as a
   real fix moves code: diff must still match the site, by file, function,
   expression and call path.  */
#include <stdint.h>
#include <stdio.h>

#ifdef FIXED
typedef uint8_t count_t;
#else
typedef uint64_t count_t;
#endif

static count_t counts[1000];

int
main (void)
{
  for (int i = 0; i < 1000; i++)
    counts[i] = (count_t) (i % 200 + 1);
  uint64_t s = 0;
#ifndef FIXED
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < 1000; i++)
      s += counts[i];
#else
  for (int r = 0; r < 3; r++)
    {
      for (int i = 0; i < 1000; i++)
        s += counts[i];
    }
#endif
  printf ("%llu\n", (unsigned long long) s);
  return 0;
}
