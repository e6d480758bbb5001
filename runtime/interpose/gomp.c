/* gomp.c - GOMP_parallel, libgomp's entry for "#pragma omp parallel",
   interposed so that a region's workers have the path of the node that
   started it (contexts/contexts.c, zi_contexts_region).  */
#include <dlfcn.h>
#include <stdlib.h>
#include "interpose/interpose.h"

static void (*real_gomp_parallel) (void (*) (void *), void *, unsigned, unsigned);

/* Not inlined and not a tail call: its frame stays recognisable to the
   unwinder, which skips it by its code range.  */
__attribute__ ((visibility ("default"), noinline)) void
GOMP_parallel (void (*fn) (void *), void *data, unsigned num_threads, unsigned flags)
{
  if (!real_gomp_parallel)
    real_gomp_parallel = dlsym (RTLD_NEXT, "GOMP_parallel");
  if (!real_gomp_parallel)
    {
      zi_warn ("GOMP_parallel called but libgomp's is not found");
      abort ();
    }
  zi_contexts_region (fn, (uintptr_t) __builtin_return_address (0), real_gomp_parallel);
  real_gomp_parallel (fn, data, num_threads, flags);
  __asm__ volatile ("" ::: "memory");
}

/* The wrapper under a name of the runtime's own, by which contexts.c
   finds its code: a reference to GOMP_parallel itself would be resolved
   by libgomp.so where it comes first in a link with libzeroinst.a, and
   then this member would not be linked at all.  */
extern __typeof (GOMP_parallel) zi_gomp_parallel
    __attribute__ ((alias ("GOMP_parallel"), visibility ("hidden")));
