/* instrument.cc - count every load of the optimized GIMPLE in the counter
   slot of its site (zeroinst-abi.h), and in data mode attribute it to its
   object through the site's data slot and mark its bytes in the shadow.

   What counts as a load (describe_load):
     - an assignment whose right-hand side reads memory (a memory decl,
       MEM_REF, TARGET_MEM_REF, or a component/array/bit-field/real/imag
       reference rooted in one) into an SSA name;
     - __atomic_load_N builtins (their result is the loaded value);
     - masked vector loads (.MASK_LOAD: AVX2 and AVX-512 conditional
       loops) and x86's gathers (__builtin_ia32_gather*: loops over
       a[idx[i]]): each active lane is one element, counted by the
       runtime (emit_record_calls) at its own address, so that inactive
       lanes, which the program never reads, are neither counted nor
       marked;
     - the vectors of .LOAD_LANES (aarch64's LD2/LD3/LD4 of interleaved
       data: p[i].x, p[i].y), as the vectorizer's temporary array holds
       them: each a gather of its lanes from the memory read
       (describe_lanes_read), counted by the runtime in the same way;
     - SVE's vectors: scalable ones (their lanes known only when the
       program runs) and any under an SVE predicate (masked loads,
       .MASK_LOAD_LANES, .MASK_GATHER_LOAD), whose lanes GIMPLE cannot
       take apart: stored on the stack with their mask, and their active
       lanes counted by one runtime call (emit_lanes_call);
     - aggregate copies (memory to memory): class ZI_OTHER with the byte
       count, no value analysis.
   Values whose type has no class (decimal floats, odd sizes, vector
   masks) are ZI_OTHER too.  Nothing is skipped silently:
   atomic and volatile loads are left out only when asked to
   (-fplugin-arg-zeroinst-no-sync-loads).

   Element rule (classify_type): an integer, pointer, enum, bool or
   bit-field value is one integer element of its storage size (bit-fields:
   the size of their type, value zero-extended from their precision); a
   float is one element of its format; complex is two elements; a vector of
   K lanes is K elements of the lane type.

   Counters (emit_counters).  Each site has a slot in the activation's
   array (SLOTS, read at entry by contexts.cc); per element of raw bits v:
       elements += 1;  zeros += (v == 0)  -- floats: (v << (65 - bits)) == 0;
       or_lo |= v;     hb += index of the highest non-zero byte of (v | 1)
                          -- integers: (clz (v | 1) ^ 63) >> 3, or compares
   in generic GIMPLE only.  Float vectors of 2- and 4-byte lanes are taken
   eight bytes at a time (SWAR; in register loops the OR of the words and
   the count of non-zero lanes are folded into the fields at the loop's
   exits, acc_value).  The 128-bit classes, sites beyond
   ZI_MAX_FN_UNITS and the out-of-line mode call __zeroinst_count instead.

   Register loops (register_loop_p): in an innermost loop with no call
   (internal functions and leaf builtins aside), no asm and nothing that can
   throw, each field is summed in a register variable, set to 0 in the
   preheader and added to the slot on every exit edge; elements come from
   one execution counter per block.  Vectors of 4-byte integer lanes and
   of 4- and 8-byte float lanes are summed there in vector variables, a
   lane per lane, with vector operations (vector_count_type), where the
   loop's bound shows that 32-bit lanes cannot overflow.  A thread dying
   inside such a loop loses that loop's current counts only.

   Data mode (emit_data_path).  Every register loop with a load is first
   versioned on __zeroinst_data_on (version_loops): the original runs in
   code mode; the copy also attributes each element to its object, its
   counters in registers too: a load's are added to its slot before each
   runtime call (the runtime reads the slot when the object changes), its
   elements since the last change being its block's executions since then
   (data_base).  Elsewhere the data path runs behind a test of data_on,
   read once at entry, with counters in memory.  Per load, before its
   counters, with DS its data slot (zeroinst-abi.h, ZI_DSLOT):

       if (addr - ds.lo > ds.limit) goto miss;               -- unlikely
       if (ds.gen != __zeroinst_gen) goto miss;              -- unlikely
       chunk = ds.chunk
       ...
     miss:
       if (addr is in a block of ds's group, by its group id)  -- gid_test
         ds.lo, ds.limit = what the id says of the block from addr's line on;
         ds.chunk = the chunk of addr's region;  ds.gen = __zeroinst_gen,
         read before the id
         chunk = ds.chunk
       else
         chunk = __zeroinst_lookup (&ds, addr, value)  -- x86-64: zi_runtime_call's asm
       if (chunk)
         for each 8-byte piece v of the value (N bytes), in the 16-bit half
         h of a shadow word of the piece's double word (two halves when the
         piece may straddle one), at offset s in it (0 when known aligned):
           if (((h >> s) & (2^N - 1)) != 2^N - 1          -- a byte never loaded
               || (v & __zeroinst_unseen[h >> (8 + s)]))  -- one never non-zero
             __atomic_fetch_or (word, (2^N - 1 | non-zero bytes of v << 8) << s
                                      << 16 * (half's place in the word))
         (two branches: a piece that is a whole aligned half compares its
         loaded byte in memory, then loads the non-zero byte; on x86-64 the
         OR is a plain one while the process has one thread, mark_half.
         Outside register and range loops the marks are a call of
         __zeroinst_mark, emit_marks)

   In the data-mode copy of a register loop that is quiet (quiet_loop_p:
   no call but internal functions other than atomics, no volatile access,
   no asm), lo, limit and chunk are
   registers, filled from the slot in the preheader and after each miss
   (fill_range); the generation is compared there, a stale slot filling
   lo = ~0, limit = 0, which no element hits (not even a load without an
   address, 0).  An element then costs a
   subtract, a compare and a branch.  Their chunk is biased by its
   region's word offset (biased_chunk), so that an element's shadow half is
   at chunk + (addr >> 3) * 2: a shift and an address, no mask and add.
   Nothing in such a loop can free or move an object of this thread, and
   it takes no address from another thread that could have (it has no
   calls, no atomics, no volatile accesses): a racing free of an object
   it reads is the program's own use after free (runtime/data/object_cache.c).

   Range loops (version_ranges).  When such a loop has one exit and a
   number of iterations known on entry, the loads whose address is affine
   in it read between two addresses computable there: the copy is
   versioned once more on a test that, for each of them, both lie in the
   object its data slot holds.  In the version that runs when they do
   (data 3) those loads have no range check and no miss, only the marks;
   the other version (and its other loads) is the loop above.

   The value comes from the load's own result, never from a second read of
   memory (volatile, atomics, races).  Slot and entry accesses use a
   private 64-bit type, so they get an alias set of their own and do not
   constrain the scheduling of the program's accesses.  */

#include "zeroinst-plugin.h"

/* Per-function counters for -fplugin-arg-zeroinst-verbose.  */
struct zi_stats {
  unsigned loads, elements, other;
};

/* The classes as the plugin tells them apart (zeroinst-classes.def):
   integers by size, binary floats by size and precision.  */
enum class_kind { CLASS_INT, CLASS_FLOAT, CLASS_OTHER };
static const struct class_match {
  enum zi_type type;
  enum class_kind kind;
  unsigned size, p;
} class_matches[] = {
#define ZI_CLASS(ID, NAME, KIND, BYTES, SIZE, P, ...) { ZI_##ID, CLASS_##KIND, SIZE, P },
#include "zeroinst-classes.def"
#undef ZI_CLASS
};

/* Map a scalar TYPE to its class.  Returns false when it has none.  */
static bool
classify_scalar (tree type, enum zi_type *out)
{
  if (!TYPE_SIZE_UNIT (type) || !tree_fits_uhwi_p (TYPE_SIZE_UNIT (type)))
    return false;
  unsigned HOST_WIDE_INT size = tree_to_uhwi (TYPE_SIZE_UNIT (type));
  unsigned p = 0;
  bool integer = INTEGRAL_TYPE_P (type) || POINTER_TYPE_P (type) || TREE_CODE (type) == OFFSET_TYPE;
  if (!integer)
    {
      if (!SCALAR_FLOAT_TYPE_P (type) || DECIMAL_FLOAT_TYPE_P (type))
        return false;
      const struct real_format *fmt = REAL_MODE_FORMAT (TYPE_MODE (type));
      if (!fmt || fmt->b != 2)
        return false;
      p = fmt->p;
    }
  for (const class_match &m : class_matches)
    if (m.kind == (integer ? CLASS_INT : CLASS_FLOAT) && m.size == size
        && (integer || m.p == p))
      {
        *out = m.type;
        return true;
      }
  return false;
}

static_assert (ZI_MAX_LANES <= 255, "zi_site.lanes has 8 bits");

/* Class and lane count of a loaded value of TYPE.  */
static bool
classify_type (tree type, enum zi_type *out, unsigned *lanes)
{
  *lanes = 1;
  if (TREE_CODE (type) == COMPLEX_TYPE)
    {
      *lanes = 2;
      return classify_scalar (TREE_TYPE (type), out);
    }
  if (TREE_CODE (type) == VECTOR_TYPE)
    {
      unsigned HOST_WIDE_INT n;
      if (VECTOR_BOOLEAN_TYPE_P (type) || !TYPE_VECTOR_SUBPARTS (type).is_constant (&n)
          || n == 0 || n > ZI_MAX_LANES)
        return false;
      *lanes = n;
      tree lane = TREE_TYPE (type);
      /* Lanes must fill the vector exactly to be extracted by BIT_FIELD_REF.  */
      if (!tree_fits_uhwi_p (TYPE_SIZE (lane)) || !tree_fits_uhwi_p (TYPE_SIZE (type))
          || tree_to_uhwi (TYPE_SIZE (lane)) * n != tree_to_uhwi (TYPE_SIZE (type)))
        return false;
      return classify_scalar (lane, out);
    }
  return classify_scalar (type, out);
}

/* Is MASK an SVE predicate (a vector of booleans in a mode of its own,
   not a vector of integers nor an integer: AVX2's, AVX-512's)?  */
static bool
predicate_p (tree mask)
{
  return mask && GET_MODE_CLASS (TYPE_MODE (TREE_TYPE (mask))) == MODE_VECTOR_BOOL;
}

/* Is a vector of TYPE counted from the stack (emit_lanes_call): a
   scalable vector (SVE: its lanes a multiple of a number known only when
   the program runs), or with ANY one of constant lanes too (a load under
   an SVE predicate, whose lanes GIMPLE cannot take apart), of a class's
   lanes of at most 8 bytes?  Its class into *OUT, one lane's bytes into
   *BYTES.  */
static bool
classify_spilled (tree type, bool any, enum zi_type *out, unsigned *bytes)
{
  if (TREE_CODE (type) != VECTOR_TYPE || VECTOR_BOOLEAN_TYPE_P (type)
      || (!any && TYPE_VECTOR_SUBPARTS (type).is_constant ()))
    return false;
  tree lane = TREE_TYPE (type);
  if (!classify_scalar (lane, out) || ZI_WIDE_TYPE (*out)
      || !tree_fits_uhwi_p (TYPE_SIZE_UNIT (lane)))
    return false;
  *bytes = tree_to_uhwi (TYPE_SIZE_UNIT (lane));
  return *bytes <= 8;
}

/* True if REF (a right-hand side) reads memory.  */
static bool
reads_memory (tree ref)
{
  if (!REFERENCE_CLASS_P (ref) && !DECL_P (ref))
    return false;
  tree base = get_base_address (ref);
  if (!base || TREE_CODE (base) == SSA_NAME)
    return false;
  if (DECL_P (base))
    {
      if (!VAR_P (base) && TREE_CODE (base) != PARM_DECL && TREE_CODE (base) != RESULT_DECL)
        return false;
      if (is_gimple_reg (base) || (VAR_P (base) && DECL_HARD_REGISTER (base)))
        return false;
      return true;
    }
  return TREE_CODE (base) == MEM_REF || TREE_CODE (base) == TARGET_MEM_REF
         || CONSTANT_CLASS_P (base);
}

/* A load, as describe_load finds it.  */
struct zi_load {
  gimple *stmt;
  tree ref;                  /* the memory reference, NULL for atomic builtins */
  tree value;                /* SSA value loaded, NULL for ZI_OTHER */
  tree addr_arg;             /* atomic builtins, masked loads: the pointer argument */
  tree mask;                 /* masked loads and gathers: the lanes' mask */
  tree index;                /* gathers: the vector of indices (lane i reads
                                addr_arg + index[i] * scale); a vector of
                                .LOAD_LANES: constant, from LANES_REF */
  tree lanes_ref;            /* a vector of .LOAD_LANES: the memory it read, */
  unsigned lanes_k, lanes_n; /* and which of the group's N vectors it is */
  unsigned scale;
  enum zi_type type;
  unsigned lanes;
  unsigned access_bytes;
  tree site;                 /* its descriptor's address */
  int unit;                  /* its first counter slot; -1: recorded by the runtime */
  int acc;                   /* index of its loop in the function's register loops, or -1 */
  int block;                 /* index of its basic block before instrumentation */
  int data;                  /* its data path: 1 guarded by data_on, 2 always, 0 none,
                                3 always and its object known (a range loop) */
  gimple *twin;              /* in a range loop: the checked loop's copy of the
                                load, whose unit (slots) it shares; else NULL */
  tree bits;                 /* a scalar's raw bits (u64), computed once right
                                after the load for its data path and counters
                                (instrument_load); else NULL */
  tree iv_base, iv_step;     /* data 3: its address in iteration i of its range
                                loop is iv_base + i * iv_step (version_ranges) */
  bool spill;                /* counted from the stack (emit_lanes_call): a scalable
                                vector (SVE), or one under an SVE predicate;
                                LANES 0, ACCESS_BYTES one lane's */
  tree vec;                  /* in a register loop: the vector type its lanes
                                are counted in (vector_count_type) if its
                                loop is short enough (vector_counts_fit_p);
                                else NULL */
};

/* Size in bytes of TYPE, 0 if not constant.  */
static unsigned
type_bytes (tree type)
{
  tree s = TYPE_SIZE_UNIT (type);
  return s && tree_fits_uhwi_p (s) && tree_to_uhwi (s) < (1u << 16) ? tree_to_uhwi (s) : 0;
}

/* If CALL is one of x86's gathers, describe it in *L and return true.
   All take (source, base pointer, indices, mask, scale) and load lane i,
   for the first min (lanes, index lanes), from base + index[i] * scale
   when the mask has it: bit i of an integer (AVX-512) or the sign bit
   of lane i of a vector (AVX2).  The other lanes come from the source.  */
static bool
describe_gather (gcall *call, struct zi_load *l)
{
  tree fn = gimple_call_fndecl (call), lhs = gimple_call_lhs (call);
  if (!fn || !lhs || TREE_CODE (lhs) != SSA_NAME || gimple_call_num_args (call) != 5
      || strncmp (IDENTIFIER_POINTER (DECL_NAME (fn)), "__builtin_ia32_gather", 21) != 0)
    return false;
  tree index = gimple_call_arg (call, 2), mask = gimple_call_arg (call, 3);
  tree scale = gimple_call_arg (call, 4);
  unsigned HOST_WIDE_INT nindex;
  if (!classify_type (TREE_TYPE (lhs), &l->type, &l->lanes) || l->lanes < 2
      || TREE_CODE (TREE_TYPE (index)) != VECTOR_TYPE
      || !TYPE_VECTOR_SUBPARTS (TREE_TYPE (index)).is_constant (&nindex)
      || !INTEGRAL_TYPE_P (TREE_TYPE (TREE_TYPE (index))) || !tree_fits_uhwi_p (scale)
      || !(VECTOR_TYPE_P (TREE_TYPE (mask)) || INTEGRAL_TYPE_P (TREE_TYPE (mask))))
    return false;
  l->access_bytes = type_bytes (TREE_TYPE (lhs));
  if (!l->access_bytes)
    return false;
  l->access_bytes /= l->lanes;
  l->lanes = MIN (l->lanes, (unsigned) nindex);
  l->access_bytes *= l->lanes;
  l->value = lhs;
  l->addr_arg = gimple_call_arg (call, 1);
  l->index = index;
  l->mask = mask;
  l->scale = tree_to_uhwi (scale);
  return true;
}

/* If STMT (LHS = RHS) reads vector K of an array of N vectors that
   .LOAD_LANES filled earlier in its block (aarch64's LD2/LD3/LD4: lane J
   of vector K is element J * N + K of the memory read), describe it in
   *L as a gather of its lanes from that memory, lane J at index J * N + K,
   and return true.  The array is a temporary of the vectorizer: without
   this its reads would be loads of a local without an address.  */
static bool
describe_lanes_read (gimple *stmt, tree lhs, tree rhs, struct zi_load *l)
{
  if (TREE_CODE (rhs) != ARRAY_REF || TREE_CODE (lhs) != SSA_NAME
      || !VECTOR_TYPE_P (TREE_TYPE (lhs)) || !VAR_P (TREE_OPERAND (rhs, 0))
      || !DECL_ARTIFICIAL (TREE_OPERAND (rhs, 0))
      || !auto_var_in_fn_p (TREE_OPERAND (rhs, 0), current_function_decl)
      || !tree_fits_uhwi_p (TREE_OPERAND (rhs, 1)))
    return false;
  tree array = TREE_OPERAND (rhs, 0);
  gimple *def = NULL;
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  for (gsi_prev (&gsi); !gsi_end_p (gsi) && !def; gsi_prev (&gsi))
    {
      gimple *s = gsi_stmt (gsi);
      if ((gimple_call_internal_p (s, IFN_LOAD_LANES)
           || gimple_call_internal_p (s, IFN_MASK_LOAD_LANES))
          && gimple_call_lhs (s) == array)
        def = s;
      else if (gimple_vdef (s))
        return false;    /* a store between: the array may hold other values */
    }
  tree vtype = TREE_TYPE (lhs);
  tree domain = TYPE_DOMAIN (TREE_TYPE (array));
  if (def && TREE_CODE (TREE_TYPE (array)) == ARRAY_TYPE && domain
      && tree_fits_uhwi_p (TYPE_MAX_VALUE (domain))
      && tree_to_uhwi (TYPE_MAX_VALUE (domain)) < 4
      && tree_to_uhwi (TREE_OPERAND (rhs, 1)) <= tree_to_uhwi (TYPE_MAX_VALUE (domain))
      && classify_spilled (vtype, gimple_call_internal_p (def, IFN_MASK_LOAD_LANES),
                           &l->type, &l->access_bytes))
    {
      /* Scalable vectors, and masked ones (SVE's LD2/LD3/LD4; masked in
         a fully-masked loop: .MASK_LOAD_LANES (pointer, alignment,
         mask), the mask's lane J for the J-th structure): lane J of
         vector K at element J * N + K, counted by emit_lanes_call.  */
      l->value = lhs;
      l->lanes = 0;
      l->spill = true;
      l->lanes_k = tree_to_uhwi (TREE_OPERAND (rhs, 1));
      l->lanes_n = tree_to_uhwi (TYPE_MAX_VALUE (domain)) + 1;
      if (gimple_call_internal_p (def, IFN_MASK_LOAD_LANES))
        {
          tree ptr = gimple_call_arg (def, 0);
          l->lanes_ref = build2 (MEM_REF, TREE_TYPE (array), ptr,
                                 build_int_cst (TREE_TYPE (ptr), 0));
          l->mask = gimple_call_arg (def, 2);
        }
      else
        l->lanes_ref = gimple_call_arg (def, 0);
      return true;
    }
  unsigned HOST_WIDE_INT lanes;
  if (!def || !gimple_call_internal_p (def, IFN_LOAD_LANES)
      || !TYPE_VECTOR_SUBPARTS (vtype).is_constant (&lanes)
      || !classify_type (vtype, &l->type, &l->lanes) || l->lanes != lanes)
    return false;
  unsigned vbytes = type_bytes (vtype), total = type_bytes (TREE_TYPE (array));
  unsigned k = tree_to_uhwi (TREE_OPERAND (rhs, 1));
  if (!vbytes || !total || total % vbytes || k >= total / vbytes)
    return false;
  unsigned n = total / vbytes;
  tree itype = build_vector_type (integer_type_node, lanes);
  tree_vector_builder index (itype, lanes, 1);
  for (unsigned j = 0; j < lanes; j++)
    index.quick_push (build_int_cst (integer_type_node, j * n + k));
  l->value = lhs;
  l->lanes_ref = gimple_call_arg (def, 0);
  l->lanes_k = k;
  l->lanes_n = n;
  l->index = index.build ();
  l->scale = vbytes / lanes;
  l->access_bytes = vbytes;
  return true;
}

/* If STMT loads from memory, describe it in *L and return true.  */
static bool
describe_load (gimple *stmt, struct zi_load *l)
{
  memset (l, 0, sizeof *l);
  l->stmt = stmt;
  if (gimple_assign_single_p (stmt) && !gimple_clobber_p (stmt))
    {
      tree lhs = gimple_assign_lhs (stmt), rhs = gimple_assign_rhs1 (stmt);
      if (!reads_memory (rhs) || rhs == zi_t.data_on_var)
        return false;     /* not a load, or the test of version_loops */
      if (zi_opts.no_sync_loads && gimple_has_volatile_ops (stmt))
        return false;
      if (describe_lanes_read (stmt, lhs, rhs, l))
        return true;
      l->ref = rhs;
      l->access_bytes = type_bytes (TREE_TYPE (rhs));
      if (TREE_CODE (lhs) == SSA_NAME)
        {
          if (classify_type (TREE_TYPE (lhs), &l->type, &l->lanes))
            {
              l->value = lhs;
              return true;
            }
          if (classify_spilled (TREE_TYPE (lhs), false, &l->type, &l->access_bytes))
            {
              l->value = lhs;
              l->lanes = 0;
              l->spill = true;
              return true;
            }
        }
      else if (!AGGREGATE_TYPE_P (TREE_TYPE (rhs)))
        return false;    /* not a load into a value nor an aggregate copy */
      l->type = ZI_OTHER;
      l->lanes = 1;
      return l->access_bytes != 0;
    }
  if (is_gimple_call (stmt) && gimple_call_builtin_p (stmt, BUILT_IN_NORMAL)
      && gimple_call_lhs (stmt))
    {
      switch (DECL_FUNCTION_CODE (gimple_call_fndecl (stmt)))
        {
        case BUILT_IN_ATOMIC_LOAD_1: case BUILT_IN_ATOMIC_LOAD_2:
        case BUILT_IN_ATOMIC_LOAD_4: case BUILT_IN_ATOMIC_LOAD_8:
        case BUILT_IN_ATOMIC_LOAD_16:
          {
            if (zi_opts.no_sync_loads)
              return false;
            tree lhs = gimple_call_lhs (stmt);
            if (TREE_CODE (lhs) != SSA_NAME
                || !classify_type (TREE_TYPE (lhs), &l->type, &l->lanes))
              return false;
            l->value = lhs;
            l->addr_arg = gimple_call_arg (stmt, 0);
            l->access_bytes = type_bytes (TREE_TYPE (lhs));
            return true;
          }
        default:
          return false;
        }
    }
  if (is_gimple_call (stmt) && gimple_call_internal_p (stmt, IFN_MASK_LOAD))
    {
      /* .MASK_LOAD (pointer, alias pointer and alignment, mask), of a
         vector of constant lanes under a mask of AVX2 or AVX-512
         (mask_lane), or from the stack: a scalable one, or one under an
         SVE predicate (-msve-vector-bits=N).  */
      tree lhs = gimple_call_lhs (stmt);
      if (!lhs || TREE_CODE (lhs) != SSA_NAME)
        return false;
      l->value = lhs;
      l->addr_arg = gimple_call_arg (stmt, 0);
      l->mask = gimple_call_arg (stmt, 2);
      if (classify_spilled (TREE_TYPE (lhs), predicate_p (l->mask), &l->type,
                            &l->access_bytes))
        {
          l->lanes = 0;
          l->spill = true;
          return true;
        }
      if (!classify_type (TREE_TYPE (lhs), &l->type, &l->lanes))
        return false;
      l->access_bytes = type_bytes (TREE_TYPE (lhs));
      return l->access_bytes != 0;
    }
  if (is_gimple_call (stmt) && gimple_call_internal_p (stmt)
      && (gimple_call_internal_fn (stmt) == IFN_GATHER_LOAD
          || gimple_call_internal_fn (stmt) == IFN_MASK_GATHER_LOAD))
    {
      /* .GATHER_LOAD (base, offsets, scale, zero) and .MASK_GATHER_LOAD
         (..., mask): SVE's LD1 with a vector of offsets (x86's gathers
         are target builtins: describe_gather), lane i from base +
         offsets[i] * scale, the offsets extended by their signedness;
         counted from the stack, scalable or not.  */
      tree lhs = gimple_call_lhs (stmt), offsets = gimple_call_arg (stmt, 1);
      tree scale = gimple_call_arg (stmt, 2);
      int mask = internal_fn_mask_index (gimple_call_internal_fn (stmt));
      if (!lhs || TREE_CODE (lhs) != SSA_NAME || !tree_fits_uhwi_p (scale)
          || tree_to_uhwi (scale) >= (1u << 16) || TREE_CODE (TREE_TYPE (offsets)) != VECTOR_TYPE
          || !INTEGRAL_TYPE_P (TREE_TYPE (TREE_TYPE (offsets)))
          || !tree_fits_uhwi_p (TYPE_SIZE_UNIT (TREE_TYPE (TREE_TYPE (offsets))))
          || tree_to_uhwi (TYPE_SIZE_UNIT (TREE_TYPE (TREE_TYPE (offsets)))) > 8
          || maybe_ne (TYPE_VECTOR_SUBPARTS (TREE_TYPE (offsets)),
                       TYPE_VECTOR_SUBPARTS (TREE_TYPE (lhs)))
          || !classify_spilled (TREE_TYPE (lhs), true, &l->type, &l->access_bytes))
        return false;
      l->value = lhs;
      l->lanes = 0;
      l->spill = true;
      l->addr_arg = gimple_call_arg (stmt, 0);
      l->index = offsets;
      l->scale = tree_to_uhwi (scale);
      l->mask = mask >= 0 ? gimple_call_arg (stmt, mask) : NULL_TREE;
      return true;
    }
  if (is_gimple_call (stmt) && gimple_call_builtin_p (stmt, BUILT_IN_MD))
    return describe_gather (as_a<gcall *> (stmt), l);
  return false;
}

/* The memory L reads, as a reference for its site's text: its own; for
   an atomic builtin, the value at its pointer (&x reads as x, p as *p);
   for a masked load, the reference its pointer is the address of (&MEM
   [p + i * 4]: p[?]), else the vector at its pointer; for a gather, an
   element at its base, with an offset only so that it reads as an
   indexed access (base[?]).  Only printed, never emitted.  */
static tree
site_ref (const struct zi_load *l)
{
  if (l->lanes_ref)
    {
      /* Its elements are every Nth from the memory's start: an offset
         only so that it reads as an indexed access (base[?]).  */
      tree ref = unshare_expr (l->lanes_ref);
      return fold_build2 (MEM_REF, TREE_TYPE (TREE_TYPE (l->value)), build_fold_addr_expr (ref),
                          build_int_cst (reference_alias_ptr_type (ref), 1));
    }
  if (l->ref || !l->addr_arg)
    return l->ref;
  tree ptr = l->addr_arg;
  /* A gather's base as an integer (SVE's: (sizetype) p): the pointer.  */
  if (l->index && TREE_CODE (ptr) == SSA_NAME && INTEGRAL_TYPE_P (TREE_TYPE (ptr)))
    if (gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (ptr)))
      if (CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def))
          && POINTER_TYPE_P (TREE_TYPE (gimple_assign_rhs1 (def))))
        ptr = gimple_assign_rhs1 (def);
  if (!POINTER_TYPE_P (TREE_TYPE (ptr)))
    return l->ref;
  tree ptr_type = TREE_TYPE (ptr);
  if (l->index)
    return fold_build2 (MEM_REF, TREE_TYPE (TREE_TYPE (l->value)), ptr,
                        build_int_cst (ptr_type, 1));
  if (l->mask && TREE_CODE (l->addr_arg) == SSA_NAME)
    if (gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (l->addr_arg)))
      if (gimple_assign_rhs_code (def) == ADDR_EXPR)
        return TREE_OPERAND (gimple_assign_rhs1 (def), 0);
  return build2 (MEM_REF, TREE_TYPE (l->value), l->addr_arg, build_int_cst (ptr_type, 0));
}

/* Does the runtime count each element of L (__zeroinst_count) at every
   level of optimization: the 128-bit classes, and masked loads, whose
   elements are only the active lanes?  */
static bool
runtime_counted_p (const struct zi_load *l)
{
  return ZI_WIDE_TYPE (l->type) || l->mask || l->index || l->spill;
}

/* EXPR as a gimple value, its statements appended to SEQ
   (force_gimple_operand replaces the sequence it is given).  */
static tree
gimple_operand (gimple_seq *seq, tree expr)
{
  gimple_seq more = NULL;
  tree v = force_gimple_operand (expr, &more, true, NULL_TREE);
  gimple_seq_add_seq (seq, more);
  return v;
}

/* The address of TMR (a TARGET_MEM_REF) in u64 arithmetic, as a tree:
   base + index * step + index2 + offset.  Scalar evolution follows an
   induction variable through this form, where it gives up on the pointer
   sum tree_mem_ref_addr builds (a pointer plus a negated or converted
   index: Fortran's array descriptors, GCC's own induction variables).  */
static tree
tmr_address_u64 (tree tmr)
{
  tree a = fold_convert (zi_t.u64, unshare_expr (TMR_BASE (tmr)));
  if (tree index = TMR_INDEX (tmr))
    {
      tree i = fold_convert (zi_t.u64, unshare_expr (index));
      if (TMR_STEP (tmr))
        i = fold_build2 (MULT_EXPR, zi_t.u64, i, fold_convert (zi_t.u64, TMR_STEP (tmr)));
      a = fold_build2 (PLUS_EXPR, zi_t.u64, a, i);
    }
  if (tree index2 = TMR_INDEX2 (tmr))
    a = fold_build2 (PLUS_EXPR, zi_t.u64, a, fold_convert (zi_t.u64, unshare_expr (index2)));
  if (!integer_zerop (TMR_OFFSET (tmr)))
    a = fold_build2 (PLUS_EXPR, zi_t.u64, a, fold_convert (zi_t.u64, TMR_OFFSET (tmr)));
  return a;
}

/* Address of the first byte of REF as a u64 value computed in SEQ, or
   zero for a local that is not addressable (it may live in registers; its
   address would change code generation).  FOR_SCEV: in u64 arithmetic
   throughout (tmr_address_u64), for the analysis of range loops.  */
static tree
element_address (gimple_seq *seq, const struct zi_load *l, bool for_scev = false)
{
  if (l->addr_arg)
    return gimple_convert (seq, zi_t.u64, l->addr_arg);
  poly_int64 bitsize, bitpos;
  tree offset;
  machine_mode mode;
  int unsignedp, reversep, volatilep = 0;
  tree inner = get_inner_reference (l->lanes_ref ? l->lanes_ref : l->ref, &bitsize, &bitpos,
                                    &offset, &mode, &unsignedp, &reversep, &volatilep);
  tree addr;
  if (DECL_P (inner))
    {
      if (!TREE_ADDRESSABLE (inner) && auto_var_in_fn_p (inner, current_function_decl))
        return build_zero_cst (zi_t.u64);
      TREE_ADDRESSABLE (inner) = 1;
      addr = build_fold_addr_expr (inner);
    }
  else if (TREE_CODE (inner) == TARGET_MEM_REF)
    addr = for_scev ? tmr_address_u64 (inner) : tree_mem_ref_addr (ptr_type_node,
                                                                   unshare_expr (inner));
  else if (TREE_CODE (inner) == MEM_REF)
    addr = build_fold_addr_expr (unshare_expr (inner));
  else
    return build_zero_cst (zi_t.u64);   /* constant pool data */
  HOST_WIDE_INT bytepos;
  bool at_byte = bits_to_bytes_round_down (bitpos).is_constant (&bytepos) && bytepos;
  if (for_scev)
    {
      addr = fold_convert (zi_t.u64, addr);
      if (offset)
        addr = fold_build2 (PLUS_EXPR, zi_t.u64, addr,
                            fold_convert (zi_t.u64, unshare_expr (offset)));
      if (at_byte)
        addr = fold_build2 (PLUS_EXPR, zi_t.u64, addr, build_int_cst (zi_t.u64, bytepos));
      return gimple_operand (seq, addr);
    }
  if (offset)
    addr = fold_build_pointer_plus (addr, unshare_expr (offset));
  if (at_byte)
    addr = fold_build_pointer_plus_hwi (addr, bytepos);
  return gimple_operand (seq, fold_convert (zi_t.u64, addr));
}

/* Raw bits of scalar VAL as u64 halves in SEQ (*HI is NULL below 128 bits).  */
static void
raw_bits (gimple_seq *seq, tree val, tree *lo, tree *hi)
{
  tree type = TREE_TYPE (val);
  unsigned bits = tree_to_uhwi (TYPE_SIZE (type));
  tree ut = build_nonstandard_integer_type (bits, 1);
  tree raw;
  if (INTEGRAL_TYPE_P (type) && TYPE_PRECISION (type) < bits)
    raw = gimple_convert (seq, ut, gimple_convert (seq, unsigned_type_for (type), val));
  else if (INTEGRAL_TYPE_P (type) || POINTER_TYPE_P (type) || TREE_CODE (type) == OFFSET_TYPE)
    raw = gimple_convert (seq, ut, val);
  else
    raw = gimple_build (seq, VIEW_CONVERT_EXPR, ut, val);
  *lo = gimple_convert (seq, zi_t.u64, raw);
  *hi = NULL_TREE;
  if (bits > 64)
    *hi = gimple_convert (seq, zi_t.u64,
                          gimple_build (seq, RSHIFT_EXPR, ut, raw,
                                        build_int_cst (integer_type_node, 64)));
}

/* Lane I of L's value (an SSA scalar) in SEQ.  */
static tree
lane_value (gimple_seq *seq, const struct zi_load *l, unsigned i)
{
  tree type = TREE_TYPE (l->value);
  if (TREE_CODE (type) == COMPLEX_TYPE)
    return gimple_build (seq, i ? IMAGPART_EXPR : REALPART_EXPR, TREE_TYPE (type), l->value);
  if (TREE_CODE (type) == VECTOR_TYPE)
    {
      tree lt = TREE_TYPE (type);
      tree size = TYPE_SIZE (lt);
      return gimple_build (seq, BIT_FIELD_REF, lt, l->value, size,
                           bitsize_int (i * tree_to_uhwi (size)));
    }
  return l->value;
}

/* The entry fields of one element, as u64 gimple values.  */
struct zi_lane {
  tree addr, lo, hi;
};

/* Fill LANES[0..L->lanes) in SEQ.  */
static void
build_lanes (gimple_seq *seq, const struct zi_load *l, struct zi_lane *lanes)
{
  tree addr = element_address (seq, l);
  unsigned lane_bytes = l->lanes ? l->access_bytes / l->lanes : 0;
  for (unsigned i = 0; i < l->lanes; i++)
    {
      lanes[i].addr = (i == 0 || integer_zerop (addr)) ? addr
          : gimple_build (seq, PLUS_EXPR, zi_t.u64, addr,
                          build_int_cst (zi_t.u64, i * lane_bytes));
      if (l->type == ZI_OTHER)
        {
          lanes[i].lo = build_int_cst (zi_t.u64, l->access_bytes);
          lanes[i].hi = NULL_TREE;
        }
      else
        raw_bits (seq, lane_value (seq, l, i), &lanes[i].lo, &lanes[i].hi);
    }
}

/* An iterator on the statement after which L's code goes: L's statement
   itself, or, when it ends its block (it can throw), a nop on its
   fall-through edge.  Returns false when there is no such edge.  */
static bool
append_point (gimple *stmt, gimple_stmt_iterator *gsi)
{
  if (!stmt_ends_bb_p (stmt))
    {
      *gsi = gsi_for_stmt (stmt);
      return true;
    }
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, gimple_bb (stmt)->succs)
    if (!(e->flags & (EDGE_EH | EDGE_ABNORMAL)))
      {
        gimple *nop = gimple_build_nop ();
        gsi_insert_on_edge_immediate (e, nop);
        *gsi = gsi_for_stmt (nop);
        return true;
      }
  return false;
}

/* Does this compilation target x86-64 (LP64, System V, with SSE), where
   the rare runtime calls go through register-preserving trampolines?  */
static bool
keep_registers_p (void)
{
#ifdef TARGET_SSE2
  return TARGET_64BIT && !TARGET_X32 && ix86_abi == SYSV_ABI && TARGET_SSE && TARGET_80387;
#else
  return false;
#endif
}

/* AVX-512's 32 vector and 8 mask registers, AVX's 256-bit ones, MMX's
   (x86 only: the other targets' plugin headers have no TARGET_AVX512F).  */
#ifdef TARGET_AVX512F
#define ZI_AVX512F TARGET_AVX512F
#define ZI_AVX TARGET_AVX
#define ZI_MMX TARGET_MMX
#else
#define ZI_AVX512F 0
#define ZI_AVX 0
#define ZI_MMX 0
#endif

/* Can the function being compiled hold vector values only in the 128
   bits of xmm0-15 (x86-64 without AVX)?  Then a trampoline that saves
   those 16 registers keeps all its vector values (ZI_KEEP_SSE), at a
   fraction of XSAVE's cost.  */
bool
zi_sse_only_p (void)
{
  return keep_registers_p () && !ZI_AVX;
}

/* Add the register named NAME to the asm clobber list *CLOBBERS.  */
static void
add_clobber (vec<tree, va_gc> **clobbers, const char *name)
{
  vec_safe_push (*clobbers, build_tree_list (NULL_TREE, build_string (strlen (name) + 1, name)));
}

/* Add the operand VALUE with constraint CONSTRAINT to the asm operand
   list *OPS (inputs or outputs).  */
static void
add_asm_operand (vec<tree, va_gc> **ops, const char *constraint, tree value)
{
  vec_safe_push (*ops, build_tree_list (build_tree_list (NULL_TREE,
                                                         build_string (strlen (constraint) + 1,
                                                                       constraint)),
                                        value));
}

/* A call of runtime function FN (ARGS[0..NARGS), at most 4), whose result
   zi_guarded_call sets (FN returns a value) or which returns nothing.  On
   x86-64 it is an asm statement that calls FN's trampoline KEEP
   (runtime/core/stack.c), which preserves every general-purpose register but
   the result's (rax): GCC then keeps nothing in callee-saved registers or
   stack slots for the sake of this rare call.  A plain call makes every
   value live across it (the program's locals in a loop, the function's
   arguments at entry) take a callee-saved register or a stack slot in
   every activation: instrumented frames were up to five times their plain
   size.  The vector, x87 and mask registers, which the ABI lets any call
   clobber, are declared clobbered but for those the trampoline saves too
   (KEEPS, runtime/core/stack.c): all of them (XSAVE), or xmm0-15 where the
   function cannot use more (zi_sse_only_p).  The asm first steps over the 128 bytes
   of red zone below the stack pointer, which GCC may use in a function
   that makes no call of its own, and calls through the GOT: a PLT entry
   may clobber r10 and r11 (lazy binding).  KEEP may be FN itself, when FN
   keeps every register (__zeroinst_mark).  */
gimple *
zi_runtime_call (tree fn, const char *keep, enum zi_keep keeps, unsigned nargs, const tree *args)
{
  gcc_assert (nargs <= 4);
  if (!keep_registers_p ())
    {
      vec<tree> v = vNULL;
      for (unsigned i = 0; i < nargs; i++)
        v.safe_push (args[i]);
      gcall *c = gimple_build_call_vec (fn, v);
      v.release ();
      return c;
    }
  char text[320];
  snprintf (text, sizeof text,
            "{lea -128(%%%%rsp), %%%%rsp|lea rsp, [rsp-128]}\n\t"
            "{call *%s@GOTPCREL(%%%%rip)|call [QWORD PTR %s@GOTPCREL[rip]]}\n\t"
            "{lea 128(%%%%rsp), %%%%rsp|lea rsp, [rsp+128]}", keep, keep);
  vec<tree, va_gc> *in = NULL, *out = NULL, *clobbers = NULL;
  const char *regs[] = { "D", "S", "d", "c" };
  for (unsigned i = 0; i < nargs; i++)
    add_asm_operand (&in, regs[i], args[i]);
  /* The output operand's value (an SSA name) is set by zi_guarded_call.  */
  if (!VOID_TYPE_P (TREE_TYPE (TREE_TYPE (fn))))
    add_asm_operand (&out, "=a", NULL_TREE);
  add_clobber (&clobbers, "memory");
  add_clobber (&clobbers, "cc");
  if (keeps == ZI_KEEP_ALL)
    {
      gasm *g = gimple_build_asm_vec (ggc_strdup (text), in, out, clobbers, NULL);
      gimple_asm_set_volatile (g, true);
      return g;
    }
  char name[16];
  for (int i = keeps == ZI_KEEP_SSE ? 16 : 0; i < (ZI_AVX512F ? 32 : 16); i++)
    {
      snprintf (name, sizeof name, "xmm%d", i);
      add_clobber (&clobbers, name);
    }
  for (int i = 0; ZI_AVX512F && i < 8; i++)
    {
      snprintf (name, sizeof name, "k%d", i);
      add_clobber (&clobbers, name);
    }
  add_clobber (&clobbers, "st");
  for (int i = 1; i < 8; i++)
    {
      snprintf (name, sizeof name, "st(%d)", i);
      add_clobber (&clobbers, name);
    }
  for (int i = 0; ZI_MMX && i < 8; i++)
    {
      /* MMX registers: the x87 ones under other names (not a register
         name at all with -mno-mmx).  */
      snprintf (name, sizeof name, "mm%d", i);
      add_clobber (&clobbers, name);
    }
  gasm *g = gimple_build_asm_vec (ggc_strdup (text), in, out, clobbers, NULL);
  gimple_asm_set_volatile (g, true);
  return g;
}

/* After *GSI (the end of a fast-path computation), branch to CALL (from
   zi_runtime_call) when "LHS CODE RHS" holds (unlikely).  Returns the PHI
   of FAST (fast path) and CALL's result (same type), and sets *JOIN to
   the start of the join block, before its first statement.  */
tree
zi_guarded_call (gimple_stmt_iterator *gsi, enum tree_code code, tree lhs, tree rhs,
                 gimple *call, tree fast, gimple_stmt_iterator *join)
{
  basic_block then_bb, join_bb;
  gimple_stmt_iterator cond_gsi
      = create_cond_insert_point (gsi, false, false, true, &then_bb, &join_bb);
  gcond *cond = gimple_build_cond (code, lhs, rhs, NULL_TREE, NULL_TREE);
  gsi_insert_after (&cond_gsi, cond, GSI_NEW_STMT);
  basic_block cond_bb = gimple_bb (cond);

  tree slow = make_ssa_name (TREE_TYPE (fast), call);
  if (gasm *a = dyn_cast<gasm *> (call))
    TREE_VALUE (gimple_asm_output_op (a, 0)) = slow;
  else
    gimple_call_set_lhs (as_a<gcall *> (call), slow);
  gimple_stmt_iterator then_gsi = gsi_start_bb (then_bb);
  gsi_insert_after (&then_gsi, call, GSI_NEW_STMT);

  tree merged = make_ssa_name (TREE_TYPE (fast));
  gphi *phi = create_phi_node (merged, join_bb);
  add_phi_arg (phi, fast, find_edge (cond_bb, join_bb), UNKNOWN_LOCATION);
  add_phi_arg (phi, slow, find_edge (then_bb, join_bb), UNKNOWN_LOCATION);
  *join = gsi_after_labels (join_bb);
  return merged;
}

/* Counter fields of a slot (struct zi_slot), by index.  */
enum zi_field { ZI_F_ELEMENTS, ZI_F_ZEROS, ZI_F_OR, ZI_F_HB, ZI_NFIELDS };
static const enum tree_code field_op[ZI_NFIELDS] = { PLUS_EXPR, PLUS_EXPR, BIT_IOR_EXPR, PLUS_EXPR };

/* An innermost loop whose counters are kept in registers.  */
struct zi_acc_loop {
  class loop *loop;
  auto_vec<edge> exits;
};

/* A data slot's cached object in registers: LO and LIMIT as in the slot,
   or ~0 and 0 (every element misses) when the slot is stale; CHUNK.  */
struct zi_range {
  tree lo, limit, chunk;
};

/* A range loop (version_ranges), until its test is built.  */
struct zi_range_loop {
  gimple *ok;                  /* "ok = false" before the test: replaced by the test */
  auto_vec<gimple *> loads;    /* its loads whose address is affine in it */
  auto_vec<tree> first, last;  /* their addresses at the first and last iteration */
  auto_vec<tree> step;         /* their addresses' steps */
  tree assumptions;            /* under which those are right; NULL: always */
};

/* Per function: the counter slots, and the accumulators of register loops
   (ACCS[unit * ZI_NFIELDS + field], a register variable, or NULL).  */
struct zi_fn_state {
  tree slots;                /* the activation's slot array (SSA) */
  tree data_on;              /* __zeroinst_data_on, read at entry (SSA) */
  tree node;                 /* the activation's node, or NULL */
  auto_vec<tree> accs;
  /* In register loops every load of a block runs as often as the block:
     one execution counter per block (BLOCK_ACCS[block]) stands for the
     elements of all of them.  */
  auto_vec<tree> block_accs;
  /* Loads with a data path give their elements to the old object at each
     object change: the block counter's value then is kept per unit
     (DATA_BASES[unit]), so the hot path counts nothing of its own.  */
  auto_vec<tree> data_bases;
  /* In the data-mode copies of register loops, each load's cached object
     is held in registers (DATA_RANGES[unit]), read from its data slot in
     the preheader and after each runtime call (range_regs).  */
  auto_vec<struct zi_range> data_ranges;
  /* In a range loop, the shadow half of a load that walks whole double
     words (half_iv_p) is an induction variable of its own (HALF_IVS[unit],
     a register variable): set in the preheader, stepped at the latch.
     Where the range has no chunk (stack, unknown memory) it is the
     address of __zeroinst_unseen[0], eight 0xff bytes: four halves all
     loaded and seen non-zero, which no element changes, with a step of
     0.  */
  auto_vec<tree> half_ivs;
  /* Units whose accumulators are vectors (VEC_UNITS[unit]: their type, an
     unsigned integer vector, or NULL: vector_count_type).  */
  auto_vec<tree> vec_units;
  /* Loops (by number) known to compute floating-point or vector values:
     1, or not: 2 (float_loop_p).  */
  hash_map<int_hash<int, -1, -2>, int> float_loops;
  /* Loops with something that disturbs objects (quiet_loop_p).  */
  hash_map<int_hash<int, -1, -2>, int> noisy_loops;
};

/* Does PRED hold for a PHI or statement of LOOP?  Kept in MAP by loop
   number (1: yes, 2: no), for use after blocks are split.  */
static bool
loop_has (hash_map<int_hash<int, -1, -2>, int> &map, class loop *loop, bool (*pred) (gimple *))
{
  if (int *known = map.get (loop->num))
    return *known == 1;
  bool found = false;
  basic_block *body = get_loop_body (loop);
  for (unsigned i = 0; !found && i < loop->num_nodes; i++)
    {
      for (gphi_iterator p = gsi_start_phis (body[i]); !found && !gsi_end_p (p); gsi_next (&p))
        found = pred (p.phi ());
      for (gimple_stmt_iterator g = gsi_start_bb (body[i]); !found && !gsi_end_p (g); gsi_next (&g))
        found = pred (gsi_stmt (g));
    }
  free (body);
  map.put (loop->num, found ? 1 : 2);
  return found;
}

/* Does STMT compute a floating-point, complex or vector value?  */
static bool
computes_float_p (gimple *stmt)
{
  tree lhs = is_a<gphi *> (stmt) ? gimple_phi_result (stmt) : gimple_get_lhs (stmt);
  if (!lhs)
    return false;
  tree t = TREE_TYPE (lhs);
  return FLOAT_TYPE_P (t) || VECTOR_TYPE_P (t) || COMPLEX_FLOAT_TYPE_P (t);
}

/* Does LOOP compute floating-point, complex or vector values?  Their
   registers would have to be saved around a runtime call inside it.  */
static bool
float_loop_p (struct zi_fn_state *st, class loop *loop)
{
  return loop_has (st->float_loops, loop, computes_float_p);
}

/* Could STMT free, move or allocate an object (a call: free and malloc
   are leaf builtins, allowed in register loops), or let another thread
   do so and hand the address over (an atomic operation, a volatile
   access)?  Internal functions other than atomics cannot.  */
static bool
disturbs_objects_p (gimple *stmt)
{
  if (gimple_has_volatile_ops (stmt) || gimple_code (stmt) == GIMPLE_ASM)
    return true;
  gcall *call = dyn_cast<gcall *> (stmt);
  return call && (!gimple_call_internal_p (call)
                  || !strncmp (internal_fn_name (gimple_call_internal_fn (call)), "ATOMIC_", 7));
}

/* Can the loads of LOOP, a register loop, keep their cached objects in
   registers (fill_range): does nothing in it disturb objects?  */
static bool
quiet_loop_p (struct zi_fn_state *st, class loop *loop)
{
  return !loop_has (st->noisy_loops, loop, disturbs_objects_p);
}

/* MEM[SLOTS + 32 * UNIT + 8 * FIELD] of the private u64 type.  */
static tree
slot_field (tree slots, int unit, unsigned field)
{
  return build2 (MEM_REF, zi_t.u64, slots,
                 build_int_cst (zi_t.u64_ptr, unit * sizeof (struct zi_slot) + field * 8));
}

/* FIELD of slot UNIT of SLOTS OP= VAL, in memory, in SEQ.  */
static void
add_to_slot (gimple_seq *seq, tree slots, int unit, unsigned field, tree val)
{
  tree old = make_ssa_name (zi_t.u64);
  gimple_seq_add_stmt (seq, gimple_build_assign (old, slot_field (slots, unit, field)));
  tree sum = gimple_build (seq, field_op[field], zi_t.u64, old, val);
  gimple_seq_add_stmt (seq, gimple_build_assign (slot_field (slots, unit, field), sum));
}

/* The execution counter of L's block in its register loop, made on first
   use: incremented at the block's start, so that a data path anywhere in
   the block sees the current execution counted.  */
static tree
block_runs (struct zi_fn_state *st, const struct zi_load *l)
{
  tree &acc = st->block_accs[l->block];
  if (!acc)
    {
      acc = create_tmp_reg (zi_t.u64, "zi_runs");
      gimple_stmt_iterator g = gsi_after_labels (BASIC_BLOCK_FOR_FN (cfun, l->block));
      gsi_insert_before (&g, gimple_build_assign (acc, PLUS_EXPR, acc, build_int_cst (zi_t.u64, 1)),
                         GSI_SAME_STMT);
    }
  return acc;
}

/* The block count at the last object change of L, a load with a data
   path in a register loop: its accumulators are added to the slot before
   each runtime call, its elements being its block's executions since the
   last change.  */
static tree
data_base (struct zi_fn_state *st, const struct zi_load *l)
{
  tree &base = st->data_bases[l->unit];
  if (!base)
    base = create_tmp_reg (zi_t.u64, "zi_base");
  return base;
}

/* The accumulator of FIELD of L's unit, made on first use: a u64, or a
   vector where the unit's lanes are counted at once (vector_count_type).  */
static tree &
field_acc (struct zi_fn_state *st, const struct zi_load *l, unsigned field)
{
  tree &acc = st->accs[l->unit * ZI_NFIELDS + field];
  if (!acc)
    {
      tree vt = st->vec_units[l->unit];
      acc = create_tmp_reg (vt ? vt : zi_t.u64, "zi_acc");
    }
  return acc;
}

/* FIELD of L's slot OP= VAL, in SEQ: on the loop's accumulator when L is in
   a register loop, else on the slot in memory.  */
static void
update_field (gimple_seq *seq, struct zi_fn_state *st, const struct zi_load *l, unsigned field,
              tree val)
{
  if (l->acc >= 0 && field == ZI_F_ELEMENTS)
    {
      block_runs (st, l);
      return;
    }
  if (l->acc >= 0)
    {
      tree &acc = field_acc (st, l, field);
      gimple_seq_add_stmt (seq, gimple_build_assign (acc, field_op[field], acc, val));
      return;
    }
  add_to_slot (seq, st->slots, l->unit, field, val);
}

/* (COND) as a u64 0 or 1, in SEQ.  */
static tree
flag (gimple_seq *seq, enum tree_code code, tree a, tree b)
{
  return gimple_convert (seq, zi_t.u64, gimple_build (seq, code, boolean_type_node, a, b));
}

/* Index of the highest non-zero byte of V | 1, V an integer element of
   BYTES (<= 8) bytes zero-extended to u64.  */
static tree
high_byte (gimple_seq *seq, tree v, unsigned bytes)
{
  if (zi_t.clz_fn && bytes >= 4)
    {
      /* (63 - clz (v | 1)) >> 3; 63 - c == c ^ 63 for c in [0, 63].  */
      tree x = gimple_convert (seq, long_long_unsigned_type_node,
                               gimple_build (seq, BIT_IOR_EXPR, zi_t.u64, v,
                                             build_int_cst (zi_t.u64, 1)));
      tree c = gimple_build (seq, UNKNOWN_LOCATION, as_combined_fn (BUILT_IN_CLZLL),
                             integer_type_node, x);
      /* In 32 bits, whose result is zero-extended for free on x86-64.  */
      c = gimple_convert (seq, unsigned_type_node, c);
      c = gimple_build (seq, RSHIFT_EXPR, unsigned_type_node,
                        gimple_build (seq, BIT_XOR_EXPR, unsigned_type_node, c,
                                      build_int_cst (unsigned_type_node, 63)),
                        build_int_cst (integer_type_node, 3));
      return gimple_convert (seq, zi_t.u64, c);
    }
  /* Without a clz instruction: one compare per byte above the lowest.  */
  tree h = NULL_TREE;
  for (unsigned k = 1; k < bytes; k++)
    {
      tree above = flag (seq, GT_EXPR, v,
                         build_int_cst (zi_t.u64, (HOST_WIDE_INT) ((1ull << (8 * k)) - 1)));
      h = h ? gimple_build (seq, PLUS_EXPR, zi_t.u64, h, above) : above;
    }
  return h;
}

/* Are L's float lanes of 2 or 4 bytes counted eight bytes at a time
   (emit_counters)?  Their lane bits, 8 * LANE_BYTES of them.  */
static unsigned
swar_lane_bits (const struct zi_load *l)
{
  if (!ZI_FLOAT_TYPE (l->type) || TREE_CODE (TREE_TYPE (l->value)) != VECTOR_TYPE
      || l->access_bytes % 8)
    return 0;
  unsigned lane_bytes = l->access_bytes / l->lanes;
  return lane_bytes == 2 || lane_bytes == 4 ? 8 * lane_bytes : 0;
}

/* The OR of the BITS-bit lanes of the u64 words OR-ed into ORS, in SEQ.  */
static tree
fold_lanes (gimple_seq *seq, tree ors, unsigned bits)
{
  for (unsigned shift = 64 / 2; shift >= bits; shift /= 2)
    ors = gimple_build (seq, BIT_IOR_EXPR, zi_t.u64, ors,
                        gimple_build (seq, RSHIFT_EXPR, zi_t.u64, ors,
                                      build_int_cst (integer_type_node, shift)));
  return gimple_build (seq, BIT_AND_EXPR, zi_t.u64, ors,
                       build_int_cst (zi_t.u64, (HOST_WIDE_INT) ((1ull << bits) - 1)));
}

/* optabs-tree.h's, whose header GCC installs for plugins without the
   insn-opinit.h it includes.  */
enum optab_subtype { optab_default, optab_scalar, optab_vector, optab_vector_mixed_sign };
bool target_supports_op_p (tree, enum tree_code, enum optab_subtype);

/* Vector counters.  In a register loop, the lanes of a vector of 4-byte
   integers or of 4- or 8-byte floats are counted by vector operations on
   accumulators of one lane per lane (emit_counters), instead of one by
   one in scalar ones.  With x a lane's raw bits as an unsigned integer of
   its N bits (a float's shifted left by one: the sign dropped):
       nz += (x | -x) >> (N - 1)         1 when the element is non-zero
       or |= lane
       hb += (-a >> 31) + ((0xff - a) >> 31) + ((0xffff - a) >> 31)
                                         integers, a = lane >> 8 < 2^24:
                                         each difference is negative
                                         exactly when a exceeds 0, 0xff,
                                         0xffff, so the sum is high_byte's
                                         index of lane | 1
   Some 20 vector instructions for four 4-byte integer lanes, against
   some 45 scalar ones to take the lanes apart and count each: where each
   iteration's load misses the cache (a record per iteration:
   examples/kernels/blocks.c) fewer instructions wait on each miss, and
   the next iterations' loads issue sooner.  The accumulators are folded
   where scalar ones are added to the slot (acc_value, fold_vector_acc):
   the zeros field gets the elements less the sum of nz.  A 4-byte lane
   gains at most 3 per iteration (1 for floats), and the fold adds the
   lanes that share a half of the vector's 64-bit words in 32 bits: exact
   while LANES / 2 * 3 times the loop's iterations stays below 2^32
   (vector_counts_fit_p; the vectorizer's loops over an int index run at
   most 2^31 / LANES times, a loop of a fixed trip count is known), else
   the lanes are counted one by one.  A block in an irreducible region
   may run more often than its loop iterates: never there.  Only where
   the target has the vector operations, on their own (after vector
   lowering, nothing would split them; a negation that folding makes of
   0 - x expands as that subtraction where the target has no negation).  */

/* The unsigned integer vector type L's lanes are counted in, or NULL.  */
static tree
vector_count_type (const struct zi_load *l)
{
  if (!l->value || l->bits || l->mask || l->spill || l->index || l->type == ZI_OTHER)
    return NULL_TREE;
  tree t = TREE_TYPE (l->value);
  if (TREE_CODE (t) != VECTOR_TYPE || !TYPE_VECTOR_SUBPARTS (t).is_constant ())
    return NULL_TREE;
  unsigned lanes = TYPE_VECTOR_SUBPARTS (t).to_constant ();
  unsigned bytes = lanes ? l->access_bytes / lanes : 0;
  bool is_float = ZI_FLOAT_TYPE (l->type);
  if (lanes != l->lanes || lanes < 2 || lanes * bytes != l->access_bytes || l->access_bytes % 8
      || !(is_float ? l->type == ZI_F32 || l->type == ZI_F64 : l->type == ZI_I32))
    return NULL_TREE;
  tree vt = build_vector_type (build_nonstandard_integer_type (8 * bytes, 1), lanes);
  if (!VECTOR_MODE_P (TYPE_MODE (vt)))
    return NULL_TREE;
  static const enum tree_code ops[] = { PLUS_EXPR, MINUS_EXPR, BIT_IOR_EXPR };
  for (enum tree_code code : ops)
    if (!target_supports_op_p (vt, code, optab_default))
      return NULL_TREE;
  if (!target_supports_op_p (vt, RSHIFT_EXPR, optab_scalar)
      || (is_float && !target_supports_op_p (vt, LSHIFT_EXPR, optab_scalar)))
    return NULL_TREE;
  return vt;
}

/* Can LOOP's lanes of VT (TYPE's) be summed in their lanes exactly: does
   its bound keep LANES / 2 * per-iteration gain * iterations below 2^32?
   8-byte lanes always can.  Needs dominators and scalar evolutions.  */
static bool
vector_counts_fit_p (class loop *loop, tree vt, enum zi_type type)
{
  if (TYPE_PRECISION (TREE_TYPE (vt)) == 64)
    return true;
  HOST_WIDE_INT latch = max_loop_iterations_int (loop);
  if (latch < 0)
    return false;
  unsigned HOST_WIDE_INT per = (TYPE_VECTOR_SUBPARTS (vt).to_constant () / 2)
                               * (ZI_FLOAT_TYPE (type) ? 1 : 3);
  return (unsigned HOST_WIDE_INT) latch < 0xffffffffull / per;
}

/* What vector accumulator ACC of FIELD adds to its slot field, in SEQ:
   its lanes' OR, or their sum, which for the zeros field (the count of
   non-zero elements) is taken from ELEMENTS.  */
static tree
fold_vector_acc (gimple_seq *seq, unsigned field, tree acc, tree elements)
{
  tree vt = TREE_TYPE (acc);
  enum tree_code op = field == ZI_F_OR ? BIT_IOR_EXPR : PLUS_EXPR;
  unsigned words = tree_to_uhwi (TYPE_SIZE (vt)) / 64;
  tree all = NULL_TREE;
  for (unsigned w = 0; w < words; w++)
    {
      tree word = gimple_build (seq, BIT_FIELD_REF, zi_t.u64, acc, bitsize_int (64),
                                bitsize_int (64 * w));
      all = all ? gimple_build (seq, op, zi_t.u64, all, word) : word;
    }
  if (TYPE_PRECISION (TREE_TYPE (vt)) == 32)
    {
      if (field == ZI_F_OR)
        all = fold_lanes (seq, all, 32);
      else
        all = gimple_build (seq, PLUS_EXPR, zi_t.u64,
                            gimple_build (seq, BIT_AND_EXPR, zi_t.u64, all,
                                          build_int_cst (zi_t.u64, 0xffffffff)),
                            gimple_build (seq, RSHIFT_EXPR, zi_t.u64, all,
                                          build_int_cst (integer_type_node, 32)));
    }
  if (field == ZI_F_ZEROS)
    all = gimple_build (seq, MINUS_EXPR, zi_t.u64, elements, all);
  return all;
}

/* What the accumulator ACC of FIELD of L, a load in a register loop,
   adds to its slot field, in SEQ; ELEMENTS: the elements it counted.
   A vector accumulator is folded (fold_vector_acc).
   Eight-byte words of float lanes (swar_lane_bits) are accumulated
   unfolded: the OR of the words, and the count of non-zero lanes in the
   zeros field's place; both are turned into the field's meaning here,
   once per flush instead of once per element.  */
static tree
acc_value (gimple_seq *seq, const struct zi_load *l, unsigned field, tree acc, tree elements)
{
  if (VECTOR_TYPE_P (TREE_TYPE (acc)))
    return fold_vector_acc (seq, field, acc, elements);
  unsigned bits = swar_lane_bits (l);
  if (!bits)
    return acc;
  if (field == ZI_F_OR)
    return fold_lanes (seq, acc, bits);
  if (field == ZI_F_ZEROS)
    return gimple_build (seq, MINUS_EXPR, zi_t.u64, elements, acc);
  return acc;
}

/* The counter updates of L (inline mode, a slot of its own, not 128-bit)
   into SEQ: elements += lanes, and over its lanes' raw bits v the zero
   elements, the OR and, for integers, the sum of high_byte (SPEC section 3,
   zeroinst-abi.h).  */
static void
emit_counters (gimple_seq *seq, struct zi_fn_state *st, const struct zi_load *l)
{
  update_field (seq, st, l, ZI_F_ELEMENTS, build_int_cst (zi_t.u64, l->lanes));
  if (l->type == ZI_OTHER)
    return;
  if (tree vt = l->acc >= 0 ? st->vec_units[l->unit] : NULL_TREE)
    {
      /* The lanes at once (vector_count_type).  */
      unsigned bits = TYPE_PRECISION (TREE_TYPE (vt));
      bool is_float = ZI_FLOAT_TYPE (l->type);
      tree v = gimple_build (seq, VIEW_CONVERT_EXPR, vt, l->value);
      tree zero = build_zero_cst (vt);
      tree x = is_float ? gimple_build (seq, LSHIFT_EXPR, vt, v, build_int_cst (integer_type_node, 1))
                        : v;
      tree nz = gimple_build (seq, RSHIFT_EXPR, vt,
                              gimple_build (seq, BIT_IOR_EXPR, vt, x,
                                            gimple_build (seq, MINUS_EXPR, vt, zero, x)),
                              build_int_cst (integer_type_node, bits - 1));
      update_field (seq, st, l, ZI_F_ZEROS, nz);
      update_field (seq, st, l, ZI_F_OR, v);
      if (is_float)
        return;
      tree a = gimple_build (seq, RSHIFT_EXPR, vt, v, build_int_cst (integer_type_node, 8));
      tree hb = NULL_TREE;
      static const unsigned HOST_WIDE_INT below[] = { 0, 0xff, 0xffff };
      for (unsigned HOST_WIDE_INT c : below)
        {
          tree above = gimple_build (seq, RSHIFT_EXPR, vt,
                                     gimple_build (seq, MINUS_EXPR, vt,
                                                   build_vector_from_val (vt, build_int_cst (TREE_TYPE (vt), c)),
                                                   a),
                                     build_int_cst (integer_type_node, 31));
          hb = hb ? gimple_build (seq, PLUS_EXPR, vt, hb, above) : above;
        }
      update_field (seq, st, l, ZI_F_HB, hb);
      return;
    }
  const bool is_float = ZI_FLOAT_TYPE (l->type);
  const unsigned bytes = l->access_bytes / l->lanes;
  tree zeros = NULL_TREE, ors = NULL_TREE, hb = NULL_TREE;
  if (unsigned bits = swar_lane_bits (l))
    {
      /* Float lanes of 2 or 4 bytes, eight bytes at a time as one integer
         (no lane extraction).  With y = word & ~S (S: the lanes' sign
         bits), y + ~S carries into a lane's sign bit exactly when the lane
         is non-zero, and never into the next lane; the multiply adds the
         lanes' flags into the top lane.  The OR of the words, folded to one
         lane, is the OR of the lanes.  In a register loop the count of
         non-zero lanes and the unfolded OR are accumulated (acc_value).  */
      unsigned per = 64 / bits;
      bool regs = l->acc >= 0;
      unsigned HOST_WIDE_INT lane1 = 0, signs;
      for (unsigned k = 0; k < per; k++)
        lane1 |= 1ull << (k * bits);
      signs = lane1 << (bits - 1);
      tree nosign = build_int_cst (zi_t.u64, (HOST_WIDE_INT) ~signs);
      for (unsigned w = 0; w < l->access_bytes / 8; w++)
        {
          tree word = gimple_build (seq, BIT_FIELD_REF, zi_t.u64, l->value, bitsize_int (64),
                                    bitsize_int (64 * w));
          tree y = gimple_build (seq, BIT_AND_EXPR, zi_t.u64, word, nosign);
          tree nz = gimple_build (seq, BIT_AND_EXPR, zi_t.u64,
                                  gimple_build (seq, PLUS_EXPR, zi_t.u64, y, nosign),
                                  build_int_cst (zi_t.u64, (HOST_WIDE_INT) signs));
          tree count = gimple_build (seq, RSHIFT_EXPR, zi_t.u64,
                                     gimple_build (seq, MULT_EXPR, zi_t.u64,
                                                   gimple_build (seq, RSHIFT_EXPR, zi_t.u64, nz,
                                                                 build_int_cst (integer_type_node,
                                                                                bits - 1)),
                                                   build_int_cst (zi_t.u64, (HOST_WIDE_INT) lane1)),
                                     build_int_cst (integer_type_node, 64 - bits));
          tree z = regs ? count : gimple_build (seq, MINUS_EXPR, zi_t.u64,
                                                build_int_cst (zi_t.u64, per), count);
          zeros = zeros ? gimple_build (seq, PLUS_EXPR, zi_t.u64, zeros, z) : z;
          ors = ors ? gimple_build (seq, BIT_IOR_EXPR, zi_t.u64, ors, word) : word;
        }
      if (!regs)
        ors = fold_lanes (seq, ors, bits);
      update_field (seq, st, l, ZI_F_ZEROS, zeros);
      update_field (seq, st, l, ZI_F_OR, ors);
      return;
    }
  for (unsigned i = 0; i < l->lanes; i++)
    {
      tree v = l->bits, hi;
      if (!v)
        raw_bits (seq, lane_value (seq, l, i), &v, &hi);
      tree z;
      if (is_float)
        {
          /* Zero when every bit but the sign is: shift the sign out.  */
          z = flag (seq, EQ_EXPR, gimple_build (seq, LSHIFT_EXPR, zi_t.u64, v,
                                                build_int_cst (integer_type_node,
                                                               65 - 8 * bytes)),
                    build_zero_cst (zi_t.u64));
        }
      else
        {
          z = flag (seq, EQ_EXPR, v, build_zero_cst (zi_t.u64));
          if (bytes > 1)
            {
              tree h = high_byte (seq, v, bytes);
              hb = hb ? gimple_build (seq, PLUS_EXPR, zi_t.u64, hb, h) : h;
            }
        }
      zeros = zeros ? gimple_build (seq, PLUS_EXPR, zi_t.u64, zeros, z) : z;
      ors = ors ? gimple_build (seq, BIT_IOR_EXPR, zi_t.u64, ors, v) : v;
    }
  update_field (seq, st, l, ZI_F_ZEROS, zeros);
  update_field (seq, st, l, ZI_F_OR, ors);
  if (hb)
    update_field (seq, st, l, ZI_F_HB, hb);
}

/* Split the block before END: "if (A CODE B)" ends the part before END
   and branches to a new block, which falls through to END's.  Returns a
   nop in the new block, before which its code goes.  LIKELY: the branch
   is taken most of the time.  */
static gimple *
branch_before (gimple *end, enum tree_code code, tree a, tree b, bool likely)
{
  gimple_stmt_iterator it = gsi_for_stmt (end);
  basic_block then_bb, join_bb;
  gimple_stmt_iterator c = create_cond_insert_point (&it, true, likely, true, &then_bb, &join_bb);
  gsi_insert_after (&c, gimple_build_cond (code, a, b, NULL_TREE, NULL_TREE), GSI_NEW_STMT);
  gimple *anchor = gimple_build_nop ();
  gimple_stmt_iterator t = gsi_start_bb (then_bb);
  gsi_insert_after (&t, anchor, GSI_NEW_STMT);
  return anchor;
}

static void
insert_before (gimple *end, gimple_seq seq)
{
  gimple_stmt_iterator it = gsi_for_stmt (end);
  gsi_insert_seq_before (&it, seq, GSI_SAME_STMT);
}

/* Lane I of MASK in SEQ: a u64, non-zero when the lane is active.  A
   mask in a vector mode (AVX2) has it in the sign bit of lane I (a boolean
   vector's lanes are all ones or zeros); one in an integer mode (AVX-512's
   mask registers) in bit I.  */
static tree
mask_lane (gimple_seq *seq, tree mask, unsigned i)
{
  tree type = TREE_TYPE (mask);
  if (VECTOR_MODE_P (TYPE_MODE (type)))
    {
      tree lt = TREE_TYPE (type);
      unsigned bits = tree_to_uhwi (TYPE_SIZE (lt));
      tree lane = gimple_build (seq, BIT_FIELD_REF, lt, mask, TYPE_SIZE (lt),
                                bitsize_int (i * bits));
      tree ut = build_nonstandard_integer_type (bits, 1);
      tree raw = gimple_convert (seq, zi_t.u64, gimple_build (seq, VIEW_CONVERT_EXPR, ut, lane));
      return gimple_build (seq, RSHIFT_EXPR, zi_t.u64, raw, build_int_cst (integer_type_node,
                                                                           bits - 1));
    }
  unsigned bits = GET_MODE_BITSIZE (TYPE_MODE (type)).to_constant ();
  tree bits_type = build_nonstandard_integer_type (bits, 1);
  tree m = gimple_convert (seq, zi_t.u64, gimple_build (seq, VIEW_CONVERT_EXPR, bits_type, mask));
  return gimple_build (seq, BIT_AND_EXPR, zi_t.u64, m,
                       build_int_cst (zi_t.u64, HOST_WIDE_INT_1U << i));
}

/* The context and counter slot that the runtime's counting calls take
   for L (__zeroinst_count, __zeroinst_count_lanes), in SEQ: a null slot
   for a site beyond the function's slots.  */
static void
count_args (gimple_seq *seq, struct zi_fn_state *st, const struct zi_load *l, tree *ctx,
            tree *slot)
{
  *ctx = st->node ? st->node : build_zero_cst (ptr_type_node);
  *slot = build_zero_cst (ptr_type_node);
  if (l->unit >= 0)
    *slot = gimple_build (seq, POINTER_PLUS_EXPR, ptr_type_node, st->slots,
                          size_int (l->unit * sizeof (struct zi_slot)));
}

/* A new buffer on the activation's stack for a vector counted from the
   stack (emit_lanes_call), of the largest vector SVE has (2048 bits),
   aligned for any of them: NAME says what it holds.  */
static tree
lanes_buffer (const char *name)
{
  tree t = build_array_type_nelts (unsigned_char_type_node, 256);
  tree v = create_tmp_var (t, name);
  TREE_ADDRESSABLE (v) = 1;
  SET_DECL_ALIGN (v, MAX (DECL_ALIGN (v), 128u));
  return v;
}

/* Store vector VAL at the start of BUF in SEQ.  */
static void
store_vector (gimple_seq *seq, tree buf, tree val)
{
  tree type = TREE_TYPE (val);
  if (TYPE_ALIGN (type) > DECL_ALIGN (buf))
    type = build_aligned_type (type, DECL_ALIGN (buf));
  tree mem = build2 (MEM_REF, type, build_fold_addr_expr (buf),
                     build_int_cst (build_pointer_type (char_type_node), 0));
  gimple_seq_add_stmt (seq, gimple_build_assign (mem, val));
}

/* A vector L counted from the stack (SVE's): how many lanes a scalable
   vector has is known only when it runs, and an SVE predicate's lanes
   cannot be taken apart in GIMPLE (BIT_FIELD_REF), so the value goes to
   a buffer on the stack, the mask (a masked load's) as a vector of lanes
   of the same size, -1 where active and 0 where not (.VCOND_MASK), to
   another, a gather's offsets to a third, and one runtime call,
   __zeroinst_count_lanes, counts each active lane at its address, as
   __zeroinst_count counts one.  The number of lanes of a scalable vector
   is a constant of the target's vector length (a POLY_INT_CST: SVE's
   CNTW and the like).  Where the target cannot turn the mask into a
   vector the load is not counted (none of GCC's targets with scalable
   vectors is such).

   The stores follow the load; the call goes at the end of the load's
   block, after the program's uses of the vector there: a vector live
   across a call is spilled by the register allocator, and GCC 12's
   reload fails on some of SVE's partial vectors (VNx2QI, bytes in
   64-bit lanes: "in gen_rtx_SUBREG").  A vectorized loop's loads are
   used in their block, so no partial vector is live across the call;
   each load has buffers of its own, as the calls of one block wait
   together.  */
static void
emit_lanes_call (gimple *end, struct zi_fn_state *st, const struct zi_load *l)
{
  tree vtype = TREE_TYPE (l->value);
  poly_uint64 nlanes = TYPE_VECTOR_SUBPARTS (vtype);
  gimple_seq seq = NULL;
  tree mask_ptr = build_zero_cst (ptr_type_node);
  if (l->mask)
    {
      /* Integer lanes in the value's own mode (an SVE partial vector,
         VNx4QI, whose lanes sit in wider containers, would otherwise be
         given another: V8QI).  */
      machine_mode imode;
      if (!VECTOR_MODE_P (TYPE_MODE (vtype))
          || !related_int_vector_mode (TYPE_MODE (vtype)).exists (&imode))
        return;
      tree lane = build_nonstandard_integer_type (l->access_bytes * BITS_PER_UNIT, 0);
      tree itype = build_vector_type_for_mode (lane, imode);
      if (!direct_internal_fn_supported_p (IFN_VCOND_MASK,
                                              tree_pair (itype, TREE_TYPE (l->mask)),
                                              OPTIMIZE_FOR_SPEED))
        return;
      tree active = make_ssa_name (itype);
      gcall *c = gimple_build_call_internal (IFN_VCOND_MASK, 3, l->mask,
                                             build_minus_one_cst (itype), build_zero_cst (itype));
      gimple_call_set_lhs (c, active);
      gimple_seq_add_stmt (&seq, c);
      tree mbuf = lanes_buffer ("zi_mask");
      store_vector (&seq, mbuf, active);
      mask_ptr = build_fold_addr_expr (mbuf);
    }
  tree vbuf = lanes_buffer ("zi_lanes");
  store_vector (&seq, vbuf, l->value);
  tree offsets = build_zero_cst (ptr_type_node);
  unsigned HOST_WIDE_INT how = 0;
  if (l->index)
    {
      tree ot = TREE_TYPE (TREE_TYPE (l->index));
      tree obuf = lanes_buffer ("zi_offsets");
      store_vector (&seq, obuf, l->index);
      offsets = build_fold_addr_expr (obuf);
      how = ZI_LANES_GATHER (tree_to_uhwi (TYPE_SIZE_UNIT (ot)), !TYPE_UNSIGNED (ot), l->scale);
    }
  else if (l->lanes_ref)
    how = ZI_LANES_STRUCT (l->lanes_n, l->lanes_k);
  tree addr = element_address (&seq, l);
  tree ctx, slot;
  count_args (&seq, st, l, &ctx, &slot);
  insert_before (end, seq);
  tree n = build_int_cst (zi_t.u64, poly_int64 (nlanes));
  gcall *call = gimple_build_call (zi_t.lanes_fn, 9, l->site, ctx, slot, addr,
                                   build_fold_addr_expr (vbuf), mask_ptr, n, offsets,
                                   build_int_cst (zi_t.u64, how));
  /* Before the block's control statement, and before a tail call (the
     last call of the activation: nothing may run after it).  */
  gimple_stmt_iterator last = gsi_last_bb (gimple_bb (end));
  bool before = stmt_ends_bb_p (gsi_stmt (last));
  if (before)
    {
      gimple_stmt_iterator prev = last;
      gsi_prev (&prev);
      if (!gsi_end_p (prev))
        if (gcall *c = dyn_cast<gcall *> (gsi_stmt (prev)))
          if (gimple_call_tail_p (c))
            last = prev;
    }
  else if (gcall *c = dyn_cast<gcall *> (gsi_stmt (last)))
    before = gimple_call_tail_p (c);
  if (before)
    gsi_insert_before (&last, call, GSI_SAME_STMT);
  else
    gsi_insert_after (&last, call, GSI_NEW_STMT);
}

/* One __zeroinst_count call per element of L before END: out-of-line
   mode, the 128-bit classes, sites beyond the function's slots, and the
   active lanes of a masked load (each call behind its lane's test); a
   vector counted from the stack through __zeroinst_count_lanes.  */
static void
emit_record_calls (gimple *end, struct zi_fn_state *st, const struct zi_load *l)
{
  if (l->spill)
    {
      emit_lanes_call (end, st, l);
      return;
    }
  gimple_seq head = NULL;
  gimple_seq *seq = &head;
  auto_vec<struct zi_lane, 8> lanes;
  lanes.safe_grow (l->lanes);
  build_lanes (seq, l, lanes.address ());
  tree ctx, slot;
  count_args (seq, st, l, &ctx, &slot);
  /* The gather's base; 0: a local without an address (a .LOAD_LANES of
     one), whose lanes have none either.  */
  tree base = l->lanes ? lanes[0].addr : NULL_TREE;
  for (unsigned i = 0; l->index && base && !integer_zerop (base) && i < l->lanes; i++)
    {
      /* A gather's lane I: base + (signed) index[i] * scale.  */
      tree it = TREE_TYPE (TREE_TYPE (l->index));
      tree idx = gimple_build (seq, BIT_FIELD_REF, it, l->index, TYPE_SIZE (it),
                               bitsize_int (i * tree_to_uhwi (TYPE_SIZE (it))));
      idx = gimple_convert (seq, zi_t.u64,
                            gimple_convert (seq, signed_type_for (it), idx));
      lanes[i].addr = gimple_build (seq, PLUS_EXPR, zi_t.u64, base,
                                    gimple_build (seq, MULT_EXPR, zi_t.u64, idx,
                                                  build_int_cst (zi_t.u64, l->scale)));
    }
  for (unsigned i = 0; i < l->lanes; i++)
    {
      gcall *call = gimple_build_call (zi_t.record_fn, 6, l->site, ctx, slot, lanes[i].addr,
                                       lanes[i].lo,
                                       lanes[i].hi ? lanes[i].hi : build_zero_cst (zi_t.u64));
      if (!l->mask)
        {
          gimple_seq_add_stmt (seq, call);
          continue;
        }
      tree active = mask_lane (seq, l->mask, i);
      insert_before (end, head);
      head = NULL;
      insert_before (branch_before (end, NE_EXPR, active, build_zero_cst (zi_t.u64), true),
                     call);
    }
  insert_before (end, head);
}

/* Bit k set iff byte k of V (a u64 holding N bytes, zero-extended) is
   non-zero, as a u32 (shadow.h's zi_nonzero_bytes).  */
static tree
nonzero_bytes (gimple_seq *seq, tree v, unsigned n)
{
  if (n == 1)
    return gimple_convert (seq, zi_t.u32, flag (seq, NE_EXPR, v, build_zero_cst (zi_t.u64)));
  /* A byte's high bit is set in (low 7 bits + 0x7f) | byte iff the byte
     is non-zero (no carry leaves a byte); a multiply gathers the high
     bits into the top byte.  Up to 4 bytes in 32-bit operations, whose
     constants are immediates (loops are short of registers); 8 bytes
     with three 64-bit constants.  */
  if (n <= 4)
    {
      tree low7 = build_int_cst (zi_t.u32, 0x7f7f7f7f);
      tree w = gimple_convert (seq, zi_t.u32, v);
      tree t = gimple_build (seq, PLUS_EXPR, zi_t.u32,
                             gimple_build (seq, BIT_AND_EXPR, zi_t.u32, w, low7), low7);
      t = gimple_build (seq, BIT_AND_EXPR, zi_t.u32,
                        gimple_build (seq, BIT_IOR_EXPR, zi_t.u32, t, w),
                        build_int_cst (zi_t.u32, (HOST_WIDE_INT) 0x80808080u));
      return gimple_build (seq, RSHIFT_EXPR, zi_t.u32,
                           gimple_build (seq, MULT_EXPR, zi_t.u32, t,
                                         build_int_cst (zi_t.u32, 0x00204081)),
                           build_int_cst (integer_type_node, 28));
    }
  tree low7 = build_int_cst (zi_t.u64, (HOST_WIDE_INT) 0x7f7f7f7f7f7f7f7full);
  tree t = gimple_build (seq, PLUS_EXPR, zi_t.u64,
                         gimple_build (seq, BIT_AND_EXPR, zi_t.u64, v, low7), low7);
  t = gimple_build (seq, BIT_AND_EXPR, zi_t.u64, gimple_build (seq, BIT_IOR_EXPR, zi_t.u64, t, v),
                    build_int_cst (zi_t.u64, (HOST_WIDE_INT) 0x8080808080808080ull));
  t = gimple_build (seq, RSHIFT_EXPR, zi_t.u64,
                    gimple_build (seq, MULT_EXPR, zi_t.u64, t,
                                  build_int_cst (zi_t.u64, (HOST_WIDE_INT) 0x0002040810204081ull)),
                    build_int_cst (integer_type_node, 56));
  return gimple_convert (seq, zi_t.u32, t);
}

/* The shadow word (UNIT 4) or half-word (UNIT 2: zeroinst-abi.h) of ADDR
   (u64) in CHUNK (u64), as a pointer in SEQ.  BIASED: CHUNK is
   biased_chunk's, which the index of ADDR in the whole address space,
   unmasked, reaches.  */
static tree
shadow_at (gimple_seq *seq, tree chunk, tree addr, bool biased, unsigned unit)
{
  unsigned bits = unit == 4 ? 4 : 3;     /* address bits of a word's 16 bytes, a half's 8 */
  tree idx = gimple_build (seq, RSHIFT_EXPR, zi_t.u64, addr, build_int_cst (integer_type_node, bits));
  if (!biased)
    idx = gimple_build (seq, BIT_AND_EXPR, zi_t.u64, idx,
                        build_int_cst (zi_t.u64,
                                       (HOST_WIDE_INT) ((1ull << (ZI_SHADOW_REGION_BITS - bits)) - 1)));
  tree off = gimple_build (seq, MULT_EXPR, zi_t.u64, idx, build_int_cst (zi_t.u64, unit));
  /* A half sits at bit 16 * (idx & 1) of its word: on a big-endian
     target the other half in memory.  */
  if (unit == 2 && BYTES_BIG_ENDIAN)
    off = gimple_build (seq, BIT_XOR_EXPR, zi_t.u64, off, build_int_cst (zi_t.u64, 2));
  tree ptr = unit == 4 ? zi_t.u32_ptr : zi_t.u16_ptr;
  return gimple_build (seq, POINTER_PLUS_EXPR, ptr, gimple_convert (seq, ptr, chunk),
                       gimple_convert (seq, sizetype, off));
}

/* *P, a half of a shadow word, as a u32 in SEQ.  */
static tree
load_half (gimple_seq *seq, tree p)
{
  tree h = make_ssa_name (zi_t.u16);
  gimple_seq_add_stmt (seq, gimple_build_assign (h, build2 (MEM_REF, zi_t.u16, p,
                                                            build_int_cst (zi_t.u16_ptr, 0))));
  return gimple_convert (seq, zi_t.u32, h);
}

/* Byte HIGH (0: the loaded bits, 1: the non-zero bits) of the half at P,
   a u8, in SEQ.  */
static tree
load_half_byte (gimple_seq *seq, tree p, unsigned high)
{
  tree b = make_ssa_name (zi_t.u8);
  unsigned off = BYTES_BIG_ENDIAN ? 1 - high : high;
  gimple_seq_add_stmt (seq, gimple_build_assign (b, build2 (MEM_REF, zi_t.u8, p,
                                                            build_int_cst (zi_t.u8_ptr, off))));
  return b;
}

/* (LO & 0xff) | (HI & 0xff) << 8, u32s, in SEQ.  */
static tree
join_bytes (gimple_seq *seq, tree lo, tree hi)
{
  tree lo8 = build_int_cst (zi_t.u32, 0xff);
  return gimple_build (seq, BIT_IOR_EXPR, zi_t.u32, gimple_build (seq, BIT_AND_EXPR, zi_t.u32, lo, lo8),
                       gimple_build (seq, LSHIFT_EXPR, zi_t.u32,
                                     gimple_build (seq, BIT_AND_EXPR, zi_t.u32, hi, lo8),
                                     build_int_cst (integer_type_node, 8)));
}

/* X >> 8, a u32, in SEQ.  */
static tree
high_byte16 (gimple_seq *seq, tree x)
{
  return gimple_build (seq, RSHIFT_EXPR, zi_t.u32, x, build_int_cst (integer_type_node, 8));
}

/* A's byte offset in its 8-byte half (u32), in SEQ.  */
static tree
half_offset (gimple_seq *seq, tree a)
{
  return gimple_build (seq, BIT_AND_EXPR, zi_t.u32, gimple_convert (seq, zi_t.u32, a),
                       build_int_cst (zi_t.u32, 7));
}

/* __zeroinst_unseen[M] (M: a u32 below 256), in SEQ.  */
static tree
unseen (gimple_seq *seq, tree m)
{
  tree v = make_ssa_name (zi_t.u64);
  tree ref = build4 (ARRAY_REF, TREE_TYPE (TREE_TYPE (zi_t.unseen_var)), zi_t.unseen_var,
                     gimple_convert (seq, sizetype, m), NULL_TREE, NULL_TREE);
  gimple_seq_add_stmt (seq, gimple_build_assign (v, ref));
  return v;
}

/* CHUNK (u64), the chunk of ADDR's region R, less the word offset of R in
   the address space (R >> 2 bytes), so that ADDR's word is at the chunk
   plus (ADDR >> 4) * 4 and its half at (ADDR >> 3) * 2: no mask and no
   add per element.  0 stays 0; the
   runtime never maps R's chunk at R >> 2, so no other chunk becomes 0
   (shadow.c, zi_shadow_chunk_slow).  */
static tree
biased_chunk (gimple_seq *seq, tree chunk, tree addr)
{
  tree bias = gimple_build (seq, BIT_AND_EXPR, zi_t.u64,
                            gimple_build (seq, RSHIFT_EXPR, zi_t.u64, addr,
                                          build_int_cst (integer_type_node, 2)),
                            build_int_cst (zi_t.u64,
                                           -(HOST_WIDE_INT) (1ull << (ZI_SHADOW_REGION_BITS - 2))));
  tree some = gimple_build (seq, NEGATE_EXPR, zi_t.u64,
                            flag (seq, NE_EXPR, chunk, build_zero_cst (zi_t.u64)));
  return gimple_build (seq, MINUS_EXPR, zi_t.u64, chunk,
                       gimple_build (seq, BIT_AND_EXPR, zi_t.u64, bias, some));
}

/* In SEQ: OR BITS16 (u32: a half's loaded bits in 0-7, non-zero in 8-15)
   into the half of ADDR's states, in its word, atomically.

   On x86-64 an atomic OR is a locked instruction, which waits for every
   older load and store of the thread: a first pass over data, whose
   every piece sets states, lost the overlap of its cache misses (a sum
   of 20 million doubles read once: 0.34 s with locked ORs, 0.27 s with
   plain ones, 0.07 s plain build).  While the process has one
   thread (glibc's __libc_single_threaded, cleared by pthread_create
   before the second thread exists and never set again) the OR is a
   plain one: a single instruction, so a signal handler that marks the
   same word cannot come between its read and its write either.  */
static void
mark_half (gimple_seq *seq, tree chunk, tree addr, tree bits16, bool biased)
{
  tree w = shadow_at (seq, chunk, addr, biased, 4);
  tree shift = gimple_build (seq, LSHIFT_EXPR, zi_t.u32,
                             gimple_build (seq, BIT_AND_EXPR, zi_t.u32,
                                           gimple_convert (seq, zi_t.u32, addr),
                                           build_int_cst (zi_t.u32, 8)),
                             build_int_cst (integer_type_node, 1));
  tree bits = gimple_build (seq, LSHIFT_EXPR, zi_t.u32, bits16, shift);
  if (keep_registers_p ())      /* the x86-64 targets */
    {
      static const char text[] =
        "{movq __libc_single_threaded@GOTPCREL(%%rip), %1|mov %1, QWORD PTR __libc_single_threaded@GOTPCREL[rip]}\n\t"
        "{cmpb $0, (%1)|cmp BYTE PTR [%1], 0}\n\t"
        "je 1f\n\t"
        "{orl %2, %0|or %0, %2}\n\t"
        "jmp 2f\n"
        "1:\t{lock orl %2, %0|lock or %0, %2}\n"
        "2:";
      /* "+m" as gimplification splits it: the word out, and in.  */
      tree word = build2 (MEM_REF, zi_t.u32, w, build_int_cst (zi_t.u32_ptr, 0));
      vec<tree, va_gc> *in = NULL, *out = NULL, *clobbers = NULL;
      tree scratch = make_ssa_name (zi_t.u64);
      add_asm_operand (&out, "=m", word);
      add_asm_operand (&out, "=&r", scratch);
      add_asm_operand (&in, "r", gimple_convert (seq, zi_t.u32, bits));
      add_asm_operand (&in, "m", unshare_expr (word));
      add_clobber (&clobbers, "cc");
      gasm *g = gimple_build_asm_vec (text, in, out, clobbers, NULL);
      gimple_asm_set_volatile (g, true);
      SSA_NAME_DEF_STMT (scratch) = g;
      gimple_seq_add_stmt (seq, g);
      return;
    }
  gimple_seq_add_stmt (seq, gimple_build_call (builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_OR_4),
                                               3, gimple_convert (seq, ptr_type_node, w),
                                               gimple_convert (seq, unsigned_type_node, bits),
                                               build_int_cst (integer_type_node, 0 /* relaxed */)));
}

/* Raw bits of the N (<= 8) bytes of L's value from byte PIECE (a multiple
   of 8), zero-extended to u64, in SEQ: a word of a vector, or the lanes
   in the piece (narrow types only reach here: lanes of at most 8 bytes,
   which do not cross pieces).  */
static tree
piece_bits (gimple_seq *seq, const struct zi_load *l, unsigned piece, unsigned n)
{
  if (l->bits)
    return l->bits;
  unsigned lane_bytes = l->access_bytes / l->lanes;
  if (TREE_CODE (TREE_TYPE (l->value)) == VECTOR_TYPE && n == 8 && lane_bytes <= 8)
    return gimple_build (seq, BIT_FIELD_REF, zi_t.u64, l->value, bitsize_int (64),
                         bitsize_int (8 * piece));
  tree v = NULL_TREE;
  for (unsigned i = piece / lane_bytes; i < l->lanes && i * lane_bytes < piece + n; i++)
    {
      tree lo, hi;
      raw_bits (seq, lane_value (seq, l, i), &lo, &hi);
      if (i * lane_bytes > piece)
        lo = gimple_build (seq, LSHIFT_EXPR, zi_t.u64, lo,
                           build_int_cst (integer_type_node, 8 * (i * lane_bytes - piece)));
      v = v ? gimple_build (seq, BIT_IOR_EXPR, zi_t.u64, v, lo) : lo;
    }
  return v;
}

/* The marks of L's value at ADDR in CHUNK (zeroinst-abi.h; BIASED: from
   biased_chunk), before END, 8 bytes at a time.  ALIGN: the bytes the
   address is known to be a multiple of.  A piece whose bytes are all
   loaded and seen non-zero already (the common case: states saturate)
   costs a 16-bit load, a table load and a branch; the non-zero bytes of
   the value are computed only when a mark is made.  HALF0 (u64), when
   not NULL: the half of the value's first byte, known without ADDR (a
   range loop's half_iv_p load, ALIGN 8 or more); ADDR may then be NULL,
   and is computed where a mark is made.  */
static void
emit_marks (gimple *end, const struct zi_load *l, tree chunk, tree addr, unsigned align,
            bool biased, tree half0)
{
  unsigned bytes = l->access_bytes;
  for (unsigned piece = 0; piece < bytes; piece += 8)
    {
      gimple_seq seq = NULL;
      unsigned n = bytes - piece < 8 ? bytes - piece : 8;
      tree v = piece_bits (&seq, l, piece, n);
      tree a = piece && addr ? gimple_build (&seq, PLUS_EXPR, zi_t.u64, addr,
                                             build_int_cst (zi_t.u64, piece))
                             : addr;
      tree lmask = build_int_cst (zi_t.u32, (HOST_WIDE_INT) ((1u << n) - 1));
      /* S: the piece's first byte in its half, 0 when the piece is known
         8-aligned.  TWO: the piece may straddle two halves (an address
         not known to be a multiple of the piece's size).  */
      unsigned a_piece = align < 8 ? align : 8;
      bool two = a_piece < 8 && ((n & (n - 1)) || a_piece < n);
      tree s = a_piece < 8 ? half_offset (&seq, a) : NULL_TREE;
      tree p0 = half0 ? gimple_build (&seq, POINTER_PLUS_EXPR, zi_t.u16_ptr,
                                      gimple_convert (&seq, zi_t.u16_ptr, half0),
                                      size_int (piece / 4))
                      : shadow_at (&seq, chunk, a, biased, 2);
      tree loaded, seen = NULL_TREE, last = NULL_TREE, lb8 = NULL_TREE;
      if (!two)
        {
          if (!s)
            {
              /* The loaded byte only: the non-zero byte is read after
                 the test of the loaded bits (below).  */
              lb8 = load_half_byte (&seq, p0, 0);
              loaded = gimple_convert (&seq, zi_t.u32, lb8);
            }
          else
            {
              /* One shift of the half serves both tests.  */
              loaded = gimple_build (&seq, RSHIFT_EXPR, zi_t.u32, load_half (&seq, p0), s);
              seen = gimple_build (&seq, RSHIFT_EXPR, zi_t.u32, loaded,
                                   build_int_cst (integer_type_node, 8));
            }
        }
      else
        {
          tree h0 = load_half (&seq, p0);
          /* The halves of the piece's first and last bytes (one half
             twice when it does not straddle: never past the element's
             region, in which a hit lies) as 16 bytes' loaded bits and
             16 bytes' non-zero bits.  A piece of a 4-aligned type (the
             8-byte vectors of a vectorized float loop) is usually
             8-aligned all the same: then one half, tested as above.  */
          last = gimple_build (&seq, PLUS_EXPR, zi_t.u64, a, build_int_cst (zi_t.u64, n - 1));
          gimple *split = NULL;
          tree seen0 = NULL_TREE;
          if (a_piece >= 4)
            {
              seen0 = gimple_build (&seq, RSHIFT_EXPR, zi_t.u32, h0,
                                    build_int_cst (integer_type_node, 8));
              insert_before (end, seq);
              seq = NULL;
              split = branch_before (end, NE_EXPR, s, build_zero_cst (zi_t.u32), false);
            }
          tree h1 = load_half (&seq, shadow_at (&seq, chunk, last, biased, 2));
          tree l16 = join_bytes (&seq, h0, h1);
          tree n16 = join_bytes (&seq, high_byte16 (&seq, h0), high_byte16 (&seq, h1));
          loaded = gimple_build (&seq, RSHIFT_EXPR, zi_t.u32, l16, s);
          seen = gimple_build (&seq, BIT_AND_EXPR, zi_t.u32,
                               gimple_build (&seq, RSHIFT_EXPR, zi_t.u32, n16, s),
                               build_int_cst (zi_t.u32, 0xff));
          if (split)
            {
              insert_before (split, seq);
              seq = NULL;
              basic_block then_bb = gimple_bb (split), join_bb = gimple_bb (end);
              edge straddle = find_edge (then_bb, join_bb);
              edge aligned = find_edge (single_pred (then_bb), join_bb);
              tree both[2][2] = { { loaded, h0 }, { seen, seen0 } };
              tree *out[2] = { &loaded, &seen };
              for (int i = 0; i < 2; i++)
                {
                  *out[i] = make_ssa_name (zi_t.u32);
                  gphi *phi = create_phi_node (*out[i], join_bb);
                  add_phi_arg (phi, both[i][0], straddle, UNKNOWN_LOCATION);
                  add_phi_arg (phi, both[i][1], aligned, UNKNOWN_LOCATION);
                }
            }
        }
      /* A mark is due when a byte of the piece is not loaded yet or a
         non-zero byte of it was not seen non-zero yet: two tests and
         two branches to the mark, the first on the loaded bits alone
         (a compare of a byte in memory when the piece is a whole half),
         which is fewer instructions than one test of both.  */
      tree loaded_bits = gimple_build (&seq, BIT_AND_EXPR, zi_t.u32, loaded, lmask);
      gimple *first_test = NULL;
      if (lb8 && !s && n == 8)
        first_test = gimple_build_cond (NE_EXPR, lb8, build_int_cst (zi_t.u8, 0xff), NULL_TREE,
                                        NULL_TREE);
      else if (TREE_CODE (loaded_bits) == SSA_NAME)
        first_test = gimple_build_cond (NE_EXPR, loaded_bits, lmask, NULL_TREE, NULL_TREE);
      if (first_test)
        gimple_seq_add_stmt (&seq, first_test);
      if (!seen)
        seen = gimple_convert (&seq, zi_t.u32, load_half_byte (&seq, p0, 1));
      tree due = gimple_build (&seq, BIT_AND_EXPR, zi_t.u64, v, unseen (&seq, seen));
      if (!first_test)
        due = gimple_build (&seq, BIT_IOR_EXPR, zi_t.u64, due,
                            gimple_convert (&seq, zi_t.u64,
                                            gimple_build (&seq, BIT_XOR_EXPR, zi_t.u32,
                                                          loaded_bits, lmask)));
      insert_before (end, seq);
      gimple *then = branch_before (end, NE_EXPR, due, build_zero_cst (zi_t.u64), false);
      if (first_test)
        {
          /* FIRST_TEST ends its block: its false edge falls through to
             the second test, its true edge joins the mark.  */
          edge rest = split_block (gimple_bb (first_test), first_test);
          rest->flags = EDGE_FALSE_VALUE;
          edge to_mark = make_edge (gimple_bb (first_test), gimple_bb (then), EDGE_TRUE_VALUE);
          to_mark->probability = profile_probability::very_unlikely ();
          rest->probability = to_mark->probability.invert ();
        }
      /* The marks: the piece's loaded and non-zero bits at its offset in
         its half, and the rest in the next half when it straddles.  The
         offset is taken from the address even where the type promised
         8-byte alignment: a pointer the program misaligns despite its
         type (a cast) gets its own bytes marked, never a neighbour's;
         the test above, which trusted the promise, may then skip marks
         of such a piece (its bytes stay "never loaded").  Outside
         register and range loops (BIASED) a call of __zeroinst_mark,
         which on x86-64 keeps every register: the marks' code, inline at
         every load, was 40% of the code of five files of lua's
         interpreter, and runs only when a state changes.  In those
         loops, where a first pass over an array marks at every element,
         they stay inline (the call made bfs.c's and nw.c's data mode up
         to 12% slower).  */
      seq = NULL;
      if (!a)
        {
          a = element_address (&seq, l);
          if (piece)
            a = gimple_build (&seq, PLUS_EXPR, zi_t.u64, a, build_int_cst (zi_t.u64, piece));
        }
      if (!biased)
        {
          tree args[] = { gimple_convert (&seq, zi_t.u64, chunk), a,
                          gimple_convert (&seq, zi_t.u64, v), build_int_cst (zi_t.u64, n) };
          gimple_seq_add_stmt (&seq, zi_runtime_call (zi_t.mark_fn, "__zeroinst_mark", ZI_KEEP_ALL,
                                                      4, args));
          insert_before (then, seq);
          continue;
        }
      tree at = s ? s : half_offset (&seq, a);
      tree lb = gimple_build (&seq, LSHIFT_EXPR, zi_t.u32, lmask, at);
      tree nb = gimple_build (&seq, LSHIFT_EXPR, zi_t.u32, nonzero_bytes (&seq, v, n), at);
      mark_half (&seq, chunk, a, join_bytes (&seq, lb, nb), biased);
      tree next = join_bytes (&seq, high_byte16 (&seq, lb), high_byte16 (&seq, nb));
      insert_before (then, seq);
      gimple *straddles = branch_before (then, NE_EXPR, next, build_zero_cst (zi_t.u32), false);
      seq = NULL;
      if (!last)
        last = gimple_build (&seq, PLUS_EXPR, zi_t.u64, a, build_int_cst (zi_t.u64, n - 1));
      mark_half (&seq, chunk, last, next, biased);
      insert_before (straddles, seq);
    }
}

/* L's data slot, in SEQ.  */
static tree
dslot (gimple_seq *seq, struct zi_fn_state *st, const struct zi_load *l)
{
  HOST_WIDE_INT off = -(HOST_WIDE_INT) ((l->unit + 1) * sizeof (struct zi_dslot));
  return gimple_build (seq, POINTER_PLUS_EXPR, TREE_TYPE (st->slots), st->slots, size_int (off));
}

/* Field I (zeroinst-abi.h: lo, limit, chunk, gen) of the data slot DS, in
   SEQ.  */
static tree
dslot_field (gimple_seq *seq, tree ds, unsigned i)
{
  tree v = make_ssa_name (zi_t.u64);
  gimple_seq_add_stmt (seq, gimple_build_assign (v, build2 (MEM_REF, zi_t.u64, ds,
                                                            build_int_cst (zi_t.u64_ptr, 8 * i))));
  return v;
}

/* The registers of L's cached object (a load of a data-mode loop copy),
   made on first use.  */
static struct zi_range &
range_regs (struct zi_fn_state *st, const struct zi_load *l)
{
  struct zi_range &r = st->data_ranges[l->unit];
  if (!r.lo)
    {
      r.lo = create_tmp_reg (zi_t.u64, "zi_lo");
      r.limit = create_tmp_reg (zi_t.u64, "zi_limit");
      r.chunk = create_tmp_reg (zi_t.u64, "zi_chunk");
    }
  return r;
}

/* In SEQ: R = the data slot of L, but a range no element hits when the
   slot is stale (its gen is not __zeroinst_gen): the generation is tested
   where the registers are filled, not at each element.  */
static void
fill_range (gimple_seq *seq, struct zi_fn_state *st, const struct zi_load *l,
            const struct zi_range &r)
{
  tree ds = dslot (seq, st, l);
  tree lo = dslot_field (seq, ds, 0), limit = dslot_field (seq, ds, 1);
  tree chunk = dslot_field (seq, ds, 2), gen = dslot_field (seq, ds, 3);
  tree now = make_ssa_name (zi_t.u64);
  gimple_seq_add_stmt (seq, gimple_build_assign (now, zi_t.gen_var));
  tree keep = gimple_build (seq, NEGATE_EXPR, zi_t.u64, flag (seq, EQ_EXPR, gen, now));
  gimple_seq_add_stmt (seq, gimple_build_assign (r.lo, BIT_IOR_EXPR,
                                                 gimple_build (seq, BIT_AND_EXPR, zi_t.u64, lo,
                                                               keep),
                                                 gimple_build (seq, BIT_NOT_EXPR, zi_t.u64,
                                                               keep)));
  gimple_seq_add_stmt (seq, gimple_build_assign (r.limit, BIT_AND_EXPR, limit, keep));
  gimple_seq_add_stmt (seq, gimple_build_assign (r.chunk, biased_chunk (seq, chunk, lo)));
}

/* End BB, which falls through to its one successor, with "if (A CODE B)
   goto FAIL" (taken with probability P), after SEQ; returns the block the
   other way takes, which falls through to BB's old successor.  */
static basic_block
leave_if (basic_block bb, gimple_seq seq, enum tree_code code, tree a, tree b, basic_block fail,
          profile_probability p)
{
  basic_block rest = split_edge (single_succ_edge (bb));
  gimple_seq_add_stmt (&seq, gimple_build_cond (code, a, b, NULL_TREE, NULL_TREE));
  gimple_stmt_iterator g = gsi_last_bb (bb);
  gsi_insert_seq_after (&g, seq, GSI_NEW_STMT);
  edge go = single_succ_edge (bb);
  go->flags = (go->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
  go->probability = p.invert ();
  edge out = make_edge (bb, fail, EDGE_TRUE_VALUE);
  out->probability = p;
  rest->count = bb->count.apply_probability (p.invert ());
  fail->count = fail->count + bb->count.apply_probability (p);
  return rest;
}

/* The group ids' test at the head of L's miss (zeroinst-abi.h), whose
   block holds THEN: when the element lies in a block of the group its
   data slot DS counts for, in whatever region, the miss goes straight to
   JOIN_BB with the chunk of the element's region (biased in REGS) in
   *CHUNK, by the edge returned, the cached range and chunk (registers in
   REGS, else the slot's) being what the entry promises of the block from
   the element's line on.  The chunk comes from the runtime's table of
   chunks by region (__zeroinst_shadow_top), not from the slot: the
   blocks of a group spread over a heap larger than a region (a heap of
   millions of small blocks) would call the runtime at every move between
   regions.  NULL: no test (a load of more than a line).  */
static edge
gid_test (struct zi_fn_state *st, const struct zi_load *l, gimple *then, basic_block join_bb,
          tree ds, tree addr, bool regs, tree *chunk)
{
  if (l->access_bytes > 16)
    return NULL;
  basic_block bb = gimple_bb (then);
  basic_block slow_bb = split_block_after_labels (bb)->dest;
  profile_probability rare = profile_probability::unlikely ();
  gimple_seq seq = NULL;
  /* A group, and an address the shadow covers: one branch.  */
  tree g32 = make_ssa_name (zi_t.u32);
  gimple_seq_add_stmt (&seq, gimple_build_assign (g32, build2 (MEM_REF, zi_t.u32, ds,
                                                               build_int_cst (zi_t.u64_ptr,
                                                                              offsetof (struct zi_dslot, gid)))));
  tree g = gimple_convert (&seq, zi_t.u64, g32);
  tree high = gimple_build (&seq, RSHIFT_EXPR, zi_t.u64, addr,
                            build_int_cst (integer_type_node, ZI_SHADOW_BITS));
  tree no = gimple_build (&seq, BIT_IOR_EXPR, zi_t.u64, high,
                          flag (&seq, EQ_EXPR, g, build_zero_cst (zi_t.u64)));
  bb = leave_if (bb, seq, NE_EXPR, no, build_zero_cst (zi_t.u64), slow_bb, rare);
  seq = NULL;
  /* In a slot in memory, the generation that the hit stores with the
     range, read once the slot has an id to compare and before the entry
     (acquire, and no access of the compiler's moved above it): an entry
     read first could be one that the runtime cleared for a live block
     before it changed the generation (a library's TLS block of another
     thread, which is no longer the loader's heap block), and the slot
     would be current with the old range and target.  Misses of slots
     without an id (stack, statics, large blocks) do not read it.  */
  tree now = NULL_TREE;
  if (!regs)
    {
      tree load = builtin_decl_explicit (BUILT_IN_ATOMIC_LOAD_8);
      now = make_ssa_name (zi_t.u64);
      if (load)
        {
          TREE_ADDRESSABLE (zi_t.gen_var) = 1;
          gcall *call = gimple_build_call (load, 2, build_fold_addr_expr (zi_t.gen_var),
                                           build_int_cst (integer_type_node, MEMMODEL_ACQUIRE));
          tree got = make_ssa_name (TREE_TYPE (TREE_TYPE (load)));
          gimple_call_set_lhs (call, got);
          gimple_seq_add_stmt (&seq, call);
          gimple_seq_add_stmt (&seq, gimple_build_assign (now, NOP_EXPR, got));
        }
      else
        gimple_seq_add_stmt (&seq, gimple_build_assign (now, zi_t.gen_var));
      vec<tree, va_gc> *clobbers = NULL;
      add_clobber (&clobbers, "memory");
      gasm *fence = gimple_build_asm_vec ("", NULL, NULL, clobbers, NULL);
      gimple_asm_set_volatile (fence, true);
      gimple_seq_add_stmt (&seq, fence);
    }
  /* The chunk of ADDR's region, in the table of the load's kind.  */
  tree top = make_ssa_name (zi_t.u64_ptr);
  gimple_seq_add_stmt (&seq, gimple_build_assign (top, build4 (ARRAY_REF, zi_t.u64_ptr,
                                                               zi_t.shadow_top_var,
                                                               size_int (ZI_FLOAT_TYPE (l->type) ? 1 : 0),
                                                               NULL_TREE, NULL_TREE)));
  tree at = gimple_build (&seq, BIT_AND_EXPR, zi_t.u64,
                          gimple_build (&seq, RSHIFT_EXPR, zi_t.u64, addr,
                                        build_int_cst (integer_type_node, ZI_SHADOW_REGION_BITS - 3)),
                          build_int_cst (zi_t.u64, -8));
  tree cp = gimple_build (&seq, POINTER_PLUS_EXPR, zi_t.u64_ptr, top,
                          gimple_convert (&seq, sizetype, at));
  tree c = make_ssa_name (zi_t.u64);
  gimple_seq_add_stmt (&seq, gimple_build_assign (c, build2 (MEM_REF, zi_t.u64, cp,
                                                             build_int_cst (zi_t.u64_ptr, 0))));
  bb = leave_if (bb, seq, EQ_EXPR, c, build_zero_cst (zi_t.u64), slow_bb, rare);
  /* The entry of ADDR's line, ZI_GIDS_OFFSET bytes after the chunk.  */
  seq = NULL;
  tree off = gimple_build (&seq, BIT_AND_EXPR, zi_t.u64,
                           gimple_build (&seq, RSHIFT_EXPR, zi_t.u64, addr,
                                         build_int_cst (integer_type_node, 3)),
                           build_int_cst (zi_t.u64,
                                          (HOST_WIDE_INT) ((1ull << (ZI_SHADOW_REGION_BITS - 3)) - 2)));
  tree p = gimple_build (&seq, POINTER_PLUS_EXPR, zi_t.u16_ptr, gimple_convert (&seq, zi_t.u16_ptr, c),
                         gimple_convert (&seq, sizetype, off));
  tree e16 = make_ssa_name (zi_t.u16);
  gimple_seq_add_stmt (&seq, gimple_build_assign (e16, build2 (MEM_REF, zi_t.u16, p,
                                                               build_int_cst (zi_t.u16_ptr,
                                                                              ZI_GIDS_OFFSET))));
  tree e = gimple_convert (&seq, zi_t.u64, e16);
  tree id = gimple_build (&seq, BIT_AND_EXPR, zi_t.u64, e, build_int_cst (zi_t.u64, -16));
  bb = leave_if (bb, seq, NE_EXPR, id, g, slow_bb, rare);
  /* The element ends within the bytes of the block from its line on:
     SPAN = max (4 * F + 4, (1 << F) >> 2), F the entry's low 4 bits
     (runtime/data/shadow.h, zi_gid_span).  */
  seq = NULL;
  tree f = gimple_build (&seq, BIT_AND_EXPR, zi_t.u64, e, build_int_cst (zi_t.u64, 15));
  tree span = gimple_build (&seq, MAX_EXPR, zi_t.u64,
                            gimple_build (&seq, PLUS_EXPR, zi_t.u64,
                                          gimple_build (&seq, MULT_EXPR, zi_t.u64, f,
                                                        build_int_cst (zi_t.u64, 4)),
                                          build_int_cst (zi_t.u64, 4)),
                            gimple_build (&seq, RSHIFT_EXPR, zi_t.u64,
                                          gimple_build (&seq, LSHIFT_EXPR, zi_t.u64,
                                                        build_int_cst (zi_t.u64, 1),
                                                        gimple_convert (&seq, integer_type_node, f)),
                                          build_int_cst (integer_type_node, 2)));
  tree end = gimple_build (&seq, PLUS_EXPR, zi_t.u64,
                           gimple_build (&seq, BIT_AND_EXPR, zi_t.u64, addr,
                                         build_int_cst (zi_t.u64, 15)),
                           build_int_cst (zi_t.u64, l->access_bytes));
  bb = leave_if (bb, seq, GT_EXPR, end, span, slow_bb, rare);
  /* A hit: the range from the line on, in the chunk of its region.  */
  seq = NULL;
  tree line = gimple_build (&seq, BIT_AND_EXPR, zi_t.u64, addr, build_int_cst (zi_t.u64, -16));
  tree limit = gimple_build (&seq, MINUS_EXPR, zi_t.u64, span,
                             build_int_cst (zi_t.u64, l->access_bytes));
  *chunk = make_ssa_name (zi_t.u64);
  if (regs)
    {
      const struct zi_range &r = range_regs (st, l);
      gimple_seq_add_stmt (&seq, gimple_build_assign (r.lo, line));
      gimple_seq_add_stmt (&seq, gimple_build_assign (r.limit, limit));
      gimple_seq_add_stmt (&seq, gimple_build_assign (r.chunk, biased_chunk (&seq, c, addr)));
      gimple_seq_add_stmt (&seq, gimple_build_assign (*chunk, r.chunk));
    }
  else
    {
      /* And the generation read above: the range is valid as of then.
         A slot made stale by the end of another object would otherwise
         stay stale, and each of its elements come here, until a miss
         outside its group called the runtime.  The block is alive: its
         end (which clears its ids, then changes the generation, under
         the objects' lock) cannot come between this thread's own load
         of it and these stores unless the program uses it after free,
         and an end that came before that load is visible here.  */
      tree fields[] = { line, limit, c, now };
      for (unsigned i = 0; i < 4; i++)
        gimple_seq_add_stmt (&seq, gimple_build_assign (build2 (MEM_REF, zi_t.u64, ds,
                                                                build_int_cst (zi_t.u64_ptr,
                                                                               8 * i)),
                                                        fields[i]));
      gimple_seq_add_stmt (&seq, gimple_build_assign (*chunk, c));
    }
  gimple_stmt_iterator gi = gsi_last_bb (bb);
  gsi_insert_seq_after (&gi, seq, GSI_NEW_STMT);
  return redirect_edge_succ_nodup (single_succ_edge (bb), join_bb);
}

/* Is T, an integer expression, a multiple of 8 by its form?  */
static bool
multiple_of_8_p (tree t)
{
  /* Integer conversions keep the low bits: follow them, negations and
     copies through the definitions (multiple_of_p stops at an SSA name
     converted, which is how an induction variable's step often comes).  */
  for (int depth = 0; depth < 8; depth++)
    {
      if (multiple_of_p (TREE_TYPE (t), t, build_int_cst (TREE_TYPE (t), 8)))
        return true;
      STRIP_NOPS (t);
      if (TREE_CODE (t) != SSA_NAME || !INTEGRAL_TYPE_P (TREE_TYPE (t)))
        return false;
      gimple *def = SSA_NAME_DEF_STMT (t);
      if (!is_gimple_assign (def))
        return false;
      enum tree_code code = gimple_assign_rhs_code (def);
      tree a = gimple_assign_rhs1 (def);
      if (CONVERT_EXPR_CODE_P (code) || code == NEGATE_EXPR || code == SSA_NAME)
        {
          if (!INTEGRAL_TYPE_P (TREE_TYPE (a)))
            return false;
          t = a;
          continue;
        }
      tree b = gimple_assign_rhs2 (def);
      if (code == LSHIFT_EXPR)
        return tree_fits_uhwi_p (b) && tree_to_uhwi (b) >= 3;
      if (code == MULT_EXPR)
        return (tree_fits_shwi_p (b) && tree_to_shwi (b) % 8 == 0) || multiple_of_8_p (a)
               || multiple_of_8_p (b);
      return false;
    }
  return false;
}

/* Does L, a range loop's load (data 3) of ALIGN-aligned elements, walk
   whole double words: its address steps by a multiple of 8 (a constant,
   or an invariant such as a Fortran stride times the element size), so
   that its shadow half, chunk + (address >> 3) * 2, steps by that step
   / 4?  Then the half is an induction variable of its own (HALF_IVS),
   and an element's test needs no address (strength reduction: nothing
   after this pass would do it).  At most 32 bytes: without a chunk the
   variable points at the four halves of 0xff bytes that
   __zeroinst_unseen[0] is.  */
static bool
half_iv_p (const struct zi_load *l, unsigned align)
{
  return l->iv_step && align >= 8 && l->access_bytes <= 32 && !BYTES_BIG_ENDIAN
         && multiple_of_8_p (l->iv_step);
}

/* Data mode's path of L (see the head of this file), before END; in a
   block of its own that runs only when ST->data_on (L->data == 1), or
   unconditionally (L->data == 2: the data-mode copy of a loop).  */
static void
emit_data_path (gimple *end, struct zi_fn_state *st, const struct zi_load *l)
{
  if (l->data == 1)
    end = branch_before (end, NE_EXPR, st->data_on, build_zero_cst (integer_type_node), false);
  gimple_seq seq = NULL;
  unsigned align = l->addr_arg ? l->access_bytes : get_object_alignment (l->ref) / BITS_PER_UNIT;
  if (l->data == 3)
    {
      /* A range loop's load whose elements all hit the object in its
         registers (version_ranges): the marks only, where there is a
         chunk (stack memory has none).  Where it walks whole double
         words its shadow half is an induction variable of its own,
         which for memory without a chunk stays on halves that need no
         mark (HALF_IVS): then no element tests the chunk.  */
      tree chunk = make_ssa_name (zi_t.u64);
      gimple_seq_add_stmt (&seq, gimple_build_assign (chunk, range_regs (st, l).chunk));
      if (!half_iv_p (l, align))
        {
          tree addr = element_address (&seq, l);
          insert_before (end, seq);
          gimple *marks = branch_before (end, NE_EXPR, chunk, build_zero_cst (zi_t.u64), true);
          emit_marks (marks, l, chunk, addr, align ? align : 1, true, NULL_TREE);
          return;
        }
      tree &var = st->half_ivs[l->unit];
      if (!var)
        var = create_tmp_reg (zi_t.u64, "zi_half");
      tree half0 = make_ssa_name (zi_t.u64);
      gimple_seq_add_stmt (&seq, gimple_build_assign (half0, var));
      insert_before (end, seq);
      emit_marks (end, l, chunk, NULL_TREE, align, true, half0);
      return;
    }
  tree addr = element_address (&seq, l);
  tree ds = dslot (&seq, st, l);
  /* The cached object: in registers in the data-mode copy of a register
     loop (filled in the preheader and after each miss, the generation
     tested there), else read from the slot.  */
  class loop *loop = gimple_bb (l->stmt)->loop_father;
  int *noisy = l->acc >= 0 ? st->noisy_loops.get (loop->num) : NULL;
  bool regs = noisy && *noisy == 2;
  tree lo, limit, cached = make_ssa_name (zi_t.u64);
  if (regs)
    {
      const struct zi_range &r = range_regs (st, l);
      lo = make_ssa_name (zi_t.u64);
      limit = make_ssa_name (zi_t.u64);
      gimple_seq_add_stmt (&seq, gimple_build_assign (lo, r.lo));
      gimple_seq_add_stmt (&seq, gimple_build_assign (limit, r.limit));
      gimple_seq_add_stmt (&seq, gimple_build_assign (cached, r.chunk));
    }
  else
    {
      lo = dslot_field (&seq, ds, 0);
      limit = dslot_field (&seq, ds, 1);
    }
  tree off_lo = gimple_build (&seq, MINUS_EXPR, zi_t.u64, addr, lo);
  insert_before (end, seq);

  /* A miss when the element is outside the cached object, or (outside
     register loops) the cache is stale: two branches, each taken almost
     never (one test of the two conditions OR-ed costs more
     instructions).  */
  gimple *then = branch_before (end, GT_EXPR, off_lo, limit, false);
  basic_block then_bb = gimple_bb (then), join_bb = gimple_bb (end);
  edge in = find_edge (single_pred (then_bb), join_bb);
  if (!regs)
    {
      seq = NULL;
      tree chunk = dslot_field (&seq, ds, 2), gen = dslot_field (&seq, ds, 3);
      gimple_seq_add_stmt (&seq, gimple_build_assign (cached, chunk));
      tree now = make_ssa_name (zi_t.u64);
      gimple_seq_add_stmt (&seq, gimple_build_assign (now, zi_t.gen_var));
      basic_block hit_bb = leave_if (split_edge (in), seq, NE_EXPR, gen, now, then_bb,
                                     profile_probability::very_unlikely ());
      in = single_succ_edge (hit_bb);
    }
  tree hit_chunk = NULL_TREE;
  edge hit = gid_test (st, l, then, join_bb, ds, addr, regs, &hit_chunk);

  /* The miss: this load's accumulators go to its slot first, then the
     runtime call (a scalar's value in a register, several elements'
     through memory).  */
  seq = NULL;
  if (l->acc >= 0)
    {
      /* Elements: the block's executions since the last change, but the
         current one, which is the new object's.  The other fields:
         emit_counters creates those it uses; the others add 0.  */
      tree base = data_base (st, l);
      tree now = gimple_build (&seq, MINUS_EXPR, zi_t.u64, block_runs (st, l),
                               build_int_cst (zi_t.u64, 1));
      tree n = gimple_build (&seq, MINUS_EXPR, zi_t.u64, now, base);
      if (l->lanes != 1)
        n = gimple_build (&seq, MULT_EXPR, zi_t.u64, n, build_int_cst (zi_t.u64, l->lanes));
      add_to_slot (&seq, st->slots, l->unit, ZI_F_ELEMENTS, n);
      gimple_seq_add_stmt (&seq, gimple_build_assign (base, now));
      for (unsigned f = ZI_F_ELEMENTS + 1; f < ZI_NFIELDS; f++)
        {
          tree &acc = field_acc (st, l, f);
          add_to_slot (&seq, st->slots, l->unit, f, acc_value (&seq, l, f, acc, n));
          gimple_seq_add_stmt (&seq, gimple_build_assign (acc, build_zero_cst (TREE_TYPE (acc))));
        }
    }
  tree value, tmp = NULL_TREE;
  if (l->bits)
    value = l->bits;
  else if (l->lanes == 1)
    {
      tree hi;
      raw_bits (&seq, l->value, &value, &hi);
    }
  else
    {
      /* Several elements: through memory (a stack slot, written on this
         path only).  */
      tmp = create_tmp_var (TREE_TYPE (l->value), "zi_value");
      TREE_ADDRESSABLE (tmp) = 1;
      gimple_seq_add_stmt (&seq, gimple_build_assign (tmp, l->value));
      value = gimple_convert (&seq, zi_t.u64, build_fold_addr_expr (tmp));
    }
  tree args[] = { gimple_convert (&seq, ptr_type_node, ds), addr, value };
  /* Vector registers are saved by the trampoline only where values may
     live in them across the call: in loops that compute floating-point
     or vector values; xmm0-15 only (x87 values, long double, are then
     moved to memory around the call by GCC) where the function has no
     AVX, else with XSAVE.  Elsewhere they are declared clobbered (a value
     live across a whole loop is saved once).  */
  int *known = loop && loop->num ? st->float_loops.get (loop->num) : NULL;
  enum zi_keep keeps = ZI_KEEP_GPRS;
  if (loop && loop->num && (!known || *known == 1))
    keeps = zi_sse_only_p () ? ZI_KEEP_SSE : ZI_KEEP_ALL;
  static const char *const trampolines[] = {
    "__zeroinst_lookup_keep", "__zeroinst_lookup_keepsse", "__zeroinst_lookup_keepall"
  };
  gimple *call = zi_runtime_call (zi_t.object_fn, trampolines[keeps], keeps, 3, args);
  tree slow = make_ssa_name (zi_t.u64, call);
  if (gasm *a = dyn_cast<gasm *> (call))
    TREE_VALUE (gimple_asm_output_op (a, 0)) = slow;
  else
    gimple_call_set_lhs (as_a<gcall *> (call), slow);
  gimple_seq_add_stmt (&seq, call);
  if (tmp)
    gimple_seq_add_stmt (&seq, gimple_build_assign (tmp, build_clobber (TREE_TYPE (tmp))));
  /* The runtime filled the slot (or left it stale: then the next element
     misses again).  */
  if (regs)
    {
      fill_range (&seq, st, l, range_regs (st, l));
      slow = biased_chunk (&seq, slow, addr);
    }
  insert_before (then, seq);
  tree chunk = make_ssa_name (zi_t.u64);
  gphi *phi = create_phi_node (chunk, join_bb);
  add_phi_arg (phi, cached, in, UNKNOWN_LOCATION);
  add_phi_arg (phi, slow, find_edge (gimple_bb (then), join_bb), UNKNOWN_LOCATION);
  if (hit)
    add_phi_arg (phi, hit_chunk, hit, UNKNOWN_LOCATION);

  /* The marks, where there is a chunk.  */
  gimple *marks = branch_before (end, NE_EXPR, chunk, build_zero_cst (zi_t.u64), true);
  emit_marks (marks, l, chunk, addr, align ? align : 1, regs, NULL_TREE);
}

/* Replace RL's stand-in with its test (version_ranges): for each of its
   affine loads with an inline data path, its data slot is current and
   holds an object that the load's first and last elements hit.  */
static void
build_range_test (struct zi_fn_state *st, struct zi_range_loop *rl, vec<struct zi_load> &loads,
                  hash_map<gimple *, int> &load_index)
{
  gimple_seq seq = NULL;
  tree ok = boolean_true_node;
  if (rl->assumptions)
    ok = gimple_operand (&seq, fold_convert (boolean_type_node, unshare_expr (rl->assumptions)));
  tree now = make_ssa_name (zi_t.u64);
  gimple_seq_add_stmt (&seq, gimple_build_assign (now, zi_t.gen_var));
  for (unsigned k = 0; k < rl->loads.length (); k++)
    {
      const struct zi_load &l = loads[*load_index.get (rl->loads[k])];
      if (l.unit < 0 || l.data != 3)
        continue;       /* recorded by the runtime: no range in registers */
      tree ds = dslot (&seq, st, &l);
      tree lo = dslot_field (&seq, ds, 0), limit = dslot_field (&seq, ds, 1);
      tree gen = dslot_field (&seq, ds, 3);
      tree ends[2] = { rl->first[k], rl->last[k] };
      tree hits = gimple_build (&seq, EQ_EXPR, boolean_type_node, gen, now);
      for (tree end : ends)
        {
          tree a = gimple_operand (&seq, fold_convert (zi_t.u64, unshare_expr (end)));
          tree in = gimple_build (&seq, LE_EXPR, boolean_type_node,
                                  gimple_build (&seq, MINUS_EXPR, zi_t.u64, a, lo), limit);
          hits = gimple_build (&seq, BIT_AND_EXPR, boolean_type_node, hits, in);
        }
      ok = ok == boolean_true_node ? hits
                                   : gimple_build (&seq, BIT_AND_EXPR, boolean_type_node, ok, hits);
    }
  gimple_stmt_iterator g = gsi_for_stmt (rl->ok);
  gsi_insert_seq_before (&g, seq, GSI_SAME_STMT);
  gimple_assign_set_rhs_from_tree (&g, ok);
  update_stmt (gsi_stmt (g));
}

/* Instrument the load LOAD: its data path, then its counters.  */
static void
instrument_load (struct zi_fn_state *st, const struct zi_load *load)
{
  gimple_stmt_iterator gsi;
  if (!append_point (load->stmt, &gsi))
    return;
  gimple *end = gimple_build_nop ();
  gsi_insert_after (&gsi, end, GSI_NEW_STMT);
  struct zi_load copy = *load;
  const struct zi_load *l = &copy;
  bool by_runtime = zi_opts.out_of_line || l->unit < 0 || runtime_counted_p (l);
  if (!by_runtime && l->lanes == 1 && l->type != ZI_OTHER)
    {
      /* A scalar's raw bits, in the load's own block: the data path's
         shadow test, its miss and the counters (after the data path's
         branches join) read one value (on x86-64 a float's one move from
         its vector register).  */
      gimple_seq seq = NULL;
      tree hi;
      raw_bits (&seq, l->value, &copy.bits, &hi);
      insert_before (end, seq);
    }
  if (!by_runtime && l->data && l->type != ZI_OTHER)
    emit_data_path (end, st, l);
  if (by_runtime)
    {
      emit_record_calls (end, st, l);
      return;
    }
  gimple_seq seq = NULL;
  emit_counters (&seq, st, l);
  insert_before (end, seq);
}


/* Is STMT, inside a loop, something that could end the activation other
   than through the loop's exits, or run the program's code: a call (but
   internal functions and leaf, nothrow builtins, which never call back
   into the program), inline assembly, a statement that can throw.  */
static bool
leaves_loop_p (gimple *stmt)
{
  if (gcall *call = dyn_cast<gcall *> (stmt))
    {
      if (gimple_call_internal_p (call))
        return false;
      int flags = gimple_call_flags (call);
      return !(gimple_call_builtin_p (call, BUILT_IN_NORMAL) && (flags & ECF_LEAF)
               && (flags & ECF_NOTHROW) && !(flags & (ECF_RETURNS_TWICE | ECF_NORETURN)));
    }
  if (gimple_code (stmt) == GIMPLE_ASM)
    return true;
  return stmt_could_throw_p (cfun, stmt);
}

/* Can LOOP keep its counters in registers: an innermost loop with a
   preheader, left only through normal edges (EXITS), with nothing that
   could end the activation inside (leaves_loop_p)?  Then at most this
   loop's counts are lost if the thread dies inside it.  */
static bool
register_loop_p (class loop *loop, auto_vec<edge> *exits)
{
  if (loop->num == 0 || loop->inner || !loop_preheader_edge (loop))
    return false;
  if (!single_succ_p (loop_preheader_edge (loop)->src))
    return false;
  basic_block *body = get_loop_body (loop);
  bool ok = true;
  for (unsigned i = 0; ok && i < loop->num_nodes; i++)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, body[i]->succs)
        if (e->flags & (EDGE_EH | EDGE_ABNORMAL))
          ok = false;
      for (gimple_stmt_iterator g = gsi_start_bb (body[i]); ok && !gsi_end_p (g); gsi_next (&g))
        if (leaves_loop_p (gsi_stmt (g)))
          ok = false;
    }
  free (body);
  if (!ok)
    return false;
  auto_vec<edge> e = get_loop_exit_edges (loop);
  for (edge x : e)
    {
      if (x->flags & (EDGE_EH | EDGE_ABNORMAL))
        return false;
      exits->safe_push (x);
    }
  return !exits->is_empty ();
}

/* Version LOOP on "if (FLAG CODE 0)", FLAG the value SET (an assignment)
   computes at the head of the test's block: LOOP runs when the test
   holds (likely), the returned copy when not.  NULL (FLAG released) when
   GCC cannot version LOOP.  */
static class loop *
version_on (class loop *loop, gimple *set, enum tree_code code)
{
  tree flag = gimple_assign_lhs (set);
  basic_block cond_bb;
  tree cond = build2 (code, boolean_type_node, flag, build_zero_cst (TREE_TYPE (flag)));
  class loop *copy
      = loop_version (loop, cond, &cond_bb, profile_probability::likely (),
                      profile_probability::unlikely (), profile_probability::always (),
                      profile_probability::always (), true);
  if (!copy)
    {
      release_ssa_name (flag);
      return NULL;
    }
  gimple_stmt_iterator g = gsi_after_labels (cond_bb);
  gsi_insert_before (&g, set, GSI_SAME_STMT);
  return copy;
}

/* Data mode's path needs counters in memory and would test
   __zeroinst_data_on at every load.  Each register loop (register_loop_p)
   with a load is therefore versioned on it:

       if (__zeroinst_data_on == 0)  LOOP      -- counters in registers
       else                          COPY      -- counters in memory, data path

   Adds the numbers of the loops to ORIGINALS, of the copies to COPIES.  */
static void
version_loops (function *fun, hash_set<int_hash<int, -1, -2> > *originals,
               hash_set<int_hash<int, -1, -2> > *copies, vec<class loop *> *copy_loops)
{
  auto_vec<class loop *> todo;
  for (auto loop : loops_list (fun, LI_ONLY_INNERMOST))
    {
      auto_vec<edge> exits;
      if (!register_loop_p (loop, &exits))
        continue;
      basic_block *body = get_loop_body (loop);
      bool loads = false;
      for (unsigned i = 0; !loads && i < loop->num_nodes; i++)
        for (gimple_stmt_iterator g = gsi_start_bb (body[i]); !loads && !gsi_end_p (g);
             gsi_next (&g))
          {
            struct zi_load l;
            loads = describe_load (gsi_stmt (g), &l) && !runtime_counted_p (&l);
          }
      free (body);
      if (loads && optimize_loop_for_speed_p (loop))
        todo.safe_push (loop);
    }
  if (todo.is_empty ())
    return;
  calculate_dominance_info (CDI_DOMINATORS);
  initialize_original_copy_tables ();
  for (class loop *loop : todo)
    {
      class loop *copy
          = version_on (loop, gimple_build_assign (make_ssa_name (integer_type_node),
                                                   zi_t.data_on_var), EQ_EXPR);
      if (!copy)
        continue;
      copies->add (copy->num);
      copy_loops->safe_push (copy);
      originals->add (loop->num);
    }
  free_original_copy_tables ();
  update_ssa (TODO_update_ssa);
}

/* The loads of BB, in statement order, into OUT.  */
static void
loads_of_block (basic_block bb, vec<gimple *> *out)
{
  for (gimple_stmt_iterator g = gsi_start_bb (bb); !gsi_end_p (g); gsi_next (&g))
    {
      struct zi_load l;
      if (describe_load (gsi_stmt (g), &l))
        out->safe_push (gsi_stmt (g));
    }
}

/* walk_tree callback: a division or remainder by something other than a
   constant (which would trap on zero in the test where the program may
   not divide at all).  */
static tree
divides_by_variable (tree *tp, int *, void *)
{
  switch (TREE_CODE (*tp))
    {
    case TRUNC_DIV_EXPR: case CEIL_DIV_EXPR: case FLOOR_DIV_EXPR: case ROUND_DIV_EXPR:
    case EXACT_DIV_EXPR: case TRUNC_MOD_EXPR: case CEIL_MOD_EXPR: case FLOOR_MOD_EXPR:
    case ROUND_MOD_EXPR:
      return TREE_CODE (TREE_OPERAND (*tp, 1)) == INTEGER_CST ? NULL_TREE : *tp;
    default:
      return NULL_TREE;
    }
}

/* Range loops.  In the data-mode copy of a quiet register loop (no call,
   atomic or volatile access: nothing in it frees or moves an object)
   with one exit and a number of iterations N known on entry, a load
   whose address is affine in the loop, A0 + i * STEP in iteration i of
   0..N, reads only between A0 and A0 + N * STEP: when both lie in the
   object its data slot holds (and the slot is current), every element of
   the loop hits that object, and the loop needs no range check for it
   (a load that may not run in the last iteration gives a bound one step
   too far, which only makes the test fail more often).  Such a copy is
   versioned once more:

       if (every such load's two ends hit its data slot)  FAST     -- data 3
       else                                               CHECKED  -- data 2

   FAST's loads share their units (counter and data slots) with their
   copies in CHECKED (TWINS: FAST's statement to CHECKED's), whose misses
   fill the slots FAST's test reads; FAST's other loads keep their range
   checks.  The test needs the slots, so it is built after the loads are
   instrumented (build_range_test): until then "ok = false" stands in
   for it.  COPIES gains CHECKED's number; AFFINE the loads that need no
   check, each with its address's evolution (A0 as a u64, STEP as a
   ssizetype).  */
typedef hash_map<gimple *, std::pair<tree, tree> > zi_affine_map;
static void
version_ranges (vec<class loop *> &loops, hash_set<int_hash<int, -1, -2> > *copies,
                hash_map<gimple *, gimple *> *twins, zi_affine_map *affine,
                vec<struct zi_range_loop *> *out)
{
  auto_vec<std::pair<class loop *, struct zi_range_loop *> > todo;
  hash_map<int_hash<int, -1, -2>, int> noisy;
  scev_initialize ();
  for (class loop *loop : loops)
    {
      /* (version_loops took loops optimized for speed only.)  N is known
         when the assumptions hold (a pointer compared for inequality with
         its end: that their distance is a multiple of the step), which
         the test then checks too.  */
      edge exit = single_exit (loop);
      class tree_niter_desc desc;
      if (!exit || loop_has (noisy, loop, disturbs_objects_p)
          || !number_of_iterations_exit_assumptions (loop, exit, &desc, NULL)
          || integer_zerop (desc.assumptions)
          || walk_tree_without_duplicates (&desc.niter, divides_by_variable, NULL)
          || walk_tree_without_duplicates (&desc.assumptions, divides_by_variable, NULL)
          || walk_tree_without_duplicates (&desc.may_be_zero, divides_by_variable, NULL))
        continue;
      basic_block *body = get_loop_body (loop);
      tree niter = fold_convert (sizetype, desc.niter);
      if (!integer_zerop (desc.may_be_zero))
        niter = fold_build3 (COND_EXPR, sizetype, desc.may_be_zero, size_zero_node, niter);
      struct zi_range_loop *rl = new zi_range_loop;
      rl->assumptions = integer_nonzerop (desc.assumptions) ? NULL_TREE : desc.assumptions;
      for (unsigned i = 0; i < loop->num_nodes; i++)
        for (gimple_stmt_iterator g = gsi_start_bb (body[i]); !gsi_end_p (g); gsi_next (&g))
          {
            struct zi_load l;
            if (!describe_load (gsi_stmt (g), &l) || l.type == ZI_OTHER || runtime_counted_p (&l)
                || l.addr_arg || !l.ref)
              continue;
            /* The element's address (its value as the data path
               computes it, in u64 arithmetic), put before the load for
               the analysis and taken out again.  */
            gimple_seq seq = NULL;
            tree a = element_address (&seq, &l, true);
            affine_iv iv;
            bool affine_p = false;
            if (TREE_CODE (a) == SSA_NAME && !gimple_seq_empty_p (seq))
              {
                gimple *added = gimple_seq_first_stmt (seq);
                gsi_insert_seq_before (&g, seq, GSI_SAME_STMT);
                affine_p = simple_iv (loop, loop, a, &iv, true);
                scev_reset_htab ();
                for (gimple_stmt_iterator d = gsi_for_stmt (added); gsi_stmt (d) != gsi_stmt (g);)
                  {
                    gimple *dead = gsi_stmt (d);
                    gsi_remove (&d, true);
                    release_defs (dead);
                  }
              }
            if (!affine_p)
              continue;
            tree first = fold_convert (zi_t.u64, iv.base);
            tree last = fold_build2 (PLUS_EXPR, zi_t.u64, first,
                                     fold_build2 (MULT_EXPR, zi_t.u64,
                                                  fold_convert (zi_t.u64, niter),
                                                  fold_convert (zi_t.u64, iv.step)));
            rl->loads.safe_push (gsi_stmt (g));
            rl->first.safe_push (first);
            rl->last.safe_push (last);
            rl->step.safe_push (fold_convert (ssizetype, iv.step));
          }
      free (body);
      if (rl->loads.is_empty ())
        delete rl;
      else
        todo.safe_push (std::make_pair (loop, rl));
    }
  scev_finalize ();
  if (todo.is_empty ())
    return;
  initialize_original_copy_tables ();
  for (auto &p : todo)
    {
      class loop *loop = p.first;
      struct zi_range_loop *rl = p.second;
      rl->ok = gimple_build_assign (make_ssa_name (boolean_type_node), boolean_false_node);
      class loop *checked = version_on (loop, rl->ok, NE_EXPR);
      if (!checked)
        {
          delete rl;
          continue;
        }
      copies->add (checked->num);
      for (unsigned k = 0; k < rl->loads.length (); k++)
        affine->put (rl->loads[k], std::make_pair (rl->first[k], rl->step[k]));
      /* The copies of blocks keep their statements in order.  A load
         without a twin keeps slots of its own, which no miss fills: the
         test then always fails.  */
      basic_block *body = get_loop_body (loop);
      for (unsigned i = 0; i < loop->num_nodes; i++)
        {
          auto_vec<gimple *> mine, theirs;
          loads_of_block (body[i], &mine);
          loads_of_block (get_bb_copy (body[i]), &theirs);
          for (unsigned k = 0; k < mine.length () && mine.length () == theirs.length (); k++)
            twins->put (mine[k], theirs[k]);
        }
      free (body);
      out->safe_push (rl);
    }
  free_original_copy_tables ();
  update_ssa (TODO_update_ssa);
}

/* Entry point for one function: find loops and loads first (rewriting
   splits blocks), emit the descriptors and the entry code, instrument each
   load, then the accumulators of register loops: zero in the preheader,
   added to the slot on each exit edge.  Returns the pass's TODO flags.  */
unsigned int
zi_instrument_function (function *fun)
{
  /* The types and declarations are built at the first function, as
     asan.cc builds its builtins: built at PLUGIN_START_UNIT, before the
     front end parses, GCC 12 crashed in -fdump-tree-optimized's dump of
     the instrumented functions.  */
  static bool refused;
  if (refused || (!zi_t.u64 && !zi_build_trees ()))
    {
      refused = true;
      return 0;
    }
  bool inline_mode = !zi_opts.out_of_line;
  if (inline_mode)
    loop_optimizer_init (LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);

  hash_set<int_hash<int, -1, -2> > data_copies, versioned;
  hash_map<gimple *, gimple *> twins;
  zi_affine_map affine;
  auto_vec<struct zi_range_loop *> range_loops;
  if (inline_mode)
    {
      auto_vec<class loop *> copy_loops;
      version_loops (fun, &versioned, &data_copies, &copy_loops);
      version_ranges (copy_loops, &data_copies, &twins, &affine, &range_loops);
    }

  auto_vec<struct zi_load> loads;
  auto_vec<struct zi_acc_loop *> acc_loops;
  struct zi_fn_state st;
  hash_map<int_hash<int, -1, -2>, int> loop_index;
  basic_block bb;
  unsigned units = 0;
  FOR_EACH_BB_FN (bb, fun)
    {
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
        {
          struct zi_load l;
          if (!describe_load (gsi_stmt (gsi), &l))
            continue;
          l.acc = -1;
          l.unit = -1;
          l.vec = NULL_TREE;
          l.block = bb->index;
          gimple **twin = twins.get (l.stmt);
          l.twin = twin ? *twin : NULL;
          /* Sites in statement order take slots while they fit (a twin
             takes its twin's, below).  */
          if (!l.twin && units + ZI_SLOT_UNITS (l.type) <= ZI_MAX_FN_UNITS)
            {
              l.unit = units;
              units += ZI_SLOT_UNITS (l.type);
            }
          l.data = 1;
          if (inline_mode && bb->loop_father->num)
            {
              if (data_copies.contains (bb->loop_father->num))
                {
                  std::pair<tree, tree> *iv = affine.get (l.stmt);
                  l.data = iv ? 3 : 2;
                  if (iv)
                    l.iv_base = iv->first, l.iv_step = iv->second;
                }
              else if (versioned.contains (bb->loop_father->num))
                l.data = 0;
            }
          class loop *loop = inline_mode ? bb->loop_father : NULL;
          if (loop && !runtime_counted_p (&l) && !stmt_ends_bb_p (l.stmt))
            {
              int *known = loop_index.get (loop->num);
              if (!known)
                {
                  struct zi_acc_loop *al = new zi_acc_loop;
                  al->loop = loop;
                  int idx = -1;
                  if (register_loop_p (loop, &al->exits))
                    {
                      idx = acc_loops.length ();
                      acc_loops.safe_push (al);
                    }
                  else
                    delete al;
                  loop_index.put (loop->num, idx);
                  known = loop_index.get (loop->num);
                }
              l.acc = *known;
            }
          /* The data path's runtime call reads the counter slot: in the
             data-mode copy of a register loop the load's own accumulators
             are added to it before that call (emit_data_path); elsewhere
             (a register loop that could not be versioned) no registers.  */
          if (l.data == 1 && l.type != ZI_OTHER)
            l.acc = -1;
          loads.safe_push (l);
        }
    }
  /* Loops are looked at while their bodies can be enumerated (dominators),
     before the data paths split their blocks.  */
  for (struct zi_load &l : loads)
    if (l.data && inline_mode && gimple_bb (l.stmt)->loop_father->num)
      {
        float_loop_p (&st, gimple_bb (l.stmt)->loop_father);
        if (l.acc >= 0)
          quiet_loop_p (&st, gimple_bb (l.stmt)->loop_father);
      }
  /* Which register loops' vectors are counted at once (vector_count_type):
     their bounds, from the scalar evolutions of loops in normal form.  */
  bool any_vec = false;
  for (struct zi_load &l : loads)
    if (l.acc >= 0 && inline_mode && (l.vec = vector_count_type (&l)))
      any_vec = true;
  if (any_vec)
    {
      bool own_scev = !scev_initialized_p ();
      if (own_scev)
        scev_initialize ();
      mark_irreducible_loops ();
      for (struct zi_load &l : loads)
        if (l.vec && ((gimple_bb (l.stmt)->flags & BB_IRREDUCIBLE_LOOP)
                      || !vector_counts_fit_p (gimple_bb (l.stmt)->loop_father, l.vec, l.type)))
          l.vec = NULL_TREE;
      if (own_scev)
        scev_finalize ();
    }
  free_dominance_info (CDI_DOMINATORS);
  free_dominance_info (CDI_POST_DOMINATORS);

  /* Descriptors, those with a slot in slot order; twins share them.  */
  hash_map<gimple *, int> load_index;
  for (unsigned i = 0; i < loads.length (); i++)
    load_index.put (loads[i].stmt, i);
  auto_vec<tree> sites;
  for (struct zi_load &l : loads)
    if (!l.twin)
      {
        /* A masked load's elements are its active lanes: each counts as
           one load of one element (the report's loads are elements per
           lane); so do the lanes of a vector counted from the stack, a
           scalable one's whose number is not known here.  */
        if (l.spill)
          l.site = zi_make_site (l.stmt, site_ref (&l), l.type, 1, l.access_bytes,
                                 l.lanes_ref ? (int) l.lanes_k : -1, l.lanes_n);
        else if (l.mask)
          l.site = zi_make_site (l.stmt, site_ref (&l), l.type, 1, l.access_bytes / l.lanes);
        else
          l.site = zi_make_site (l.stmt, site_ref (&l), l.type, l.lanes, l.access_bytes,
                                 l.lanes_ref ? (int) l.lanes_k : -1, l.lanes_n);
        if (l.unit >= 0)
          sites.safe_push (l.site);
        else
          l.acc = -1;
      }
  for (struct zi_load &l : loads)
    if (l.twin)
      {
        const struct zi_load &t = loads[*load_index.get (l.twin)];
        l.site = t.site;
        l.unit = t.unit;
        if (l.unit < 0)
          l.acc = -1;
      }
  auto_vec<gcall *> tail_calls;
  auto_vec<tree> tail_sites;
  if (!zi_opts.no_contexts)
    zi_find_tail_calls (fun, &tail_calls);
  for (unsigned k = 0; k < tail_calls.length () && k < ZI_MAX_FN_TAILS; k++)
    tail_sites.safe_push (zi_make_tail (tail_calls[k]));
  tree fn_desc = zi_make_fn_desc (sites, units, tail_sites);
  st.node = zi_enter_context (fun, !loads.is_empty (), fn_desc, tail_calls, &st.slots,
                              &st.data_on);
  if (loads.is_empty () && !st.node)
    {
      if (inline_mode)
        loop_optimizer_finalize ();
      for (struct zi_acc_loop *al : acc_loops)
        delete al;
      for (struct zi_range_loop *rl : range_loops)
        delete rl;
      return 0;
    }
  zi_refer_to_abi_symbol ();
  st.accs.safe_grow_cleared (units * ZI_NFIELDS);
  /* A unit's lanes are counted as a vector only if every register-loop
     load of it can be (twins share their unit and accumulators).  */
  st.vec_units.safe_grow_cleared (units);
  {
    auto_vec<bool> seen;
    seen.safe_grow_cleared (units);
    for (struct zi_load &l : loads)
      if (l.acc >= 0 && l.unit >= 0)
        {
          tree &vt = st.vec_units[l.unit];
          vt = !seen[l.unit] || (vt && l.vec && types_compatible_p (vt, l.vec)) ? l.vec : NULL_TREE;
          seen[l.unit] = true;
        }
  }
  st.block_accs.safe_grow_cleared (last_basic_block_for_fn (fun));
  st.data_bases.safe_grow_cleared (units);
  st.data_ranges.safe_grow_cleared (units);
  st.half_ivs.safe_grow_cleared (units);

  struct zi_stats stats = { 0, 0, 0 };
  unsigned in_registers = 0, in_vectors = 0;
  for (unsigned i = 0; i < loads.length (); i++)
    {
      instrument_load (&st, &loads[i]);
      if (loads[i].data >= 2)
        continue;     /* the data-mode copies of a load counted in its loop */
      stats.loads++;
      stats.elements += loads[i].lanes;
      stats.other += loads[i].type == ZI_OTHER;
      in_registers += loads[i].acc >= 0;
      in_vectors += loads[i].acc >= 0 && st.vec_units[loads[i].unit];
    }

  /* Register loops: each accumulator starts at 0 in the preheader and is
     added to its slot field on every exit edge; a load's elements are its
     block's executions times its lanes (since its last object change:
     data_base).  */
  auto_vec<bool> block_started;
  block_started.safe_grow_cleared (st.block_accs.length ());
  unsigned unchecked = 0, half_vars = 0;   /* range loops' loads, for verbose */
  for (struct zi_load &l : loads)
    {
      if (l.acc < 0 || l.unit < 0 || zi_opts.out_of_line)
        continue;
      struct zi_acc_loop *al = acc_loops[l.acc];
      tree runs = st.block_accs[l.block];
      if (runs && !block_started[l.block])
        {
          block_started[l.block] = true;
          gsi_insert_on_edge (loop_preheader_edge (al->loop),
                              gimple_build_assign (runs, build_zero_cst (zi_t.u64)));
        }
      /* A data path's elements: since its last object change.  */
      tree base = st.data_bases[l.unit];
      if (base)
        gsi_insert_on_edge (loop_preheader_edge (al->loop),
                            gimple_build_assign (base, build_zero_cst (zi_t.u64)));
      /* A data path's cached object, in registers from here on.  */
      if (st.data_ranges[l.unit].lo)
        {
          gimple_seq seq = NULL;
          fill_range (&seq, &st, &l, st.data_ranges[l.unit]);
          gsi_insert_seq_on_edge (loop_preheader_edge (al->loop), seq);
        }
      /* A range loop's half induction variable: the half of the first
         iteration's element, from the chunk just filled, and a step per
         latch; without a chunk, __zeroinst_unseen[0] and no step.  (The
         unit's twin in the checked loop has none.)  */
      tree var = l.data == 3 ? st.half_ivs[l.unit] : NULL_TREE;
      unchecked += l.data == 3;
      if (var)
        {
          half_vars++;
          gimple_seq seq = NULL;
          tree a0 = gimple_operand (&seq, unshare_expr (l.iv_base));
          tree words = gimple_build (&seq, RSHIFT_EXPR, zi_t.u64, a0,
                                     build_int_cst (integer_type_node, 3));
          tree chunk = make_ssa_name (zi_t.u64);
          gimple_seq_add_stmt (&seq, gimple_build_assign (chunk, st.data_ranges[l.unit].chunk));
          tree half = gimple_build (&seq, PLUS_EXPR, zi_t.u64, chunk,
                                    gimple_build (&seq, LSHIFT_EXPR, zi_t.u64, words,
                                                  build_int_cst (integer_type_node, 1)));
          tree some = flag (&seq, NE_EXPR, chunk, build_zero_cst (zi_t.u64));
          tree saturated = gimple_convert (&seq, zi_t.u64, build_fold_addr_expr (zi_t.unseen_var));
          gimple_seq_add_stmt (&seq, gimple_build_assign (var, COND_EXPR,
                                                          gimple_build (&seq, NE_EXPR,
                                                                        boolean_type_node, some,
                                                                        build_zero_cst (zi_t.u64)),
                                                          half, saturated));
          /* The step, STEP / 4 (STEP a multiple of 8): an SSA name of the
             preheader, which dominates the latch.  */
          tree inc = NULL_TREE;
          if (!integer_zerop (l.iv_step))
            {
              tree quarter = fold_build2 (EXACT_DIV_EXPR, ssizetype, unshare_expr (l.iv_step),
                                          build_int_cst (ssizetype, 4));
              inc = gimple_build (&seq, MULT_EXPR, zi_t.u64, some,
                                  gimple_operand (&seq, fold_convert (zi_t.u64, quarter)));
            }
          gsi_insert_seq_on_edge (loop_preheader_edge (al->loop), seq);
          if (inc)
            {
              seq = NULL;
              tree now = make_ssa_name (zi_t.u64);
              gimple_seq_add_stmt (&seq, gimple_build_assign (now, var));
              gimple_seq_add_stmt (&seq, gimple_build_assign (var, PLUS_EXPR, now, inc));
              gsi_insert_seq_on_edge (loop_latch_edge (al->loop), seq);
            }
        }
      for (unsigned f = 0; f < ZI_NFIELDS; f++)
        {
          tree acc = st.accs[l.unit * ZI_NFIELDS + f];
          if (f == ZI_F_ELEMENTS)
            acc = runs;
          else if (acc)
            gsi_insert_on_edge (loop_preheader_edge (al->loop),
                                gimple_build_assign (acc, build_zero_cst (TREE_TYPE (acc))));
          if (!acc)
            continue;
          for (edge e : al->exits)
            {
              gimple_seq seq = NULL;
              /* The load's elements since the preheader or its last
                 object change.  */
              tree elements = runs;
              if (elements && base)
                elements = gimple_build (&seq, MINUS_EXPR, zi_t.u64, elements, base);
              if (elements && l.lanes != 1)
                elements = gimple_build (&seq, MULT_EXPR, zi_t.u64, elements,
                                         build_int_cst (zi_t.u64, l.lanes));
              tree val = f == ZI_F_ELEMENTS ? elements : acc_value (&seq, &l, f, acc, elements);
              add_to_slot (&seq, st.slots, l.unit, f, val);
              gsi_insert_seq_on_edge (e, seq);
            }
        }
    }
  unsigned n_range_loops = range_loops.length ();
  for (struct zi_range_loop *rl : range_loops)
    {
      build_range_test (&st, rl, loads, load_index);
      delete rl;
    }
  gsi_commit_edge_inserts ();
  for (struct zi_acc_loop *al : acc_loops)
    delete al;
  if (inline_mode)
    loop_optimizer_finalize ();

  /* The statistics: on stderr with the verbose option, in the pass's
     dump (FILE.c.NNNt.zeroinst) with details: -fdump-tree-all-details,
     as GCC 12 reads -fdump-tree-NAME before plugins register passes.  */
  FILE *outs[2] = { zi_opts.verbose ? stderr : NULL,
                    dump_file && (dump_flags & TDF_DETAILS) ? dump_file : NULL };
  for (FILE *out : outs)
    if (out)
      fprintf (out,
               "%s: %s: %u loads, %u elements, %u not analysed, %u in register loops "
               "(%u counted as vectors), %u range loops (%u loads unchecked, %u half "
               "variables)\n", zi_plugin_name, function_name (fun), stats.loads, stats.elements,
               stats.other, in_registers, in_vectors, n_range_loops, unchecked, half_vars);
  mark_virtual_operands_for_renaming (fun);
  return TODO_update_ssa | TODO_cleanup_cfg;
}
