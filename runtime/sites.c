/* sites.c - dense slot numbers for site descriptors.

   The first time the runtime meets a site it copies the descriptor (the
   object holding it may be dlclose-d before the report) and writes a slot
   number into it, so later lookups are one load.  Slots start at 1; 0 means
   "not seen yet".  */
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;
static struct zi_site_info **sites;  /* [slot], entry 0 unused; entries never move */
static size_t nsites, capacity;

static char *
copy (const char *s)
{
  return strdup (s ? s : "");
}

/* The load's own frame and its inline chain (zeroinst-abi.h): frame 0 is
   the site's function at the load; frame i > 0 is inlined[i-1].  Every
   frame but the last was inlined into the next.  */
static void
site_frames (const struct zi_site *site, struct zi_site_info *info)
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
      const struct zi_inline_frame *in = &site->inlined[i - 1];
      f[i].function = copy (in->function);
      f[i].file = copy (in->file);
      f[i].line = in->line;
      f[i].omp_region = (in->flags & ZI_SITE_OMP_REGION) != 0;
    }
  for (size_t i = 0; i + 1 < n; i++)
    f[i].inlined = 1;
  info->frames.f = f;
  info->frames.n = n;
}

int32_t
zi_site_slot_slow (const struct zi_site *site)
{
  pthread_mutex_lock (&sites_lock);
  int32_t slot = site->slot;
  if (!slot)
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
      info->desc = site;
      info->type = site->type < ZI_NTYPES ? (enum zi_type) site->type : ZI_OTHER;
      info->lanes = site->lanes ? site->lanes : 1;
      info->access_bytes = site->access_bytes;
      info->line = site->line;
      info->column = site->column;
      info->file = copy (site->file);
      info->function = copy (site->function);
      info->expr = copy (site->expr);
      site_frames (site, info);
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
