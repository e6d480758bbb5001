/* statics.c - static data objects: the OBJECT symbols (global and static
   variables, Fortran module variables and common blocks) of the executable
   and of every shared object loaded, also later with dlopen.

   Symbols come from each file's .symtab (or .dynsym when stripped), read
   with libelf; their addresses are the symbol's value plus the module's
   load bias.  All modules' objects sit in one array sorted by address;
   aliases (one address and size under several names) keep one name, and a
   symbol inside another one's range is dropped.  A symbol becomes a
   struct zi_object (with its own group) the first time a load hits it, so
   a program with 100,000 symbols pays 40 bytes for each of them and more
   only for those it reads.

   New and unloaded modules are noticed through dl_iterate_phdr's load and
   unload counters, checked every ZI_STATICS_EVERY lookups and when an
   address is in no known object: a dlopen-ed library's objects are known
   from its first load that is looked up.
   Objects of an unloaded library keep their counts (zi_object_bury).
   Built without libelf (riscv64 on Debian 12), there are no static
   objects: their loads count as unknown memory.  */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runtime.h"
#if ZEROINST_HAVE_UNWIND
#include <gelf.h>
#endif

struct static_entry {
  uintptr_t base;
  size_t size;
  const char *symbol;
  unsigned module;
  struct zi_object *obj;     /* made on the first load */
};
struct module {
  char *path;
  uintptr_t bias;
  int present;
};
static struct static_entry *table;
static size_t ntable;
static struct module *modules;
static size_t nmodules;
static unsigned long long seen_adds, seen_subs;
/* The address range of each module's symbols, with their part of the
   sorted table: most loads that reach zi_static_at are to the heap, which
   a bisection of these few ranges rules out without a search.  */
struct span {
  uintptr_t lo, hi;
  size_t first, end;         /* table[first .. end) */
};
static struct span *spans;
static size_t nspans;
/* Changes with the spans (write lock held): a gap between them that a
   thread keeps (zi_static_at) holds while this is the same.  */
uint64_t zi_statics_gen = 1;

struct static_object {
  struct zi_object o;
  struct zi_group g;
};

#if ZEROINST_HAVE_UNWIND
static size_t table_cap;     /* entries allocated in table */

/* Add the OBJECT symbols of the ELF file PATH loaded at BIAS.  */
static void
scan_file (const char *path, uintptr_t bias, unsigned module)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  elf_version (EV_CURRENT);
  Elf *e = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
  while (e && (scn = elf_nextscn (e, scn)))
    {
      GElf_Shdr sh;
      if (!gelf_getshdr (scn, &sh))
        continue;
      if (sh.sh_type == SHT_SYMTAB)
        symtab = scn;
      else if (sh.sh_type == SHT_DYNSYM)
        dynsym = scn;
    }
  scn = symtab ? symtab : dynsym;
  GElf_Shdr sh;
  Elf_Data *data = scn && gelf_getshdr (scn, &sh) ? elf_getdata (scn, NULL) : NULL;
  size_t n = data && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
  for (size_t i = 0; i < n; i++)
    {
      GElf_Sym sym;
      if (!gelf_getsym (data, (int) i, &sym) || GELF_ST_TYPE (sym.st_info) != STT_OBJECT
          || !sym.st_size || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
        continue;
      const char *name = elf_strptr (e, sh.sh_link, sym.st_name);
      /* The plugin's descriptors (a few per load site: 52,400 of an
         instrumented sqlite3's 52,633 objects) are read by the runtime
         alone.  */
      if (!name || !*name || !strncmp (name, "__zeroinst_", 11))
        continue;
      if (ntable == table_cap)
        {
          size_t cap = table_cap ? 2 * table_cap : 1024;
          struct static_entry *t = realloc (table, cap * sizeof *t);
          if (!t)
            break;
          table = t;
          table_cap = cap;
        }
      table[ntable++] = (struct static_entry) { bias + sym.st_value, sym.st_size, strdup (name),
                                                module, NULL };
    }
  if (e)
    elf_end (e);
  close (fd);
}
#endif

static int
by_address (const void *a, const void *b)
{
  const struct static_entry *x = a, *y = b;
  if (x->base != y->base)
    return x->base < y->base ? -1 : 1;
  if (x->size != y->size)
    return x->size > y->size ? -1 : 1;    /* the enclosing one first */
  /* Aliases: a name without a leading underscore first ("environ").  */
  int ux = x->symbol[0] == '_', uy = y->symbol[0] == '_';
  if (ux != uy)
    return ux - uy;
  return strcmp (x->symbol, y->symbol);
}

/* Sort the table and drop aliases and nested symbols (keeping the objects
   already made for them, if any).  */
static void
sort_table (void)
{
  if (!table)
    return;
  qsort (table, ntable, sizeof *table, by_address);
  size_t out = 0;
  for (size_t i = 0; i < ntable; i++)
    {
      if (out && table[i].base < table[out - 1].base + table[out - 1].size)
        {
          if (table[i].obj && !table[out - 1].obj)
            table[out - 1].obj = table[i].obj;
          else if (table[i].obj)
            zi_object_bury (table[i].obj);
          continue;
        }
      table[out++] = table[i];
    }
  ntable = out;
}

/* Recompute the spans of the sorted table (write lock held): one per run
   of a module's symbols, which is one per module since modules do not
   interleave (if they did, more spans would still be right).  */
static void
make_spans (void)
{
  zi_statics_gen++;
  size_t n = 0;
  for (size_t i = 0; i < ntable; i++)
    if (!i || table[i].module != table[i - 1].module)
      n++;
  struct span *sp = n ? realloc (spans, n * sizeof *sp) : spans;
  if (n && !sp)
    {
      nspans = 0;              /* no spans: every lookup searches the table */
      return;
    }
  spans = sp;
  nspans = 0;
  for (size_t i = 0; i < ntable; i++)
    {
      if (!i || table[i].module != table[i - 1].module)
        spans[nspans++] = (struct span) { table[i].base, 0, i, i };
      struct span *last = &spans[nspans - 1];
      if (table[i].base + table[i].size > last->hi)
        last->hi = table[i].base + table[i].size;
      last->end = i + 1;
    }
}

struct scan_state {
  unsigned long long adds, subs;
  int changed;
  const char *self;          /* our own library: not scanned */
};

static int
counters_cb (struct dl_phdr_info *info, size_t size, void *arg)
{
  struct scan_state *s = arg;
  s->adds = info->dlpi_adds;
  s->subs = info->dlpi_subs;
  return 1;
}

static int
module_cb (struct dl_phdr_info *info, size_t size, void *arg)
{
  struct scan_state *s = arg;
  const char *name = info->dlpi_name;
  char exe[64];
  if (!name || !*name)
    {
      if (nmodules)             /* the program (the first, without a name): known */
        {
          modules[0].present = 1;
          return 0;
        }
      strcpy (exe, "/proc/self/exe");
      name = exe;
    }
  if (!strcmp (name, s->self) || !strncmp (name, "linux-vdso", 10) || !strncmp (name, "linux-gate", 10))
    return 0;
  for (size_t i = 0; i < nmodules; i++)
    if (modules[i].bias == info->dlpi_addr && !strcmp (modules[i].path, name) && !modules[i].present)
      {
        modules[i].present = 1;    /* known */
        return 0;
      }
  struct module *m = realloc (modules, (nmodules + 1) * sizeof *m);
  if (!m)
    return 1;
  modules = m;
  char *path = NULL;
  if (name == exe)
    {
      char buf[4096];
      ssize_t n = readlink (exe, buf, sizeof buf - 1);
      if (n > 0)
        {
          buf[n] = '\0';
          path = strdup (buf);
        }
    }
  modules[nmodules] = (struct module) { path ? path : strdup (name), info->dlpi_addr, 1 };
#if ZEROINST_HAVE_UNWIND
  scan_file (name, info->dlpi_addr, (unsigned) nmodules);
#endif
  nmodules++;
  s->changed = 1;
  return 0;
}

void
zi_statics_check (struct zi_thread *t, int force)
{
  unsigned n = ++t->lookups;
  if (force || n - t->refreshed >= ZI_STATICS_EVERY)
    {
      t->refreshed = n;
      zi_statics_refresh ();
    }
}

/* Look for loaded and unloaded modules.  Called from zi_statics_check (a
   lookup by generated code or the runtime's analysis), dlclose and
   zi_objects_init; cheap when nothing changed.
   Takes the write lock itself when something changed.  */
void
zi_statics_refresh (void)
{
  struct scan_state s = { 0, 0, 0, "" };
  dl_iterate_phdr (counters_cb, &s);
  if (__atomic_load_n (&seen_adds, __ATOMIC_ACQUIRE) == s.adds
      && __atomic_load_n (&seen_subs, __ATOMIC_ACQUIRE) == s.subs)
    return;
  /* dladdr before the lock: it takes the loader's lock, which a thread in
     dlopen holds while its malloc waits for zi_objects_lock.  */
  Dl_info self;
  s.self = dladdr ((void *) zi_statics_refresh, &self) && self.dli_fname ? self.dli_fname : "";
  int held = zi_objects_wrlock ();
  if (seen_adds != s.adds || seen_subs != s.subs)
    {
      for (size_t i = 0; i < nmodules; i++)
        modules[i].present = 0;
      dl_iterate_phdr (module_cb, &s);
      /* Unloaded modules: their objects become history.  */
      size_t out = 0;
      for (size_t i = 0; i < ntable; i++)
        {
          if (!modules[table[i].module].present)
            {
              if (table[i].obj)
                zi_object_bury (table[i].obj);
              s.changed = 1;
              continue;
            }
          table[out++] = table[i];
        }
      ntable = out;
      for (size_t i = 0; i < nmodules; i++)
        if (!modules[i].present)
          modules[i].bias = (uintptr_t) -1;   /* never matches again */
      if (s.changed)
        sort_table ();
      make_spans ();
      __atomic_store_n (&seen_adds, s.adds, __ATOMIC_RELEASE);
      __atomic_store_n (&seen_subs, s.subs, __ATOMIC_RELEASE);
    }
  zi_objects_unlock (held);
}

/* The static object holding ADDR, made on first use, and the gap ADDR
   lies in (runtime.h).  Read lock held: several threads may make the
   object at once, one wins.  */
struct zi_object *
zi_static_at (uintptr_t addr, struct zi_static_gap *gap)
{
  size_t lo = 0, hi = ntable;
  /* No spans for a non-empty table only if memory ran out: search it all.  */
  if (nspans || !ntable)
    {
      /* Spans are disjoint and sorted (from the sorted table): the last
         one starting at or below ADDR, by bisection (a program with
         twenty libraries made a linear scan a sixth of a tree walk's
         data-mode instructions).  */
      size_t a = zi_count_at_or_below (spans, nspans, sizeof *spans, addr);
      if (!a || addr >= spans[a - 1].hi)
        {
          if (gap)
            *gap = (struct zi_static_gap) { a ? spans[a - 1].hi : 0,
                                            a < nspans ? spans[a].lo : UINTPTR_MAX,
                                            zi_statics_gen };
          return NULL;
        }
      lo = spans[a - 1].first;
      hi = spans[a - 1].end;
    }
  lo += zi_count_at_or_below (table + lo, hi - lo, sizeof *table, addr);
  if (!lo || addr - table[lo - 1].base >= table[lo - 1].size)
    return NULL;
  struct static_entry *e = &table[lo - 1];
  struct zi_object *o = __atomic_load_n (&e->obj, __ATOMIC_ACQUIRE);
  if (o)
    return o;
  struct static_object *so = calloc (1, sizeof *so);
  if (!so)
    return NULL;
  so->o.base = e->base;
  so->o.size = e->size;
  so->o.group = &so->g;
  so->g.cls = ZI_CLASS_STATIC;
  so->g.symbol = e->symbol;
  so->g.module = modules[e->module].path;
  so->g.address = e->base;
  so->g.allocations = 1;
  struct zi_object *expected = NULL;
  if (!__atomic_compare_exchange_n (&e->obj, &expected, &so->o, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
    {
      free (so);
      return expected;
    }
  zi_group_publish (&so->g);
  return &so->o;
}

/* Call FN for every live static object that was loaded (read lock held).  */
void
zi_statics_each (void (*fn) (struct zi_object *, void *), void *arg)
{
  for (size_t i = 0; i < ntable; i++)
    if (table[i].obj)
      fn (table[i].obj, arg);
}
