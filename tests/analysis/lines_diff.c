/* lines_diff.c - the source line of code addresses as runtime/symbols/lines.c
   reads it from a unit's line program, against libdw's table of the same
   unit (dwarf_getsrc_die: the answer runtime/symbols/symbols_dwarf.c would get from
   dwfl_module_getsrc), and the unit's file names (which name the files of
   inlined calls) against dwarf_getsrcfiles.

   For every row of every unit of the ELF files named in LINES_INPUTS
   (a ground-truth program built with DWARF 2, 4 and 5, with a function
   per section, with compressed debug sections, and as C++; the runtime
   and the tool of this build), the addresses just below, at and just
   after the row's address are looked up both ways, and so is every entry
   of the unit's file table and the one past it: the same answer (none,
   or the same file name and line) is required, and every unit must be
   one lines.c reads (a unit left to libdw would compare libdw with
   itself).

   With --crafted LO HI FILE..., every address in [LO, HI) of every unit
   of the files, made to trip libdw's quirks and limits
   (tests/analysis/lines_crafted.py): lines.c may then leave a unit to
   libdw, but any answer it gives must be libdw's, including "no line" and
   "no file table" where libdw rejects the unit.

   Exit status 0 when everything agrees.  */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/dwarf.h"

static const char *const inputs[] = { LINES_INPUTS };

static long bad, compared, units, rows, left_to_libdw;
static int crafted;
static Dwarf_Addr crafted_lo, crafted_hi;   /* --crafted: every address in between */

static void
compare (Dwarf_Die *cu, const char *path, Dwarf_Addr pc)
{
  Dwarf_Line *ref = dwarf_getsrc_die (cu, pc);
  const char *want_file = ref ? dwarf_linesrc (ref, NULL, NULL) : NULL;
  int want_line = 0;
  if (ref)
    dwarf_lineno (ref, &want_line);
  const char *file = NULL;
  int line = 0;
  int got = zi_line_at (cu, pc, &file, &line);
  compared++;
  if (got < 0)
    {
      left_to_libdw++;
      if (crafted)
        return;
      if (bad++ < 10)
        printf ("FAIL: %s: unit at %#llx: lines.c does not read its line program\n", path,
                (unsigned long long) dwarf_dieoffset (cu));
      return;
    }
  int same = got == (ref != NULL)
             && (!ref || (line == want_line && file && want_file && !strcmp (file, want_file)));
  if (!same && bad++ < 10)
    printf ("FAIL: %s: %#llx: lines.c %s:%d (%d), libdw %s:%d\n", path, (unsigned long long) pc,
            got > 0 ? file : "-", line, got, ref ? want_file : "-", want_line);
}

static int
check_file (const char *path)
{
  int fd = open (path, O_RDONLY);
  Dwarf *dbg = fd >= 0 ? dwarf_begin (fd, DWARF_C_READ) : NULL;
  if (!dbg)
    {
      printf ("FAIL: %s: no DWARF\n", path);
      bad++;
      if (fd >= 0)
        close (fd);
      return 0;
    }
  long before = units;
  Dwarf_Off off = 0, next;
  size_t header;
  while (dwarf_nextcu (dbg, off, &next, &header, NULL, NULL, NULL) == 0)
    {
      Dwarf_Die cu;
      Dwarf_Lines *lines;
      size_t n = 0;
      if (!dwarf_offdie (dbg, off + header, &cu))
        {
          off = next;
          continue;
        }
      int have_lines = dwarf_getsrclines (&cu, &lines, &n) == 0 && n > 0;
      if (have_lines)
        {
          units++;
          rows += (long) n;
        }
      /* The file table (inlined calls' DW_AT_call_file), one past its end
         too; where libdw has none, lines.c must have none either.  */
      Dwarf_Files *files;
      size_t nfiles = 0;
      if (dwarf_getsrcfiles (&cu, &files, &nfiles) != 0)
        files = NULL;
      for (size_t i = 0; (have_lines || crafted) && i <= (files ? nfiles : 3); i++)
        {
          const char *want = files ? dwarf_filesrc (files, i, NULL, NULL) : NULL, *got = NULL;
          int r = zi_line_file (&cu, i, &got);
          compared++;
          if (r < 0 && crafted)
            {
              left_to_libdw++;
              continue;
            }
          if ((r < 0 || (!files && r >= 0) || (want == NULL) != (got == NULL)
               || (want && strcmp (want, got)))
              && bad++ < 10)
            printf ("FAIL: %s: unit at %#llx: file %zu: lines.c %s (%d), libdw %s\n", path,
                    (unsigned long long) dwarf_dieoffset (&cu), i, got ? got : "-", r,
                    files ? want ? want : "-" : "(no table)");
        }
      if (crafted)
        for (Dwarf_Addr pc = crafted_lo; pc < crafted_hi; pc++)
          compare (&cu, path, pc);
      else
        for (size_t i = 0; have_lines && i < n; i++)
          {
            Dwarf_Addr a;
            if (dwarf_lineaddr (dwarf_onesrcline (lines, i), &a) != 0)
              continue;
            if (a > 0)
              compare (&cu, path, a - 1);
            compare (&cu, path, a);
            compare (&cu, path, a + 1);
          }
      off = next;
    }
  zi_lines_reset ();
  dwarf_end (dbg);
  close (fd);
  if (units == before && !crafted)
    {
      printf ("FAIL: %s: no unit with lines\n", path);
      bad++;
    }
  return 1;
}

int
main (int argc, char **argv)
{
  size_t nfiles = sizeof inputs / sizeof *inputs;
  if (argc > 3 && !strcmp (argv[1], "--crafted"))
    {
      crafted = 1;
      crafted_lo = strtoull (argv[2], NULL, 0);
      crafted_hi = strtoull (argv[3], NULL, 0);
      nfiles = (size_t) argc - 4;
      for (int i = 4; i < argc; i++)
        check_file (argv[i]);
    }
  else
    for (size_t i = 0; i < nfiles; i++)
      check_file (inputs[i]);
  printf ("%zu files, %ld units, %ld rows, %ld lookups compared, %ld left to libdw\n", nfiles,
          units, rows, compared - left_to_libdw, left_to_libdw);
  if (bad)
    printf ("FAIL: %ld differences\n", bad);
  return bad != 0;
}
