/* symbols.c - return addresses to frames (function, file, line), at report
   time.  Each distinct address is symbolized once, by the source of
   names the build has (source.h): symbols_dwarf.c with libdw (lines and
   inlined frames from DWARF, names from the ELF symbol table where there
   is none), else symbols_dladdr.c (dynamic symbols only, no lines).
   C++ names are demangled when the program has libstdc++'s __cxa_demangle.
   Frames of uninstrumented code (libc, libgomp) are named only: reading
   their lines would parse the C library's debug information, if installed,
   at a cost of seconds.  */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/source.h"

struct cached {
  uintptr_t ra;
  struct zi_frame *frames;
  size_t n;
};
static struct cached *cache;
static size_t cache_mask, cache_count;

static size_t
ra_hash (uintptr_t ra)
{
  return ra * 0x9e3779b97f4a7c15ull >> 20;
}

static size_t
cached_hash (const void *e)
{
  return ra_hash (((const struct cached *) e)->ra);
}

void
zi_symbols_reset (void)
{
  zi_source_reset ();
}

/* Copy of NAME without GCC's clone suffixes; "f._omp_fn.N" becomes "f"
   with *OMP_REGION set.  C++ names are demangled, without parameters.  */
const char *
zi_clean_name (const char *name, unsigned *omp_region)
{
  static char *(*demangle) (const char *, char *, size_t *, int *);
  static int looked_up;
  if (omp_region)
    *omp_region = 0;
  if (!name)
    return "??";
  char *copy = NULL;
  if (name[0] == '_' && name[1] == 'Z')
    {
      if (!looked_up)
        {
          demangle = (char *(*) (const char *, char *, size_t *, int *)) dlsym (RTLD_DEFAULT,
                                                                                  "__cxa_demangle");
          looked_up = 1;
        }
      int status = -1;
      char *d = demangle ? demangle (name, NULL, NULL, &status) : NULL;
      if (d && status == 0)
        {
          char *paren = strchr (d, '(');
          if (paren && strncmp (d, "operator", 8) != 0 && !strstr (d, "::operator"))
            *paren = '\0';
          copy = d;
        }
    }
  if (!copy)
    copy = strdup (name);
  if (zi_cut_clone_suffixes (copy) && omp_region)
    *omp_region = 1;
  return copy;
}

void
zi_frames_push (struct zi_frame **f, size_t *n, size_t *cap, const char *name, const char *file,
                unsigned line, int inlined)
{
  if (*n == *cap)
    {
      *cap = *cap ? 2 * *cap : 4;
      *f = realloc (*f, *cap * sizeof **f);
      if (!*f)
        abort ();
    }
  unsigned omp;
  struct zi_frame *fr = &(*f)[(*n)++];
  fr->function = zi_clean_name (name, &omp);
  fr->file = strdup (file ? file : "");
  fr->line = line;
  fr->inlined = inlined;
  fr->omp_region = omp;
}

const struct zi_frame *
zi_symbolize (uintptr_t ra, int full, size_t *n)
{
  if (2 * (cache_count + 1) > (cache_mask ? cache_mask + 1 : 0))
    {
      cache = zi_open_grow (cache, &cache_mask, sizeof *cache, 256, cached_hash);
      if (!cache)
        abort ();
    }
  size_t i = ra_hash (ra) & cache_mask;
  while (cache[i].ra && cache[i].ra != ra)
    i = (i + 1) & cache_mask;
  if (!cache[i].ra)
    {
      cache[i].ra = ra;
      cache[i].frames = zi_source_frames (ra, full, &cache[i].n);
      cache_count++;
    }
  *n = cache[i].n;
  return cache[i].frames;
}

/* Is the static object SYMBOL at ADDR, of SIZE bytes, a Fortran array
   descriptor (from DWARF: -g)?  Its array's data is a heap group (named
   by the variable, allocations.cc) or another object.  gfortran's
   descriptors are 8-byte words, 48 bytes and more.  */
int
zi_is_descriptor (uintptr_t addr, const char *symbol, uint64_t size)
{
  if (size < 48 || size % 8)
    return 0;
  /* Only in a Fortran program (libgfortran's start-up entry is there),
     and only a module variable or a saved local ("x.3"): no DWARF is
     read for the C library's or a C++ program's objects.  */
  static int fortran = -1;
  if (fortran < 0)
    fortran = dlsym (RTLD_DEFAULT, "_gfortran_set_args") != NULL;
  const char *dot = strrchr (symbol, '.');
  if (!fortran
      || (!strstr (symbol, "_MOD_")
          && !(dot && dot[1] && strspn (dot + 1, "0123456789") == strlen (dot + 1))))
    return 0;
  return zi_source_descriptor (addr);
}

/* gfortran names common block /blk/ "blk_", like a C variable could be
   named: only the debug information tells them apart.  */
int
zi_is_common_block (uintptr_t addr, const char *symbol)
{
  size_t len = strlen (symbol);
  if (len < 2 || symbol[len - 1] != '_')
    return 0;
  return zi_source_common_block (addr, symbol, len - 1);
}
