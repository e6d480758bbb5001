/* symbols_dwarf.c - symbols.c's source of names with libdw: lines,
   inlined frames, and what DWARF says of static objects.

   For a return address RA the call instruction is at RA-1.  Its line comes
   from the unit's line program (lines.c); the DWARF scopes containing it
   (scopes.c) give the functions GCC inlined there
   (DW_TAG_inlined_subroutine, innermost first, each called from
   DW_AT_call_file:DW_AT_call_line of the next), ending with the real
   function (DW_TAG_subprogram), which names the frame.  Without debug
   information the ELF symbol table still names the function; file and
   line are then "" and 0.  One libdwfl session per process (a forked
   child starts its own).  */
#include <dwarf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include "symbols/dwarf.h"
#include "symbols/source.h"

static Dwfl *dwfl;
static pid_t session_pid;
static void descriptors_reset (void);
static char *debuginfo_path;

/* Does the ELF file open at FD have build ID BITS (LEN bytes)?  */
static int
has_build_id (int fd, const unsigned char *bits, int len)
{
  Elf *elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  const void *id;
  int same = elf && dwelf_elf_gnu_build_id (elf, &id) == len && !memcmp (id, bits, (size_t) len);
  elf_end (elf);
  return same;
}

/* A module's separate debug file: by its build ID under the debuginfo
   path (/usr/lib/debug/.build-id/), else by its .gnu_debuglink name next
   to it, in its .debug directory or under /usr/lib/debug, if the build
   IDs match.  That is libdwfl's standard search but for its last resort,
   debuginfod: that loads libdebuginfod, libcurl and a TLS stack (8 MB of
   the process's memory, more than a small program's own) and, with
   DEBUGINFOD_URLS set (Debian's login shells set it), asks a server over
   the network for every library without local debug information, at
   exit.  A module without a build ID gets the standard search, which
   does not ask debuginfod for it.  */
static int
find_debuginfo (Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
                const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
                char **debuginfo_file_name)
{
  const unsigned char *bits;
  GElf_Addr vaddr;
  int len = dwfl_module_build_id (mod, &bits, &vaddr);
  if (len <= 0)
    return dwfl_standard_find_debuginfo (mod, userdata, modname, base, file_name,
                                         debuglink_file, debuglink_crc, debuginfo_file_name);
  int fd = dwfl_build_id_find_debuginfo (mod, userdata, modname, base, file_name,
                                         debuglink_file, debuglink_crc, debuginfo_file_name);
  if (fd >= 0 || !file_name || !debuglink_file || strchr (debuglink_file, '/'))
    return fd;
  const char *slash = strrchr (file_name, '/');
  int dirlen = slash ? (int) (slash - file_name) : 0;
  static const char *const forms[] = { "%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s" };
  for (size_t k = 0; k < sizeof forms / sizeof *forms; k++)
    {
      char *path;
      if (asprintf (&path, forms[k], dirlen, file_name, debuglink_file) < 0)
        return -1;
      if (strcmp (path, file_name) && (fd = open (path, O_RDONLY | O_CLOEXEC)) >= 0)
        {
          if (has_build_id (fd, bits, len))
            {
              *debuginfo_file_name = path;
              return fd;
            }
          close (fd);
        }
      free (path);
    }
  return -1;
}

static const Dwfl_Callbacks callbacks = {
  .find_elf = dwfl_linux_proc_find_elf,
  .find_debuginfo = find_debuginfo,
  .debuginfo_path = &debuginfo_path,
};

static Dwfl *
session (void)
{
  if (dwfl && session_pid == getpid ())
    return dwfl;
  if (dwfl)
    dwfl_end (dwfl);
  zi_scopes_reset ();
  zi_lines_reset ();
  descriptors_reset ();
  dwfl = dwfl_begin (&callbacks);
  if (dwfl)
    {
      dwfl_report_begin (dwfl);
      if (dwfl_linux_proc_report (dwfl, getpid ()) != 0)
        {
          dwfl_end (dwfl);
          dwfl = NULL;
        }
      else
        dwfl_report_end (dwfl, NULL, NULL);
    }
  session_pid = getpid ();
  return dwfl;
}

void
zi_source_reset (void)
{
  if (dwfl)
    dwfl_end (dwfl);
  dwfl = NULL;
  zi_scopes_reset ();
  zi_lines_reset ();
  descriptors_reset ();
}

static const char *
die_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr;
  const char *name = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr));
  if (!name)
    name = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_MIPS_linkage_name, &attr));
  if (!name)
    name = dwarf_diename (die);
  return name;
}

struct zi_frame *
zi_source_frames (uintptr_t ra, int full, size_t *n_out)
{
  struct zi_frame *f = NULL;
  size_t n = 0, cap = 0;
  Dwarf_Addr pc = ra - 1;
  Dwfl *d = session ();
  Dwfl_Module *mod = d ? dwfl_addrmodule (d, pc) : NULL;
  /* The ELF symbol's name costs a search of the symbol table (seconds
     for a few thousand addresses in a large program): with DWARF the
     function's DIE names it.  */
  if (!full)
    {
      const char *symname = mod ? dwfl_module_addrname (mod, pc) : NULL;
      zi_frames_push (&f, &n, &cap, symname ? symname : "??", "", 0, 0);
      *n_out = n;
      return f;
    }
  Dwarf_Addr bias = 0;
  Dwarf_Die *cu = mod ? dwfl_module_addrdie (mod, pc, &bias) : NULL;
  /* The line and the files of inlined calls from lines.c; from libdw's
     tables where lines.c cannot read the line program (asking libdw for
     either builds its table of the unit's lines).  */
  const char *file = NULL;
  int line = 0;
  int own = cu && zi_line_at (cu, pc - bias, &file, &line) >= 0;
  if (!own)
    {
      Dwfl_Line *l = mod ? dwfl_module_getsrc (mod, pc) : NULL;
      if (l)
        file = dwfl_lineinfo (l, NULL, &line, NULL, NULL, NULL);
    }
  Dwarf_Die *scopes = NULL;
  int nscopes = cu ? zi_scopes_at (cu, pc - bias, &scopes) : 0;
  if (nscopes < 0)
    nscopes = dwarf_getscopes (cu, pc - bias, &scopes);
  Dwarf_Files *files = NULL;
  size_t nfiles = 0;
  if (cu && !own)
    dwarf_getsrcfiles (cu, &files, &nfiles);
  for (int i = 0; i < nscopes; i++)
    {
      int tag = dwarf_tag (&scopes[i]);
      if (tag == DW_TAG_inlined_subroutine)
        {
          zi_frames_push (&f, &n, &cap, die_name (&scopes[i]), file, (unsigned) line, 1);
          Dwarf_Attribute attr;
          Dwarf_Word w;
          if ((own || files)
              && dwarf_formudata (dwarf_attr (&scopes[i], DW_AT_call_file, &attr), &w) == 0)
            {
              if (own)
                zi_line_file (cu, w, &file);
              else
                file = dwarf_filesrc (files, w, NULL, NULL);
            }
          if (dwarf_formudata (dwarf_attr (&scopes[i], DW_AT_call_line, &attr), &w) == 0)
            line = (int) w;
        }
      else if (tag == DW_TAG_subprogram)
        {
          const char *name = die_name (&scopes[i]);
          if (!name && mod)
            name = dwfl_module_addrname (mod, pc);
          zi_frames_push (&f, &n, &cap, name ? name : "??", file, (unsigned) line, 0);
          break;
        }
    }
  free (scopes);
  if (n == 0 || f[n - 1].inlined)
    {
      const char *symname = mod ? dwfl_module_addrname (mod, pc) : NULL;
      zi_frames_push (&f, &n, &cap, symname ? symname : "??", file, (unsigned) line, 0);
    }
  *n_out = n;
  return f;
}

/* Is there a DW_TAG_common_block named NAME (N chars) under DIE (in
   subprograms and modules, a few levels down)?  */
static int
find_common_block (Dwarf_Die *die, const char *name, size_t n, int depth)
{
  Dwarf_Die child;
  if (dwarf_child (die, &child) != 0)
    return 0;
  do
    {
      int tag = dwarf_tag (&child);
      if (tag == DW_TAG_common_block)
        {
          const char *cb = dwarf_diename (&child);
          if (cb && strlen (cb) == n && !strncmp (cb, name, n))
            return 1;
        }
      else if ((tag == DW_TAG_subprogram || tag == DW_TAG_module) && depth < 4
               && find_common_block (&child, name, n, depth + 1))
        return 1;
    }
  while (dwarf_siblingof (&child, &child) == 0);
  return 0;
}

/* The DWARF of the module at ADDR in this session (*BIAS its load bias),
   or NULL.  */
static Dwarf *
dwarf_at (uintptr_t addr, Dwarf_Addr *bias)
{
  Dwfl *d = session ();
  Dwfl_Module *mod = d ? dwfl_addrmodule (d, addr) : NULL;
  return mod ? dwfl_module_getdwarf (mod, bias) : NULL;
}

static int
fortran_unit_p (Dwarf_Die *cu)
{
  int lang = dwarf_srclang (cu);
  return lang == DW_LANG_Fortran77 || lang == DW_LANG_Fortran90 || lang == DW_LANG_Fortran95
         || lang == DW_LANG_Fortran03 || lang == DW_LANG_Fortran08;
}

/* The addresses (link-time) of one module's Fortran array descriptors:
   variables at a fixed address whose type is an array with
   DW_AT_data_location (the data is elsewhere: the descriptor points to
   it).  Sorted.  */
struct descriptors {
  Dwarf *dw;
  Dwarf_Addr *addr;
  size_t n, cap;
};
static struct descriptors *desc_mods;
static size_t ndesc_mods;
static Dwfl *desc_session;

static void
collect_descriptors (Dwarf_Die *die, struct descriptors *d, int depth)
{
  Dwarf_Die child;
  if (dwarf_child (die, &child) != 0)
    return;
  do
    {
      int tag = dwarf_tag (&child);
      if (tag == DW_TAG_variable)
        {
          Dwarf_Attribute at, tat;
          Dwarf_Op *ops;
          size_t nops;
          Dwarf_Die type;
          if (!dwarf_attr (&child, DW_AT_location, &at)
              || dwarf_getlocation (&at, &ops, &nops) != 0 || nops != 1
              || ops[0].atom != DW_OP_addr
              || !dwarf_attr_integrate (&child, DW_AT_type, &tat)
              || !dwarf_formref_die (&tat, &type))
            continue;
          for (int i = 0; i < 8; i++)
            {
              int t = dwarf_tag (&type);
              if ((t != DW_TAG_typedef && t != DW_TAG_const_type && t != DW_TAG_volatile_type)
                  || !dwarf_attr (&type, DW_AT_type, &tat) || !dwarf_formref_die (&tat, &type))
                break;
            }
          if (dwarf_tag (&type) != DW_TAG_array_type || !dwarf_hasattr (&type, DW_AT_data_location))
            continue;
          if (d->n == d->cap)
            {
              size_t cap = d->cap ? 2 * d->cap : 16;
              Dwarf_Addr *a = realloc (d->addr, cap * sizeof *a);
              if (!a)
                return;
              d->addr = a;
              d->cap = cap;
            }
          d->addr[d->n++] = ops[0].number;
        }
      else if ((tag == DW_TAG_subprogram || tag == DW_TAG_module) && depth < 4)
        collect_descriptors (&child, d, depth + 1);
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

static int
addr_order (const void *a, const void *b)
{
  Dwarf_Addr x = *(const Dwarf_Addr *) a, y = *(const Dwarf_Addr *) b;
  return x < y ? -1 : x > y;
}

static void
descriptors_reset (void)
{
  for (size_t i = 0; i < ndesc_mods; i++)
    free (desc_mods[i].addr);
  free (desc_mods);
  desc_mods = NULL;
  ndesc_mods = 0;
  desc_session = NULL;
}

/* DW's descriptors, collected on the first call (per session: the
   handles are the session's; a new session, after a fork or a reset,
   may reuse their addresses, so the cache goes with the session).  */
static const struct descriptors *
descriptors_of (Dwfl *session_now, Dwarf *dw)
{
  if (desc_session != session_now)
    {
      descriptors_reset ();
      desc_session = session_now;
    }
  for (size_t i = 0; i < ndesc_mods; i++)
    if (desc_mods[i].dw == dw)
      return &desc_mods[i];
  struct descriptors *m = realloc (desc_mods, (ndesc_mods + 1) * sizeof *m);
  if (!m)
    return NULL;
  desc_mods = m;
  struct descriptors *d = &desc_mods[ndesc_mods++];
  memset (d, 0, sizeof *d);
  d->dw = dw;
  Dwarf_Off off = 0, next;
  size_t header;
  while (dwarf_nextcu (dw, off, &next, &header, NULL, NULL, NULL) == 0)
    {
      Dwarf_Die cu;
      if (dwarf_offdie (dw, off + header, &cu) && fortran_unit_p (&cu))
        collect_descriptors (&cu, d, 0);
      off = next;
    }
  if (d->n)
    qsort (d->addr, d->n, sizeof *d->addr, addr_order);
  return d;
}

int
zi_source_descriptor (uintptr_t addr)
{
  Dwarf_Addr bias;
  Dwarf *dw = dwarf_at (addr, &bias);
  const struct descriptors *ds = dw ? descriptors_of (dwfl, dw) : NULL;
  if (!ds || !ds->n)
    return 0;
  Dwarf_Addr want = addr - bias;
  return bsearch (&want, ds->addr, ds->n, sizeof *ds->addr, addr_order) != NULL;
}

int
zi_source_common_block (uintptr_t addr, const char *name, size_t len)
{
  Dwarf_Addr bias;
  Dwarf *dw = dwarf_at (addr, &bias);
  if (!dw)
    return 0;
  Dwarf_Off off = 0, next;
  size_t header;
  while (dwarf_nextcu (dw, off, &next, &header, NULL, NULL, NULL) == 0)
    {
      Dwarf_Die cu;
      if (dwarf_offdie (dw, off + header, &cu))
        {
          if (fortran_unit_p (&cu) && find_common_block (&cu, name, len, 0))
            return 1;
        }
      off = next;
    }
  return 0;
}
