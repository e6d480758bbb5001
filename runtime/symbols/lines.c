/* lines.c - the source line of a code address and the file names of a
   compilation unit, for symbols_dwarf.c.

   libdw answers dwfl_module_getsrc, and dwarf_getsrcfiles (the files of
   inlined calls), from a unit's whole table of lines, which it builds on
   first use: a list node per row, then a sort.  sqlite3's amalgamation is
   one unit of 350,000 rows, and building its table took 32 to 47 ms of a
   report that symbolizes 2,000 return addresses, a fifth of the report.
   Here the unit's line program is run straight from .debug_line into an
   array of 16-byte rows, and whole sequences are put in address order (a
   unit has few: .text, .text.unlikely, .text.startup): about 10 ms.

   The answers are libdw's, by construction and by test
   (tests/analysis/lines_diff.c compares every row address and every file
   of real binaries): rows in address order, at one address the ends of
   sequences first, then program order, and the last row made an end; the
   row for PC is the last one at or below it, none if that is an end.  A
   file name is its directory, "/" and its name, unless the name is
   absolute or the directory unknown; DWARF 2 to 4 number directories
   from the unit's DW_AT_comp_dir and files from 1 (0 is "???").  A line
   program this does not read as libdw does (another version or address
   size, VLIW operation indices, operations libdw reads whatever their
   length says, an unknown form, overlapping sequences, rows past the last
   end, a file number past the table or a value past libdw's fields, a
   .zdebug section first or one libdw has not expanded) makes zi_line_at
   and zi_line_file return -1, and symbols_dwarf.c asks libdw.  */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <gelf.h>
#include "symbols/dwarf.h"

#define END_OF_SEQUENCE UINT32_MAX   /* a row's file: it ends a sequence */

struct row {
  uintptr_t addr;            /* first: zi_count_at_or_below */
  uint32_t line;
  uint32_t file;             /* index into the unit's files, or END_OF_SEQUENCE */
};

/* One line program's rows in address order and its file names; n == 0
   with ok == 0: it could not be read.  */
struct unit_lines {
  struct zi_unit_key key;
  int ok;
  struct row *rows;
  size_t n;
  char **files;
  size_t nfiles;
};

static struct zi_units units;

/* A section's bytes, by name, or NULL.  */
static const unsigned char *
section (Dwarf *dbg, const char *name, size_t *size)
{
  Elf *elf = dwarf_getelf (dbg);
  size_t shstrndx;
  if (!elf || elf_getshdrstrndx (elf, &shstrndx) != 0)
    return NULL;
  for (Elf_Scn *scn = NULL; (scn = elf_nextscn (elf, scn));)
    {
      GElf_Shdr shdr;
      const char *n = gelf_getshdr (scn, &shdr) ? elf_strptr (elf, shstrndx, shdr.sh_name) : NULL;
      if (n && n[0] == '.' && n[1] == 'z' && !strcmp (n + 2, name + 1))
        return NULL;         /* libdw takes the first of .zdebug_X and .debug_X */
      if (!n || strcmp (n, name) != 0)
        continue;
      /* libdw decompresses the sections it reads; one still compressed
         is not read here.  */
      if (shdr.sh_flags & SHF_COMPRESSED || shdr.sh_type == SHT_NOBITS)
        return NULL;
      Elf_Data *d = elf_getdata (scn, NULL);
      if (!d || !d->d_buf)
        return NULL;
      *size = d->d_size;
      return d->d_buf;
    }
  return NULL;
}

/* A reader of [p, end): every read checks the end; once past it, the
   reader is bad and reads give 0.  */
struct reader {
  const unsigned char *p, *end;
  int bad;
};

static uint64_t
fixed (struct reader *r, size_t n)
{
  if (r->bad || (size_t) (r->end - r->p) < n)
    {
      r->bad = 1;
      return 0;
    }
  uint64_t v = 0;
  memcpy (&v, r->p, n);      /* the running program's byte order: little-endian targets */
  r->p += n;
  return v;
}

/* LEB128 numbers of at most 9 bytes (63 bits), where every reader
   agrees; longer ones make the reader bad (libdw clamps them).  */
#define LEB_MAX_BYTES 9

/* A LEB128 number; sign-extended if SIGN.  */
static inline uint64_t
leb (struct reader *r, int sign)
{
  uint64_t v = 0;
  for (unsigned i = 0; i < LEB_MAX_BYTES && !r->bad && r->p < r->end; i++)
    {
      unsigned char b = *r->p++;
      v |= (uint64_t) (b & 0x7f) << (7 * i);
      if (!(b & 0x80))
        {
          if (sign && (b & 0x40))
            v |= ~(uint64_t) 0 << (7 * (i + 1));
          return v;
        }
    }
  r->bad = 1;
  return 0;
}

static uint64_t
uleb (struct reader *r)
{
  return leb (r, 0);
}

static int64_t
sleb (struct reader *r)
{
  return (int64_t) leb (r, 1);
}

static const char *
cstring (struct reader *r)
{
  const unsigned char *s = r->p;
  while (r->p < r->end && *r->p)
    r->p++;
  if (r->p >= r->end)
    {
      r->bad = 1;
      return NULL;
    }
  r->p++;
  return (const char *) s;
}

/* The string at OFF of a string section, or NULL.  */
static const char *
string_at (const unsigned char *sec, size_t size, uint64_t off)
{
  if (!sec || off >= size || !memchr (sec + off, 0, size - off))
    return NULL;
  return (const char *) sec + off;
}

/* What DWARF 5's entry formats describe: a directory or file entry.  */
struct entry {
  const char *path;
  uint64_t dir;
};

struct strings {
  const unsigned char *line_str, *str;
  size_t line_str_size, str_size;
  int offset_size;
};

/* Read the DWARF 5 entries of R (format count, formats, count, entries)
   into a new array of *N, or NULL with *N = 0 (*N = 0 and R good: none).  */
static struct entry *
entries (struct reader *r, const struct strings *s, int files, size_t *n)
{
  *n = 0;
  unsigned nformats = (unsigned) fixed (r, 1);
  uint16_t format[2 * 255];  /* libdw keeps content types and forms in 16 bits */
  int has_path = 0, has_dir = 0;
  for (unsigned i = 0; i < nformats; i++)
    {
      format[2 * i] = (uint16_t) uleb (r);
      format[2 * i + 1] = (uint16_t) uleb (r);
      has_path |= format[2 * i] == DW_LNCT_path;
      has_dir |= format[2 * i] == DW_LNCT_directory_index;
    }
  uint64_t count = uleb (r);
  /* libdw wants a name, and for a file its directory; entries need
     formats.  */
  if ((nformats && (!has_path || (files && !has_dir))) || (!nformats && count))
    r->bad = 1;
  if (r->bad || count > (uint64_t) (r->end - r->p))
    {
      r->bad = 1;
      return NULL;
    }
  struct entry *e = calloc (count ? count : 1, sizeof *e);
  if (!e)
    {
      r->bad = 1;
      return NULL;
    }
  for (uint64_t k = 0; k < count && !r->bad; k++)
    for (unsigned i = 0; i < nformats && !r->bad; i++)
      {
        uint16_t what = format[2 * i], form = format[2 * i + 1];
        uint64_t v = 0;
        int number = 1;      /* a form dwarf_formudata reads */
        const char *str = NULL;
        switch (form)
          {
          case DW_FORM_string: str = cstring (r); break;
          case DW_FORM_line_strp:
            str = string_at (s->line_str, s->line_str_size, fixed (r, s->offset_size));
            if (!str)
              r->bad = 1;
            break;
          case DW_FORM_strp:
            str = string_at (s->str, s->str_size, fixed (r, s->offset_size));
            if (!str)
              r->bad = 1;
            break;
          case DW_FORM_udata: v = uleb (r); break;
          case DW_FORM_data1: v = fixed (r, 1); break;
          case DW_FORM_data2: v = fixed (r, 2); break;
          case DW_FORM_data4: v = fixed (r, 4); break;
          case DW_FORM_data8: v = fixed (r, 8); break;
          case DW_FORM_data16: fixed (r, 8); fixed (r, 8); number = 0; break;
          case DW_FORM_block:
            {
              uint64_t len = uleb (r);
              if (len > (uint64_t) (r->end - r->p))
                r->bad = 1;
              else
                r->p += len;
              number = 0;
              break;
            }
          default: r->bad = 1; break;     /* strx and others: not here */
          }
        if (str)
          number = 0;
        if (what == DW_LNCT_path)
          {
            if (!str)
              r->bad = 1;
            e[k].path = str;
          }
        else if (what == DW_LNCT_directory_index)
          {
            if (!number)
              r->bad = 1;    /* libdw rejects the unit */
            e[k].dir = v;
          }
      }
  if (r->bad)
    {
      free (e);
      return NULL;
    }
  *n = count;
  return e;
}

/* DIR + "/" + NAME as libdw makes it (NAME alone if absolute or DIR is
   NULL), or NULL if memory ran out.  */
static char *
file_name (const char *dir, const char *name)
{
  if (name[0] == '/' || !dir)
    return strdup (name);
  size_t a = strlen (dir), b = strlen (name);
  char *s = malloc (a + b + 2);
  if (s)
    {
      memcpy (s, dir, a);
      s[a] = '/';
      memcpy (s + a + 1, name, b + 1);
    }
  return s;
}

static void
add_row (struct unit_lines *u, size_t *cap, uintptr_t addr, uint32_t line, uint32_t file, int *bad)
{
  if (u->n == *cap)
    {
      size_t c = *cap ? 2 * *cap : 1024;
      struct row *r = realloc (u->rows, c * sizeof *r);
      if (!r)
        {
          *bad = 1;
          return;
        }
      u->rows = r;
      *cap = c;
    }
  u->rows[u->n++] = (struct row) { addr, line, file };
}

/* A sequence of rows [first, last], last its end.  */
struct sequence {
  size_t first, last;
};

static int
by_start (const void *a, const void *b, void *rows)
{
  const struct sequence *x = a, *y = b;
  const struct row *r = rows;
  if (r[x->first].addr != r[y->first].addr)
    return r[x->first].addr < r[y->first].addr ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

/* A row and its index in program order, among rows at one address.  */
struct tie {
  struct row row;
  uint32_t from;
};
#define SHORT_TIE 32

/* libdw's order at one address: ends of sequences first, then program
   order.  */
static int
by_tie (const void *a, const void *b)
{
  const struct tie *x = a, *y = b;
  int x_end = x->row.file == END_OF_SEQUENCE, y_end = y->row.file == END_OF_SEQUENCE;
  if (x_end != y_end)
    return y_end - x_end;
  return (x->from > y->from) - (x->from < y->from);
}

/* Put U's rows, made in program order, in libdw's order: by address, at
   one address the ends of sequences first, then program order.  Whole
   sequences are moved, by their first address, then the rows at each
   address put in that order; 0 (left to libdw) if sequences overlap.  */
static int
sort_rows (struct unit_lines *u)
{
  struct sequence *seq = NULL;
  size_t nseq = 0, cap = 0;
  for (size_t i = 0, first = 0; i < u->n; i++)
    if (u->rows[i].file == END_OF_SEQUENCE)
      {
        if (nseq == cap)
          {
            cap = cap ? 2 * cap : 16;
            struct sequence *s = realloc (seq, cap * sizeof *s);
            if (!s)
              {
                free (seq);
                return 0;
              }
            seq = s;
          }
        seq[nseq++] = (struct sequence) { first, i };
        first = i + 1;
      }
  /* Rows after the last end of sequence (libdw would end them itself)
     leave the unit to libdw; so do addresses going down in a sequence.  */
  int ok = !u->n || u->rows[u->n - 1].file == END_OF_SEQUENCE;
  for (size_t k = 0; k < nseq && ok; k++)
    for (size_t i = seq[k].first; i < seq[k].last && ok; i++)
      ok = u->rows[i].addr <= u->rows[i + 1].addr;
  if (nseq)
    qsort_r (seq, nseq, sizeof *seq, by_start, u->rows);
  for (size_t k = 0; k + 1 < nseq && ok; k++)
    ok = u->rows[seq[k].last].addr <= u->rows[seq[k + 1].first].addr;
  struct row *sorted = ok ? malloc ((u->n ? u->n : 1) * sizeof *sorted) : NULL;
  uint32_t *from = sorted && u->n <= UINT32_MAX ? malloc ((u->n ? u->n : 1) * sizeof *from) : NULL;
  if (from)
    {
      size_t n = 0;
      for (size_t k = 0; k < nseq; k++)
        for (size_t i = seq[k].first; i <= seq[k].last; i++, n++)
          {
            sorted[n] = u->rows[i];
            from[n] = (uint32_t) i;
          }
      /* Rows at one address (a sequence's last rows and its end, the next
         one's first rows, rows of views): ends first, then in program
         order; by insertion, or through a sort for many rows (made-up
         programs can put 100,000 rows at one address).  */
      for (size_t i = 0, j; i < n && from; i = j)
        {
          for (j = i + 1; j < n && sorted[j].addr == sorted[i].addr; j++)
            ;
          if (j - i > SHORT_TIE)
            {
              struct tie *t = malloc ((j - i) * sizeof *t);
              if (!t)
                {
                  free (from);       /* out of memory: left to libdw */
                  from = NULL;
                  break;
                }
              for (size_t k = i; k < j; k++)
                t[k - i] = (struct tie) { sorted[k], from[k] };
              qsort (t, j - i, sizeof *t, by_tie);
              for (size_t k = i; k < j; k++)
                sorted[k] = t[k - i].row;
              free (t);
              continue;
            }
          for (size_t k = i + 1; k < j; k++)
            {
              struct tie x = { sorted[k], from[k] };
              size_t at = k;
              for (; at > i && by_tie (&(struct tie) { sorted[at - 1], from[at - 1] }, &x) > 0; at--)
                {
                  sorted[at] = sorted[at - 1];
                  from[at] = from[at - 1];
                }
              sorted[at] = x.row;
              from[at] = x.from;
            }
        }
      /* libdw makes the last row an end of sequence, whatever it was.  */
      if (n)
        sorted[n - 1].file = END_OF_SEQUENCE;
      free (u->rows);
      u->rows = sorted;
      u->n = n;
    }
  else
    free (sorted);
  free (from);
  free (seq);
  return from != NULL;
}

/* Run the line program at OFF of .debug_line for unit U (CU's DIE).  */
static int
read_unit (struct unit_lines *u, Dwarf_Die *cu, uint64_t off)
{
  size_t size;
  const unsigned char *sec = section (u->key.dbg, ".debug_line", &size);
  if (!sec || off >= size)
    return 0;
  struct strings s = { .offset_size = 4 };
  s.line_str = section (u->key.dbg, ".debug_line_str", &s.line_str_size);
  s.str = section (u->key.dbg, ".debug_str", &s.str_size);
  struct reader r = { sec + off, sec + size, 0 };
  uint64_t length = fixed (&r, 4);
  if (length == 0xffffffffu)
    {
      length = fixed (&r, 8);
      s.offset_size = 8;
    }
  if (r.bad || length > (uint64_t) (r.end - r.p))
    return 0;
  r.end = r.p + length;
  unsigned version = (unsigned) fixed (&r, 2);
  uint8_t unit_address_size;
  if (version < 2 || version > 5
      || dwarf_cu_info (cu->cu, NULL, NULL, NULL, NULL, NULL, &unit_address_size, NULL) != 0
      || unit_address_size != sizeof (void *))
    return 0;                /* libdw reads addresses of the unit's size */
  if (version >= 5)
    {
      unsigned address_size = (unsigned) fixed (&r, 1);
      unsigned segment_size = (unsigned) fixed (&r, 1);
      if (address_size != sizeof (void *) || segment_size != 0)
        return 0;
    }
  uint64_t header_length = fixed (&r, (size_t) s.offset_size);
  if (r.bad || header_length > (uint64_t) (r.end - r.p))
    return 0;
  const unsigned char *program = r.p + header_length;
  unsigned min_inst = (unsigned) fixed (&r, 1);
  unsigned max_ops = version >= 4 ? (unsigned) fixed (&r, 1) : 1;
  uint8_t default_is_stmt = (uint8_t) fixed (&r, 1);   /* every row counts, as in libdw's table */
  int line_base = (int) (signed char) fixed (&r, 1);
  unsigned line_range = (unsigned) fixed (&r, 1);
  unsigned opcode_base = (unsigned) fixed (&r, 1);
  /* Below 5, libdw reads the operand count of DW_LNE_set_discriminator
     from outside the table.  */
  if (r.bad || max_ops != 1 || line_range == 0 || opcode_base < 5)
    return 0;
  /* The operands of the standard opcodes: libdw rejects other counts
     for those it knows.  */
  static const unsigned char standard[] = { 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
  unsigned char std_len[256] = { 0 };
  for (unsigned i = 1; i < opcode_base; i++)
    {
      std_len[i] = (unsigned char) fixed (&r, 1);
      if (i < sizeof standard && std_len[i] != standard[i])
        return 0;
    }
  /* Directories and files.  */
  const char **dirs = NULL;
  size_t ndirs = 0;
  int ok = 0;
  Dwarf_Attribute attr;
  const char *comp_dir = dwarf_formstring (dwarf_attr (cu, DW_AT_comp_dir, &attr));
  if (version < 5)
    {
      size_t cap = 16;
      dirs = malloc (cap * sizeof *dirs);
      if (!dirs)
        return 0;
      dirs[ndirs++] = comp_dir;
      for (const char *d; (d = cstring (&r)) && *d;)
        {
          if (ndirs == cap)
            {
              const char **t = realloc (dirs, 2 * cap * sizeof *t);
              if (!t)
                goto out;
              dirs = t;
              cap *= 2;
            }
          dirs[ndirs++] = d;
        }
      size_t fcap = 16;
      if (r.bad || !(u->files = malloc (fcap * sizeof *u->files)))
        goto out;
      if (!(u->files[u->nfiles++] = strdup ("???")))
        goto out;
      for (const char *name; (name = cstring (&r)) && *name;)
        {
          uint64_t dir = uleb (&r);
          uleb (&r);         /* modification time */
          uleb (&r);         /* length */
          if (r.bad || dir >= ndirs)
            goto out;
          if (u->nfiles == fcap)
            {
              char **t = realloc (u->files, 2 * fcap * sizeof *t);
              if (!t)
                goto out;
              u->files = t;
              fcap *= 2;
            }
          if (!(u->files[u->nfiles] = file_name (dirs[dir], name)))
            goto out;
          u->nfiles++;
        }
    }
  else
    {
      struct entry *d = entries (&r, &s, 0, &ndirs);
      if (r.bad)
        goto out;
      if (!(dirs = malloc ((ndirs ? ndirs : 1) * sizeof *dirs)))
        {
          free (d);
          goto out;
        }
      for (size_t i = 0; i < ndirs; i++)
        dirs[i] = d[i].path;
      free (d);
      size_t nf;
      struct entry *f = entries (&r, &s, 1, &nf);
      if (r.bad || !nf || !(u->files = calloc (nf, sizeof *u->files)))
        {
          free (f);
          goto out;
        }
      for (size_t i = 0; i < nf; i++, u->nfiles++)
        if (f[i].dir >= ndirs || !(u->files[i] = file_name (dirs[f[i].dir], f[i].path)))
          {
            free (f);
            goto out;
          }
      free (f);
    }
  if (r.bad || r.p != program)
    goto out;                /* libdw rejects a header of another length */
  /* The program, its registers as wide as libdw's: a row whose values
     libdw's fields cannot hold makes libdw reject the unit.  */
  r.p = program;
  size_t cap = 0;
  int bad = 0;
  uintptr_t addr = 0;
  int64_t line = 1;
  uint32_t file = 1, column = 0, isa = 0, discriminator = 0;
  uint8_t is_stmt = default_is_stmt;
#define ROW(end)                                                                        \
  do                                                                                    \
    {                                                                                   \
      add_row (u, &cap, addr, (uint32_t) line, (end) ? END_OF_SEQUENCE : file, &bad);   \
      bad |= line < INT32_MIN || line > INT32_MAX || column > 0xffff || isa > 0xff      \
             || discriminator > 0xffffff || is_stmt > 1 || file >= u->nfiles;           \
      discriminator = 0;                                                                \
    }                                                                                   \
  while (0)
  while (r.p < r.end && !r.bad && !bad)
    {
      unsigned op = (unsigned) fixed (&r, 1);
      if (op >= opcode_base)
        {
          unsigned adjusted = op - opcode_base;
          line += line_base + (int) (adjusted % line_range);
          addr += (uint32_t) (min_inst * (adjusted / line_range));
          ROW (0);
          continue;
        }
      switch (op)
        {
        case 0:
          {
            /* libdw reads the length as one byte, and uses it only to
               skip the operations it does not know.  */
            uint64_t len = fixed (&r, 1);
            if (r.bad || len == 0 || len > (uint64_t) (r.end - r.p))
              {
                bad = 1;
                break;
              }
            const unsigned char *next = r.p + len;
            unsigned sub = (unsigned) fixed (&r, 1);
            if (sub == DW_LNE_end_sequence)
              {
                ROW (1);
                addr = 0;
                line = 1;
                file = 1;
                column = isa = discriminator = 0;
                is_stmt = default_is_stmt;
              }
            else if (sub == DW_LNE_set_address)
              addr = fixed (&r, sizeof (void *));
            else if (sub == DW_LNE_set_discriminator)
              discriminator = (uint32_t) uleb (&r);
            else if (sub == DW_LNE_define_file || sub == DW_LNE_NVIDIA_inlined_call
                     || sub == DW_LNE_NVIDIA_set_function_name)
              bad = 1;       /* libdw reads these with no regard to LEN */
            else
              r.p = next;
            bad |= r.p != next;
            break;
          }
        case DW_LNS_copy: ROW (0); break;
        case DW_LNS_advance_pc: addr += (uint32_t) (min_inst * (uint32_t) uleb (&r)); break;
        case DW_LNS_advance_line: line += (int32_t) (uint32_t) sleb (&r); break;
        case DW_LNS_set_file: file = (uint32_t) uleb (&r); break;
        case DW_LNS_set_column: column = (uint32_t) uleb (&r); break;
        case DW_LNS_negate_stmt: is_stmt = (uint8_t) (1 - is_stmt); break;
        case DW_LNS_const_add_pc: addr += (uint32_t) (min_inst * ((255 - opcode_base) / line_range)); break;
        case DW_LNS_fixed_advance_pc: addr += fixed (&r, 2); break;
        case DW_LNS_set_isa: isa = (uint32_t) uleb (&r); break;
        default:
          /* set_basic_block, prologue_end, epilogue_begin (none), and
             the unknown ones: skip their operands.  */
          for (unsigned i = 0; i < std_len[op]; i++)
            uleb (&r);
          break;
        }
    }
#undef ROW
  ok = !r.bad && !bad && sort_rows (u);
out:
  free (dirs);
  return ok;
}

/* The lines of CU's line program, read on first use; NULL if libdw
   would not read it (the offset's form) or memory ran out.  libdw takes
   the offset in DW_FORM_sec_offset, or in any constant form in a unit of
   DWARF 2 or 3, and reads each line program once, with the directory of
   the unit that asked first: so does this.  So a unit libdw reads must
   never be refused here (libdw would become the first asker): once
   found, a line program this does not read is left to libdw for every
   unit.  */
static struct unit_lines *
unit_of (Dwarf_Die *cu)
{
  Dwarf_Attribute attr;
  Dwarf_Attribute *stmt_list = dwarf_attr (cu, DW_AT_stmt_list, &attr);
  unsigned form = stmt_list ? dwarf_whatform (stmt_list) : 0;
  Dwarf_Half version;
  Dwarf_Word off;
  if (!stmt_list || dwarf_cu_info (cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) != 0
      || !(form == DW_FORM_sec_offset || version <= 3)
      || dwarf_formudata (stmt_list, &off) != 0)
    return NULL;
  int fresh;
  struct zi_unit_key key = { dwarf_cu_getdwarf (cu->cu), off };
  struct unit_lines *u = zi_units_get (&units, sizeof *u, key, &fresh);
  if (!u || !fresh)
    return u;
  u->ok = read_unit (u, cu, off);
  if (!u->ok)
    {
      free (u->rows);
      u->rows = NULL;
      u->n = 0;
    }
  return u;
}

int
zi_line_at (Dwarf_Die *cu, Dwarf_Addr pc, const char **file, int *line)
{
  struct unit_lines *u = unit_of (cu);
  if (!u || !u->ok)
    return -1;
  /* The last row at or below PC.  */
  size_t lo = zi_count_at_or_below (u->rows, u->n, sizeof *u->rows, (uintptr_t) pc);
  if (lo == 0 || u->rows[lo - 1].file == END_OF_SEQUENCE)
    return 0;
  *file = u->files[u->rows[lo - 1].file];
  *line = (int) u->rows[lo - 1].line;
  return 1;
}

int
zi_line_file (Dwarf_Die *cu, uint64_t index, const char **file)
{
  struct unit_lines *u = unit_of (cu);
  if (!u || !u->ok)
    return -1;
  *file = index < u->nfiles ? u->files[index] : NULL;
  return 1;
}

/* Forget every unit's lines (the DWARF session ends).  */
void
zi_lines_reset (void)
{
  for (size_t i = 0; i < units.n; i++)
    {
      struct unit_lines *u = zi_units_at (&units, sizeof *u, i);
      free (u->rows);
      for (size_t k = 0; k < u->nfiles; k++)
        free (u->files[k]);
      free (u->files);
    }
  zi_units_free (&units);
}
