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

   Thread-local variables (STT_TLS symbols: _Thread_local, __thread,
   OpenMP and Fortran threadprivate) have one instance per thread, at the
   symbol's offset in the thread's block of its module's PT_TLS segment
   (dl_iterate_phdr's dlpi_tls_data, as seen by that thread).  A thread's
   instances join the table before its first lookup and when modules
   change (thread_tls), one entry each with the thread as owner, and
   leave it when the thread ends (buried: their counts stay) or is gone
   after a fork.  All instances of a symbol share one group (one record,
   its allocations the number of instances read), also across a module's
   unloading and loading again.  A thread's static TLS blocks lie at the
   top of its stack mapping, which its stack range (analyze_data.c) then
   stops below.  The TLS of a library loaded with dlopen is a heap block
   the loader allocates at a thread's first use of it: a lookup that
   finds such a block looks for the thread's new blocks first.
   dl_iterate_phdr is only called with no lock of the runtime's held
   (struct snapshot).

   Built without libelf (riscv64 on Debian 12), there are no static
   objects: their loads count as unknown memory.  */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "data/data.h"
#include "data/shadow.h"
#if ZEROINST_HAVE_UNWIND
#include <gelf.h>
#endif

struct static_entry {
  uintptr_t base;
  size_t size;
  const char *symbol;
  unsigned module;
  struct zi_object *obj;     /* made on the first load */
  const struct zi_thread *owner;  /* a thread-local instance: its thread */
  size_t tls;                /* then: its symbol in tls_syms */
};
/* A thread-local symbol of a module: its instances are at OFFSET in each
   thread's block of the module's TLS.  */
struct tls_symbol {
  size_t offset, size;
  const char *symbol;
  unsigned module;
  struct zi_group *group;    /* of all its instances, made on the first load */
};
static struct tls_symbol *tls_syms;
static size_t ntls, tls_cap;
/* The thread-local symbols of unloaded modules that were read: a module
   loaded again from the same file has their groups (one record per
   variable, as its sites keep theirs, core/sites.c).  */
struct retired_tls {
  const char *path, *symbol;
  struct zi_group *group;
};
static struct retired_tls *retired;
static size_t nretired;
/* Changes when a thread may have TLS blocks it has not added yet: a
   module with thread-local symbols was loaded.  (The TLS of a library
   loaded with dlopen is allocated by the loader at a thread's first use
   of it: a lookup that finds such a block looks again, analyze_data.c.)  */
static uint64_t tls_gen = 1;
/* The dynamic loader's text, where the calls of the blocks it allocates
   come from (zi_statics_loader_call); set once.  */
static uintptr_t loader_lo, loader_hi;
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

/* One more room in TABLE; 0 if memory ran out.  */
static int
table_room (void)
{
  if (ntable < table_cap)
    return 1;
  size_t cap = table_cap ? 2 * table_cap : 1024;
  struct static_entry *t = realloc (table, cap * sizeof *t);
  if (!t)
    return 0;
  table = t;
  table_cap = cap;
  return 1;
}

/* A thread-local symbol of MODULE (write lock held).  Aliases (one
   offset and size under several names: libc's errno) keep one name, as
   by_address does for statics.  */
static void
add_tls_symbol (size_t offset, size_t size, const char *name, unsigned module)
{
  for (size_t i = ntls; i-- > 0 && tls_syms[i].module == module;)
    if (tls_syms[i].offset == offset && tls_syms[i].size == size)
      {
        if (name[0] != '_' && tls_syms[i].symbol[0] == '_')
          {
            char *keep = strdup (name);
            if (keep)
              {
                free ((char *) tls_syms[i].symbol);
                tls_syms[i].symbol = keep;
              }
          }
        return;
      }
  if (ntls == tls_cap)
    {
      size_t cap = tls_cap ? 2 * tls_cap : 64;
      struct tls_symbol *t = realloc (tls_syms, cap * sizeof *t);
      if (!t)
        return;
      tls_syms = t;
      tls_cap = cap;
    }
  char *copy = strdup (name);
  if (!copy)
    return;
  struct zi_group *group = NULL;
  for (size_t i = 0; i < nretired; i++)
    if (modules[module].path && !strcmp (retired[i].symbol, name)
        && !strcmp (retired[i].path, modules[module].path))
      {
        group = retired[i].group;
        retired[i] = retired[--nretired];
        break;
      }
  tls_syms[ntls++] = (struct tls_symbol) { offset, size, copy, module, group };
}

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
      if (!gelf_getsym (data, (int) i, &sym)
          || (GELF_ST_TYPE (sym.st_info) != STT_OBJECT && GELF_ST_TYPE (sym.st_info) != STT_TLS)
          || !sym.st_size || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
        continue;
      const char *name = elf_strptr (e, sh.sh_link, sym.st_name);
      /* The plugin's descriptors (a few per load site: 52,400 of an
         instrumented sqlite3's 52,633 objects) are read by the runtime
         alone.  */
      if (!name || !*name || !strncmp (name, "__zeroinst_", 11))
        continue;
      if (GELF_ST_TYPE (sym.st_info) == STT_TLS)
        {
          add_tls_symbol (sym.st_value, sym.st_size, name, module);
          continue;
        }
      if (!table_room ())
        break;
      table[ntable++] = (struct static_entry) { bias + sym.st_value, sym.st_size, strdup (name),
                                                module, NULL, NULL, 0 };
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
  ZI_ORDER (x->base, y->base);
  ZI_ORDER (y->size, x->size);    /* the enclosing one first */
  /* Aliases: a name without a leading underscore first ("environ").  */
  int ux = x->symbol[0] == '_', uy = y->symbol[0] == '_';
  if (ux != uy)
    return ux - uy;
  return strcmp (x->symbol, y->symbol);
}

/* The object of table entry E, if made, is gone: its counts go to its
   group.  A thread-local instance's object is its own (a static
   object's holds its group): freed.  Write lock held.  */
static void
bury_entry (const struct static_entry *e)
{
  if (!e->obj)
    return;
  zi_object_bury (e->obj);
  if (e->owner)
    free (e->obj);
}

/* Sort the table, of which the first SORTED entries are in order, and
   drop aliases and nested symbols (keeping the objects already made for
   them, if any).  A thread's new thread-local instances are a few
   entries after a long sorted table: they are sorted alone and merged
   in from the end.  */
static void
sort_table (size_t sorted)
{
  if (!table)
    return;
  size_t k = ntable - sorted;
  struct static_entry *tail = sorted && k ? malloc (k * sizeof *tail) : NULL;
  if (!tail)
    qsort (table, ntable, sizeof *table, by_address);
  else
    {
      qsort (table + sorted, k, sizeof *table, by_address);
      memcpy (tail, table + sorted, k * sizeof *tail);
      size_t i = sorted, j = k, w = ntable;
      while (j)
        table[--w] = i && by_address (&table[i - 1], &tail[j - 1]) > 0 ? table[--i] : tail[--j];
      free (tail);
    }
  size_t out = 0;
  for (size_t i = 0; i < ntable; i++)
    {
      if (out && table[i].base < table[out - 1].base + table[out - 1].size)
        {
          /* A thread-local instance's object is of its symbol's group:
             it goes to no other entry.  */
          if (table[i].obj && !table[out - 1].obj && table[i].owner == table[out - 1].owner)
            table[out - 1].obj = table[i].obj;
          else
            bury_entry (&table[i]);
          continue;
        }
      table[out++] = table[i];
    }
  ntable = out;
}

/* Is table[I] in another span than table[I - 1]?  */
static int
new_span (size_t i)
{
  return !i || table[i].module != table[i - 1].module || table[i].owner != table[i - 1].owner;
}

/* Recompute the spans of the sorted table (write lock held): one per run
   of a module's symbols, which is one per module since modules do not
   interleave (if they did, more spans would still be right), and one per
   thread's instances of a module's thread-local symbols (in its stack
   mapping or, for the first thread, in memory of the dynamic loader: a
   span with the module's statics would cover the heap between).  */
static void
make_spans (void)
{
  zi_statics_gen++;
  size_t n = 0;
  for (size_t i = 0; i < ntable; i++)
    if (new_span (i))
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
      if (new_span (i))
        spans[nspans++] = (struct span) { table[i].base, 0, i, i };
      struct span *last = &spans[nspans - 1];
      if (table[i].base + table[i].size > last->hi)
        last->hi = table[i].base + table[i].size;
      last->end = i + 1;
    }
}

/* What dl_iterate_phdr says of the loaded modules, taken with no lock of
   the runtime's held: the loader holds its own lock while it iterates,
   and dlclose frees (in the runtime's free, which takes zi_objects_lock)
   while holding it, so iterating under zi_objects_lock could deadlock.  */
struct snap_module {
  char *name;                /* a copy; "" for the program */
  uintptr_t addr;            /* load bias */
  uintptr_t tls_data;        /* the calling thread's block of its TLS, or 0 */
  size_t tls_size;           /* its PT_TLS memory size, 0 if none */
  int tls_pending;           /* it has TLS, but the calling thread no block yet */
  uintptr_t text_lo, text_hi;  /* the dynamic loader's text; else 0, 0 */
};
struct snapshot {
  unsigned long long adds, subs;
  struct snap_module *m;
  size_t n;
  int names;                 /* copy the names (zi_statics_refresh) */
  int failed;                /* out of memory */
};

/* An address in the dynamic loader's text (dlsym of __tls_get_addr, which
   it defines), or 0: the loader is the module whose text holds it.  */
static uintptr_t loader_symbol;

static int
snapshot_cb (struct dl_phdr_info *info, size_t size, void *arg)
{
  struct snapshot *s = arg;
  s->adds = info->dlpi_adds;
  s->subs = info->dlpi_subs;
  struct snap_module *m = realloc (s->m, (s->n + 1) * sizeof *m);
  if (!m)
    {
      s->failed = 1;
      return 1;
    }
  s->m = m;
  m = &s->m[s->n];
  *m = (struct snap_module) { NULL, info->dlpi_addr, 0, 0, 0, 0, 0 };
  int has_fields = size >= offsetof (struct dl_phdr_info, dlpi_tls_data)
                           + sizeof info->dlpi_tls_data;
  if (has_fields && info->dlpi_tls_modid)
    {
      m->tls_data = (uintptr_t) info->dlpi_tls_data;
      m->tls_pending = !m->tls_data;
    }
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_TLS)
        m->tls_size = ph->p_memsz;
      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)
          && loader_symbol - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz)
        {
          m->text_lo = info->dlpi_addr + ph->p_vaddr;
          m->text_hi = m->text_lo + ph->p_memsz;
        }
    }
  if (s->names && !(m->name = strdup (info->dlpi_name ? info->dlpi_name : "")))
    {
      s->failed = 1;
      return 1;
    }
  s->n++;
  return 0;
}

static void
snapshot_free (struct snapshot *s)
{
  for (size_t i = 0; i < s->n; i++)
    free (s->m[i].name);
  free (s->m);
}

static int
counters_cb (struct dl_phdr_info *info, size_t size, void *arg)
{
  struct snapshot *s = arg;
  s->adds = info->dlpi_adds;
  s->subs = info->dlpi_subs;
  return 1;
}

/* Snapshot module M, found in the loader's list, is known or becomes
   known: its symbols scanned (write lock held).  SELF: our own library,
   not scanned.  Returns 1 if the table changed.  */
static int
take_module (const struct snap_module *sm, const char *self)
{
  const char *name = sm->name;
  char exe[64];
  if (!*name)
    {
      if (nmodules)             /* the program (the first, without a name): known */
        {
          modules[0].present = 1;
          return 0;
        }
      strcpy (exe, "/proc/self/exe");
      name = exe;
    }
  if (!strcmp (name, self) || !strncmp (name, "linux-vdso", 10) || !strncmp (name, "linux-gate", 10))
    return 0;
  for (size_t i = 0; i < nmodules; i++)
    if (modules[i].bias == sm->addr && !strcmp (modules[i].path, name) && !modules[i].present)
      {
        modules[i].present = 1;    /* known */
        return 0;
      }
  struct module *m = realloc (modules, (nmodules + 1) * sizeof *m);
  if (!m)
    return 0;
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
  modules[nmodules] = (struct module) { path ? path : strdup (name), sm->addr, 1 };
  if (sm->text_hi && !loader_hi)
    {
      __atomic_store_n (&loader_lo, sm->text_lo, __ATOMIC_RELAXED);
      __atomic_store_n (&loader_hi, sm->text_hi, __ATOMIC_RELEASE);
    }
  size_t had = ntls;
#if ZEROINST_HAVE_UNWIND
  scan_file (name, sm->addr, (unsigned) nmodules);
#endif
  nmodules++;
  if (ntls != had)
    __atomic_fetch_add (&tls_gen, 1, __ATOMIC_RELEASE);
  return 1;
}

/* Does the calling thread T know its block DATA (of a module's TLS)?  */
static int
block_known (const struct zi_thread *t, uintptr_t data)
{
  for (unsigned i = 0; i < t->ntls_blocks; i++)
    if (t->tls_blocks[i] == data)
      return 1;
  return 0;
}

struct fresh_blocks {
  const struct snapshot *snap;   /* blocks new to THREAD */
  const struct zi_thread *thread;
};

/* Is E not another thread's instance in one of the blocks new to the
   calling thread?  (A thread whose instances came back after its end,
   in a later TLS destructor, and stayed: its stack, and so its TLS
   addresses, went to the calling thread.)  */
static int
not_stale (const struct static_entry *e, const void *arg)
{
  const struct fresh_blocks *f = arg;
  if (e->owner == f->thread)
    return 1;
  for (size_t j = 0; j < f->snap->n; j++)
    if (f->snap->m[j].tls_data && e->base - f->snap->m[j].tls_data < f->snap->m[j].tls_size)
      return 0;
  return 1;
}

/* Has T instances in the block at DATA of SIZE bytes (write lock held)?  */
static int
has_instances (const struct zi_thread *t, uintptr_t data, size_t size)
{
  for (size_t i = 0; i < ntable; i++)
    if (table[i].owner == t && table[i].base - data < size)
      return 1;
  return 0;
}

static void drop_instances (int (*keep) (const struct static_entry *, const void *),
                            const void *arg);

/* Add the calling thread T's instances of the thread-local symbols in its
   TLS blocks that it has not added yet (objects made on their first
   load), and stop its stack below its TLS blocks.  Called before its
   first lookup, whenever tls_gen changed since, and at a lookup of an
   address in no object while a block was not set up yet; with no lock
   held.  Takes the write lock only when there is a new block.  */
static void
thread_tls (struct zi_thread *t)
{
  t->tls_gen = __atomic_load_n (&tls_gen, __ATOMIC_ACQUIRE);
  zi_statics_refresh ();
#if ZEROINST_HAVE_UNWIND
  /* A module unloaded since the last look: a block at a known address
     may now be another module's (the loader reuses freed memory).  Its
     instances went with it: start again from the table.  */
  unsigned long long subs = __atomic_load_n (&seen_subs, __ATOMIC_ACQUIRE);
  if (subs != t->tls_subs)
    {
      t->ntls_blocks = 0;
      t->tls_subs = subs;
    }
  struct snapshot s = { 0, 0, NULL, 0, 0, 0 };
  dl_iterate_phdr (snapshot_cb, &s);
  if (s.failed)
    {
      snapshot_free (&s);
      t->tls_gen = 0;        /* out of memory: at the next look */
      return;
    }
  uintptr_t lowest = UINTPTR_MAX;
  size_t fresh = 0;
  t->tls_pending = 0;
  for (size_t j = 0; j < s.n; j++)
    {
      struct snap_module *m = &s.m[j];
      t->tls_pending |= m->tls_pending;
      if (m->tls_data && m->tls_data < lowest)
        lowest = m->tls_data;
      if (!m->tls_data || block_known (t, m->tls_data))
        m->tls_data = 0;
      else
        s.m[fresh++] = *m;       /* names are not copied here */
    }
  s.n = fresh;
  if (fresh)
    {
      uintptr_t *b = realloc (t->tls_blocks, (t->ntls_blocks + fresh) * sizeof *b);
      if (b)
        t->tls_blocks = b;
      int held = zi_objects_wrlock ();
      size_t added = 0;
      int usable = b != NULL;
      if (usable && (s.adds < seen_adds || s.subs < seen_subs))
        {
          /* Older than the module list: its blocks may be of modules
             gone since.  At the next look.  */
          t->tls_gen = 0;
          usable = 0;
        }
      if (usable)
        {
          struct fresh_blocks f = { &s, t };
          drop_instances (not_stale, &f);
        }
      for (size_t j = 0; usable && j < fresh; j++)
        {
          size_t mod = nmodules;
          for (size_t i = 0; i < nmodules; i++)
            if (modules[i].present && modules[i].bias == s.m[j].addr)
              mod = i;
          if (mod == nmodules)
            continue;         /* a module not scanned yet: at a later look */
          b[t->ntls_blocks++] = s.m[j].tls_data;
          if (has_instances (t, s.m[j].tls_data, s.m[j].tls_size))
            continue;         /* known before a module was unloaded */
          for (size_t i = 0; i < ntls; i++)
            if (tls_syms[i].module == mod && table_room ())
              {
                table[ntable++] = (struct static_entry) { s.m[j].tls_data + tls_syms[i].offset,
                                                          tls_syms[i].size, tls_syms[i].symbol,
                                                          tls_syms[i].module, NULL, t, i };
                added++;
              }
          /* Loads of the block before (a dlopen-ed library's TLS is a heap
             block the loader allocated) may have left its range in group
             ids and data slots.  */
          for (int k = 0; k < ZI_DATA_KINDS; k++)
            zi_gids_clear (k, s.m[j].tls_data, s.m[j].tls_size);
        }
      if (added)
        {
          sort_table (ntable - added);
          make_spans ();
        }
      zi_dslots_stale (NULL);
      zi_objects_unlock (held);
    }
  snapshot_free (&s);
  /* The thread's own loads below its TLS are its stack's (analyze_data.c);
     a data slot may hold the longer range.  */
  if (lowest - t->stack_lo < t->stack_hi - t->stack_lo)
    {
      t->stack_hi = lowest;
      zi_dslots_stale_stack ();
    }
#endif
}

/* Is RA in the dynamic loader's text?  */
int
zi_statics_loader_call (uintptr_t ra)
{
  uintptr_t hi = __atomic_load_n (&loader_hi, __ATOMIC_ACQUIRE);
  return ra - __atomic_load_n (&loader_lo, __ATOMIC_RELAXED) < hi - loader_lo;
}

/* Take the thread-local instances whose owner KEEP says to drop out of
   the table, with their counts going to their groups (write lock held).  */
static void
drop_instances (int (*keep) (const struct static_entry *, const void *), const void *arg)
{
  size_t out = 0;
  for (size_t i = 0; i < ntable; i++)
    {
      if (table[i].owner && !keep (&table[i], arg))
        {
          bury_entry (&table[i]);
          continue;
        }
      table[out++] = table[i];
    }
  if (out != ntable)
    {
      ntable = out;
      make_spans ();
    }
}

static int
not_of (const struct static_entry *e, const void *thread)
{
  return e->owner != thread;
}

static int
of (const struct static_entry *e, const void *thread)
{
  return e->owner == thread;
}

/* Thread T is ending: its thread-local instances are gone (counts kept),
   and come back should it load again.  */
void
zi_statics_thread_ended (struct zi_thread *t)
{
  if (!t->tls_gen)
    return;
  int held = zi_objects_wrlock ();
  drop_instances (not_of, t);
  zi_objects_unlock (held);
  free (t->tls_blocks);
  t->tls_blocks = NULL;
  t->ntls_blocks = 0;
  t->tls_gen = 0;
}

/* In a forked child only thread SELF is left (write lock held or none
   needed): the instances of the others go.  */
void
zi_statics_after_fork_child (const struct zi_thread *self)
{
  drop_instances (of, self);
}

/* zi_statics_check's work, when there is some (out of line: the check
   itself saves no registers).  */
static __attribute__ ((noinline)) void
check_slow (struct zi_thread *t, int force, unsigned n)
{
  if (force || n - t->refreshed >= ZI_STATICS_EVERY)
    {
      t->refreshed = n;
      zi_statics_refresh ();
    }
  /* After the refresh: a module it found may have thread-local symbols.
     And an address in no object may be in a block of a library's TLS the
     thread did not have at its last look (a library loaded with dlopen
     whose TLS went into the static TLS blocks, as on aarch64: set up at
     the thread's first use).  */
  if (t->tls_gen != __atomic_load_n (&tls_gen, __ATOMIC_ACQUIRE) || (force && t->tls_pending))
    thread_tls (t);
}

void
zi_statics_check (struct zi_thread *t, int force)
{
  unsigned n = ++t->lookups;
  if (__builtin_expect (force || n - t->refreshed >= ZI_STATICS_EVERY
                        || t->tls_gen != __atomic_load_n (&tls_gen, __ATOMIC_ACQUIRE), 0))
    check_slow (t, force, n);
}

/* Look for loaded and unloaded modules.  Called from zi_statics_check (a
   lookup by generated code or the runtime's analysis), dlclose and
   zi_objects_init; cheap when nothing changed.
   Takes the write lock itself when something changed.  */
void
zi_statics_refresh (void)
{
  struct snapshot s = { 0, 0, NULL, 0, 1, 0 };
  dl_iterate_phdr (counters_cb, &s);
  if (__atomic_load_n (&seen_adds, __ATOMIC_ACQUIRE) == s.adds
      && __atomic_load_n (&seen_subs, __ATOMIC_ACQUIRE) == s.subs)
    return;
  /* dladdr and dlsym before the lock: they take the loader's lock, which
     a thread in dlopen holds while its malloc waits for zi_objects_lock.  */
  Dl_info self_info;
  const char *self = dladdr ((void *) zi_statics_refresh, &self_info) && self_info.dli_fname
                         ? self_info.dli_fname : "";
  if (!loader_symbol)
    loader_symbol = (uintptr_t) dlsym (RTLD_DEFAULT, "__tls_get_addr");
  dl_iterate_phdr (snapshot_cb, &s);
  if (s.failed)
    {
      snapshot_free (&s);
      return;                /* out of memory: at a later look */
    }
  int held = zi_objects_wrlock ();
  /* The counters only grow: a snapshot older than the list (another
     thread applied a newer one meanwhile) is not applied.  */
  if ((seen_adds != s.adds || seen_subs != s.subs) && s.adds >= seen_adds && s.subs >= seen_subs)
    {
      int changed = 0;
      for (size_t i = 0; i < nmodules; i++)
        modules[i].present = 0;
      for (size_t j = 0; j < s.n; j++)
        changed |= take_module (&s.m[j], self);
      /* Unloaded modules: their objects become history.  */
      size_t out = 0;
      for (size_t i = 0; i < ntable; i++)
        {
          if (!modules[table[i].module].present)
            {
              bury_entry (&table[i]);
              changed = 1;
              continue;
            }
          table[out++] = table[i];
        }
      ntable = out;
      size_t kept = 0;
      for (size_t i = 0; i < ntls; i++)
        if (modules[tls_syms[i].module].present)
          tls_syms[kept++] = tls_syms[i];
        else if (tls_syms[i].group && modules[tls_syms[i].module].path)
          {
            struct retired_tls *r = realloc (retired, (nretired + 1) * sizeof *r);
            if (r)
              {
                retired = r;
                retired[nretired++] = (struct retired_tls) { modules[tls_syms[i].module].path,
                                                             tls_syms[i].symbol,
                                                             tls_syms[i].group };
              }
          }
      if (kept != ntls)
        {
          /* Instances name their symbol by index: renumber them.  */
          ntls = kept;
          for (size_t i = 0, k = 0; i < ntable; i++)
            if (table[i].owner)
              for (k = 0; k < ntls; k++)
                if (tls_syms[k].symbol == table[i].symbol && tls_syms[k].module == table[i].module)
                  {
                    table[i].tls = k;
                    break;
                  }
        }
      for (size_t i = 0; i < nmodules; i++)
        if (!modules[i].present)
          modules[i].bias = (uintptr_t) -1;   /* never matches again */
      if (changed)
        sort_table (0);
      make_spans ();
      __atomic_store_n (&seen_adds, s.adds, __ATOMIC_RELEASE);
      __atomic_store_n (&seen_subs, s.subs, __ATOMIC_RELEASE);
    }
  zi_objects_unlock (held);
  snapshot_free (&s);
}

/* The group of thread-local symbol S, made on first use (read lock
   held: one of several threads making it wins).  */
static struct zi_group *
tls_group (struct tls_symbol *s)
{
  struct zi_group *g = __atomic_load_n (&s->group, __ATOMIC_ACQUIRE);
  if (g)
    return g;
  g = calloc (1, sizeof *g);
  if (!g)
    return NULL;
  g->storage = ZI_STORAGE_STATIC;
  g->thread_local = 1;
  g->report_slot[0] = g->report_slot[1] = -1;   /* in no report being made */
  g->symbol = s->symbol;
  g->module = modules[s->module].path;
  struct zi_group *expected = NULL;
  if (!__atomic_compare_exchange_n (&s->group, &expected, g, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
    {
      free (g);
      return expected;
    }
  zi_group_publish (g);
  return g;
}

/* The object of thread-local instance E, made on its first load (read
   lock held).  */
static struct zi_object *
tls_instance (struct static_entry *e)
{
  struct zi_group *g = tls_group (&tls_syms[e->tls]);
  struct zi_object *o = g ? calloc (1, sizeof *o) : NULL;
  if (!o)
    return NULL;
  o->base = e->base;
  o->size = e->size;
  o->group = g;
  struct zi_object *expected = NULL;
  if (!__atomic_compare_exchange_n (&e->obj, &expected, o, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
    {
      free (o);
      return expected;
    }
  __atomic_fetch_add (&g->allocations, 1, __ATOMIC_RELAXED);
  return o;
}

/* The static object holding ADDR, made on first use, and the gap ADDR
   lies in (data/data.h).  Read lock held: several threads may make the
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
  if (e->owner)
    return tls_instance (e);
  struct static_object *so = calloc (1, sizeof *so);
  if (!so)
    return NULL;
  so->o.base = e->base;
  so->o.size = e->size;
  so->o.group = &so->g;
  so->g.storage = ZI_STORAGE_STATIC;
  so->g.symbol = e->symbol;
  so->g.module = modules[e->module].path;
  so->g.address = e->base;
  so->g.allocations = 1;
  so->g.report_slot[0] = so->g.report_slot[1] = -1;   /* in no report being made */
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
