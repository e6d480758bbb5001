/* shadow.h - the byte states of data objects in shadow memory (shadow.c).

   Per kind of load (integer, floating point) every byte of the address
   space has two state bits, loaded and seen non-zero, kept in a shadow:
   the 16 bytes at a 16-byte aligned address (a line) share one 32-bit
   word.  The runtime works on the word's logical form, bit k "byte k
   loaded", bit 16 + k "byte k seen non-zero"; stored, bytes 1 and 2 are
   swapped (zi_shadow_swap), so that each 8-byte half of the line has its
   loaded and non-zero bits in one 16-bit half of the word, the layout
   generated code tests (zeroinst-abi.h).  One element of up to 16 bytes
   within a line is one OR into one word; an OR that changes nothing (the
   common case: states saturate) is not made, and one that does is
   atomic, because threads marking neighbouring bytes of one word would
   otherwise lose each other's bits (generated code on x86-64 makes a
   plain one while the process has one thread: zeroinst-abi.h).

   Marks only ever land inside live objects (the analysis clips elements
   to their object) and an object's states are cleared when it goes away,
   so the states of a new object start clean.  */
#ifndef ZEROINST_SHADOW_H
#define ZEROINST_SHADOW_H

#include <stddef.h>
#include <stdint.h>
#include "zeroinst-abi.h"

/* The shadow covers addresses below 1 << ZI_SHADOW_BITS, cut in regions
   of 1 << ZI_SHADOW_REGION_BITS bytes, each with a chunk of a quarter of
   that per kind, mapped when first marked (zeroinst-abi.h).  */

/* The index of ADDR's word in its region's chunk.  */
static inline size_t
zi_shadow_index (uintptr_t addr)
{
  return (addr >> 4) & (((size_t) 1 << (ZI_SHADOW_REGION_BITS - 4)) - 1);
}

/* A stored shadow word from its logical form, and back (bytes 1 and 2
   swapped both ways).  */
static inline uint32_t
zi_shadow_swap (uint32_t w)
{
  return (w & 0xff0000ffu) | (w >> 8 & 0xff00u) | (w << 8 & 0xff0000u);
}

/* The 16 states of a line whose logical word is V (bits of MASK's bytes
   only), byte k's (ZI_MAP_LOADED | ZI_MAP_NONZERO: bit 0 loaded, bit 1
   non-zero) at bits 2k.  */
static inline uint32_t
zi_shadow_states (uint32_t v, uint32_t mask)
{
  uint32_t l = v & mask, z = (v >> 16) & mask;
  l = (l | l << 8) & 0x00ff00ffu, z = (z | z << 8) & 0x00ff00ffu;
  l = (l | l << 4) & 0x0f0f0f0fu, z = (z | z << 4) & 0x0f0f0f0fu;
  l = (l | l << 2) & 0x33333333u, z = (z | z << 2) & 0x33333333u;
  l = (l | l << 1) & 0x55555555u, z = (z | z << 1) & 0x55555555u;
  return l | z << 1;
}

/* Group ids (zeroinst-abi.h): per kind and region, one 16-bit entry per
   line for the small heap blocks loaded as that kind (the first lookup
   of a block writes them, zi_gids_set; its end clears them,
   zi_gids_clear), so that generated code finds the group of the block at
   an address without the runtime.  An entry is the group's id << 4 | F,
   where the block has at least max (4 * F + 4, (1 << F) >> 2) bytes from
   the line's start on (zi_gid_span): 4, 8, ..., 28 for F 0-6 (the bytes
   rounded down to a multiple of 4: a line with less than 4 has no entry;
   an element that ends at its block's end, the last vector of a record,
   still fits), then 32, 64, ..., 8192, so that a hit's range reaches at
   least half way to the block's end, or 8 KiB.  Ids are chunks.c's group
   ids below 2^12; 0: no entry.  The entries follow the region's chunk in
   one mapping, ZI_GIDS_OFFSET (zeroinst-abi.h) bytes after it.  */
#define ZI_GID_BITS 12
static inline uint16_t *
zi_gids (uint32_t *chunk)
{
  return (uint16_t *) ((char *) chunk + ZI_GIDS_OFFSET);
}
/* The bytes an entry's F promises.  */
static inline size_t
zi_gid_span (unsigned f)
{
  size_t a = 4 * (size_t) f + 4, b = ((size_t) 1 << f) >> 2;
  return a > b ? a : b;
}
/* The entry of the line LINE (16-byte aligned) of a block of group ID
   ending at END: the largest F whose span the block has.  */
static inline uint16_t
zi_gid_entry (unsigned id, uintptr_t line, uintptr_t end)
{
  size_t dist = end - line;
  unsigned f;
  if (dist < 4)
    return 0;
  if (dist < 32)
    f = (unsigned) (dist / 4 - 1);
  else
    {
      f = 7 + (63 - (unsigned) __builtin_clzll ((unsigned long long) (dist >> 5)));
      if (f > 15)
        f = 15;
    }
  return (uint16_t) (id << 4 | f);
}
/* Write the entries of the block [BASE, BASE + SIZE) of group ID in the
   chunk CHUNK of KIND (read lock held: the block is live).  Blocks that
   are not 16-byte aligned, leave their region, or could hold a thread's
   stack (PTHREAD_STACK_MIN bytes or more) get none.  */
void zi_gids_set (uint32_t *chunk, uintptr_t base, size_t size, unsigned id)
    __attribute__ ((visibility ("hidden")));
/* Clear the entries of the block [BASE, BASE + SIZE) of KIND (write lock
   held: it goes away or moves).  */
void zi_gids_clear (int kind, uintptr_t base, size_t size) __attribute__ ((visibility ("hidden")));


/* 0 when the shadow is ready; -1 (and a warning said why) when its tables
   cannot be reserved: data mode cannot run.  */
int zi_shadow_init (void) __attribute__ ((visibility ("hidden")));

/* The chunk for ADDR, mapped on demand; NULL if ADDR is beyond the shadow
   or memory ran out (the bytes then stay "never loaded").  */
uint32_t *zi_shadow_chunk_slow (int kind, uintptr_t addr) __attribute__ ((visibility ("hidden")));

/* The chunk for ADDR if it is mapped, else NULL.  */
static inline uint32_t *
zi_shadow_chunk (int kind, uintptr_t addr)
{
  return addr >> ZI_SHADOW_BITS ? NULL
         : __atomic_load_n (&__zeroinst_shadow_top[kind][addr >> ZI_SHADOW_REGION_BITS], __ATOMIC_RELAXED);
}
static inline uint32_t *
zi_shadow_word (int kind, uintptr_t addr)
{
  uint32_t *c = zi_shadow_chunk (kind, addr);
  if (__builtin_expect (!c, 0) && !(c = zi_shadow_chunk_slow (kind, addr)))
    return NULL;
  return c + zi_shadow_index (addr);
}

/* Bits set in the 16-bit X, without libgcc's out-of-line popcount (x86-64
   without -mpopcnt calls it).  */
static inline unsigned
zi_bits16 (uint32_t x)
{
  x = x - ((x >> 1) & 0x5555);
  x = (x & 0x3333) + ((x >> 2) & 0x3333);
  x = (x + (x >> 4)) & 0x0f0f;
  return (x + (x >> 8)) & 0x1f;
}

/* Bit k set iff byte k of V is non-zero.  */
static inline unsigned
zi_nonzero_bytes (uint64_t v)
{
  /* A byte's high bit is set in (low 7 bits + 0x7f) | byte iff the byte
     is non-zero (no carry leaves a byte); the multiply gathers the eight
     high bits into the top byte.  */
  uint64_t h = ((v & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | v;
  return (unsigned) (((h & 0x8080808080808080ull) * 0x0002040810204081ull) >> 56);
}

/* An element that crosses into the next line (shadow.c).  */
void zi_shadow_mark_across (int kind, uintptr_t addr, unsigned n, uint64_t lo, uint64_t hi)
    __attribute__ ((visibility ("hidden")));

/* Mark the N (1..16) bytes at ADDR, whose line's word is W, loaded, and
   non-zero where the bytes of the value (LO, then HI) are.  Nothing is
   computed when the bytes are all "seen non-zero" already.  */
static inline void
zi_shadow_mark_word (uint32_t *w, int kind, uintptr_t addr, unsigned n, uint64_t lo,
                     uint64_t hi)
{
  unsigned at = addr & 15;
  if (__builtin_expect (at + n > 16, 0))
    {
      zi_shadow_mark_across (kind, addr, n, lo, hi);
      return;
    }
  uint32_t loaded = (n >= 16 ? 0xffffu : (1u << n) - 1) << at;
  uint32_t cur = zi_shadow_swap (__atomic_load_n (w, __ATOMIC_RELAXED));
  if ((cur & (loaded | loaded << 16)) == (loaded | loaded << 16))
    return;
  uint32_t nonzero = 0;
  if (lo | hi)
    nonzero = ((zi_nonzero_bytes (lo) | (n > 8 ? zi_nonzero_bytes (hi) << 8 : 0)) << at) & loaded;
  uint32_t bits = loaded | nonzero << 16;
  if ((cur & bits) != bits)
    __atomic_fetch_or (w, zi_shadow_swap (bits), __ATOMIC_RELAXED);
}

/* The same, finding the word.  */
static inline void
zi_shadow_mark (int kind, uintptr_t addr, unsigned n, uint64_t lo, uint64_t hi)
{
  uint32_t *w = zi_shadow_word (kind, addr);
  if (w)
    zi_shadow_mark_word (w, kind, addr, n, lo, hi);
}

/* Never-loaded and always-zero bytes of [BASE, BASE + SIZE).  */
void zi_shadow_count (int kind, uintptr_t base, size_t size, uint64_t *never, uint64_t *zero)
    __attribute__ ((visibility ("hidden")));
/* Make the shadow pages of [BASE, BASE + SIZE) of KIND resident and
   writable now (shadow.c), for an object of at least ZI_POPULATE_MIN
   bytes at its first load as KIND in a threaded program.  */
#define ZI_POPULATE_MIN ((size_t) 1 << 20)
void zi_shadow_populate (int kind, uintptr_t base, size_t size) __attribute__ ((visibility ("hidden")));
/* Return the shadow's pages that hold only zeros to the system.  Only
   when no other thread can mark or clear (shadow.c).  */
void zi_shadow_trim (void) __attribute__ ((visibility ("hidden")));
void zi_shadow_reset (void) __attribute__ ((visibility ("hidden")));
/* Forget the states of [BASE, BASE + SIZE) (no mark may run on it).  */
void zi_shadow_clear (int kind, uintptr_t base, size_t size) __attribute__ ((visibility ("hidden")));
/* The same for the part [FROM, TO) of that range, as clearing the whole
   range would treat it (a large range's shadow pages given back): a range
   cleared piece by piece.  */
void zi_shadow_clear_part (int kind, uintptr_t base, size_t size, uintptr_t from, uintptr_t to)
    __attribute__ ((visibility ("hidden")));
/* The object of OLD_SIZE bytes at FROM is now NEW_SIZE bytes at TO (the
   ranges may overlap): the bytes that survive keep their states, the rest
   of the old range is cleared.  New bytes outside the old range are not
   touched: they have no states, as marks land in live objects only.  */
void zi_shadow_resize (int kind, uintptr_t from, size_t old_size, uintptr_t to, size_t new_size)
    __attribute__ ((visibility ("hidden")));
/* The state (ZI_MAP_LOADED | ZI_MAP_NONZERO) of the byte at ADDR; and
   the logical word of ADDR's line (0: no state at all).  */
unsigned zi_shadow_state (int kind, uintptr_t addr) __attribute__ ((visibility ("hidden")));
uint32_t zi_shadow_line (int kind, uintptr_t addr) __attribute__ ((visibility ("hidden")));
/* The shadow words of the lines from LINE (16-aligned) to *REGION_END,
   the end of its region, one per line, stored form: NULL when the region
   has no chunk (nothing was marked there).  For walks over large ranges.  */
uint32_t *zi_shadow_words (int kind, uintptr_t line, uintptr_t *region_end)
    __attribute__ ((visibility ("hidden")));

#endif
