/* allocations.cc - the variable each heap allocation is made for.

   The data report groups heap blocks by allocation path; a group is far
   easier to read as "rhs" or "s->buf" than as the line of a malloc call
   (Fortran's ALLOCATE hides the call altogether).  The name is known
   here, at the call: the variable or the member the result is assigned
   to.  Around each such call the function sets the runtime's
   thread-local __zeroinst_alloc_name:

     __zeroinst_alloc_name = "s->buf";     (volatile stores)
     _1 = calloc (10, 4);
     __zeroinst_alloc_name = 0;
     s->buf = _1;

   and the runtime's malloc (allocators.c) takes the name for the block's
   group.  The store after the call clears a name that no wrapper of the
   runtime took (code mode; an allocator the program defines; libstdc++'s
   operator new calling an unwrapped malloc in a program linked with
   libzeroinst.a; a call GCC deleted, a malloc whose block never escapes),
   so that no later allocation gets it.  On a call that may throw, the
   clear is on its normal edge: on the exceptional one the runtime's
   operator new has taken the name already.

   This runs in the early pass (right after the function is in SSA form),
   where the assignment is still next to the call as the front end wrote
   it; the stores are volatile so that no optimizer removes them as dead
   (the optimizers know malloc reads no program memory) or moves them
   across the call, and inlined and unrolled copies of the call copy
   them too.  Being part of the function's GIMPLE, they are in an LTO
   object's too.  Debug statements are never read: the code is the same
   with and without -g.

   Calls named: malloc, calloc, realloc, aligned_alloc, memalign, valloc,
   pvalloc, strdup, strndup (their lhs), C++'s operators new and new[]
   (the eight that the runtime interposes), and the unit's allocation
   wrappers (note_wrapper).  The name is, in this order,
   the user variable the result is (through copies, conversions,
   constant offsets and PHIs), or the place it is stored to (a member,
   an array element, a global; in Fortran "rhs" for gfortran's store to
   a descriptor's data field, "s%buf", "lev(l)%u").  Calls whose result
   has neither, or whose result is returned (an allocation wrapper: its
   local variable says nothing about its callers' blocks), are left
   alone: their group keeps its allocation path only.  */

#include "zeroinst-plugin.h"

/* The functions of this unit found to be allocation wrappers (by
   DECL_UID; note_wrapper).  The early passes run on a unit's functions
   callees first, so a wrapper is known before its callers are named.  */
static hash_set<int_hash<int, -1, -2> > *wrappers;

/* Is FNDECL an allocator whose result is the new block: the C library's
   and C++'s, or a wrapper of this unit?  */
static bool
allocation_function_p (tree fndecl)
{
  if (!fndecl || TREE_CODE (fndecl) != FUNCTION_DECL)
    return false;
  if (wrappers && wrappers->contains ((int) DECL_UID (fndecl)))
    return true;
  /* The operators new that the runtime interposes (allocators.c), by
     their LP64 names: GCC marks only some as replaceable, and placement
     new allocates nothing.  */
  static const char *const operators_new[] = {
    "_Znwm", "_Znam", "_ZnwmRKSt9nothrow_t", "_ZnamRKSt9nothrow_t",
    "_ZnwmSt11align_val_t", "_ZnamSt11align_val_t",
    "_ZnwmSt11align_val_tRKSt9nothrow_t", "_ZnamSt11align_val_tRKSt9nothrow_t"
  };
  if (DECL_IS_OPERATOR_NEW_P (fndecl))
    {
      const char *name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (fndecl));
      for (const char *n : operators_new)
        if (strcmp (name, n) == 0)
          return true;
      return false;
    }
  if (fndecl_built_in_p (fndecl, BUILT_IN_NORMAL))
    switch (DECL_FUNCTION_CODE (fndecl))
      {
      case BUILT_IN_MALLOC:
      case BUILT_IN_CALLOC:
      case BUILT_IN_REALLOC:
      case BUILT_IN_ALIGNED_ALLOC:
      case BUILT_IN_STRDUP:
      case BUILT_IN_STRNDUP:
        return true;
      default:
        break;
      }
  /* The same by name: -fno-builtin, and those GCC has no builtin for.  */
  static const char *const names[] = {
    "malloc", "calloc", "realloc", "aligned_alloc", "memalign", "valloc", "pvalloc",
    "strdup", "strndup"
  };
  if (!TREE_PUBLIC (fndecl) || !DECL_NAME (fndecl)
      || (DECL_CONTEXT (fndecl) && TREE_CODE (DECL_CONTEXT (fndecl)) != TRANSLATION_UNIT_DECL))
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  for (const char *n : names)
    if (strcmp (name, n) == 0)
      return true;
  return false;
}

/* A user variable's own name (not a temporary of the compiler's).  */
static const char *
user_name (tree decl)
{
  if (decl && (VAR_P (decl) || TREE_CODE (decl) == PARM_DECL) && DECL_NAME (decl)
      && !DECL_IGNORED_P (decl) && !DECL_ARTIFICIAL (decl))
    return IDENTIFIER_POINTER (DECL_NAME (decl));
  return NULL;
}

/* The text of the place REF (a store's left-hand side) as the source
   writes it ("a[?]" where an index has no name), or NULL if its base
   has no name.  */
static const char *
place_name (tree ref)
{
  if (lang_GNU_Fortran ())
    {
      zi_text_begin ();
      pretty_printer pp;
      return zi_print_fortran_place (&pp, ref) ? xstrdup (pp_formatted_text (&pp)) : NULL;
    }
  const char *text = zi_ref_text (ref);
  if (!*text || text[strspn (text, "*")] == '?' || *text == '.')
    return NULL;
  return text;
}

/* Does VAL (a call's result) leave the function as its return value,
   through copies, conversions, constant offsets and PHIs?  */
static bool
returned_p (tree val, int depth)
{
  if (TREE_CODE (val) != SSA_NAME || depth > 6)
    return false;
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, val)
    {
      gimple *u = USE_STMT (use);
      tree next = NULL_TREE;
      if (is_a<greturn *> (u))
        return true;
      if (gphi *phi = dyn_cast<gphi *> (u))
        next = gimple_phi_result (phi);
      else if (gassign *a = dyn_cast<gassign *> (u))
        {
          enum tree_code code = gimple_assign_rhs_code (a);
          if (gimple_assign_rhs1 (a) == val && TREE_CODE (gimple_assign_lhs (a)) == SSA_NAME
              && (gimple_assign_ssa_name_copy_p (a) || CONVERT_EXPR_CODE_P (code)
                  || code == POINTER_PLUS_EXPR))
            next = gimple_assign_lhs (a);
        }
      if (next && !virtual_operand_p (next) && returned_p (next, depth + 1))
        return true;
    }
  return false;
}

/* The name of the block that VAL (a call's result) is: the user variable
   it is, through copies, conversions, constant offsets (the cookie of
   new[]) and PHIs, else the place it is stored to; NULL if none.  DEPTH
   bounds the search.  */
static const char *
value_name (tree val, int depth)
{
  if (TREE_CODE (val) != SSA_NAME)
    return place_name (val);       /* -O0: the call's lhs is the variable */
  if (const char *name = user_name (SSA_NAME_VAR (val)))
    return name;
  if (depth > 6)
    return NULL;
  const char *stored = NULL;
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, val)
    {
      gimple *u = USE_STMT (use);
      tree next = NULL_TREE;
      if (gphi *phi = dyn_cast<gphi *> (u))
        next = gimple_phi_result (phi);
      else if (gassign *a = dyn_cast<gassign *> (u))
        {
          if (gimple_assign_rhs1 (a) != val)
            continue;
          tree lhs = gimple_assign_lhs (a);
          enum tree_code code = gimple_assign_rhs_code (a);
          if (TREE_CODE (lhs) != SSA_NAME)
            {
              if (!stored && gimple_assign_single_p (a))
                stored = place_name (lhs);
              continue;
            }
          if (gimple_assign_ssa_name_copy_p (a) || CONVERT_EXPR_CODE_P (code)
              || (code == POINTER_PLUS_EXPR && TREE_CODE (gimple_assign_rhs2 (a)) == INTEGER_CST))
            next = lhs;
        }
      if (next && !virtual_operand_p (next))
        if (const char *name = value_name (next, depth + 1))
          return name;
    }
  return stored;
}

/* A volatile store of VALUE to __zeroinst_alloc_name at LOC.  */
static gassign *
name_store (tree value, location_t loc)
{
  tree var = zi_alloc_name_var ();
  gassign *set = gimple_build_assign (var, fold_convert (TREE_TYPE (var), value));
  gimple_set_has_volatile_ops (set, true);
  gimple_set_location (set, loc);
  return set;
}

/* Calls that never allocate: they may come before a wrapper's allocation.  */
static bool
harmless_call_p (gcall *call)
{
  if (gimple_call_internal_p (call))
    return true;
  if (!gimple_call_builtin_p (call, BUILT_IN_NORMAL))
    return false;
  switch (DECL_FUNCTION_CODE (gimple_call_fndecl (call)))
    {
    case BUILT_IN_MEMSET: case BUILT_IN_MEMCPY: case BUILT_IN_MEMMOVE: case BUILT_IN_STRLEN:
    case BUILT_IN_EXPECT: case BUILT_IN_ASSUME_ALIGNED:
      return true;
    default:
      return false;
    }
}

/* If FUN is an allocation wrapper, remember it: its one allocation call
   ALLOC's block is returned, and no call that might allocate runs
   before it (so the name its callers set is ALLOC's).  Its callers then
   name the wrapper's result: "recs[i] = new_record (i)" names the block
   that new_record allocates, "r" inside it being no name for it.  */
static void
note_wrapper (function *fun, gcall *alloc)
{
  basic_block abb = gimple_bb (alloc);
  bool had_doms = dom_info_available_p (CDI_DOMINATORS);
  calculate_dominance_info (CDI_DOMINATORS);
  bool first = true;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      if (!first || !dominated_by_p (CDI_DOMINATORS, abb, bb))
        continue;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
        {
          gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
          if (call == alloc)
            break;
          if (call && !harmless_call_p (call))
            first = false;
        }
    }
  if (!had_doms)
    free_dominance_info (CDI_DOMINATORS);
  if (!first)
    return;
  if (!wrappers)
    wrappers = new hash_set<int_hash<int, -1, -2> >;
  wrappers->add ((int) DECL_UID (fun->decl));
}

/* Around each allocation call of FUN whose block has a name, set
   __zeroinst_alloc_name to it and clear it.  Returns the pass's TODO
   flags: the stores need virtual operands.  */
unsigned int
zi_name_allocations (function *fun)
{
  /* Non-LP64: the late pass says so.  */
  if (TYPE_PRECISION (ptr_type_node) != 64)
    return 0;
  auto_vec<std::pair<gcall *, const char *> > named;
  gcall *returned = NULL;
  unsigned allocations = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
      {
        gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
        if (!call || !allocation_function_p (gimple_call_fndecl (call)))
          continue;
        allocations++;
        tree lhs = gimple_call_lhs (call);
        if (!lhs)
          continue;
        if (returned_p (lhs, 0))
          {
            returned = call;
            continue;
          }
        const char *name = value_name (lhs, 0);
        /* A name of a few words at most (the runtime keeps 200 bytes).  */
        if (name && strlen (name) <= 120)
          named.safe_push (std::make_pair (call, name));
      }
  if (returned && allocations == 1)
    note_wrapper (fun, returned);
  if (named.is_empty ())
    return 0;
  for (auto &n : named)
    {
      gcall *call = n.first;
      location_t loc = gimple_location (call);
      gimple_stmt_iterator gsi = gsi_for_stmt (call);
      tree str = build_string_literal (strlen (n.second) + 1, n.second);
      gsi_insert_before (&gsi, name_store (str, loc), GSI_SAME_STMT);
      /* After a call that may throw, on its normal edge.  */
      zi_insert_after_stmt (call, name_store (null_pointer_node, loc));
    }
  mark_virtual_operands_for_renaming (fun);
  return TODO_update_ssa_only_virtuals;
}
