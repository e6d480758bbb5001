/* source.h - what symbols.c asks of its source of names: symbols_dwarf.c
   with libdw (ZEROINST_HAVE_UNWIND), else symbols_dladdr.c.  The build
   compiles one of them (runtime/CMakeLists.txt).  */
#ifndef ZEROINST_SOURCE_H
#define ZEROINST_SOURCE_H
#include "symbols/symbols.h"

/* The frames of the call at RA - 1 in a new array (*N of them,
   innermost first); FULL: with lines and inlined frames, else the
   function's name only.  */
struct zi_frame *zi_source_frames (uintptr_t ra, int full, size_t *n) ZI_HIDDEN;
/* Forget what was read (symbols.c, zi_symbols_reset).  */
void zi_source_reset (void) ZI_HIDDEN;
/* Is the static object at ADDR a Fortran array descriptor (its type an
   array with DW_AT_data_location)?  */
int zi_source_descriptor (uintptr_t addr) ZI_HIDDEN;
/* Does the module at ADDR have a Fortran common block named NAME (LEN
   characters, not 0-terminated)?  */
int zi_source_common_block (uintptr_t addr, const char *name, size_t len) ZI_HIDDEN;

/* symbols.c: append a frame to *F (*N frames, room for *CAP), its name
   cleaned (zi_clean_name) and NAME and FILE copied.  */
void zi_frames_push (struct zi_frame **f, size_t *n, size_t *cap, const char *name,
                     const char *file, unsigned line, int inlined) ZI_HIDDEN;

#endif
