/* allocators.c - malloc and friends, interposed for data-centric analysis.

   libzeroinst.so defines malloc, free, calloc, realloc, posix_memalign,
   aligned_alloc, memalign, valloc, pvalloc and the C++ operators new and
   new[] (all eight forms), and forwards each call to the next definition
   (RTLD_NEXT: the C library's, libstdc++'s, or a malloc replacement linked
   after us), so the allocator itself is never recompiled or replaced.
   operator delete needs no wrapper: libstdc++'s calls free.  Fortran
   ALLOCATE calls malloc.

   With ZEROINST_MODE=code (the default) a wrapper is one test and a tail
   call.  In data mode each allocation becomes an object of its call path's
   group (data/heap.c), each free buries it; allocations made by the runtime
   itself, or before the runtime started, are not tracked.  A program that
   defines malloc itself keeps its own (ours is never called); its blocks
   are unknown memory.

   libzeroinst.a (ZI_WRAP_ALLOCATORS) cannot interpose: a static program
   has no dynamic linker, and a second malloc next to libc.a's is a
   duplicate definition.  There the wrappers are __wrap_malloc etc., the
   link passes -Wl,--wrap=malloc,... (the compiler wrappers do), and each
   forwards to __real_malloc etc., that is the C library's or the
   program's own malloc.  --wrap renames the references of every object
   and archive member linked, libc.a's and libstdc++.a's included, so a
   -static program's heap is tracked as with the shared runtime, except
   that operator new is not wrapped: libstdc++'s operator new calls malloc,
   so `new` blocks are "malloc" blocks whose path starts in operator new.
   In a dynamic program linked with libzeroinst.a (ZEROINST_STATIC=1) only
   the calls made by the executable's own objects are wrapped: blocks that
   shared libraries allocate are unknown memory.

   A block's group takes the name of the variable the program assigns it
   to ("p", "s->buf", Fortran's "rhs") from __zeroinst_alloc_name, which
   instrumented code sets right before the call and clears right after
   it (plugin/allocations.cc): the outermost tracking wrapper takes it
   (operator new's, not the malloc libstdc++'s operator new calls).
   posix_memalign is never named (its block is stored through a pointer)
   and takes none.

   dlclose is wrapped too (at the end).

   Bootstrap: dlsym may allocate while we look up the next malloc; those
   few allocations come from a small static arena and are never freed.  */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interpose/interpose.h"

#define RA ((uintptr_t) __builtin_return_address (0))

#ifdef ZI_WRAP_ALLOCATORS
#define ZI_ALLOC(name) __wrap_##name
extern void *__real_malloc (size_t);
extern void __real_free (void *);
extern void *__real_calloc (size_t, size_t);
extern void *__real_realloc (void *, size_t);
extern int __real_posix_memalign (void **, size_t, size_t);
extern void *__real_aligned_alloc (size_t, size_t);
extern void *__real_memalign (size_t, size_t);
extern void *__real_valloc (size_t);
extern void *__real_pvalloc (size_t);
extern int __real_dlclose (void *);
#else
#define ZI_ALLOC(name) name
#endif

static struct {
  void *(*malloc) (size_t);
  void (*free) (void *);
  void *(*calloc) (size_t, size_t);
  void *(*realloc) (void *, size_t);
  int (*posix_memalign) (void **, size_t, size_t);
  void *(*aligned_alloc) (size_t, size_t);
  void *(*memalign) (size_t, size_t);
  void *(*valloc) (size_t);
  void *(*pvalloc) (size_t);
} next
#ifdef ZI_WRAP_ALLOCATORS
  = { __real_malloc, __real_free, __real_calloc, __real_realloc, __real_posix_memalign,
      __real_aligned_alloc, __real_memalign, __real_valloc, __real_pvalloc }
#endif
  ;
static int resolving;

/* The bootstrap arena.  Each block is preceded by its size.  */
static _Alignas (16) char arena[65536];
static size_t arena_used;

static void *
arena_alloc (size_t size)
{
  size_t need = (size + 16 + 15) & ~(size_t) 15;
  size_t at = __atomic_fetch_add (&arena_used, need, __ATOMIC_RELAXED);
  if (at + need > sizeof arena)
    return NULL;
  *(size_t *) (arena + at) = size;
  return arena + at + 16;
}

static int
in_arena (const void *p)
{
  return (const char *) p >= arena && (const char *) p < arena + sizeof arena;
}

static void
resolve (void)
{
  if (__atomic_exchange_n (&resolving, 1, __ATOMIC_ACQ_REL))
    return;
#define NEXT(name) *(void **) &next.name = dlsym (RTLD_NEXT, #name)
  NEXT (free);
  NEXT (calloc);
  NEXT (realloc);
  NEXT (posix_memalign);
  NEXT (aligned_alloc);
  NEXT (memalign);
  NEXT (valloc);
  NEXT (pvalloc);
  void *m = dlsym (RTLD_NEXT, "malloc");
#undef NEXT
  __atomic_store_n ((void **) &next.malloc, m, __ATOMIC_RELEASE);
  if (!m || !next.free || !next.calloc || !next.realloc)
    {
      zi_warn ("cannot find the C library's malloc, free, calloc and realloc");
      abort ();
    }
}

static inline int
ready (void)
{
  if (__builtin_expect (__atomic_load_n ((void **) &next.malloc, __ATOMIC_ACQUIRE) != NULL, 1))
    return 1;
  resolve ();
  return __atomic_load_n ((void **) &next.malloc, __ATOMIC_ACQUIRE) != NULL;
}

/* Non-zero while a C++ operator new forwards to libstdc++'s (whose malloc
   call must not count a second time).  */
static __thread int in_operator_new __attribute__ ((tls_model ("initial-exec")));

static inline int
tracking (void)
{
  return __builtin_expect (__atomic_load_n (&zi_data_on, __ATOMIC_RELAXED), 0) && !zi_in_runtime
         && !in_operator_new;
}

ZI_EXPORT __thread const char *volatile __zeroinst_alloc_name
    __attribute__ ((tls_model ("initial-exec")));

/* The variable instrumented code named for this allocation (NULL if
   none), taken: the next allocation has its own.  */
static inline const char *
take_name (void)
{
  const char *name = __zeroinst_alloc_name;
  if (name)
    __zeroinst_alloc_name = NULL;
  return name;
}

/* The wrappers' sections never wait for a report being written in
   another thread (the C library may call malloc under its own locks, which
   the reporter may need: report/finish.c); they skip the heap's bookkeeping then
   instead, so a block allocated or freed during that time is not tracked
   (its loads count as unknown memory, or for the block it was).  */
static void
track (void *p, size_t size, uintptr_t ra, const char *allocator, const char *name)
{
  zi_enter_nowait ();
  if (!zi_reporting_elsewhere ())
    zi_heap_track (p, size, ra, allocator, name);
  zi_leave ();
}

/* CALL (the C library's allocator) as a runtime section: a signal landing
   inside it is deferred (core/signals.c) so that no handler (the runtime's,
   which writes a report, or the program's, which may call exit) runs
   while this thread holds malloc's locks.  TRACKING is decided before:
   the section itself would make tracking () false.  */
#define REAL(call)                                                         \
  ({                                                                       \
    zi_enter_nowait ();                                                    \
    __typeof__ (call) real_result_ = call;                                 \
    zi_leave ();                                                           \
    real_result_;                                                          \
  })

ZI_EXPORT void *
ZI_ALLOC (malloc) (size_t size)
{
  if (!ready ())
    return arena_alloc (size);
  int tr = tracking ();
  const char *name = tr ? take_name () : NULL;
  void *p = REAL (next.malloc (size));
  if (p && tr)
    track (p, size, RA, "malloc", name);
  return p;
}

ZI_EXPORT void
ZI_ALLOC (free) (void *p)
{
  if (!p || in_arena (p))
    return;
  if (!ready ())
    return;
  int tr = tracking ();
  zi_enter_nowait ();
  if (tr && !zi_reporting_elsewhere ())
    {
      zi_heap_untrack (p);
    }
  next.free (p);
  zi_leave ();
}

ZI_EXPORT void *
ZI_ALLOC (calloc) (size_t n, size_t size)
{
  if (!ready ())
    {
      if (size && n > (size_t) -1 / size)
        return NULL;
      void *p = arena_alloc (n * size);
      return p ? memset (p, 0, n * size) : NULL;     /* the arena is zero anyway */
    }
  int tr = tracking ();
  const char *name = tr ? take_name () : NULL;
  void *p = REAL (next.calloc (n, size));
  if (p && tr)
    track (p, n * size, RA, "calloc", name);
  return p;
}

ZI_EXPORT void *
ZI_ALLOC (realloc) (void *old, size_t size)
{
  if (old && in_arena (old))
    {
      void *p = ZI_ALLOC (malloc) (size);
      size_t was = ((size_t *) old)[-2];
      if (p)
        memcpy (p, old, was < size ? was : size);
      return p;
    }
  if (!ready ())
    return arena_alloc (size);
  if (!tracking ())
    return REAL (next.realloc (old, size));
  const char *name = take_name ();
  zi_enter_nowait ();
  if (zi_reporting_elsewhere ())
    {
      void *p = next.realloc (old, size);
      zi_leave ();
      return p;
    }
  void *p;
  if (old)
    p = zi_heap_realloc (old, size, next.realloc, RA, "realloc", name);
  else if ((p = next.realloc (old, size)))
    zi_heap_track (p, size, RA, "realloc", name);
  zi_leave ();
  return p;
}

ZI_EXPORT int
ZI_ALLOC (posix_memalign) (void **out, size_t align, size_t size)
{
  if (!ready () || !next.posix_memalign)
    return ENOMEM;
  int tr = tracking ();
  int r = REAL (next.posix_memalign (out, align, size));
  if (r == 0 && tr)
    track (*out, size, RA, "posix_memalign", NULL);
  return r;
}

/* aligned_alloc, memalign, valloc, pvalloc: the same shape.  */
#define ALIGNED(name, params, args, size)                     \
  ZI_EXPORT void *ZI_ALLOC (name) params                      \
  {                                                           \
    if (!ready () || !next.name)                              \
      {                                                       \
        errno = ENOMEM;                                       \
        return NULL;                                          \
      }                                                       \
    int tr = tracking ();                                     \
    const char *var = tr ? take_name () : NULL;               \
    void *p = REAL (next.name args);                          \
    if (p && tr)                                              \
      track (p, size, RA, #name, var);                        \
    return p;                                                 \
  }
ALIGNED (aligned_alloc, (size_t align, size_t size), (align, size), size)
ALIGNED (memalign, (size_t align, size_t size), (align, size), size)
ALIGNED (valloc, (size_t size), (size), size)
ALIGNED (pvalloc, (size_t size), (size), size)

#ifndef ZI_WRAP_ALLOCATORS
/* C++ operators new (mangled names; align_val_t is a size_t enum and
   nothrow_t an empty struct, passed by reference).  Exceptions
   (std::bad_alloc) pass through: this file is built with -fexceptions,
   and the cleanup resets in_operator_new.  */
static void
leave_operator_new (int *unused)
{
  in_operator_new--;
}

#define OPERATOR_NEW(sym, params, args, kind)                                      \
  ZI_EXPORT void *sym params                                                       \
  {                                                                                \
    static void *(*real) params;                                                   \
    const char *var = tracking () ? take_name () : NULL;                           \
    if (!real)                                                                     \
      {                                                                            \
        *(void **) &real = dlsym (RTLD_NEXT, #sym);                                \
        if (!real)                                                                 \
          {                                                                        \
            zi_warn ("cannot find the C++ library's " #sym);                       \
            abort ();                                                              \
          }                                                                        \
      }                                                                            \
    void *p;                                                                       \
    {                                                                              \
      int guard __attribute__ ((cleanup (leave_operator_new))) = in_operator_new++; \
      (void) guard;                                                                \
      p = real args;                                                               \
    }                                                                              \
    if (p && tracking ())                                                          \
      track (p, size, RA, kind, var);                                              \
    return p;                                                                      \
  }
struct zi_nothrow;
OPERATOR_NEW (_Znwm, (size_t size), (size), "new")
OPERATOR_NEW (_Znam, (size_t size), (size), "new[]")
OPERATOR_NEW (_ZnwmRKSt9nothrow_t, (size_t size, const struct zi_nothrow *nt), (size, nt), "new")
OPERATOR_NEW (_ZnamRKSt9nothrow_t, (size_t size, const struct zi_nothrow *nt), (size, nt), "new[]")
OPERATOR_NEW (_ZnwmSt11align_val_t, (size_t size, size_t align), (size, align), "new")
OPERATOR_NEW (_ZnamSt11align_val_t, (size_t size, size_t align), (size, align), "new[]")
OPERATOR_NEW (_ZnwmSt11align_val_tRKSt9nothrow_t,
              (size_t size, size_t align, const struct zi_nothrow *nt), (size, align, nt), "new")
OPERATOR_NEW (_ZnamSt11align_val_tRKSt9nothrow_t,
              (size_t size, size_t align, const struct zi_nothrow *nt), (size, align, nt), "new[]")
#endif

/* dlclose: once the library is gone, its static objects are too
   (data/statics.c buries them, and data slots that held one look again), so
   that the memory it occupied means what is mapped there next.  Counter
   and data slots keep their counts: sites' dense numbers were resolved
   when their nodes were made.  */
ZI_EXPORT int
ZI_ALLOC (dlclose) (void *handle)
{
#ifdef ZI_WRAP_ALLOCATORS
  int (*real) (void *) = __real_dlclose;
#else
  static int (*real) (void *);
  if (!real)
    *(void **) &real = dlsym (RTLD_NEXT, "dlclose");
#endif
  if (!real)
    return -1;
  if (zi_in_runtime || !zi_threads)
    return real (handle);
  int r = real (handle);
  if (zi_data_on)
    {
      zi_enter ();      /* its tables' memory is the runtime's, not the program's */
      zi_statics_refresh ();
      zi_leave ();
    }
  return r;
}
