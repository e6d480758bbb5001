/* zeroinst-abi.h - the contract between the plugin's generated code and the
   runtime.  Both sides include this file; nothing else is shared.

   Code-centric counters (see plugin/instrument.cc).  Every instrumented
   function has a descriptor (struct zi_fn) that lists its load sites; each
   activation context of the function (a calling-context node, below) owns
   an array of counter slots, one per site (two for the 128-bit classes),
   allocated with the node.  The function reads the array pointer once per
   activation, and each loaded element updates its site's slot:

       slot.elements += 1;   slot.zeros += (element is zero);
       slot.or_lo |= raw bits;   slot.hb += index of the highest non-zero
                                           byte of (v | 1)   -- integers

   Inside innermost loops without calls the plugin keeps these sums in
   registers and adds them to the slot where the loop exits.  The runtime
   turns slots into records at exit (SPEC section 3: an integer's redundant
   bytes are (B - 1) * elements - hb + zeros).

   Data-centric object cache: while data mode is on (__zeroinst_data_on !=
   0) each node also has one data slot (struct zi_dslot) per unit, placed
   before its counter slots (ZI_DSLOT), which remembers the object the
   site's last element was in.  Generated code, before the counters of an
   element at ADDR of a load of B bytes:

       if (ADDR - ds.lo > ds.limit || ds.gen != __zeroinst_gen)   -- unlikely
         {
           if (ds.gid != 0 && ADDR < 2^SHADOW_BITS                  -- group ids (below)
               && (c = __zeroinst_shadow_top[KIND][ADDR >> REGION_BITS]) != 0
               && ((e = *(uint16_t *) (c + ZI_GIDS_OFFSET
                                       + ((ADDR >> 4) mod 2^(REGION_BITS - 4)) * 2)) & ~15)
                  == ds.gid
               && (ADDR & 15) + B <= (span = max (4 * (e & 15) + 4, (1 << (e & 15)) >> 2)))
             {
               ds.lo = ADDR & ~15;  ds.limit = span - B;  ds.chunk = c;
               ds.gen = __zeroinst_gen as read before e;   -- a stale slot is current again
               chunk = c;
             }
           else
             chunk = __zeroinst_lookup (&ds, ADDR, value);
         }
       else
         chunk = ds.chunk;
       if (chunk)
         mark each element's bytes in chunk (below)

   The runtime adds what the site's counter slot counted since the last
   change (slot minus the snapshot in ds) to the object it had, finds the
   new one, and returns the chunk to mark in, or NULL when nothing is to be
   marked (stack, unknown memory, or an element the runtime marked itself:
   one that runs past its object's end or shadow region).  __zeroinst_gen
   changes whenever a loaded object goes away or moves.  Inside an
   innermost loop without calls, atomics or volatile accesses the plugin
   keeps lo, limit and chunk in registers, read from the slot before the
   loop and after each call, and compares gen only then; it biases the
   chunk of region R by R >> 2 bytes and keeps 0 for none, so the runtime
   never maps R's chunk at R >> 2.

   Group ids: a program that moves to another object at almost every load
   (a tree walk, a list, a hash table) would call the runtime at each.
   The runtime keeps, per kind, one 16-bit entry per 16-byte line of each
   small heap block loaded as that kind, ZI_GIDS_OFFSET bytes after the
   chunk of the line's region (runtime/data/shadow.h): its group's id << 4 | F,
   where the block has at least span (F) bytes from the line's start on,
   and 0 where there is no such block.  A miss whose element lies in a
   block of the group the slot counts for (ds.gid: that id << 4, or 0
   when the slot's target has none), in any region, needs nothing from
   the runtime: its counts go to that group anyway, and its marks to the
   chunk of its region, which __zeroinst_shadow_top (the runtime's table
   of chunks by region, per kind: KIND is 1 for the floating-point
   classes, ZI_FLOAT_TYPE, else 0) gives.  The slot's range becomes the
   span, its chunk that chunk, and its generation the one read before
   the entry (the runtime clears a block's ids before it changes the
   generation), so a slot made stale by the end of another object is
   current again.  A heap of small blocks larger than a region (64 MiB)
   would otherwise call the runtime at most of its misses.

   Calling contexts (see plugin/contexts.cc, runtime/contexts/contexts.c): every
   instrumented function keeps the calling-context node of its activation in
   a local; on entry it looks for it in the parent's cache of ZI_CTX_WAYS
   children, at the return address's way and then at its pair:

       parent = __zeroinst_ctx;  w = ZI_CTX_WAY (ra);   -- ra: return address
       node = parent->cache[w];
       if (node->fn != &fn_desc || node->ra != ra)
         {
           node = parent->cache[w ^ 1];
           if (node->fn != &fn_desc || node->ra != ra)
             node = __zeroinst_enter_node (&fn_desc, ra);
         }
       __zeroinst_ctx = node;   slots = node->slots;
       ...   __zeroinst_ctx = parent;  (at returns)

   A tail call (a call GCC compiles to a jump, which reuses the caller's
   return address) sets __zeroinst_ctx to node->tails[k], k the call's
   index in fn->tails (__zeroinst_tail_node (node, k) when that is still
   NULL), instead of restoring the parent: a "tail node",
   child of the caller's node, so that the callee (entered with the
   caller's return address) is the caller's child on the path, at the
   tail call's line, as the source reads.  Nothing sets __zeroinst_ctx
   back when the callee returns (to the caller's caller, whose own node
   is in a local): the runtime takes an entry under a tail node whose
   return address is not the tail call's, or whose function is not the
   tail call's callee, for one from the code the activation returned to
   (runtime/contexts/contexts.c).

   A thread starts at a static "unborn" node whose cache never matches.  The
   cache is indexed by return address, and a miss probes the pair of its
   way, so a function that calls several others in turn (a tree walk)
   keeps hitting.  Without contexts
   (-fplugin-arg-zeroinst-no-contexts) the lookup starts at the thread's
   flat root __zeroinst_flat instead, with ra = 0 and the way taken from
   the descriptor's address, and __zeroinst_ctx is left alone: one node per
   (thread, function).  __zeroinst_enter_node always returns a node whose slots
   fit FN (a sink whose counts are dropped while the runtime cannot take
   them: inside the runtime, during another thread's report).

   Each load site has one static descriptor (struct zi_site) emitted by the
   plugin into section "zeroinst_sites".  Its address is the site id; the
   runtime writes a dense slot number into it the first time it sees it.  */

#ifndef ZEROINST_ABI_H
#define ZEROINST_ABI_H

#include <stdint.h>
#include <string.h>

/* The version of this contract.  Every unit with instrumented loads or
   calling-context code refers to __zeroinst_abi_v<ZI_ABI_VERSION>
   (ZI_ABI_SYMBOL: the plugin emits a pointer to it once per unit), which
   the runtime defines, so that an object of a plugin of another version
   fails to link against this runtime (or a shared library to load) with
   that name in the error, instead of counting wrongly.  A change to anything in this
   file or the tables it includes increments it; a runtime that can
   still serve objects of an older version also defines their symbol.
   (Versions 3 to 8 renamed an entry point instead: __zeroinst_count,
   __zeroinst_object, __zeroinst_miss, __zeroinst_lookup,
   __zeroinst_shadow_top, __zeroinst_enter_node; 9 added __zeroinst_mark,
   and 10 the symbol.  Objects of versions 8 and 9 refer to no symbol and
   run with this runtime: 8's marks are inline, 9's are 10's.)  */
#define ZI_ABI_VERSION 10
#define ZI_ABI_SYMBOL ZI_ABI_SYMBOL_1 (ZI_ABI_VERSION)
#define ZI_ABI_SYMBOL_1(v) ZI_ABI_SYMBOL_2 (v)
#define ZI_ABI_SYMBOL_2(v) __zeroinst_abi_v##v
#define ZI_ABI_SYMBOL_NAME ZI_ABI_NAME_1 (ZI_ABI_SYMBOL)
#define ZI_ABI_NAME_1(s) ZI_ABI_NAME_2 (s)
#define ZI_ABI_NAME_2(s) #s
#define ZI_SITE_SECTION "zeroinst_sites"
#define ZI_FN_SECTION "zeroinst_fns"

/* Element type classes (zeroinst-classes.def, whose order is ABI).  */
enum zi_type {
#define ZI_CLASS(ID, NAME, KIND, BYTES, ...) ZI_##ID,
#include "zeroinst-classes.def"
#undef ZI_CLASS
  ZI_NTYPES
};
/* The classes whose counters take two slots (more than 8 bytes: the
   second slot's or_lo holds the OR of the upper halves), and the
   floating-point ones, as bit masks over enum zi_type.  */
enum {
  ZI_WIDE_CLASSES = 0
#define ZI_CLASS(ID, NAME, KIND, BYTES, ...) | ((BYTES) > 8) << ZI_##ID
#include "zeroinst-classes.def"
#undef ZI_CLASS
  ,
  ZI_FLOAT_CLASSES = 0
#define ZI_CLASS(ID, NAME, KIND, ...) | ZI_CLASS_FLOAT_##KIND << ZI_##ID
#define ZI_CLASS_FLOAT_INT 0
#define ZI_CLASS_FLOAT_FLOAT 1
#define ZI_CLASS_FLOAT_OTHER 0
#include "zeroinst-classes.def"
#undef ZI_CLASS
#undef ZI_CLASS_FLOAT_INT
#undef ZI_CLASS_FLOAT_FLOAT
#undef ZI_CLASS_FLOAT_OTHER
};
/* The masks have a bit per class.  */
typedef char zi_classes_fit_the_masks[ZI_NTYPES < 32 ? 1 : -1];
#define ZI_WIDE_TYPE(t) ((ZI_WIDE_CLASSES >> (t)) & 1)
#define ZI_FLOAT_TYPE(t) ((ZI_FLOAT_CLASSES >> (t)) & 1)
#define ZI_SLOT_UNITS(t) (ZI_WIDE_TYPE (t) ? 2u : 1u)

/* The part of a calling-context node that generated code reads.  */
#define ZI_CTX_WAYS 8
#define ZI_CTX_WAY(ra) ((((uintptr_t) (ra) >> 4) ^ (uintptr_t) (ra)) & (ZI_CTX_WAYS - 1))
struct zi_ctx {
  const struct zi_ctx *cache[ZI_CTX_WAYS];  /* children entered last, by ZI_CTX_WAY (ra) */
  const struct zi_fn *fn;       /* the function of this activation */
  uintptr_t ra;                 /* the return address it was entered with */
  struct zi_slot *slots;        /* fn->nunits counter slots, one per site of fn */
  /* fn->ntails contexts, one per tail call of fn: what the call's callee
     is entered from (below); NULL until the call is first made.  */
  const struct zi_ctx *const *tails;
};

/* Counters of one site in one context.  The 128-bit classes (ZI_WIDE_TYPE)
   take two consecutive slots; the second holds the OR of the high halves
   in or_lo.  Sites take slots in the order of zi_fn.sites.  */
struct zi_slot {
  uint64_t elements;
  uint64_t zeros;               /* zero elements */
  uint64_t or_lo;               /* OR of the raw bits of all elements */
  uint64_t hb;                  /* integers: sum of the indices of the highest non-zero byte of (v | 1) */
};
/* The data slot of a site in a context (data mode): the object (clipped
   to its shadow region, ZI_SHADOW_REGION_BITS) or stack the site's last
   element was in.  Generated code reads the first four fields and gid;
   the rest is the runtime's.  A node's data slots lie before its counter slots, in
   reverse: unit U's is ZI_DSLOT (slots, U).  */
struct zi_dslot {
  uintptr_t lo;             /* an element of the site's B bytes at A hits */
  uintptr_t limit;          /*   when A - lo <= limit (limit = span - B)  */
  uint32_t *chunk;          /* the shadow chunk of the range for the site's kind; NULL: no marks */
  uint64_t gen;             /* __zeroinst_gen when filled */
  uintptr_t target;         /* where the counts go: a group, or a storage class tagged with 1 */
  struct zi_slot *slot;     /* the counter slot it follows */
  uint64_t seen_elements, seen_zeros, seen_hb;   /* the slot when last taken */
  uint16_t bytes;           /* access bytes of the site */
  uint8_t type, kind;       /* enum zi_type of the site; shadow kind (runtime's) */
  uint32_t gid;             /* generated code: the target group's id << 4, 0 if none */
};
#define ZI_DSLOT(slots, unit) ((struct zi_dslot *) (slots) - (unit) - 1)

/* The shadow (runtime/data/shadow.h) as generated code marks it: per kind of
   load (integer, floating point), the 8 bytes at an 8-byte aligned
   address A have one 16-bit half of a 32-bit word, bit k "byte k loaded",
   bit 8 + k "byte k seen non-zero", the half at bit 16 * ((A >> 3) & 1)
   of the word at index (A >> 4) mod 2^(REGION_BITS - 4) of the chunk of
   A's region of 2^REGION_BITS bytes.  A piece of an element, N <= 8 bytes
   at byte S of its half H with S + N <= 8, needs no mark when

       ((~H >> S) & (2^N - 1)) == 0               -- all loaded already
       && (value & __zeroinst_unseen[H >> (8 + S)]) == 0

   where __zeroinst_unseen[M] has byte k 0xff unless bit k of M is set:
   per piece two loads from the half (or one, shifted by S) and one table
   load (the two halves of a piece that may straddle them are tested as
   one), no arithmetic on the value.  Marks are an atomic OR into the
   32-bit word; on x86-64, while glibc's __libc_single_threaded is set,
   a plain one-instruction OR (a locked one would wait for every load in
   flight).  */
#define ZI_SHADOW_REGION_BITS 26
/* The shadow covers addresses below 2^ZI_SHADOW_BITS, with a shadow per
   kind of load: 0 integers (and ZI_OTHER), 1 the floating-point
   classes.  */
#define ZI_SHADOW_BITS 48
#define ZI_SHADOW_KINDS 2
/* Where a region's group ids follow its chunk (runtime/data/shadow.h): not a
   multiple of the page size, so that an entry and the shadow word of its
   line, read together, rarely sit at one page offset (4K aliasing).  */
#define ZI_GIDS_OFFSET ((4u << (ZI_SHADOW_REGION_BITS - 4)) + 2048 + 64)
/* Slots per function at most: a function with more sites records the
   others through __zeroinst_count with a null slot.  */
#define ZI_MAX_FN_UNITS (1u << 16)
/* Tail calls per function with a tail node at most: the others restore
   the parent, and their callees hang off the caller's caller.  */
#define ZI_MAX_FN_TAILS 64u
/* Elements of one load at most (vector lanes, zi_site.lanes): the plugin
   counts the loads of wider vectors as ZI_OTHER.  */
#define ZI_MAX_LANES 64u

/* GCC's clone suffixes, cut from function names by the plugin (source
   names) and the runtime (symbol names): "f.constprop.0" is f.  The first
   marks an OpenMP outlined body (ZI_FN_OMP_REGION).  */
#define ZI_CLONE_SUFFIXES                                                   \
  "._omp_fn", ".constprop", ".isra", ".part", ".cold", ".lto_priv", ".localalias", \
  ".clone", ".specialized", ".simdclone"

/* NAME (a copy the caller owns) cut at its first clone suffix, in place:
   the rule both sides apply.  Returns 1 if NAME had the OpenMP one.  */
static inline int
zi_cut_clone_suffixes (char *name)
{
  static const char *const suffixes[] = { ZI_CLONE_SUFFIXES };
  int omp_region = 0;
  for (unsigned i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
    {
      char *p = strstr (name, suffixes[i]);
      if (!p)
        continue;
      if (i == 0)
        omp_region = 1;
      *p = '\0';
    }
  return omp_region;
}

/* The static descriptors (zeroinst-descriptors.def: fields and their
   meaning).  Layout is ABI: the plugin builds the same record types from
   the same table.  */
#define ZI_FN_OMP_REGION 1u     /* zi_fn.flags: an OpenMP outlined body (f._omp_fn.N) */
#define ZI_FIELD(NAME, CTYPE, FORM) CTYPE NAME;
struct zi_site;
struct zi_inline_frame {
#define ZI_INLINE_FRAME_FIELD ZI_FIELD
#include "zeroinst-descriptors.def"
};
struct zi_site {
#define ZI_SITE_FIELD ZI_FIELD
#include "zeroinst-descriptors.def"
};
struct zi_tail {
#define ZI_TAIL_FIELD ZI_FIELD
#include "zeroinst-descriptors.def"
};
struct zi_fn {
#define ZI_FN_FIELD ZI_FIELD
#include "zeroinst-descriptors.def"
};
#undef ZI_FIELD
#define ZI_SITE_OMP_REGION 1u     /* zi_site.flags, zi_inline_frame.flags: the load is in an
                                     OpenMP outlined body */

#define ZI_EXPORT __attribute__ ((visibility ("default")))
#ifdef __cplusplus
extern "C" {
#endif
/* Defined by a runtime that serves objects of this version (above).  */
extern const char ZI_ABI_SYMBOL ZI_EXPORT;
/* The thread's current calling-context node (never NULL).  */
extern __thread const struct zi_ctx *__zeroinst_ctx ZI_EXPORT;
/* Without contexts: the thread's flat root, parent of one node per function.  */
extern __thread const struct zi_ctx *__zeroinst_flat ZI_EXPORT;
/* Non-zero while data mode runs: generated code uses the data slots.  */
extern int __zeroinst_data_on ZI_EXPORT;
/* Changes when a loaded object goes away or moves: data slots filled
   before then are stale.  */
extern uint64_t __zeroinst_gen ZI_EXPORT;
/* The variable the next allocation is for ("p", "s->buf"), set by
   generated code right before a call to malloc & co. and taken by the
   runtime's malloc (allocators.c); NULL when unnamed.  */
extern __thread const char *volatile __zeroinst_alloc_name ZI_EXPORT;
/* Slow path of function entry: the node of FN entered with return address
   RA from the thread's current node (RA == 0: FN's node under the thread's
   flat root).  */
const struct zi_ctx *__zeroinst_enter_node (const struct zi_fn *fn, uintptr_t ra) ZI_EXPORT;
/* Slow path of a tail call: the tail node of CTX's K-th tail call, made
   now (CTX's parent when it cannot be made now: inside the runtime,
   during another thread's report).  */
const struct zi_ctx *__zeroinst_tail_node (const struct zi_ctx *ctx, uintptr_t k) ZI_EXPORT;
/* The slow path of a data slot (see above): DS missed for the element at
   ADDR, which is in no block of its group that the group ids know.  VALUE: a scalar's raw bits, zero-extended; for a load of several
   elements (a vector, a complex value; DS->bytes is more than one
   element's) the address of its bytes as in memory.  */
uint32_t *__zeroinst_lookup (struct zi_dslot *ds, uint64_t addr, uint64_t value) ZI_EXPORT;
/* The marks of a piece of a loaded value (above), made when the inline
   test finds that they change a state: VALUE's N (1 to 8) bytes, its raw
   bits zero-extended, at ADDR, in CHUNK (a data slot's, not biased).  On
   x86-64 it keeps every register but the flags (runtime/data/mark.c).  */
#if defined __x86_64__
#define ZI_KEEPS_REGISTERS __attribute__ ((no_caller_saved_registers))
#else
#define ZI_KEEPS_REGISTERS
#endif
void __zeroinst_mark (uintptr_t chunk, uintptr_t addr, uint64_t value, uint64_t n)
    ZI_EXPORT ZI_KEEPS_REGISTERS;
/* Per kind, the chunk of each region of 2^ZI_SHADOW_REGION_BITS bytes
   below 2^ZI_SHADOW_BITS (NULL: none mapped), for the group ids' test
   (above).  Set before data mode starts, never changed after.  */
extern uint32_t **__zeroinst_shadow_top[ZI_SHADOW_KINDS] ZI_EXPORT;
/* For the shadow test (above): entry M has byte k 0 if bit k of M is set,
   else 0xff.  Entry 0, eight 0xff bytes, doubles as four halves that
   need no mark: where a range loop's walk has no chunk (stack, unknown
   memory), the plugin's half induction variable points there.  */
extern const uint64_t __zeroinst_unseen[256] ZI_EXPORT;
/* Out-of-line mode, and elements the inline code leaves to the runtime
   (128-bit classes, sites beyond ZI_MAX_FN_UNITS): one call per element,
   which applies the counter rules to SLOT (NULL: the thread's table) and,
   in data mode, attributes it to its object.  */
void __zeroinst_count (const struct zi_site *site, const struct zi_ctx *ctx,
                        struct zi_slot *slot, uint64_t addr, uint64_t lo, uint64_t hi) ZI_EXPORT;
/* A scalable vector's (SVE's) N lanes, whose number the plugin does not
   know: their values at VALUES and, for a masked load, a lane of the
   same size at ACTIVE that is non-zero where the lane is active (else
   NULL); __zeroinst_count for each active lane I, of B bytes, at

     HOW 0                          ADDR + I * B        (a vector in memory)
     ZI_LANES_GATHER (OB, S, SCALE) ADDR + OFFSETS[I] * SCALE, the offsets
                                    OB bytes each, signed if S (a gather)
     ZI_LANES_STRUCT (NV, K)        ADDR + (I * NV + K) * B (vector K of a
                                    structure load of NV: LD2, LD3, LD4)  */
#define ZI_LANES_GATHER(ob, s, scale)                                         \
  ((uint64_t) (ob) | ((s) ? 0x100u : 0u) | (uint64_t) (scale) << 16)
#define ZI_LANES_STRUCT(nv, k) ((uint64_t) (nv) << 48 | (uint64_t) (k) << 56)
void __zeroinst_count_lanes (const struct zi_site *site, const struct zi_ctx *ctx,
                             struct zi_slot *slot, uint64_t addr, const void *values,
                             const void *active, uint64_t n, const void *offsets,
                             uint64_t how) ZI_EXPORT;
#ifdef __cplusplus
}
#endif

#endif
