/* Data-centric analysis of misses that the group ids serve
   (zeroinst-abi.h): a site that moves to another small block of the
   group its data slot counts for needs no runtime call; one that changes
   group, that reads a block not yet loaded as its kind, or whose element
   runs past its block's end does.  Each part below is what a wrong id
   entry would count differently.
   zeroinst-flags: -O2 -g
   zeroinst-env: ZEROINST_MODE=code,data

   ones: 8 blocks of 16 bytes {key = i + 1, w = 0, x, y}.  get_key reads
   the keys 3 times in turn (24 elements, 3 redundant bytes each; from
   the second round its misses are served by the ids), then get_w reads
   w of ones[i] and twos[i] alternately, twice (16 zero elements here,
   the group changing at every element).  x and y are never loaded.
   expect-data: heap@ones int path=main@ones allocations=8 size=128 elements=40 bytes=160 redundant_bytes=136 zero_elements=16 never_loaded_bytes=64 always_zero_bytes=56 map=1x7z8n
   twos: 8 blocks {0, w = 0x100, 0, 0}, only w read, 16 times: 2
   redundant bytes each; bytes 0, 2 and 3 of w always zero.
   expect-data: heap@twos int path=main@twos allocations=8 size=128 elements=16 bytes=64 redundant_bytes=32 zero_elements=0 never_loaded_bytes=96 always_zero_bytes=24 map=4n1z1x2z8n

   tails: 4 blocks of 20 bytes (glibc's usable size is 24: bytes 20-23
   are written too, as 0) of int32 {0, 0, 5, 0, 7}, read twice each as
   uint64 at 8 (5) and at 16 (7, then the zero bytes past the end): 16
   elements of 7 redundant bytes.  The one at 16 runs past the block's
   end, so its id entry (4 bytes of the block in that line) sends it to
   the runtime, which marks bytes 16-19 only.
   expect-data: heap@tails int path=main@tails allocations=4 size=80 elements=16 bytes=128 redundant_bytes=112 zero_elements=0 never_loaded_bytes=32 always_zero_bytes=40 map=8n1x7z1x3z
   after: 4 blocks of 24 bytes allocated once tails are freed (glibc
   hands out the same addresses), each read as one int32 1 at 0: bytes
   20-23 must be never loaded, not carry marks of a tails element.
   expect-data: heap@after int path=main@after allocations=4 size=96 elements=4 bytes=16 redundant_bytes=12 zero_elements=0 never_loaded_bytes=80 always_zero_bytes=12 map=1x3z20n

   pairs: P and Q {key = 0x10000}, read by read_keys; P is freed and P2
   allocated on the same path (at P's address), then P2 and Q read by
   the same site: P2's first element must reach the runtime (P's ids
   went with P), or P2 would never count as loaded.  4 elements of 1
   redundant byte; bytes 0, 1 and 3 of each key always zero.
   expect-data: heap@pairs int path=alloc_pair@pairs,main@call_pair allocations=3 size=48 elements=4 bytes=16 redundant_bytes=4 zero_elements=0 never_loaded_bytes=36 always_zero_bytes=9 map=2z1x1z12n

   mixed: X {f = 0.0f, i = 3} and Y {f = 1.5f, i = 3}; each read as int
   (i), then as float (f): Y is loaded as int before the float site
   reaches it, and its float ids must still be missing.
   expect-data: heap@mixed int path=main@mixed allocations=2 size=32 elements=2 bytes=8 redundant_bytes=6 zero_elements=0 never_loaded_bytes=24 always_zero_bytes=6 map=4n1x3z8n
   expect-data: heap@mixed float path=main@mixed allocations=2 size=32 elements=2 bytes=8 redundant_bytes=4 zero_elements=1 never_loaded_bytes=24 always_zero_bytes=6 map=2z2x12n

   far: 4 blocks of 16 bytes, two (A0, A1) before and two (B0, B1) after
   90 MiB of fillers taken from the heap's top, so in two shadow regions
   (64 MiB).  Two rounds visit A0 B0 A1 B1 (visit k); get_far reads a
   block's key twice per visit.  Round 0 reads 0, 0, then sets X1 =
   1 << 8k; round 1 reads X1, sets X2 = 1 << 8 ((k + 1) & 3) and reads
   X2.  In round 1 each first read is a miss served by the ids in
   the other region, and it marks byte k non-zero in the chunk of the
   element's region (not the slot's old one); the second read hits the
   range that miss cached and marks byte (k + 1) & 3, in the chunk
   cached with it.  A mark in another chunk leaves the byte always zero.
   16 elements, 8 of them zero (32 redundant bytes), X1 of visits 0-3
   with 3, 2, 1, 0 redundant bytes, X2 with 2, 1, 0, 3: 44 in all;
   bytes 4-15 never loaded, 2 always-zero bytes per key.  The fillers
   and spacers are never loaded: no record.
   expect-data: heap@far int path=main@far allocations=4 size=64 elements=16 bytes=64 redundant_bytes=44 zero_elements=8 never_loaded_bytes=48 always_zero_bytes=8 map=4x12n
   farloop: the same in a loop without calls (walk_far), whose cached
   range and chunk are registers: 4 blocks allocated beside far's, in
   the same two regions.  The first walk reads A0 B0 A1 B1 once (0) and
   sets X1; the second reads A0 A0 B0 B0 A1 A1 B1 B1 and sets X2 after
   the first read of each, so the first read of a block (a miss served
   by the ids in the other region) marks X1's byte and the second (a
   hit in the registers it set) X2's.  12 elements, 4 zero (16
   redundant bytes), 6 + 6 redundant bytes for X1 and X2: 28.
   expect-data: heap@farloop int path=main@farloop allocations=4 size=64 elements=12 bytes=48 redundant_bytes=28 zero_elements=4 never_loaded_bytes=48 always_zero_bytes=8 map=4x12n

   stale: a slot made stale by the end of another object, then served by
   the ids, is current again (generated code stores the generation with
   the range; that it is changes no count, only the path the next
   elements take), and must go stale once more when its block ends.  One
   site (get_stale, one call site) reads the keys (1) of two blocks O1
   and O2 of path old, O1 first: both misses call the runtime (no ids
   yet); then Z, a block of path bump whose w (2) get_w reads, is freed;
   then O1 twice (a miss served by the ids, then a hit); then O1 is
   freed and N1 allocated on path new at its address, key 7: N1's first
   element finds the slot's range but not its generation, and O1's ids
   went with O1, so it reaches the runtime and counts for new.
   expect-data: heap@old int path=main@old allocations=2 size=32 elements=4 bytes=16 redundant_bytes=12 zero_elements=0 never_loaded_bytes=24 always_zero_bytes=6 map=1x3z12n
   expect-data: heap@bump int path=main@bump allocations=1 size=16 elements=1 bytes=4 redundant_bytes=3 zero_elements=0 never_loaded_bytes=12 always_zero_bytes=3 map=4n1x3z8n
   expect-data: heap@new int path=main@new allocations=1 size=16 elements=1 bytes=4 redundant_bytes=3 zero_elements=0 never_loaded_bytes=12 always_zero_bytes=3 map=1x3z12n
   expect-data-total: heap.int.elements=116 heap.int.bytes=528 heap.int.redundant_bytes=392 heap.int.zero_elements=28
   expect-data-total: heap.float.elements=2 unknown.int.elements=0
   expect-data-records: 13
*/
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 8
#define NT 4
#define NOIPA __attribute__ ((noipa))

volatile int zero;
struct rec {
  int32_t key, w, x, y;
};
struct mix {
  float f;
  int32_t i, x, y;
};

NOIPA int32_t get_key (const struct rec *r) { return r->key; }
NOIPA int32_t get_w (const struct rec *r) { return r->w; }
NOIPA int32_t get_far (const struct rec *r) { return r->key; }
NOIPA int32_t get_stale (const struct rec *r) { return r->key; }
NOIPA int32_t get_i (const struct mix *m) { return m->i; }

/* No calls: a register loop.  */
NOIPA int64_t
walk_far (struct rec *const *v, const int32_t *x, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    {
      s += v[i]->key;
      v[i]->key = x[i];
    }
  return s;
}
NOIPA float get_f (const struct mix *m) { return m->f; }

/* Loads of the block's own bytes, at aligned offsets: a memcpy into a
   local would be a load of the local on a target that does not fold it
   (riscv64, which has no misaligned loads).  */
typedef uint64_t u64_alias __attribute__ ((may_alias));
typedef int32_t i32_alias __attribute__ ((may_alias));

NOIPA uint64_t
get64 (const unsigned char *p, int off)
{
  return *(const u64_alias *) (p + off);
}

NOIPA int32_t
first (const unsigned char *p)
{
  return *(const i32_alias *) p;
}

NOIPA int64_t
read_keys (struct rec *const *v, int n)
{
  int64_t s = 0;
  for (int i = 0; i < n; i++)
    s += get_key (v[i]);
  return s;
}

NOIPA struct rec *
alloc_pair (void)
{
  struct rec *r = malloc (sizeof *r);  // [[pairs]]
  if (!r)
    abort ();
  *r = (struct rec) { 0x10000, 0, 0, 0 };
  return r;
}

static void *
xmalloc (void *p)
{
  if (!p)
    abort ();
  return p;
}

int
main (void)
{
  /* Locals, not statics: a static array of heap pointers would be a
     data record whose always-zero bytes depend on the addresses.  */
  struct rec *ones[N], *twos[N];
  unsigned char *tails[NT];
  int n = N + zero, nt = NT + zero;
  int64_t s = 0;
  double fs = 0;
  for (int i = 0; i < n; i++)
    {
      ones[i] = xmalloc (malloc (sizeof (struct rec)));  // [[ones]]
      *ones[i] = (struct rec) { i + 1, 0, 0, 0 };
    }
  for (int i = 0; i < n; i++)
    {
      twos[i] = xmalloc (malloc (sizeof (struct rec)));  // [[twos]]
      *twos[i] = (struct rec) { 0, 0x100, 0, 0 };
    }
  for (int r = 0; r < 3 + zero; r++)
    for (int i = 0; i < n; i++)
      s += get_key (ones[i]);
  for (int r = 0; r < 2 + zero; r++)
    for (int i = 0; i < 2 * n; i++)
      s += get_w ((i & 1 ? twos : ones)[i >> 1]);

  /* Blocks whose last line is partly theirs.  */
  for (int i = 0; i < nt; i++)
    {
      unsigned char *p = tails[i] = xmalloc (malloc (20));  // [[tails]]
      if (malloc_usable_size (p) < 24)
        abort ();
      int32_t v[6] = { 0, 0, 5, 0, 7, 0 };
      memcpy (p, v, sizeof v);
    }
  for (int r = 0; r < 2 + zero; r++)
    for (int i = 0; i < nt; i++)
      s += get64 (tails[i], 8) + get64 (tails[i], 16);
  for (int i = 0; i < nt; i++)
    free (tails[i]);
  for (int i = 0; i < nt; i++)
    {
      unsigned char *p = tails[i] = xmalloc (malloc (24));  // [[after]]
      memset (p, 0, 24);
      p[0] = 1;
    }
  for (int i = 0; i < nt; i++)
    s += first (tails[i]);

  /* A block freed and its address given to the same path.  */
  struct rec *v[2] = { 0, 0 };
  for (int k = 0; k < 3 + zero; k++)
    {
      if (k == 2)
        free (v[0]);
      v[k == 1] = alloc_pair ();  // [[call_pair]]
      if (k >= 1)
        s += read_keys (v, 2);
    }

  /* One group loaded as two kinds.  */
  struct mix *m[2];
  for (int i = 0; i < 2 + zero; i++)
    {
      m[i] = xmalloc (malloc (sizeof (struct mix)));  // [[mixed]]
      *m[i] = (struct mix) { i ? 1.5f : 0.0f, 3, 0, 0 };
    }
  for (int i = 0; i < 2 + zero; i++)
    {
      s += get_i (m[i]);
      fs += get_f (m[i]);
    }
  /* One group in two shadow regions.  Blocks below M_MMAP_THRESHOLD
     (at most 32 MiB) come from the heap's top, one after the other.  */
  struct rec *far[4], *farl[4];
  if (!mallopt (M_MMAP_THRESHOLD, 32 << 20))
    abort ();
  for (int k = 0; k < 4 + zero; k++)
    {
      if (k == 2)
        {
          char *end = NULL;
          for (int j = 0; j < 3; j++)
            end = (char *) xmalloc (malloc (30 << 20)) + (30 << 20);  // [[filler]]
          /* The holes below (the runtime's own frees leave some) are
             used up first: once a block comes from above the fillers,
             no free chunk is left that B0 and B1 could come from.  */
          while ((char *) xmalloc (malloc (sizeof (struct rec))) < end)  // [[spacer]]
            ;
        }
      far[k] = xmalloc (malloc (sizeof (struct rec)));  // [[far]]
      *far[k] = (struct rec) { 0, 0, 0, 0 };
      farl[k] = xmalloc (malloc (sizeof (struct rec)));  // [[farloop]]
      *farl[k] = (struct rec) { 0, 0, 0, 0 };
    }
  if (((uintptr_t) far[2] >> 26) == ((uintptr_t) far[1] >> 26)
      || ((uintptr_t) farl[2] >> 26) == ((uintptr_t) farl[1] >> 26))
    {
      fprintf (stderr, "far: the blocks are in one region of 64 MiB\n");
      abort ();
    }
  for (int r = 0; r < 2 + zero; r++)
    for (int k = 0; k < 4; k++)
      {
        struct rec *b = far[(k & 1) * 2 + (k >> 1)];     /* A0 B0 A1 B1 */
        int32_t x1 = (int32_t) (1u << 8 * k);
        int32_t x2 = (int32_t) (1u << 8 * ((k + 1) & 3));
        /* One call site, so one context and one data slot for both.  */
        for (int j = 0; j < 2 + zero; j++)
          {
            s += get_far (b);
            if (r == 1 && j == 0)
              b->key = x2;
          }
        if (r == 0)
          b->key = x1;
      }
  /* A stale slot served by the ids, then its block's end.  */
  struct rec *old[2], *z = NULL, *o1 = NULL;
  for (int i = 0; i < 2 + zero; i++)
    {
      old[i] = xmalloc (malloc (sizeof (struct rec)));  // [[old]]
      *old[i] = (struct rec) { 1, 0, 0, 0 };
    }
  z = xmalloc (malloc (sizeof (struct rec)));  // [[bump]]
  *z = (struct rec) { 0, 2, 0, 0 };
  struct rec *seq[5] = { old[0], old[1], old[0], old[0], NULL };
  for (int k = 0; k < 5 + zero; k++)
    {
      if (k == 2)
        {
          s += get_w (z);
          free (z);
        }
      if (k == 4)
        {
          o1 = old[0];
          free (o1);
          seq[4] = xmalloc (malloc (sizeof (struct rec)));  // [[new]]
          if (seq[4] != o1)
            {
              fprintf (stderr, "stale: the new block is not at the freed one's address\n");
              abort ();
            }
          *seq[4] = (struct rec) { 7, 0, 0, 0 };
        }
      /* One call site, so one context and one data slot.  */
      s += get_stale (seq[k]);
    }
  struct rec *walk[8];
  int32_t set[8];
  for (int k = 0; k < 4; k++)
    {
      walk[k] = farl[(k & 1) * 2 + (k >> 1)];              /* A0 B0 A1 B1 */
      set[k] = (int32_t) (1u << 8 * k);
    }
  s += walk_far (walk, set, 4 + zero);
  for (int i = 0; i < 8; i++)
    {
      int k = i >> 1;
      walk[i] = farl[(k & 1) * 2 + (k >> 1)];              /* A0 A0 B0 B0 ... */
      set[i] = (int32_t) (1u << 8 * ((k + 1) & 3));
    }
  s += walk_far (walk, set, 8 + zero);
  printf ("%lld %g\n", (long long) s, fs);
  return 0;
}
