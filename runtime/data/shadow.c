/* shadow.c - the shadow of byte states (shadow.h): reservation, chunks,
   and what the object code (objects.c, heap.c) does with an object's
   range: count, clear, move.

   Two levels.  A top table per kind (__zeroinst_shadow_top, which
   generated code reads to serve misses by group ids) holds one chunk
   pointer per region of 64 MiB of the 48-bit address space (2^22
   pointers: 32 MiB reserved with MAP_NORESERVE, of which a program
   touches a page or two); a chunk, the
   16 MiB shadow of one region, is mapped (also MAP_NORESERVE) on the
   region's first mark, so only shadow pages of lines that were marked
   take memory.  One flat reservation of the whole range would spare a
   load per mark, but it does not fit everywhere: qemu-user keeps state for
   every reserved guest page (6 MB of memory per GiB reserved, measured:
   a flat shadow of a 39-bit guest costs it 1.6 GB), and it fails under
   `ulimit -v` and next to AddressSanitizer's own shadow.  */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "data/data.h"
#include "data/shadow.h"

/* The largest block with group ids: smaller than a thread's stack can
   be (zi_shadow_init), so that no block with ids holds a stack the
   program allocated, whose loads are the stack's, not the block's
   (generated code would find the block's group by the ids).  */
static size_t gids_max = ZI_CHUNK_MAX;

uint32_t **__zeroinst_shadow_top[ZI_SHADOW_KINDS];

/* Entry M: 0xff in byte k unless bit k of M is set (zeroinst-abi.h).  */
#define UNSEEN_BYTE(m, k) ((m) & (1u << (k)) ? 0 : (uint64_t) 0xff << (8 * (k)))
#define UNSEEN(m) (UNSEEN_BYTE (m, 0) | UNSEEN_BYTE (m, 1) | UNSEEN_BYTE (m, 2)             \
                   | UNSEEN_BYTE (m, 3) | UNSEEN_BYTE (m, 4) | UNSEEN_BYTE (m, 5)         \
                   | UNSEEN_BYTE (m, 6) | UNSEEN_BYTE (m, 7))
#define UNSEEN4(m) UNSEEN (m), UNSEEN ((m) + 1), UNSEEN ((m) + 2), UNSEEN ((m) + 3)
#define UNSEEN16(m) UNSEEN4 (m), UNSEEN4 ((m) + 4), UNSEEN4 ((m) + 8), UNSEEN4 ((m) + 12)
#define UNSEEN64(m) UNSEEN16 (m), UNSEEN16 ((m) + 16), UNSEEN16 ((m) + 32), UNSEEN16 ((m) + 48)
const uint64_t __zeroinst_unseen[256] = {
  UNSEEN64 (0), UNSEEN64 (64), UNSEEN64 (128), UNSEEN64 (192)
};

#define REGIONS ((size_t) 1 << (ZI_SHADOW_BITS - ZI_SHADOW_REGION_BITS))
#define CHUNK_WORDS ((size_t) 1 << (ZI_SHADOW_REGION_BITS - 4))
#define CHUNK_BYTES (CHUNK_WORDS * sizeof (uint32_t))
/* A region's mapping: its chunk, then its group ids (shadow.h).  */
#define MAPPING_BYTES (ZI_GIDS_OFFSET + CHUNK_WORDS * sizeof (uint16_t))
_Static_assert (ZI_GIDS_OFFSET >= CHUNK_BYTES && ZI_GIDS_OFFSET % 64 == 0,
                "group ids after the chunk, aligned");

/* BYTES of zeroed memory whose pages are taken when written.  Huge pages
   are refused: with transparent huge pages "always" one mark would take
   2 MiB instead of a page (measured: 512 sparse marks cost 1 GB).  */
static void *
reserve (size_t bytes)
{
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
#ifdef MADV_NOHUGEPAGE
  madvise (p, bytes, MADV_NOHUGEPAGE);
#endif
  return p;
}

int
zi_shadow_init (void)
{
  long stack_min = sysconf (_SC_THREAD_STACK_MIN);
  if (stack_min > 0 && (unsigned long) stack_min <= ZI_CHUNK_MAX)
    gids_max = (size_t) stack_min - 1;
  for (int k = 0; k < ZI_SHADOW_KINDS; k++)
    {
      if (__zeroinst_shadow_top[k])
        continue;
      if (!(__zeroinst_shadow_top[k] = reserve (REGIONS * sizeof (uint32_t *))))
        {
          for (int j = 0; j < k; j++)
            {
              munmap (__zeroinst_shadow_top[j], REGIONS * sizeof (uint32_t *));
              __zeroinst_shadow_top[j] = NULL;
            }
          zi_warn ("data-centric analysis off: cannot reserve %zu MiB of address space for "
                   "its shadow tables (%s); code-centric figures are still collected",
                   ZI_SHADOW_KINDS * REGIONS * sizeof (uint32_t *) >> 20, strerror (errno));
          return -1;
        }
    }
  return 0;
}

/* The mappings made, for zi_shadow_trim: the first MAX_MAPPED of them
   (of both kinds), 256 GiB of regions that held loaded objects.  */
#define MAX_MAPPED 4096
static uint32_t *mapped[MAX_MAPPED];
static size_t nmapped;

uint32_t *
zi_shadow_chunk_slow (int kind, uintptr_t addr)
{
  /* After a chunk could not be mapped, none is tried again: each mark
     into an unmapped region would otherwise retry (and fail) the mmap.  */
  static int warned_high, failed;
  if (addr >> ZI_SHADOW_BITS)
    {
      if (!__atomic_exchange_n (&warned_high, 1, __ATOMIC_RELAXED))
        zi_warn ("data: objects above 2^%d bytes of address space have no byte states; "
                 "their bytes count as never loaded", ZI_SHADOW_BITS);
      return NULL;
    }
  uint32_t **slot = &__zeroinst_shadow_top[kind][addr >> ZI_SHADOW_REGION_BITS];
  uint32_t *c = __atomic_load_n (slot, __ATOMIC_ACQUIRE);
  if (c)
    return c;
  if (__atomic_load_n (&failed, __ATOMIC_RELAXED))
    return NULL;
  uint32_t *fresh = reserve (MAPPING_BYTES);
  /* Generated code biases a chunk by its region's word offset, R >> 2
     bytes, and takes 0 for "no chunk" (plugin/instrument.cc,
     biased_chunk): the chunk of R must not sit at R >> 2.  */
  uintptr_t r4 = (addr >> ZI_SHADOW_REGION_BITS) << (ZI_SHADOW_REGION_BITS - 2);
  if (fresh && (uintptr_t) fresh == r4)
    {
      uint32_t *other = reserve (MAPPING_BYTES);
      munmap (fresh, MAPPING_BYTES);
      fresh = other && (uintptr_t) other != r4 ? other : NULL;
    }
  if (!fresh)
    {
      if (!__atomic_exchange_n (&failed, 1, __ATOMIC_RELAXED))
        zi_warn ("data: cannot map shadow memory (%s); bytes of objects in memory not "
                 "marked before count as never loaded", strerror (errno));
      return NULL;
    }
  if (__atomic_compare_exchange_n (slot, &c, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      size_t i = __atomic_fetch_add (&nmapped, 1, __ATOMIC_RELAXED);
      if (i < MAX_MAPPED)
        __atomic_store_n (&mapped[i], fresh, __ATOMIC_RELEASE);
      return fresh;
    }
  munmap (fresh, MAPPING_BYTES);    /* another thread mapped it first */
  return c;
}

/* Set the logical BITS in the word at W.  */
static void
or_bits (uint32_t *w, uint32_t bits)
{
  bits = zi_shadow_swap (bits);
  if ((__atomic_load_n (w, __ATOMIC_RELAXED) & bits) != bits)
    __atomic_fetch_or (w, bits, __ATOMIC_RELAXED);
}

/* Clear the logical BITS in the word at W.  */
static void
clear_bits (uint32_t *w, uint32_t bits)
{
  __atomic_fetch_and (w, ~zi_shadow_swap (bits), __ATOMIC_RELAXED);
}

void
zi_shadow_mark_across (int kind, uintptr_t addr, unsigned n, uint64_t lo, uint64_t hi)
{
  uint32_t loaded = n >= 16 ? 0xffffu : (1u << n) - 1;
  uint32_t nonzero = (zi_nonzero_bytes (lo) | (n > 8 ? zi_nonzero_bytes (hi) << 8 : 0)) & loaded;
  unsigned at = addr & 15;
  uint64_t l = (uint64_t) loaded << at, z = (uint64_t) nonzero << at;
  uint32_t *w = zi_shadow_word (kind, addr);
  if (w)
    or_bits (w, (uint32_t) (l & 0xffff) | (uint32_t) (z & 0xffff) << 16);
  /* The next line may be in the next region.  */
  w = zi_shadow_word (kind, (addr | 15) + 1);
  if (w)
    or_bits (w, (uint32_t) (l >> 16) | (uint32_t) (z >> 16) << 16);
}

/* The word of ADDR's line if its chunk exists (never maps one).  */
static uint32_t *
word_if_any (int kind, uintptr_t addr)
{
  if (addr >> ZI_SHADOW_BITS)
    return NULL;
  uint32_t *c = __atomic_load_n (&__zeroinst_shadow_top[kind][addr >> ZI_SHADOW_REGION_BITS],
                                 __ATOMIC_ACQUIRE);
  return c ? c + zi_shadow_index (addr) : NULL;
}

uint32_t
zi_shadow_line (int kind, uintptr_t addr)
{
  uint32_t *w = word_if_any (kind, addr);
  return w ? zi_shadow_swap (__atomic_load_n (w, __ATOMIC_RELAXED)) : 0;
}

unsigned
zi_shadow_state (int kind, uintptr_t addr)
{
  uint32_t w = zi_shadow_line (kind, addr) >> (addr & 15);
  return (w & 1 ? ZI_MAP_LOADED : 0) | (w & 0x10000 ? ZI_MAP_NONZERO : 0);
}

/* The bits of the bytes of [BASE, BASE + SIZE) in the line at LINE, in
   the low half of a shadow word.  */
static uint32_t
line_mask (uintptr_t line, uintptr_t base, size_t size)
{
  uintptr_t lo = base > line ? base - line : 0;
  uintptr_t hi = base + size - line < 16 ? base + size - line : 16;
  return (uint32_t) (((1u << hi) - 1) & ~((1u << lo) - 1));
}

uint32_t *
zi_shadow_words (int kind, uintptr_t line, uintptr_t *region_end)
{
  *region_end = (line | (((uintptr_t) 1 << ZI_SHADOW_REGION_BITS) - 1)) + 1;
  return word_if_any (kind, line);
}

/* Call FN (WORD, MASK, ARG) for each line of [BASE, BASE + SIZE) whose
   chunk exists: MASK has the line's bytes in the range.  Lines of
   unmapped chunks are skipped a region at a time.  Inlined, so that FN
   is too: a large object has millions of lines.  */
static inline __attribute__ ((always_inline)) void
each_line (int kind, uintptr_t base, size_t size,
           void (*fn) (uint32_t *, uint32_t, void *), void *arg)
{
  if (!size)
    return;
  uintptr_t end = base + size, line = base & ~(uintptr_t) 15;
  while (line < end)
    {
      uintptr_t region_end;
      uint32_t *w = zi_shadow_words (kind, line, &region_end);
      if (!w)
        {
          line = region_end;
          continue;
        }
      uintptr_t stop = end < region_end ? end : region_end;
      for (; line < stop; line += 16, w++)
        fn (w, line_mask (line, base, size), arg);
    }
}

struct counts {
  uint64_t loaded, nonzero;
};

static void
count_line (uint32_t *w, uint32_t mask, void *arg)
{
  struct counts *c = arg;
  uint32_t v = *w;
  if (!v)
    return;
  v = zi_shadow_swap (v);
  c->loaded += zi_bits16 (v & mask);
  c->nonzero += zi_bits16 ((v >> 16) & mask);
}

/* Add the bits of the N words at W, whole lines of the range, to C: both
   halves' bits counted at once, their sums in 16-bit fields (a word adds
   at most 16 to each: 4095 words at a time).  A large object has
   millions of lines.  */
static void
count_words (const uint32_t *w, size_t n, struct counts *c)
{
  while (n)
    {
      size_t k = n < 4095 ? n : 4095;
      uint32_t acc = 0;
      for (size_t i = 0; i < k; i++)
        {
          uint32_t x = zi_shadow_swap (__atomic_load_n (&w[i], __ATOMIC_RELAXED));
          x = x - ((x >> 1) & 0x55555555u);
          x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
          x = (x + (x >> 4)) & 0x0f0f0f0fu;
          acc += (x + (x >> 8)) & 0x001f001fu;
        }
      c->loaded += acc & 0xffff;
      c->nonzero += acc >> 16;
      w += k;
      n -= k;
    }
}

void
zi_shadow_count (int kind, uintptr_t base, size_t size, uint64_t *never, uint64_t *zero)
{
  struct counts c = { 0, 0 };
  uintptr_t end = base + size, lo = (base + 15) & ~(uintptr_t) 15, hi = end & ~(uintptr_t) 15;
  if (lo < hi)
    {
      /* The partial lines at the ends line by line, the whole ones in
         between a region's words at a time.  */
      each_line (kind, base, lo - base, count_line, &c);
      each_line (kind, hi, end - hi, count_line, &c);
      for (uintptr_t line = lo, stop; line < hi; line = stop)
        {
          const uint32_t *w = zi_shadow_words (kind, line, &stop);
          if (stop > hi)
            stop = hi;
          if (w)
            count_words (w, (stop - line) / 16, &c);
        }
    }
  else
    each_line (kind, base, size, count_line, &c);
  *never = size - c.loaded;
  *zero = c.loaded - c.nonzero;
}

static void
clear_line (uint32_t *w, uint32_t mask, void *arg)
{
  (void) arg;
  if (!*w)
    return;           /* do not write into untouched shadow pages */
  if (mask == 0xffff)
    *w = 0;
  else
    clear_bits (w, mask | mask << 16);
}

/* Clear the lines of [FROM, TO) (empty: nothing).  */
static void
clear_lines (int kind, uintptr_t from, uintptr_t to)
{
  if (from < to)
    each_line (kind, from, to - from, clear_line, NULL);
}

/* The system's page size, read once.  */
static size_t
page_size (void)
{
  static size_t page;
  if (!page)
    {
      long p = sysconf (_SC_PAGESIZE);
      page = p > 0 ? (size_t) p : 4096;
    }
  return page;
}

/* A page of shadow that generated code reads before anything marks it
   maps the kernel's shared zero page; the first mark then replaces it
   (copy on write), and in a threaded program every such fault flushes
   the other CPUs' TLBs by interrupt: 15% of nw.c's time, whose two
   matrices have 290 MB of shadow (perf: do_wp_page, then
   smp_call_function_many_cond).  A large object's loads mark most of its
   shadow, so in a threaded program its pages are made writable in one
   call at its first load instead (objects.c, zi_object_touch).  The
   cost: the shadow of a large object read only in part takes a quarter
   of its whole size at once; a single thread's fault flushes only its
   own TLB, so there the pages still come one by one (xz's partly used
   dictionary and hash tables: peak RSS 1.64x plain, 2.42x populated).
   Kernels without MADV_POPULATE_WRITE (before Linux 5.14) keep the
   faults.  */
void
zi_shadow_populate (int kind, uintptr_t base, size_t size)
{
#ifdef MADV_POPULATE_WRITE
  size_t page = page_size ();
  uintptr_t end = base + size;
  for (uintptr_t at = base, next; at < end; at = next)
    {
      next = (at | (((uintptr_t) 1 << ZI_SHADOW_REGION_BITS) - 1)) + 1;
      if (next > end || next < at)
        next = end;
      uint32_t *c = zi_shadow_chunk_slow (kind, at);
      if (!c)
        return;
      /* The pages wholly inside the words of [AT, NEXT).  */
      uintptr_t lo = (uintptr_t) (c + zi_shadow_index (at));
      uintptr_t hi = (uintptr_t) (c + zi_shadow_index (next - 1)) + sizeof *c;
      lo = (lo + page - 1) & ~(uintptr_t) (page - 1);
      hi &= ~(uintptr_t) (page - 1);
      if (lo < hi && madvise ((void *) lo, hi - lo, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
        return;
    }
#else
  (void) kind, (void) base, (void) size;
#endif
}

/* Give back the pages of every mapping that hold only zeros: the words
   and ids of objects that are gone, cleared as they went.  They read as
   zero again, so nothing changes but the memory, if nobody writes them
   meanwhile: the caller runs alone.  At the end of sqlite3's speedtest1
   (--size 50), which has freed most of its memory, 17 MB, before the
   report's symbolization takes 20 MB (peak RSS 130 -> 113 MB).  */
void
zi_shadow_trim (void)
{
  size_t page = page_size (), pages = MAPPING_BYTES / page;
  unsigned char *resident = malloc (pages);
  if (!resident)
    return;
  size_t n = __atomic_load_n (&nmapped, __ATOMIC_ACQUIRE);
  for (size_t m = 0; m < n && m < MAX_MAPPED; m++)
    {
      char *base = (char *) __atomic_load_n (&mapped[m], __ATOMIC_ACQUIRE);
      if (!base || mincore (base, MAPPING_BYTES, resident) != 0)
        continue;
      for (size_t p = 0, run = 0; p <= pages; p++)
        {
          int zero = 0;
          if (p < pages && (resident[p] & 1))
            {
              const uint64_t *w = (const uint64_t *) (base + p * page);
              uint64_t any = 0;
              for (size_t i = 0; i < page / sizeof *w; i++)
                any |= w[i];
              zero = !any;
            }
          if (zero)
            {
              run++;
              continue;
            }
          if (run)
            madvise (base + (p - run) * page, run * page, MADV_DONTNEED);
          run = 0;
        }
    }
  free (resident);
}

/* Every byte state and group id reads as zero again: a forked child's
   (core/lifecycle.c, forget_parent_data), whose pages of the parent's shadow
   are dropped from the child alone (private mappings).  Mappings past the
   first MAX_MAPPED are found through the top tables.  */
void
zi_shadow_reset (void)
{
  size_t n = __atomic_load_n (&nmapped, __ATOMIC_ACQUIRE);
  for (size_t m = 0; m < n && m < MAX_MAPPED; m++)
    if (mapped[m] && madvise (mapped[m], MAPPING_BYTES, MADV_DONTNEED) != 0)
      memset (mapped[m], 0, MAPPING_BYTES);
  if (n <= MAX_MAPPED)
    return;
  for (int k = 0; k < ZI_SHADOW_KINDS; k++)
    for (size_t r = 0; __zeroinst_shadow_top[k] && r < REGIONS; r++)
      {
        uint32_t *c = __zeroinst_shadow_top[k][r];
        if (c && madvise (c, MAPPING_BYTES, MADV_DONTNEED) != 0)
          memset (c, 0, MAPPING_BYTES);
      }
}

void
zi_shadow_clear_part (int kind, uintptr_t base, size_t size, uintptr_t from, uintptr_t to)
{
  /* The shadow pages wholly inside a large range go back to the system:
     their memory is returned and they read as zero again.  A shadow page
     covers 4 pages of addresses (chunks are page-aligned).  */
  size_t page = page_size ();
  size_t span = 4 * page;
  uintptr_t first = (base + span - 1) & ~(uintptr_t) (span - 1);
  uintptr_t last = (base + size) & ~(uintptr_t) (span - 1);
  if (size < 256 * span || last <= first)
    {
      clear_lines (kind, from, to);
      return;
    }
  /* The part's lines outside the range's whole shadow pages; the pages
     inside it, a region at a time.  */
  clear_lines (kind, from, first < to ? first : to);
  clear_lines (kind, last > from ? last : from, to);
  for (uintptr_t a = first > from ? first : from, end = last < to ? last : to; a < end;)
    {
      uintptr_t region_end = (a | (((uintptr_t) 1 << ZI_SHADOW_REGION_BITS) - 1)) + 1;
      uintptr_t stop = end < region_end ? end : region_end;
      uint32_t *w = word_if_any (kind, a);
      if (w && madvise (w, (stop - a) / 4, MADV_DONTNEED) != 0)
        clear_lines (kind, a, stop);
      a = stop;
    }
}

void
zi_shadow_clear (int kind, uintptr_t base, size_t size)
{
  zi_shadow_clear_part (kind, base, size, base, base + size);
}

/* Copy the states of the N bytes at FROM to the N bytes at TO, in the
   direction that reads each byte before it is overwritten (the ranges may
   overlap).  Line by line when both are 16-byte aligned (malloc's
   blocks), else byte by byte.  */
static void
copy_states (int kind, uintptr_t from, uintptr_t to, size_t n)
{
  int down = to < from;
  if (!((from | to) & 15))
    {
      size_t lines = (n + 15) / 16;
      for (size_t i = 0; i < lines; i++)
        {
          size_t k = down ? i : lines - 1 - i;
          uint32_t mask = k == n / 16 ? (1u << (n & 15)) - 1 : 0xffff;
          uint32_t v = zi_shadow_line (kind, from + 16 * k) & (mask | mask << 16);
          uint32_t *w = v || zi_shadow_line (kind, to + 16 * k) ? zi_shadow_word (kind, to + 16 * k)
                                                                 : NULL;
          if (w && (zi_shadow_swap (*w) & (mask | mask << 16)) != v)
            {
              if (mask == 0xffff)
                *w = zi_shadow_swap (v);
              else
                {
                  clear_bits (w, mask | mask << 16);
                  or_bits (w, v);
                }
            }
        }
      return;
    }
  for (size_t i = 0; i < n; i++)
    {
      size_t k = down ? i : n - 1 - i;
      uintptr_t s = from + k, d = to + k;
      unsigned st = zi_shadow_state (kind, s);
      uint32_t *w = st || zi_shadow_line (kind, d) ? zi_shadow_word (kind, d) : NULL;
      if (!w)
        continue;
      uint32_t bit = 1u << (d & 15);
      uint32_t set = (st & ZI_MAP_LOADED ? bit : 0) | (st & ZI_MAP_NONZERO ? bit << 16 : 0);
      if ((zi_shadow_swap (*w) & (bit | bit << 16)) != set)
        {
          clear_bits (w, bit | bit << 16);
          or_bits (w, set);
        }
    }
}

/* Clear [LO, HI) minus [XLO, XHI).  */
static void
clear_outside (int kind, uintptr_t lo, uintptr_t hi, uintptr_t xlo, uintptr_t xhi)
{
  if (xlo < lo)
    xlo = lo;
  if (xhi > hi)
    xhi = hi;
  if (xlo >= xhi)
    {
      zi_shadow_clear (kind, lo, hi - lo);
      return;
    }
  zi_shadow_clear (kind, lo, xlo - lo);
  zi_shadow_clear (kind, xhi, hi - xhi);
}

void
zi_shadow_resize (int kind, uintptr_t from, size_t old_size, uintptr_t to, size_t new_size)
{
  size_t keep = old_size < new_size ? old_size : new_size;
  if (from != to)
    copy_states (kind, from, to, keep);
  /* The old bytes that are not the surviving ones (which includes new
     bytes where old ones were: they start never loaded).  */
  clear_outside (kind, from, from + old_size, to, to + keep);
}

/* Do the lines of [BASE, BASE + SIZE) have group ids (zi_gids_set)?  */
static int
gids_fit (uintptr_t base, size_t size)
{
  return size && size <= gids_max && !(base & 15) && !((base + size) >> ZI_SHADOW_BITS)
         && base >> ZI_SHADOW_REGION_BITS == (base + size - 1) >> ZI_SHADOW_REGION_BITS;
}

void
zi_gids_set (uint32_t *chunk, uintptr_t base, size_t size, unsigned id)
{
  if (!gids_fit (base, size) || !id || id >> ZI_GID_BITS)
    return;
  uint16_t *e = zi_gids (chunk) + zi_shadow_index (base);
  for (uintptr_t line = base; line < base + size; line += 16, e++)
    /* Release: the runtime reads the group of an id it finds here
       without the objects' lock (object_cache.c).  */
    __atomic_store_n (e, zi_gid_entry (id, line, base + size), __ATOMIC_RELEASE);
}

void
zi_gids_clear (int kind, uintptr_t base, size_t size)
{
  if (!gids_fit (base, size))
    return;
  uint32_t *w = word_if_any (kind, base);
  if (!w)
    return;
  uint16_t *e = zi_gids (w - zi_shadow_index (base)) + zi_shadow_index (base);
  for (uintptr_t line = base; line < base + size; line += 16, e++)
    if (__atomic_load_n (e, __ATOMIC_RELAXED))  /* untouched pages stay untouched */
      __atomic_store_n (e, 0, __ATOMIC_RELAXED);
}
