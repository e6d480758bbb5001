/* Instrumented shared library linked to data_shlib.c (libzidshlib.so;
   the expectations are in data_shlib.c).  Its globals are reached by main
   only through pointers this library returns (no copy relocation: the
   objects stay in the library).  */
#include <stdint.h>
#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline))

int64_t lib_table[16];
static int32_t priv[4];

void
lib_fill (int z)
{
  for (int i = 0; i < 16; i++)
    lib_table[i] = i + 1 + z;
  priv[3] = 9 + z;
}

NOINLINE int64_t
lib_sum (int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += lib_table[i];  // [[lib_sum_load]]
  return s;
}

NOINLINE int64_t
lib_priv_sum (void)
{
  int64_t s = 0;
  for (int i = 0; i < 4; i++)
    s += priv[i];  // [[lib_priv_load]]
  return s;
}

int64_t *
lib_table_ptr (void)
{
  return lib_table;
}

int32_t *
lib_make (int n, int z)
{
  int32_t *p = malloc (n * sizeof *p);  // [[lib_alloc]]
  if (!p)
    abort ();
  for (int i = 0; i < n; i++)
    p[i] = (i + 1 + z) << 16;
  return p;
}
