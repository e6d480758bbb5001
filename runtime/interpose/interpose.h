/* interpose.h - what the runtime puts in front of other libraries'
   functions (runtime/interpose/): the malloc family, C++'s operator new
   and dlclose (allocators.c, for data/heap.c and data/statics.c), the
   exec family (exec.c: the report before the image is replaced), and
   libgomp's GOMP_parallel (gomp.c: the node a parallel region starts in,
   for contexts/contexts.c).  Each wrapper forwards to the next
   definition (RTLD_NEXT), or in libzeroinst.a to the --wrap'd one.  The
   signal functions' wrappers (sigaction, signal) are core/signals.c's,
   beside the handlers they keep in place.  Other parts call nothing
   here (contexts.c takes the GOMP_parallel wrapper's address only,
   contexts.h): the wrappers call into them, whose headers this one
   includes.  */
#ifndef ZEROINST_INTERPOSE_H
#define ZEROINST_INTERPOSE_H

#include "contexts/contexts.h"
#include "data/data.h"

#endif
