/* contexts.cc - calling-context tracking at function entry and exit, and
   the activation's counter slots.

   Every instrumented function that loads from memory or calls another
   function finds the node of its activation in the calling-context tree
   (zeroinst-abi.h) on entry:

       parent = __zeroinst_ctx;
       ra = return address;
       way = ((ra >> 4) ^ ra) & (ZI_CTX_WAYS - 1);
       cached = parent->cache[way];
       if (((cached->fn ^ &fn_desc) | (cached->ra ^ ra)) != 0)
         {
           cached = parent->cache[way ^ 1];           -- the pair (cache_put)
           if (((cached->fn ^ &fn_desc) | (cached->ra ^ ra)) != 0)
             cached = __zeroinst_enter_node (&fn_desc, ra);  -- unlikely; zi_runtime_call
         }
       node = PHI <cached, cached'>;
       __zeroinst_ctx = node;

   "node" is kept in an SSA name; the function reads node->slots (its
   counter slots, instrument.cc) and __zeroinst_data_on once after it, and
   stores node with every buffered load (data mode).  Without contexts the
   lookup starts at __zeroinst_flat with ra = 0 and the way taken from
   &fn_desc, and __zeroinst_ctx is neither set nor restored.

   With contexts, __zeroinst_ctx is set back to "parent" before every
   return.  Before the K-th tail call (zi_find_tail_calls) it is set to
   node->tails[K], the tail node the runtime makes for it at its first use
   (zeroinst-abi.h):
   the callee, entered with our return address, is then our child on the
   path, at the tail call's line, and the call stays a jump.  Tail calls
   past ZI_MAX_FN_TAILS restore "parent": their callees hang off our
   caller, as on the real stack.
   It is set to "node" again where control re-enters the function other
   than by a normal return of a callee:
     - at EH landing pads (an exception thrown through instrumented frames
       skipped their restores);
     - after calls that return twice (setjmp: a longjmp skipped them).
   Thread cancellation unwinds like an exception.  */

#include "zeroinst-plugin.h"

/* __zeroinst_ctx = VALUE, before *GSI.  */
static void
set_ctx_before (gimple_stmt_iterator *gsi, tree value)
{
  gsi_insert_before (gsi, gimple_build_assign (zi_t.ctx_var, value), GSI_SAME_STMT);
}

/* Insert G right after STMT: on its fall-through edge if STMT ends its
   block (a call that may throw).  */
void
zi_insert_after_stmt (gimple *stmt, gimple *g)
{
  if (!stmt_ends_bb_p (stmt))
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gsi_insert_after (&gsi, g, GSI_NEW_STMT);
      return;
    }
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, gimple_bb (stmt)->succs)
    if (!(e->flags & (EDGE_EH | EDGE_ABNORMAL)))
      {
        gsi_insert_on_edge_immediate (e, g);
        return;
      }
}

/* __zeroinst_ctx = VALUE right after STMT.  */
static void
set_ctx_after (gimple *stmt, tree value)
{
  zi_insert_after_stmt (stmt, gimple_build_assign (zi_t.ctx_var, value));
}

/* The tail calls of FUN (calls GCC will compile to jumps), in order of
   blocks and statements, into CALLS.  */
void
zi_find_tail_calls (function *fun, vec<gcall *> *calls)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
      if (gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi)))
        if (gimple_call_tail_p (call))
          calls->safe_push (call);
}

/* Does FUN make a real call (whose callees' contexts go through it)?  */
static bool
makes_calls (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
      if (is_gimple_call (gsi_stmt (gsi)) && !gimple_call_internal_p (gsi_stmt (gsi)))
        return true;
  return false;
}

/* __builtin_return_address, declared if the front end did not (Fortran).  */
static tree
return_address_fn (void)
{
  if (!builtin_decl_explicit_p (BUILT_IN_RETURN_ADDRESS))
    {
      tree type = build_function_type_list (ptr_type_node, unsigned_type_node, NULL_TREE);
      tree decl = add_builtin_function ("__builtin_return_address", type,
                                        BUILT_IN_RETURN_ADDRESS, BUILT_IN_NORMAL, NULL, NULL_TREE);
      set_builtin_decl (BUILT_IN_RETURN_ADDRESS, decl, true);
    }
  return builtin_decl_explicit (BUILT_IN_RETURN_ADDRESS);
}

/* *(void **) (PTR + OFF) in SEQ.  */
static tree
load_field (gimple_seq *seq, tree ptr, unsigned off)
{
  tree ref = build2 (MEM_REF, ptr_type_node, ptr,
                     build_int_cst (build_pointer_type (ptr_type_node), off));
  tree val = make_ssa_name (ptr_type_node);
  gimple_seq_add_stmt (seq, gimple_build_assign (val, ref));
  return val;
}

/* The node cached in PARENT's way WAY (SEQ computes it) and, in *DIFF,
   zero when it is FN_DESC's entered with RA (or any RA when RA is NULL).  */
static tree
probe (gimple_seq *seq, tree parent, tree way, tree fn_desc, tree ra, tree *diff)
{
  tree u = pointer_sized_int_node;
  tree slot = gimple_build (seq, POINTER_PLUS_EXPR, ptr_type_node, parent,
                            gimple_convert (seq, sizetype,
                                            gimple_build (seq, MULT_EXPR, u, way,
                                                          build_int_cst (u, sizeof (void *)))));
  tree cached = load_field (seq, slot, offsetof (struct zi_ctx, cache));
  tree cached_fn = load_field (seq, cached, offsetof (struct zi_ctx, fn));
  *diff = gimple_build (seq, BIT_XOR_EXPR, u, gimple_convert (seq, u, cached_fn),
                        gimple_convert (seq, u, fn_desc));
  if (ra)
    {
      tree cached_ra = load_field (seq, cached, offsetof (struct zi_ctx, ra));
      tree d2 = gimple_build (seq, BIT_XOR_EXPR, u, gimple_convert (seq, u, cached_ra),
                              gimple_convert (seq, u, ra));
      *diff = gimple_build (seq, BIT_IOR_EXPR, u, *diff, d2);
    }
  return cached;
}

/* Emit the entry code of FUN (whose descriptor is FN_DESC) and the
   restores; return the SSA name of the activation's node, or NULL_TREE if
   FUN needs no node (it neither loads, HAS_LOADS, nor calls; without
   contexts: it does not load).  TAIL_CALLS are FUN's tail calls
   (zi_find_tail_calls), the first ZI_MAX_FN_TAILS of them in FN_DESC's
   tails.  When FUN loads, *SLOTS gets the node's counter slots and
   *DATA_ON the value of __zeroinst_data_on, both read once after the
   lookup.  */
tree
zi_enter_context (function *fun, bool has_loads, tree fn_desc, const vec<gcall *> &tail_calls,
                  tree *slots, tree *data_on)
{
  *slots = *data_on = NULL_TREE;
  bool flat = zi_opts.no_contexts;
  if (flat ? !has_loads : (!has_loads && !makes_calls (fun)))
    return NULL_TREE;

  /* Returns and setjmp calls, found before the entry code adds statements.  */
  auto_vec<gimple *> returns, twice_calls;
  auto_vec<basic_block> landing_pads;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      if (flat)
        break;
      if (bb_has_eh_pred (bb))
        landing_pads.safe_push (bb);
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
        {
          gimple *g = gsi_stmt (gsi);
          if (gimple_code (g) == GIMPLE_RETURN)
            returns.safe_push (g);
          else if (gcall *call = dyn_cast<gcall *> (g))
            if (gimple_call_flags (call) & ECF_RETURNS_TWICE)
              twice_calls.safe_push (g);
        }
    }

  /* Entry: a new block on the edge out of ENTRY.  */
  gimple *anchor = gimple_build_nop ();
  gsi_insert_on_edge_immediate (single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun)), anchor);
  gimple_stmt_iterator gsi = gsi_for_stmt (anchor);
  gimple_seq seq = NULL;
  tree u = pointer_sized_int_node;
  tree parent = make_ssa_name (ptr_type_node);
  gimple_seq_add_stmt (&seq, gimple_build_assign (parent, flat ? zi_t.flat_var : zi_t.ctx_var));
  tree ra;
  if (flat)
    ra = build_zero_cst (ptr_type_node);
  else
    {
      ra = make_ssa_name (ptr_type_node);
      gcall *get_ra = gimple_build_call (return_address_fn (), 1, integer_zero_node);
      gimple_call_set_lhs (get_ra, ra);
      gimple_seq_add_stmt (&seq, get_ra);
    }
  /* way = ((key >> 4) ^ key) & (ZI_CTX_WAYS - 1), as ZI_CTX_WAY; the key
     is the return address, or the descriptor's address when flat.  */
  tree key_u = gimple_convert (&seq, u, flat ? fn_desc : ra);
  tree way = gimple_build (&seq, BIT_AND_EXPR, u,
                           gimple_build (&seq, BIT_XOR_EXPR, u,
                                         gimple_build (&seq, RSHIFT_EXPR, u, key_u,
                                                       build_int_cst (integer_type_node, 4)),
                                         key_u),
                           build_int_cst (u, ZI_CTX_WAYS - 1));
  tree diff, cached = probe (&seq, parent, way, fn_desc, flat ? NULL_TREE : ra, &diff);
  gsi_insert_seq_after (&gsi, seq, GSI_CONTINUE_LINKING);

  /* A miss probes the other way of the pair (way ^ 1), where the runtime
     keeps the entry a newer one displaced: two call sites whose return
     addresses share a way (a tree walk's two calls) both hit.  */
  basic_block then_bb, join_bb;
  gimple_stmt_iterator cond_gsi
      = create_cond_insert_point (&gsi, false, false, true, &then_bb, &join_bb);
  gcond *cond = gimple_build_cond (NE_EXPR, diff, build_zero_cst (u), NULL_TREE, NULL_TREE);
  gsi_insert_after (&cond_gsi, cond, GSI_NEW_STMT);
  basic_block cond_bb = gimple_bb (cond);
  gimple_stmt_iterator it = gsi_start_bb (then_bb);
  gimple *mark = gimple_build_nop ();
  gsi_insert_after (&it, mark, GSI_NEW_STMT);
  it = gsi_for_stmt (mark);
  seq = NULL;
  tree other = gimple_build (&seq, BIT_XOR_EXPR, u, way, build_int_cst (u, 1));
  tree diff2, cached2 = probe (&seq, parent, other, fn_desc, flat ? NULL_TREE : ra, &diff2);
  gsi_insert_seq_after (&it, seq, GSI_CONTINUE_LINKING);
  tree args[] = { fn_desc, ra };
  gimple *enter = zi_runtime_call (zi_t.enter_fn, "__zeroinst_enter_node_keep", ZI_KEEP_GPRS,
                                   2, args);
  gimple_stmt_iterator join2;
  tree second = zi_guarded_call (&it, NE_EXPR, diff2, build_zero_cst (u), enter, cached2, &join2);
  tree node = make_ssa_name (ptr_type_node);
  gphi *phi = create_phi_node (node, join_bb);
  add_phi_arg (phi, cached, find_edge (cond_bb, join_bb), UNKNOWN_LOCATION);
  add_phi_arg (phi, second, find_edge (gsi_bb (join2), join_bb), UNKNOWN_LOCATION);
  gimple_stmt_iterator join = gsi_after_labels (join_bb);
  if (!flat)
    gsi_insert_before (&join, gimple_build_assign (zi_t.ctx_var, node), GSI_SAME_STMT);
  if (has_loads)
    {
      gimple_seq after = NULL;
      *slots = load_field (&after, node, offsetof (struct zi_ctx, slots));
      *data_on = make_ssa_name (integer_type_node);
      gimple_seq_add_stmt (&after, gimple_build_assign (*data_on, zi_t.data_on_var));
      gsi_insert_seq_before (&join, after, GSI_SAME_STMT);
    }

  for (unsigned k = 0; !flat && k < tail_calls.length (); k++)
    {
      gimple_stmt_iterator it = gsi_for_stmt (tail_calls[k]);
      if (k >= ZI_MAX_FN_TAILS)
        {
          set_ctx_before (&it, parent);
          continue;
        }
      /* t = node->tails[k];
         if (t == 0)                                        -- unlikely
           t = __zeroinst_tail_node (node, k);              -- zi_runtime_call
         __zeroinst_ctx = t;  */
      gimple_seq seq = NULL;
      tree tails = load_field (&seq, node, offsetof (struct zi_ctx, tails));
      tree tail = load_field (&seq, tails, k * sizeof (void *));
      gsi_insert_seq_before (&it, seq, GSI_SAME_STMT);
      gimple_stmt_iterator last = gsi_for_stmt (SSA_NAME_DEF_STMT (tail));
      tree args[] = { node, build_int_cst (pointer_sized_int_node, k) };
      gimple *make = zi_runtime_call (zi_t.tail_fn, "__zeroinst_tail_node_keep", ZI_KEEP_GPRS,
                                      2, args);
      gimple_stmt_iterator join;
      tail = zi_guarded_call (&last, EQ_EXPR, tail, build_zero_cst (ptr_type_node), make, tail,
                              &join);
      gsi_insert_before (&join, gimple_build_assign (zi_t.ctx_var, tail), GSI_SAME_STMT);
    }
  for (gimple *g : returns)
    {
      gimple_stmt_iterator it = gsi_for_stmt (g);
      gimple_stmt_iterator prev = it;
      gsi_prev (&prev);
      if (!gsi_end_p (prev) && is_gimple_call (gsi_stmt (prev))
          && gimple_call_tail_p (as_a<gcall *> (gsi_stmt (prev))))
        continue;    /* nothing between a tail call and its return: it stays a jump */
      set_ctx_before (&it, parent);
    }
  for (basic_block lp : landing_pads)
    {
      gimple_stmt_iterator it = gsi_after_labels (lp);
      if (gsi_end_p (it))
        gsi_insert_after (&it, gimple_build_assign (zi_t.ctx_var, node), GSI_NEW_STMT);
      else
        set_ctx_before (&it, node);
    }
  for (gimple *g : twice_calls)
    set_ctx_after (g, node);
  return node;
}
