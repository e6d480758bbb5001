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
   group (heap.c), each free buries it; allocations made by the runtime
   itself, or before the runtime started, are not tracked.  A program that
   defines malloc itself keeps its own (ours is never called); its blocks
   are unknown memory.  The static library does not contain these wrappers
   (nothing pulls this file in): statically linked programs have no heap
   objects.

   dlclose is wrapped too (at the end).

   Bootstrap: dlsym may allocate while we look up the next malloc; those
   few allocations come from a small static arena and are never freed.  */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

#define RA ((uintptr_t) __builtin_return_address (0))

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
} next;
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

static void
track (void *p, size_t size, uintptr_t ra, const char *allocator)
{
  zi_in_runtime++;
  zi_heap_track (p, size, ra, allocator);
  zi_in_runtime--;
}

/* Before a block goes away or moves: analyse what this thread loaded so
   far, while its addresses still mean the old block.  */
static void
flush_own (void)
{
  zi_flush_thread (zi_thread_self ());
}

ZI_EXPORT void *
malloc (size_t size)
{
  if (!ready ())
    return arena_alloc (size);
  void *p = next.malloc (size);
  if (p && tracking ())
    track (p, size, RA, "malloc");
  return p;
}

ZI_EXPORT void
free (void *p)
{
  if (!p || in_arena (p))
    return;
  if (!ready ())
    return;
  if (tracking ())
    {
      zi_in_runtime++;
      flush_own ();
      zi_heap_untrack (p);
      zi_in_runtime--;
    }
  next.free (p);
}

ZI_EXPORT void *
calloc (size_t n, size_t size)
{
  if (!ready ())
    {
      if (size && n > (size_t) -1 / size)
        return NULL;
      void *p = arena_alloc (n * size);
      return p ? memset (p, 0, n * size) : NULL;     /* the arena is zero anyway */
    }
  void *p = next.calloc (n, size);
  if (p && tracking ())
    track (p, n * size, RA, "calloc");
  return p;
}

ZI_EXPORT void *
realloc (void *old, size_t size)
{
  if (old && in_arena (old))
    {
      void *p = malloc (size);
      size_t was = ((size_t *) old)[-2];
      if (p)
        memcpy (p, old, was < size ? was : size);
      return p;
    }
  if (!ready ())
    return arena_alloc (size);
  if (!tracking ())
    return next.realloc (old, size);
  if (old)
    {
      zi_in_runtime++;
      flush_own ();
      zi_in_runtime--;
    }
  void *p = next.realloc (old, size);
  zi_in_runtime++;
  if (!old && p)
    zi_heap_track (p, size, RA, "realloc");
  else if (old && p)
    zi_heap_moved (old, p, size, RA, "realloc");
  else if (old && size == 0)
    zi_heap_untrack (old);     /* realloc (p, 0) freed p */
  zi_in_runtime--;
  return p;
}

ZI_EXPORT int
posix_memalign (void **out, size_t align, size_t size)
{
  if (!ready () || !next.posix_memalign)
    return ENOMEM;
  int r = next.posix_memalign (out, align, size);
  if (r == 0 && tracking ())
    track (*out, size, RA, "posix_memalign");
  return r;
}

/* aligned_alloc, memalign, valloc, pvalloc: the same shape.  */
#define ALIGNED(name, params, args, size)                     \
  ZI_EXPORT void *name params                                 \
  {                                                           \
    if (!ready () || !next.name)                              \
      {                                                       \
        errno = ENOMEM;                                       \
        return NULL;                                          \
      }                                                       \
    void *p = next.name args;                                 \
    if (p && tracking ())                                     \
      track (p, size, RA, #name);                             \
    return p;                                                 \
  }
ALIGNED (aligned_alloc, (size_t align, size_t size), (align, size), size)
ALIGNED (memalign, (size_t align, size_t size), (align, size), size)
ALIGNED (valloc, (size_t size), (size), size)
ALIGNED (pvalloc, (size_t size), (size), size)

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
      track (p, size, RA, kind);                                                   \
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

/* dlclose: the calling thread's buffered loads are analysed while the
   library is there (in any mode: they point at its site descriptors; in
   data mode at its objects too, which statics.c finds at the first
   analysis after its dlopen).  Other threads' buffered loads of its sites
   get their slots now (threads.c) and are analysed at their next flush
   through stand-in descriptors (sites.c); in data mode they count as
   unknown memory, and its objects keep what they counted.  */
struct module_range {
  uintptr_t bias, lo, hi;
  const char *name;
  int found;
};

static int
range_cb (struct dl_phdr_info *info, size_t size, void *arg)
{
  struct module_range *m = arg;
  if (info->dlpi_addr != m->bias || !info->dlpi_name || strcmp (info->dlpi_name, m->name))
    return 0;
  m->found = 1;
  m->lo = UINTPTR_MAX;
  m->hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD)
      {
        uintptr_t lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        uintptr_t hi = lo + info->dlpi_phdr[i].p_memsz;
        if (lo < m->lo)
          m->lo = lo;
        if (hi > m->hi)
          m->hi = hi;
      }
  return 1;
}

ZI_EXPORT int
dlclose (void *handle)
{
  static int (*real) (void *);
  if (!real)
    *(void **) &real = dlsym (RTLD_NEXT, "dlclose");
  if (!real)
    return -1;
  if (zi_in_runtime || !zi_threads)
    return real (handle);
  zi_in_runtime++;
  flush_own ();
  struct link_map *lm = NULL;
  struct module_range m = { 0, 0, 0, NULL, 0 };
  char name[4096] = "";
  if (dlinfo (handle, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name)
    {
      snprintf (name, sizeof name, "%s", lm->l_name);
      m.bias = lm->l_addr;
      m.name = name;
      dl_iterate_phdr (range_cb, &m);
    }
  if (m.found)
    zi_threads_resolve_range (m.lo, m.hi);
  zi_in_runtime--;
  return real (handle);
}
