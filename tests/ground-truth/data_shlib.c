/* Data-centric analysis across shared objects: static objects of an
   instrumented shared library linked to the program (data_shlib_lib.c,
   libzidshlib.so) and of one loaded later with dlopen (data_dlopen_lib.c,
   libzidl.so; after the other loads), read by the libraries' own code and by main through
   pointers the libraries return; a heap object allocated in the library;
   and two file-static objects named "priv", one in the program, one in
   the library, told apart by module.  With ZI_TEST_DLCLOSE=1 in the
   environment the dlopen-ed library is dlclose-d before the end: the
   report must be the same.  -O1: one scalar load per element.
   zeroinst-flags: -O1 -g
   zeroinst-env: ZEROINST_MODE=code,data
   zeroinst-lib: zidshlib data_shlib_lib.c
   zeroinst-dlopen: zidl data_dlopen_lib.c
   (lib_priv_sum's loop of 4 is unrolled: its 4 loads all read priv[i], one
   record with "copies": 4; 7 in all)
   expect-records: 7
   expect-data-records: 5

   int: lib_table 16/128/112/0, lib priv 4/16/15/3, priv 4/16/14/2 (static:
   24/160/141/5), lib heap 8/32/8/0  (elements/bytes/redundant/zero)
   float: dl_vals 32/256/224/28 (static)
   expect-total: int.elements=32 int.bytes=192 int.redundant_bytes=149 int.zero_elements=5
   expect-total: float.elements=32 float.bytes=256 float.redundant_bytes=224 float.zero_elements=28
   expect-data-total: static.int.elements=24 static.int.bytes=160 static.int.redundant_bytes=141 static.int.zero_elements=5
   expect-data-total: heap.int.elements=8 heap.int.bytes=32 heap.int.redundant_bytes=8 heap.int.zero_elements=0
   expect-data-total: static.float.elements=32 static.float.bytes=256 static.float.redundant_bytes=224 static.float.zero_elements=28
   expect-data-total: heap.float.elements=0 stack.int.elements=0 stack.float.elements=0 unknown.int.elements=0 unknown.float.elements=0

   lib_table[i] = i + 1 (i = 0..15): lib_sum (8) reads elements 0..7, main
   reads 4..11 through lib_table_ptr (): 16 elements of 7 redundant bytes
   (112); elements 0..11 loaded ("1x7z" each, always zero 12 * 7 = 84),
   12..15 never (32).
   expect-data: static=lib_table int module=libzidshlib.so size=128 elements=16 bytes=128 redundant_bytes=112 zero_elements=0 never_loaded_bytes=32 always_zero_bytes=84 map=1x7z1x7z1x7z1x7z1x7z1x7z1x7z1x7z1x7z1x7z1x7z1x7z32n
   expect@lib_sum_load: elements=8 bytes=64 redundant_bytes=56 zero_elements=0

   The library's priv = {0, 0, 0, 9}, read by lib_priv_sum: 4 + 4 + 4 + 3
   = 15 redundant, 3 zero elements; map "12z1x3z".
   expect-data: static=priv int module=libzidshlib.so size=16 elements=4 bytes=16 redundant_bytes=15 zero_elements=3 never_loaded_bytes=0 always_zero_bytes=15 map=12z1x3z
   expect@lib_priv_load: elements=4 bytes=16 redundant_bytes=15 zero_elements=3 copies=4 expr=priv[i]

   The program's priv = {1, 2, 0, 0}: 3 + 3 + 4 + 4 = 14, 2 zero elements;
   map "1x3z1x11z".
   expect-data: static=priv int module=inst size=16 elements=4 bytes=16 redundant_bytes=14 zero_elements=2 never_loaded_bytes=0 always_zero_bytes=14 map=1x3z1x11z

   lib_make (8) mallocs 32 bytes in the library, p[i] = (i + 1) << 16
   (bytes 00 00 0k 00: 1 redundant, 3 zero bytes each), read by main:
   redundant 8, always zero 24; map "2z1x", then "3z1x" seven times, "1z".
   expect-data: heap@lib_alloc int path=lib_make@lib_alloc,main@call_make allocations=1 size=32 elements=8 bytes=32 redundant_bytes=8 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=24 map=2z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x1z allocator=malloc

   dl_vals (dlopen-ed): 0.25 (0x3FD0000000000000: "6z2x") at 7, 15, 23,
   31, all others 0: dl_sum (16) reads 0..15 in the library, main reads
   16..31 through dl_ptr (): 28 zero elements (224 redundant bytes),
   always zero 224 + 4 * 6 = 248; map: 7 zero elements and 6 bytes, 2x,
   four times.
   expect-data: static=dl_vals float module=libzidl.so size=256 elements=32 bytes=256 redundant_bytes=224 zero_elements=28 never_loaded_bytes=0 always_zero_bytes=248 map=62z2x62z2x62z2x62z2x
   expect@dl_sum_load: elements=16 bytes=128 redundant_bytes=112 zero_elements=14
*/
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline))

void lib_fill (int z);
int64_t lib_sum (int n);
int64_t lib_priv_sum (void);
int64_t *lib_table_ptr (void);
int32_t *lib_make (int n, int z);

static int32_t priv[4];

NOINLINE int64_t
sum32 (const int32_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=12 bytes=48 redundant_bytes=22 zero_elements=2
  return s;
}
/* priv (4: 14 redundant, 2 zero) and the library's heap object (8: 8).  */

NOINLINE int64_t
sum64 (const int64_t *p, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=8 bytes=64 redundant_bytes=56 zero_elements=0
  return s;
}

NOINLINE double
sumd (const double *p, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += p[i];  // expect: elements=16 bytes=128 redundant_bytes=112 zero_elements=14
  return s;
}

int
main (int argc, char **argv)
{
  (void) argv;
  int z = argc - 1;  /* 0: values cannot be folded */
  lib_fill (z);
  priv[0] = 1 + z;
  priv[1] = 2 + z;

  int64_t s = lib_sum (8);
  s += sum64 (lib_table_ptr () + 4, 8);
  s += lib_priv_sum ();
  s += sum32 (priv, 4);
  int32_t *p = lib_make (8, z);  // [[call_make]]
  s += sum32 (p, 8);
  free (p);

  /* Loaded after the loads above: the heap object's lookup found its
     address between the modules' statics, a range the thread keeps
     (statics.c, zi_static_at), and the loader maps the library
     among the ranges known then.  */
  const char *path = getenv ("ZI_TEST_DLOPEN_zidl");
  if (!path)
    {
      printf ("ZI_TEST_DLOPEN_zidl not set\n");
      return 1;
    }
  void *h = dlopen (path, RTLD_NOW);
  if (!h)
    {
      printf ("dlopen failed: %s\n", dlerror ());
      return 1;
    }
  void (*dl_fill) (int) = (void (*) (int)) dlsym (h, "dl_fill");
  double (*dl_sum) (int) = (double (*) (int)) dlsym (h, "dl_sum");
  double *(*dl_ptr) (void) = (double *(*) (void)) dlsym (h, "dl_ptr");
  if (!dl_fill || !dl_sum || !dl_ptr)
    return 1;
  dl_fill (z);
  double d = dl_sum (16);
  d += sumd (dl_ptr () + 16, 16);
  /* With ZI_TEST_DLCLOSE set (variant data_shlib_dlclose) the library is
     unloaded before the report is written: the counts must not change.  */
  if (getenv ("ZI_TEST_DLCLOSE"))
    dlclose (h);
  printf ("%lld %g\n", (long long) s, d);
  return 0;
}
