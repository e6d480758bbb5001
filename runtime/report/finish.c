/* finish.c - merge all threads and write the report directory.

   Called at exit, before exec and on fatal signals (core/lifecycle.c, interpose/exec.c).
   Every live thread's counter and data slots are taken (other threads may
   still be running at exit: their slots are read, not cleared), all
   counters are summed per site, and report.json and summary.txt are
   written.  It may run more than once (a failed exec, then exit): each run
   rewrites the report with everything gathered so far.  */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "report/report.h"
#include "data/shadow.h"

const char *
zi_program_path (void)
{
  static char path[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", path, sizeof path - 1);
  path[n > 0 ? n : 0] = '\0';
  return path;
}

static const char *
arch_name (void)
{
  static struct utsname u;
  if (uname (&u) == 0)
    return u.machine;
  return "unknown";
}

/* The order of records in a report: by redundant bytes (most first), then
   by source position (file, line, column, expression), then by path
   (zi_paths_cmp).  Sites are ranked by source position once, and the
   records are sorted as small keys: sorting 56-byte records with string
   comparisons took over a quarter of sqlite3 speedtest1's report time.  */
static int
by_position (const void *a, const void *b)
{
  const struct zi_site_info *x = *(const struct zi_site_info *const *) a;
  const struct zi_site_info *y = *(const struct zi_site_info *const *) b;
  int r = x->file == y->file ? 0 : strcmp (x->file, y->file);
  if (r)
    return r;
  ZI_ORDER (x->line, y->line);
  ZI_ORDER (x->column, y->column);
  return x->expr == y->expr ? 0 : strcmp (x->expr, y->expr);
}

struct order_key {
  uint64_t redundant_bytes;
  uint32_t position;        /* the site's rank by by_position (equal sites: equal) */
  uint32_t record;          /* its index: equal keys keep their order */
};

/* A record in a run of one site's records with equal redundant bytes,
   ordered by path: its path's two keys (zi_paths_keys) and those of the
   path past them (16 frames, when a key holds four), then the path
   itself.  Of sqlite3 speedtest1's 1.4 million comparisons, a third
   needed more than the path's innermost three frames; 6% need more than
   these 16, read through the keys' table, a cache miss a step.  */
#define PATH_KEYS 4
struct path_order {
  uint64_t key[PATH_KEYS];  /* 0 past the path's end */
  int32_t path;
  uint32_t record;
};

/* What by_path_order reads besides the keys.  */
struct order {
  const struct zi_paths *paths;
  const struct zi_path_key *path_keys;   /* zi_paths_keys, or NULL */
};

static int
by_path_order (const void *a, const void *b, void *order)
{
  const struct path_order *x = a, *y = b;
  for (int k = 0; k < PATH_KEYS; k++)
    ZI_ORDER (x->key[k], y->key[k]);
  const struct order *o = order;
  int c = x->path == y->path ? 0
          : o->path_keys     ? zi_paths_cmp_keyed (o->path_keys, x->path, y->path)
                             : zi_paths_cmp (o->paths, x->path, y->path);
  return c ? c : (x->record > y->record) - (x->record < y->record);
}

/* Sort KEYS[0..N) by redundant bytes, most first, then by position,
   keeping the order of equal ones: a radix sort, RADIX_BITS at a time,
   position's digits first, that skips the digits all keys share.  TMP
   holds N keys; returns KEYS or TMP, whichever holds the result.
   (sqlite3 speedtest1's 295,225 records have 56,619 distinct pairs of
   redundant bytes and site: a comparison sort spends most of its
   comparisons on keys this tells apart, and calls a comparison
   function for each.)  */
#define RADIX_BITS 11

static inline uint64_t
radix_field (const struct order_key *k, int redundancy)
{
  return redundancy ? ~k->redundant_bytes : k->position;
}

static struct order_key *
radix_sort (struct order_key *keys, struct order_key *tmp, size_t n)
{
  size_t *count = malloc (sizeof *count << RADIX_BITS);
  if (!count)
    abort ();
  const uint64_t mask = (1u << RADIX_BITS) - 1;
  for (int redundancy = 0; redundancy < 2; redundancy++)
    for (unsigned shift = 0; shift < (redundancy ? 64 : 32); shift += RADIX_BITS)
      {
        memset (count, 0, sizeof *count << RADIX_BITS);
        for (size_t i = 0; i < n; i++)
          count[(radix_field (&keys[i], redundancy) >> shift) & mask]++;
        if (n && count[(radix_field (&keys[0], redundancy) >> shift) & mask] == n)
          continue;
        for (size_t d = 0, at = 0; d <= mask; d++)
          {
            size_t c = count[d];
            count[d] = at;
            at += c;
          }
        for (size_t i = 0; i < n; i++)
          tmp[count[(radix_field (&keys[i], redundancy) >> shift) & mask]++] = keys[i];
        struct order_key *t = keys;
        keys = tmp;
        tmp = t;
      }
  free (count);
  return keys;
}

/* Sort K[0..N) by by_path_order: a quicksort whose comparisons are
   inlined (a site reached through many paths makes runs of thousands of
   keys: sqlite3 speedtest1 sorted 180,000 keys in runs of more than 16,
   and glibc's qsort_r took a tenth of its report's time), runs of at most
   SHORT_RUN keys by insertion, and qsort_r below DEPTH_LIMIT levels (a
   pivot choice so bad that quadratic time looms).  */
#define SHORT_RUN 16
#define DEPTH_LIMIT 64

static void
sort_run (struct path_order *k, size_t n, const struct order *o, unsigned depth)
{
  while (n > SHORT_RUN)
    {
      if (depth++ == DEPTH_LIMIT)
        {
          qsort_r (k, n, sizeof *k, by_path_order, (void *) o);
          return;
        }
      /* The median of the first, middle and last key as the pivot, at k[0].  */
      struct path_order *a = &k[0], *b = &k[n / 2], *c = &k[n - 1], *m;
      if (by_path_order (a, b, (void *) o) < 0)
        m = by_path_order (b, c, (void *) o) < 0 ? b : by_path_order (a, c, (void *) o) < 0 ? c : a;
      else
        m = by_path_order (a, c, (void *) o) < 0 ? a : by_path_order (b, c, (void *) o) < 0 ? c : b;
      struct path_order t = *m;
      *m = k[0];
      k[0] = t;
      /* Keys are distinct (the record's index is in them): k[1..lo) below
         the pivot, k(hi..n) above.  */
      size_t lo = 1, hi = n - 1;
      for (;;)
        {
          while (lo <= hi && by_path_order (&k[lo], &k[0], (void *) o) < 0)
            lo++;
          while (by_path_order (&k[hi], &k[0], (void *) o) > 0)
            hi--;
          if (lo >= hi)
            break;
          t = k[lo];
          k[lo++] = k[hi];
          k[hi--] = t;
        }
      t = k[0];
      k[0] = k[hi];
      k[hi] = t;
      /* The smaller side by recursion, the larger by the loop.  */
      if (hi < n - 1 - hi)
        {
          sort_run (k, hi, o, depth);
          k += hi + 1;
          n -= hi + 1;
        }
      else
        {
          sort_run (k + hi + 1, n - 1 - hi, o, depth);
          n = hi;
        }
    }
  for (size_t i = 1; i < n; i++)
    {
      struct path_order x = k[i];
      size_t at = i;
      for (; at > 0 && by_path_order (&k[at - 1], &x, (void *) o) > 0; at--)
        k[at] = k[at - 1];
      k[at] = x;
    }
}

/* In a run, records are read twice this many ahead, their paths' keys
   this many.  */
#define RUN_AHEAD 8

/* Records read this many ahead when moved into report order.  */
#define GATHER_AHEAD 8

/* Put R's records in report order.  */
static void
sort_records (struct zi_report *r)
{
  size_t n = r->nrecords;
  struct zi_ptrmap rank = { 0 };
  const struct zi_site_info **sites = NULL;
  size_t nsites = 0, cap = 0;
  for (size_t i = 0; i < n; i++)
    {
      int32_t *at = zi_ptrmap_at (&rank, r->records[i].site);
      if (*at != ZI_PTRMAP_NEW)
        continue;
      *at = 0;
      if (nsites == cap)
        {
          cap = cap ? 2 * cap : 256;
          sites = realloc (sites, cap * sizeof *sites);
          if (!sites)
            abort ();
        }
      sites[nsites++] = r->records[i].site;
    }
  qsort (sites, nsites, sizeof *sites, by_position);
  for (size_t i = 0, first = 0; i < nsites; i++)
    {
      if (by_position (&sites[first], &sites[i]) != 0)
        first = i;
      *zi_ptrmap_at (&rank, sites[i]) = (int32_t) first;
    }
  free (sites);
  struct order_key *keys = malloc ((n ? n : 1) * sizeof *keys);
  if (!keys || n > UINT32_MAX)
    abort ();
  for (size_t i = 0; i < n; i++)
    keys[i] = (struct order_key) { r->records[i].c.redundant_bytes,
                                   (uint32_t) *zi_ptrmap_at (&rank, r->records[i].site),
                                   (uint32_t) i };
  zi_ptrmap_free (&rank);
  struct order_key *tmp = malloc ((n ? n : 1) * sizeof *tmp);
  if (!tmp)
    abort ();
  struct order_key *sorted_keys = radix_sort (keys, tmp, n);
  free (sorted_keys == keys ? tmp : keys);
  keys = sorted_keys;
  /* Then each run of one site's records with equal redundant bytes by
     path.  */
  struct order o = { &r->paths, zi_paths_keys (&r->paths) };
  struct path_order *run = NULL;
  size_t run_cap = 0;
  for (size_t i = 0, j; i < n; i = j)
    {
      for (j = i + 1; j < n && keys[j].redundant_bytes == keys[i].redundant_bytes
                      && keys[j].position == keys[i].position; j++)
        ;
      if (j - i == 1)
        continue;
      if (j - i > run_cap)
        {
          run_cap = 2 * (j - i);
          free (run);
          if (!(run = malloc (run_cap * sizeof *run)))
            abort ();
        }
      for (size_t k = i; k < j; k++)
        {
          /* Records and their paths' keys are cache misses: read ahead.  */
          if (k + 2 * RUN_AHEAD < n)
            __builtin_prefetch (&r->records[keys[k + 2 * RUN_AHEAD].record]);
          if (k + RUN_AHEAD < n && o.path_keys && r->records[keys[k + RUN_AHEAD].record].path >= 0)
            __builtin_prefetch (&o.path_keys[r->records[keys[k + RUN_AHEAD].record].path]);
          struct path_order *x = &run[k - i];
          x->record = keys[k].record;
          x->path = r->records[x->record].path;
          int32_t at = o.path_keys ? x->path : -1;
          for (int d = 0; d < PATH_KEYS; d += 2)
            {
              x->key[d] = at >= 0 ? o.path_keys[at].key[0] : 0;
              x->key[d + 1] = at >= 0 ? o.path_keys[at].key[1] : 0;
              at = at >= 0 ? o.path_keys[at].past : -1;
            }
        }
      sort_run (run, j - i, &o, 0);
      for (size_t k = i; k < j; k++)
        keys[k].record = run[k - i].record;
    }
  free (run);
  free ((void *) o.path_keys);
  /* Moved into that order in place, along the permutation's cycles
     (a copy would hold every record twice: 16.5 MB more at the report's
     peak for sqlite3 speedtest1), each record read GATHER_AHEAD steps
     ahead along its cycle: the steps would otherwise wait for one cache
     miss after the other.  */
  uint32_t *from = (uint32_t *) keys;   /* in place: from[i] is at or before keys[i] */
  for (size_t i = 0; i < n; i++)
    from[i] = keys[i].record;
  struct zi_record *rec = r->records;
  for (size_t start = 0; start < n; start++)
    {
      if (from[start] == start)
        continue;                       /* in place, or moved with an earlier cycle */
      struct zi_record first = rec[start];
      size_t ahead = start;
      for (int k = 0; k < GATHER_AHEAD && from[ahead] != start; k++)
        __builtin_prefetch (&rec[ahead = from[ahead]]);
      for (size_t at = start;;)
        {
          size_t src = from[at];
          from[at] = (uint32_t) at;     /* done */
          if (src == start)
            {
              rec[at] = first;
              break;
            }
          rec[at] = rec[src];
          at = src;
          if (from[ahead] != start && from[ahead] != ahead)
            __builtin_prefetch (&rec[ahead = from[ahead]]);
        }
    }
  free (from);
}

/* Records with the same site and the same path are one record.  */
static int
by_site_and_path (const void *a, const void *b)
{
  const struct zi_record *x = a, *y = b;
  ZI_ORDER (x->site, y->site);
  return x->path < y->path ? -1 : x->path > y->path;
}

/* by_site_and_path, then by thread.  */
static int
by_site_path_and_thread (const void *a, const void *b)
{
  const struct zi_record *x = a, *y = b;
  int r = by_site_and_path (a, b);
  return r ? r : x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Where the counters of one thread row (or of the ended threads) go:
   records of R, loaded by THREAD (a row of R, or ZI_ENDED_THREADS), and
   TOTALS (the row's, or NULL).  */
struct sink {
  struct zi_report *r;
  size_t *cap;
  int32_t thread;
  struct zi_totals *totals;
};

/* Reports made so far: the one being made counts its sites' copies
   (zi_site_info.copies).  */
static unsigned report_number;

/* Count SITE, which counted something, among its canon's copies in this
   report, once.  */
static void
count_copy (const struct zi_site_info *site)
{
  struct zi_site_info *s = (struct zi_site_info *) site;
  struct zi_site_info *canon = (struct zi_site_info *) site->canon;
  if (s->seen_report == report_number)
    return;
  s->seen_report = report_number;
  if (canon->copies_report != report_number)
    {
      canon->copies_report = report_number;
      canon->copies = 0;
    }
  canon->copies++;
}

/* A zi_fold_fn: append the counters C of SITE under CTX to the
   sink's records (path resolved) and totals.  Records are made straight
   from the slots, without a table of (site, context) first: sqlite3
   speedtest1's table was 57 MB and a fifth of its report's time;
   records of one site and path are merged later (merge_records).  */
static void
add_record (void *arg, int32_t slot, const struct zi_site_info *site, const void *ctx,
            const struct zi_counters *c)
{
  struct sink *k = arg;
  struct zi_report *r = k->r;
  (void) slot;
  if (!c->elements)
    return;
  if (r->nrecords == *k->cap)
    {
      *k->cap = *k->cap ? 2 * *k->cap : 256;
      r->records = realloc (r->records, *k->cap * sizeof *r->records);
      if (!r->records)
        abort ();
    }
  struct zi_record *rec = &r->records[r->nrecords++];
  rec->site = site->canon;      /* copies of one load are one site (core/sites.c) */
  count_copy (site);
  rec->path = zi_record_path (&r->paths, rec->site, zi_ctx_is_node (ctx) ? ctx : NULL);
  rec->thread = k->thread;
  rec->c = *c;
  rec->c.redundant_bytes = zi_counters_redundant (rec->site, c);
  if (k->totals)
    zi_counters_total (k->totals, site, c);
}

/* Pass the cells of TAB to the sink K.  */
static void
add_cells (struct sink *k, const struct zi_table *tab)
{
  for (size_t i = 0; tab->cells && i <= tab->mask; i++)
    if (tab->cells[i].slot)
      add_record (k, tab->cells[i].slot, zi_site_get (tab->cells[i].slot), tab->cells[i].ctx,
                  &tab->cells[i].c);
}

/* Append PART to R's parts.  */
static void
add_part (struct zi_report *r, size_t *cap, int32_t thread, const struct zi_counters *c)
{
  if (r->nparts == *cap)
    {
      *cap = *cap ? 2 * *cap : 64;
      r->parts = realloc (r->parts, *cap * sizeof *r->parts);
      if (!r->parts)
        abort ();
    }
  r->parts[r->nparts++] = (struct zi_thread_part) { thread, 0, *c };
}

/* Merge R's records of one site and path when one thread loaded them
   all: in a hash set of their indices, in the order they came.  */
static void
merge_one_thread (struct zi_report *r)
{
  size_t size = 1024;
  while (size < 2 * r->nrecords)
    size *= 2;
  uint32_t *set = calloc (size, sizeof *set);     /* index + 1, 0 = empty */
  if (!set)
    abort ();
  size_t out = 0;
  for (size_t i = 0; i < r->nrecords; i++)
    {
      const struct zi_record *rec = &r->records[i];
      uint64_t h = ((uint64_t) (uintptr_t) rec->site ^ (uint64_t) (uint32_t) rec->path << 40)
                   * 0x9e3779b97f4a7c15ull;
      size_t j = (size_t) (h ^ h >> 29) & (size - 1);
      for (; set[j]; j = (j + 1) & (size - 1))
        {
          struct zi_record *m = &r->records[set[j] - 1];
          if (m->site == rec->site && m->path == rec->path)
            break;
        }
      if (set[j])
        zi_counters_add (&r->records[set[j] - 1].c, &rec->c);
      else
        {
          r->records[out] = *rec;
          set[j] = (uint32_t) ++out;
        }
    }
  r->nrecords = out;
  free (set);
}

/* Merge R's records of one site and path when several threads may have
   loaded one: it keeps each thread's share in R's parts.  Records are
   sorted by (site, path, thread) and equal neighbours merged, a thread's
   records of one path summed first.  */
static void
merge_threads (struct zi_report *r)
{
  qsort (r->records, r->nrecords, sizeof *r->records, by_site_path_and_thread);
  size_t out = 0, part_cap = 0;
  for (size_t i = 0; i < r->nrecords;)
    {
      /* The run [i, j) of one site and path.  */
      size_t j = i + 1;
      while (j < r->nrecords && by_site_and_path (&r->records[i], &r->records[j]) == 0)
        j++;
      struct zi_record merged = r->records[i];
      int several = r->records[j - 1].thread != merged.thread;
      if (several)
        merged.thread = ZI_SEVERAL_THREADS (r->nparts);
      for (size_t k = i; k < j; k++)
        {
          const struct zi_record *rec = &r->records[k];
          if (k > i)
            zi_counters_add (&merged.c, &rec->c);
          if (!several)
            continue;
          if (k > i && rec->thread == rec[-1].thread)
            zi_counters_add (&r->parts[r->nparts - 1].c, &rec->c);
          else
            add_part (r, &part_cap, rec->thread, &rec->c);
        }
      if (several)
        r->parts[r->nparts - 1].last = 1;
      r->records[out++] = merged;
      i = j;
    }
  r->nrecords = out;
}

/* One record per site and path, then the totals and the report's order.  */
static void
merge_records (struct zi_report *r)
{
  int one_thread = 1;
  for (size_t i = 1; i < r->nrecords && one_thread; i++)
    one_thread = r->records[i].thread == r->records[0].thread;
  if (one_thread)
    merge_one_thread (r);
  else
    merge_threads (r);
  for (size_t i = 0; i < r->nrecords; i++)
    zi_counters_total (r->totals, r->records[i].site, &r->records[i].c);
  sort_records (r);
}

/* Writing a report while other threads run.  Their instrumented code may
   go on (its loads after this point are not in the report), but the
   runtime's state must hold still: the reporting thread sets zi_stopping,
   makes it visible to every thread (membarrier, or a pause where the
   kernel lacks it), then waits until no other thread is inside a runtime
   section.  Meanwhile other threads' sections do no work on the runtime's
   state (zi_reporting_elsewhere: loads go to a scratch area, contexts and
   allocations are not recorded), except the few that must not lose
   anything and never run under a C library lock (a thread's end, dlclose,
   fork: zi_enter), which wait in zi_wait_stopped.  Nothing waits inside the
   allocator or in code the C library calls back under its own locks (a
   library constructor during dlopen, a dl_iterate_phdr callback), where
   waiting could deadlock with the reporter.  A thread still inside after
   STOP_TIMEOUT_MS is left out of the report, with a warning.  */
int zi_stopping;
__thread int zi_reporter __attribute__ ((tls_model ("initial-exec")));
#define STOP_TIMEOUT_MS 5000

static void
pause_us (long us)
{
  struct timespec t = { 0, us * 1000 };
  nanosleep (&t, NULL);
}

/* Wait a little outside the runtime section the caller is in (at depth
   1): signals are taken meanwhile, and a reporter does not wait for us.  */
static void
pause_outside_runtime (void)
{
  zi_in_runtime--;
  pause_us (100);
  zi_in_runtime++;
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
}

void
zi_wait_stopped (void)
{
  /* The reporting thread, and a thread already deeper in a section when
     the report began (the reporter waits for it), go on.  */
  if (zi_reporter || zi_in_runtime > 1)
    return;
  while (__atomic_load_n (&zi_stopping, __ATOMIC_ACQUIRE))
    pause_outside_runtime ();
}

static void
make_visible (void)
{
#ifdef SYS_membarrier
  /* MEMBARRIER_CMD_GLOBAL (1): every thread has passed a full barrier, so
     each either sees zi_stopping at its next section or had already
     published that it is inside one.  */
  if (syscall (SYS_membarrier, 1, 0) == 0)
    return;
#endif
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
  pause_us (2000);
}

/* Is thread T (not the caller) inside a runtime section?  A thread that
   ended without its exit hook running again (instrumented code in the
   last round of TLS destructors) has no TLS left to read: ask the kernel
   first.  zi_lock held.  */
static int
inside_runtime (const struct zi_thread *t)
{
  if (zi_thread_is_self (t) || !t->in_runtime)
    return 0;
  if (syscall (SYS_tgkill, getpid (), t->tid, 0) != 0)
    return 0;
  return __atomic_load_n (t->in_runtime, __ATOMIC_ACQUIRE) != 0;
}

/* Become the reporting thread: wait for any other report to be done,
   then for every other thread to leave the runtime.  The caller is outside
   any runtime section; from here on it is inside one (until zi_finish
   ends), so a signal that arrives meanwhile waits for the report instead
   of starting a second one on this thread.  */
static void
stop_others (void)
{
  zi_enter_nowait ();
  while (__atomic_exchange_n (&zi_stopping, 1, __ATOMIC_ACQ_REL))
    pause_outside_runtime ();      /* another thread reports */
  zi_reporter = 1;
  make_visible ();
  for (int waited_us = 0;; waited_us += 100)
    {
      int busy = 0;
      pthread_mutex_lock (&zi_lock);
      for (struct zi_thread *t = zi_threads; t; t = t->next)
        busy |= t->busy_at_report = inside_runtime (t);
      if (busy && waited_us >= STOP_TIMEOUT_MS * 1000)
        for (struct zi_thread *t = zi_threads; t; t = t->next)
          if (t->busy_at_report)
            zi_warn ("thread %u stayed inside the runtime for %d ms: its counts are not "
                     "in the report", t->id, STOP_TIMEOUT_MS);
      pthread_mutex_unlock (&zi_lock);
      if (!busy || waited_us >= STOP_TIMEOUT_MS * 1000)
        return;
      pause_us (100);
    }
}

static void
resume_others (void)
{
  pthread_mutex_lock (&zi_lock);
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    t->busy_at_report = 0;
  pthread_mutex_unlock (&zi_lock);
  zi_reporter = 0;
  __atomic_store_n (&zi_stopping, 0, __ATOMIC_RELEASE);
}

void
zi_finish (const char *why)
{
  zi_init ();
  if (zi_in_runtime)
    {
      /* Cannot happen through the exits the runtime knows (signals wait
         for the end of a section); say so rather than report from a
         half-updated state.  */
      zi_warn ("report not written: %s inside the runtime", why);
      return;
    }
  stop_others ();          /* enters the runtime */
  pthread_mutex_lock (&zi_lock);
  report_number++;

  /* Flush every live thread, then take the counters of ended threads and
     of every live thread.  */
  struct zi_report r;
  memset (&r, 0, sizeof r);
  r.program = zi_program_path ();
  r.pid = getpid ();
  r.arch = arch_name ();
  size_t nthreads = 0, cap = 0;
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    nthreads++;
  add_cells (&(struct sink) { &r, &cap, ZI_ENDED_THREADS, NULL }, &zi_ended_counters);
  r.threads = calloc (nthreads ? nthreads : 1, sizeof *r.threads);
  for (struct zi_thread *t = zi_threads; t; t = t->next)
    {
      int32_t row_index = (int32_t) (nthreads - 1 - r.nthreads);
      struct zi_thread_row *row = &r.threads[nthreads - 1 - r.nthreads++];
      row->id = t->id;
      row->merged = t->merged;
      if (t->busy_at_report)
        continue;
      /* Its counters: its table (elements the runtime counted) and its
         slots, read and left as they are, so that a later report (a
         failed exec, then exit) has them again.  Its totals: what it
         gathered before (if it ended) and those.  */
      memcpy (row->totals, t->totals, sizeof t->totals);
      struct sink sink = { &r, &cap, row_index, row->totals };
      add_cells (&sink, &t->counters);
      zi_contexts_fold (t, 0, add_record, &sink);
      for (int c = 0; c < ZI_NSTORAGE; c++)
        for (int k = 0; k < ZI_DATA_KINDS; k++)
          {
            zi_totals_add (&r.data_totals[c][k], &t->data_totals[c][k]);
            /* Data mode alone: the thread's totals are its data totals.  */
            if (!zi_config.mode_code)
              zi_totals_add (&row->totals[k], &t->data_totals[c][k]);
          }
    }
  /* Code mode alone: every path is made, so the DWARF the symbolization
     read can go before the records are sorted and written (sqlite3
     speedtest1: 19 MB).  */
  if (!zi_data_on)
    zi_symbols_reset ();
  merge_records (&r);
  if (!zi_config.mode_code)
    for (size_t i = 0; i < r.nthreads; i++)
      for (int k = 0; k < ZI_DATA_KINDS; k++)
        zi_totals_add (&r.totals[k], &r.threads[i].totals[k]);
  if (zi_data_on)
    {
      /* Alone, the shadow's zero pages go back before the report's
         symbolization adds its own memory (sqlite3: 20 MB of DWARF).  */
      if (__libc_single_threaded)
        zi_shadow_trim ();
      zi_data_records (&r);
    }
  pthread_mutex_unlock (&zi_lock);

  /* A process that recorded nothing leaves no report behind (configure's
     conftests, helper processes), unless ZEROINST_EMPTY_REPORT=1.  */
  int empty = !r.totals[ZI_KIND_INT].elements && !r.totals[ZI_KIND_FLOAT].elements
              && !r.totals[ZI_KIND_OTHER].elements;
  if (empty && !zi_config.empty_report)
    {
      if (zi_config.verbose)
        zi_warn ("nothing recorded: no report written");
    }
  else if (zi_output_open () == 0)
    {
      int ok = zi_output_write ("report.json", zi_write_json, &r) == 0
               && zi_output_write ("summary.txt", zi_write_summary, &r) == 0;
      if (!ok)
        zi_output_discard_if_empty ();
      else if (zi_config.verbose)
        zi_warn ("report written to %s", zi_output_dir ());
    }
  zi_paths_free (&r.paths);
  free (r.records);
  free (r.parts);
  free (r.threads);
  zi_data_records_free (&r);
  resume_others ();
  zi_leave ();     /* may deliver a deferred signal: after resume_others */
}
