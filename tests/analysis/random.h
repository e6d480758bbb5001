/* random.h - the tests' pseudo-random numbers (xorshift64): the same
   sequence on every run and machine, so a failure can be replayed.  Each
   test seeds rs with its own constant.  */
#ifndef ZEROINST_TEST_RANDOM_H
#define ZEROINST_TEST_RANDOM_H
#include <stdint.h>

static uint64_t rs;

static inline uint64_t
rnd (void)
{
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return rs;
}

#endif
