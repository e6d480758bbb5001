/* sites.c - dense slot numbers for site descriptors, and what happens to
   them when their library is unloaded.

   The first time the runtime meets a site it takes what the descriptor
   says into the site's info and writes a slot number into the
   descriptor, so later lookups are one load.  Slots start at 1; 0 means
   "not seen yet".  A library's strings are copied (it may be dlclose-d
   before the report); the main program's (the object the dynamic linker
   names "", never unloaded) are used in place.

   A library's slot belongs to the site's place in its file: (module path,
   offset of the descriptor from the module's load bias).  A library that
   is closed and opened again has fresh descriptors (slot 0, possibly at
   another address); they get the slots of the first opening, so each
   site keeps one record across load cycles.  The main program's sites
   keep their slot in their descriptor and have no such key.

   Unloading: a site's descriptor goes with its library, its copy stays
   (nodes resolve their sites' numbers when they are made).

   Copies of one load: GCC duplicates loads (a vectorized loop's epilogue
   and its versions, unrolled copies, macro expansions on one line,
   inlined copies of a function, a header's function in two libraries),
   and so does the plugin (a loop's data-mode version), and the copies'
   descriptors say the same thing: type, lanes, location, expression and
   inline chain.  A report shows them as one site (their records of one
   path summed, and the copies that counted something counted, report/finish.c):
   each copy's canon is the first such descriptor met.  A vector copy and
   a scalar one differ in their lanes (i32x8, i32) and stay apart, and so
   do sites whose text is not whole (set_canon).  */
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/symbols.h"

static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;
static struct zi_site_info **sites;  /* [slot], entry 0 unused; entries never move */
static size_t nsites, capacity;

/* One load of a module that holds sites.  */
struct instance {
  uintptr_t lo, hi;          /* its PT_LOAD segments */
  uintptr_t bias;
  char *name;                /* path, for the keys (the program: "", it has none) */
  int program;               /* the main program: never unloaded */
  unsigned gone;             /* 0, or the unload generation that found it gone */
};
static struct instance *instances;
static size_t ninstances;
static unsigned libraries;           /* instances that may be unloaded */
static unsigned long long seen_subs; /* the C library's unload count last looked at */
static unsigned generation;          /* instances found gone so far */

/* (module path, offset) -> slot, for slots to survive a reload.  */
struct key {
  const char *name;
  uintptr_t offset;
  int32_t slot;
};
static struct key *keys;
static size_t keys_mask, nkeys;

static char *
copy (const char *s)
{
  return strdup (s ? s : "");
}

/* A descriptor's string S of instance IN, for a site's info: the main
   program (the object with an empty name: under `ld.so ./prog' it has its
   path and counts as a library) is never unloaded, so its strings are
   used in place (sqlite3's speedtest1 has a hundred thousand sites, each
   with a file, a function, an expression and the names of its inline
   frames); a library's are copied, to outlive its dlclose.  */
static const char *
keep (const struct instance *in, const char *s)
{
  return in && in->program && s ? s : copy (s);
}

/* The hash of a struct key E, by its name and offset.  */
static size_t
key_hash (const void *e)
{
  const struct key *k = e;
  uint64_t h = 1469598103934665603ull;
  for (const char *p = k->name; *p; p++)
    h = (h ^ (unsigned char) *p) * 1099511628211ull;
  h ^= (uint64_t) k->offset * 0x9e3779b97f4a7c15ull;
  return (size_t) (h ^ (h >> 29));
}

static struct key *
key_find (const char *name, uintptr_t offset)
{
  if (!keys)
    return NULL;
  struct key k = { name, offset, 0 };
  for (size_t i = key_hash (&k) & keys_mask; keys[i].name; i = (i + 1) & keys_mask)
    if (keys[i].offset == offset && !strcmp (keys[i].name, name))
      return &keys[i];
  return NULL;
}

static void
key_add (const char *name, uintptr_t offset, int32_t slot)
{
  if (2 * (nkeys + 1) > (keys ? keys_mask + 1 : 0))
    {
      struct key *grown = zi_open_grow (keys, &keys_mask, sizeof *keys, 1024, key_hash);
      if (!grown)
        return;                 /* the slot just does not survive a reload */
      keys = grown;
    }
  struct key k = { name, offset, slot };
  size_t i = key_hash (&k) & keys_mask;
  while (keys[i].name)
    i = (i + 1) & keys_mask;
  keys[i] = k;
  nkeys++;
}

struct find_module {
  uintptr_t addr;
  struct instance found;
};

static int
module_of_cb (struct dl_phdr_info *info, size_t size, void *arg)
{
  struct find_module *f = arg;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD)
      {
        uintptr_t a = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        if (a < lo)
          lo = a;
        if (a + info->dlpi_phdr[i].p_memsz > hi)
          hi = a + info->dlpi_phdr[i].p_memsz;
      }
  if (f->addr - lo >= hi - lo)
    return 0;
  int program = !info->dlpi_name || !*info->dlpi_name;
  char *name = strdup (program ? "" : info->dlpi_name);
  if (!name)
    return 1;
  f->found = (struct instance) { lo, hi, info->dlpi_addr, name, program, 0 };
  return 1;
}

/* The instance holding the descriptor at ADDR (sites_lock held), or NULL
   (not in any module: no slot key).  */
static struct instance *
instance_of (uintptr_t addr)
{
  for (size_t i = 0; i < ninstances; i++)
    if (!instances[i].gone && addr - instances[i].lo < instances[i].hi - instances[i].lo)
      return &instances[i];
  struct find_module f = { addr, { 0 } };
  dl_iterate_phdr (module_of_cb, &f);
  if (!f.found.name)
    return NULL;
  struct instance *n = realloc (instances, (ninstances + 1) * sizeof *n);
  if (!n)
    {
      free (f.found.name);
      return NULL;
    }
  instances = n;
  instances[ninstances] = f.found;
  if (!f.found.program)
    __atomic_store_n (&libraries, libraries + 1, __ATOMIC_RELEASE);
  return &instances[ninstances++];
}

/* The load's own frame and its inline chain (zeroinst-abi.h): frame 0 is
   the site's function at the load; frame i > 0 is inlined[i-1].  Every
   frame but the last was inlined into the next.  */
static void
site_frames (const struct instance *in, const struct zi_site *site, struct zi_site_info *info)
{
  size_t n = 1 + site->ninlined;
  struct zi_frame *f = calloc (n, sizeof *f);
  if (!f)
    abort ();
  f[0].function = info->function;
  f[0].file = info->file;
  f[0].line = site->line;
  f[0].omp_region = (site->flags & ZI_SITE_OMP_REGION) != 0;
  for (size_t i = 1; i < n; i++)
    {
      const struct zi_inline_frame *fr = &site->inlined[i - 1];
      f[i].function = keep (in, fr->function);
      f[i].file = keep (in, fr->file);
      f[i].line = fr->line;
      f[i].omp_region = (fr->flags & ZI_SITE_OMP_REGION) != 0;
    }
  for (size_t i = 0; i + 1 < n; i++)
    f[i].inlined = 1;
  info->frames.f = f;
  info->frames.n = n;
}

/* The canonical copies (sites_lock): open addressing by site_hash, at
   most half full.  */
static const struct zi_site_info **canons;
static size_t canons_mask, ncanons;

static uint64_t
mix_str (uint64_t h, const char *s)
{
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull;
}

static uint64_t
mix_num (uint64_t h, uint64_t v)
{
  h = (h ^ v) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}

/* What tells a site apart in a report, hashed.  */
static uint64_t
site_hash (const struct zi_site_info *s)
{
  uint64_t h = 1469598103934665603ull;
  h = mix_num (h, (uint64_t) s->type << 48 ^ (uint64_t) s->lanes << 32 ^ s->access_bytes);
  h = mix_num (h, (uint64_t) s->line << 32 ^ s->column);
  h = mix_str (mix_str (mix_str (h, s->file), s->function), s->expr);
  for (size_t i = 1; i < s->frames.n; i++)
    {
      const struct zi_frame *f = &s->frames.f[i];
      h = mix_num (mix_str (mix_str (h, f->function), f->file),
                   (uint64_t) f->line << 2 | f->inlined << 1 | f->omp_region);
    }
  return mix_num (h, (uint64_t) s->frames.n << 1 | s->frames.f[0].omp_region);
}

static int
same_frame (const struct zi_frame *a, const struct zi_frame *b)
{
  return a->line == b->line && a->inlined == b->inlined && a->omp_region == b->omp_region
         && !strcmp (a->function, b->function) && !strcmp (a->file, b->file);
}

/* Would A and B be the same site in a report?  */
static int
same_identity (const struct zi_site_info *a, const struct zi_site_info *b)
{
  if (a->type != b->type || a->lanes != b->lanes || a->access_bytes != b->access_bytes
      || a->line != b->line || a->column != b->column || a->frames.n != b->frames.n
      || strcmp (a->file, b->file) || strcmp (a->function, b->function)
      || strcmp (a->expr, b->expr))
    return 0;
  for (size_t i = 0; i < a->frames.n; i++)
    if (!same_frame (&a->frames.f[i], &b->frames.f[i]))
      return 0;
  return 1;
}

static const struct zi_site_info **
canon_at (const struct zi_site_info *info, uint64_t h)
{
  size_t i = (size_t) h & canons_mask;
  while (canons[i] && !same_identity (canons[i], info))
    i = (i + 1) & canons_mask;
  return &canons[i];
}

/* Set INFO's canon: the first copy of its identity (itself if none).
   A site without a full text (none, or a '?' in it) is its own: loads
   that print alike there need not be one load.  */
static void
set_canon (struct zi_site_info *info)
{
  if (!*info->expr || strchr (info->expr, '?'))
    {
      info->canon = info;
      return;
    }
  if (2 * (ncanons + 1) > (canons ? canons_mask + 1 : 0))
    {
      size_t n = canons ? 2 * (canons_mask + 1) : 1024;
      const struct zi_site_info **old = canons;
      size_t old_n = old ? canons_mask + 1 : 0;
      canons = calloc (n, sizeof *canons);
      if (!canons)
        abort ();
      canons_mask = n - 1;
      for (size_t i = 0; i < old_n; i++)
        if (old[i])
          *canon_at (old[i], site_hash (old[i])) = old[i];
      free (old);
    }
  const struct zi_site_info **at = canon_at (info, site_hash (info));
  if (!*at)
    {
      *at = info;
      ncanons++;
    }
  info->canon = *at;
}

/* Does SITE describe the same load as the slot's first descriptor (a
   library rebuilt between two loads does not)?  */
static int
same_site (const struct zi_site *site, const struct zi_site_info *info)
{
  return info->type == (site->type < ZI_NTYPES ? (enum zi_type) site->type : ZI_OTHER)
         && info->line == site->line && info->column == site->column
         && !strcmp (info->function, site->function ? site->function : "")
         && !strcmp (info->expr, site->expr ? site->expr : "");
}

int32_t
zi_site_slot_slow (const struct zi_site *site)
{
  zi_sites_generation ();     /* a library unloaded since is no instance any more */
  pthread_mutex_lock (&sites_lock);
  int32_t slot = site->slot;
  if (!slot)
    {
      struct instance *in = instance_of ((uintptr_t) site);
      struct key *k = in && !in->program ? key_find (in->name, (uintptr_t) site - in->bias) : NULL;
      if (k && same_site (site, sites[k->slot]))
        slot = k->slot;          /* the library was loaded before */
      else
        {
          if (nsites + 2 > capacity)
            {
              size_t n = capacity ? 2 * capacity : 1024;
              struct zi_site_info **s = realloc (sites, n * sizeof *s);
              if (!s)
                abort ();
              sites = s;
              capacity = n;
            }
          struct zi_site_info *info = calloc (1, sizeof *info);
          if (!info)
            abort ();
          slot = (int32_t) ++nsites;
          sites[slot] = info;
          info->type = site->type < ZI_NTYPES ? (enum zi_type) site->type : ZI_OTHER;
          info->lanes = site->lanes ? site->lanes : 1;
          info->access_bytes = site->access_bytes;
          info->line = site->line;
          info->column = site->column;
          info->file = keep (in, site->file);
          info->function = keep (in, site->function);
          info->expr = keep (in, site->expr);
          site_frames (in, site, info);
          set_canon (info);
          /* The program's sites keep their slot in their descriptor for
             good: no key.  */
          if (in && !k && !in->program)
            key_add (in->name, (uintptr_t) site - in->bias, slot);
        }
      __atomic_store_n (&((struct zi_site *) site)->slot, slot, __ATOMIC_RELEASE);
    }
  pthread_mutex_unlock (&sites_lock);
  return slot;
}

size_t
zi_site_count (void)
{
  pthread_mutex_lock (&sites_lock);
  size_t n = nsites;
  pthread_mutex_unlock (&sites_lock);
  return n;
}

const struct zi_site_info *
zi_site_get (int32_t slot)
{
  pthread_mutex_lock (&sites_lock);
  const struct zi_site_info *info = sites[slot];
  pthread_mutex_unlock (&sites_lock);
  return info;
}

static int
subs_cb (struct dl_phdr_info *info, size_t size, void *arg)
{
  *(unsigned long long *) arg = info->dlpi_subs;
  return 1;
}

static int
present_cb (struct dl_phdr_info *info, size_t size, void *arg)
{
  struct instance *in = arg;
  if (info->dlpi_addr == in->bias && info->dlpi_name && !strcmp (info->dlpi_name, in->name))
    {
      in->gone = 0;
      return 1;
    }
  return 0;
}

unsigned
zi_sites_generation (void)
{
  if (!__atomic_load_n (&libraries, __ATOMIC_ACQUIRE))
    return 0;                  /* all sites are in the program: nothing to unload */
  unsigned long long subs = 0;
  dl_iterate_phdr (subs_cb, &subs);
  if (subs == __atomic_load_n (&seen_subs, __ATOMIC_ACQUIRE))
    return __atomic_load_n (&generation, __ATOMIC_ACQUIRE);
  pthread_mutex_lock (&sites_lock);
  if (subs != seen_subs)
    {
      unsigned next = generation + 1;
      int any = 0;
      for (size_t i = 0; i < ninstances; i++)
        {
          struct instance *in = &instances[i];
          if (in->gone || in->program)
            continue;
          in->gone = next;
          dl_iterate_phdr (present_cb, in);
          if (in->gone)
            any = 1;
        }
      if (any)
        __atomic_store_n (&generation, next, __ATOMIC_RELEASE);
      __atomic_store_n (&seen_subs, subs, __ATOMIC_RELEASE);
    }
  unsigned g = generation;
  pthread_mutex_unlock (&sites_lock);
  return g;
}
