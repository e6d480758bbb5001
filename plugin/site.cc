/* site.cc - static per-site descriptors (struct zi_site in zeroinst-abi.h).

   Every instrumented load gets one descriptor: a static, non-public variable
   in section "zeroinst_sites" holding its source location, the source
   function (the inlined callee when the load was inlined), a readable
   source expression and its element type.  The address of the descriptor is
   the site id stored in every buffer entry, so sites cost no constructor and
   no registration.  */

#include "zeroinst-plugin.h"

/* The location of the last located statement before GSI (included) in
   its block, or UNKNOWN_LOCATION.  */
static location_t
located_before (gimple_stmt_iterator gsi)
{
  for (; !gsi_end_p (gsi); gsi_prev (&gsi))
    if (LOCATION_LOCUS (gimple_location (gsi_stmt (gsi))) != UNKNOWN_LOCATION)
      return gimple_location (gsi_stmt (gsi));
  return UNKNOWN_LOCATION;
}

/* Location of STMT, or of the nearest located statement before it in its
   block, then after it (the vectorizer emits some loads without one),
   then, for a masked load (an internal call: the vectorizer's patterns
   put some in a block of their own), at the end of the blocks it is
   reached from alone, then the function's own location.  Only masked
   loads look further up: for others a block above can be another
   statement's (the function's closing line), and more so in the
   inline mode, whose data-mode loop versions split blocks.  */
static location_t
site_location (gimple *stmt)
{
  location_t loc = gimple_location (stmt);
  if (LOCATION_LOCUS (loc) != UNKNOWN_LOCATION)
    return loc;
  basic_block bb = gimple_bb (stmt);
  if (bb)
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gsi_prev (&gsi);
      if ((loc = located_before (gsi)) != UNKNOWN_LOCATION)
        return loc;
      gsi = gsi_for_stmt (stmt);
      for (gsi_next (&gsi); !gsi_end_p (gsi); gsi_next (&gsi))
        if (LOCATION_LOCUS (gimple_location (gsi_stmt (gsi))) != UNKNOWN_LOCATION)
          return gimple_location (gsi_stmt (gsi));
      for (int up = 0; up < 4 && gimple_call_internal_p (stmt) && single_pred_p (bb); up++)
        {
          bb = single_pred (bb);
          if (bb == ENTRY_BLOCK_PTR_FOR_FN (cfun))
            break;
          if ((loc = located_before (gsi_last_bb (bb))) != UNKNOWN_LOCATION)
            return loc;
        }
    }
  return DECL_SOURCE_LOCATION (current_function_decl);
}

/* One frame of a site's inline chain: a function and a location in it.  */
struct site_frame {
  tree fn;
  location_t loc;
};

/* The frames between STMT and the function it was compiled into, from
   STMT's lexical block chain: frame 0 is the function whose source holds
   STMT (the innermost inlined callee, or the current function) at LOC;
   each further frame is the function that frame was inlined into, at the
   call site GCC inlined it from (BLOCK_SOURCE_LOCATION).  The last frame
   is always current_function_decl.  */
static void
inline_chain (gimple *stmt, location_t loc, auto_vec<struct site_frame> *frames)
{
  for (tree b = gimple_block (stmt); b && TREE_CODE (b) == BLOCK; b = BLOCK_SUPERCONTEXT (b))
    {
      tree origin = block_ultimate_origin (b);
      if (origin && TREE_CODE (origin) == FUNCTION_DECL && inlined_function_outer_scope_p (b))
        {
          frames->safe_push ({ origin, loc });
          loc = BLOCK_SOURCE_LOCATION (b);
        }
    }
  frames->safe_push ({ current_function_decl, loc });
}

/* Name of FNDECL as the user wrote it: printable name with GCC's clone
   suffixes (.constprop.N, .isra.N, .part.N, .cold, ...) removed, and an
   OpenMP outlined body "f._omp_fn.N" shown as "f" (*FLAGS gets
   ZI_FN_OMP_REGION; FLAGS may be NULL).  Returns an xstrdup-ed string.  */
const char *
zi_source_function_name (tree fndecl, unsigned *flags)
{
  const char *name = lang_hooks.decl_printable_name (fndecl, 1);
  char *copy = xstrdup (name ? name : "?");
  int omp_region = zi_cut_clone_suffixes (copy);
  if (flags)
    *flags = omp_region ? ZI_FN_OMP_REGION : 0;
  return copy;
}

/* The steps one text may take (zi_ref_text): the printers follow SSA
   definitions, whose shared subexpressions could make a walk grow
   exponentially; past the budget a part prints as '?' or "...".  */
static int text_budget = 400;

static bool
spend (void)
{
  return text_budget-- > 0;
}

/* A new text begins (zi_ref_text does this itself).  */
void
zi_text_begin (void)
{
  text_budget = 400;
}

/* The source variable an SSA name stands for or was derived from: its own
   variable if it has a user-visible one, else (for temporaries the
   optimizers made, such as induction pointers) the named value it was
   computed from through copies, conversions, pointer arithmetic and loop
   PHIs, or the text of the field or variable it was loaded from (g->adj
   for the pointer in g->adj[e]).  NULL if none within a few steps.  */
static const char *value_source_name (tree val, int depth);
static void print_ref (pretty_printer *pp, tree ref, int depth);

/* Is PTR the pointer to an OpenMP region's shared data (the outlined
   body's artificial parameter .omp_data_i), or VAR the starting
   function's record of it (.omp_data_o.N)?  Their fields are named after
   the variables they share.  */
static bool
omp_data_p (tree var, const char *name)
{
  return var && DECL_P (var) && DECL_ARTIFICIAL (var) && DECL_NAME (var)
         && !strncmp (IDENTIFIER_POINTER (DECL_NAME (var)), name, strlen (name));
}

static bool
omp_data_pointer_p (tree ptr)
{
  return omp_data_p (TREE_CODE (ptr) == SSA_NAME ? SSA_NAME_VAR (ptr) : ptr, ".omp_data_i");
}

static const char *
ssa_source_name (tree ssa, int depth)
{
  tree var = SSA_NAME_VAR (ssa);
  if (var && DECL_NAME (var) && !DECL_IGNORED_P (var) && !DECL_ARTIFICIAL (var))
    return IDENTIFIER_POINTER (DECL_NAME (var));
  if (depth > 4)
    return NULL;
  gimple *def = SSA_NAME_DEF_STMT (ssa);
  if (gphi *phi = dyn_cast<gphi *> (def))
    {
      for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
        {
          tree arg = gimple_phi_arg_def (phi, i);
          if (arg != ssa)
            if (const char *n = value_source_name (arg, depth + 1))
              return n;
        }
      return NULL;
    }
  if (!is_gimple_assign (def))
    return NULL;
  tree rhs = gimple_assign_rhs1 (def);
  if (gimple_assign_load_p (def)
      && (TREE_CODE (rhs) == COMPONENT_REF || TREE_CODE (rhs) == VAR_DECL))
    {
      /* print_ref starts over at each SSA name it meets: a loop's
         p = p->next without a variable for p would recurse for ever, so
         loaded pointers nest two deep at most.  */
      static int nested;
      if (nested >= 2)
        return NULL;
      pretty_printer pp;
      nested++;
      print_ref (&pp, rhs, depth + 4);
      nested--;
      const char *text = pp_formatted_text (&pp);
      return strchr (text, '?') || strstr (text, "...") ? NULL : xstrdup (text);
    }
  switch (gimple_assign_rhs_code (def))
    {
    case POINTER_PLUS_EXPR:
    case PLUS_EXPR:
    case MINUS_EXPR:
    case SSA_NAME:
    case ADDR_EXPR:
    CASE_CONVERT:
      return value_source_name (rhs, depth + 1);
    default:
      return NULL;
    }
}

/* Source name of a pointer value: an SSA name (above) or &decl.  */
static const char *
value_source_name (tree val, int depth)
{
  if (TREE_CODE (val) == SSA_NAME)
    return ssa_source_name (val, depth);
  if (TREE_CODE (val) == ADDR_EXPR)
    {
      tree base = get_base_address (TREE_OPERAND (val, 0));
      if (base && DECL_P (base) && DECL_NAME (base) && !DECL_IGNORED_P (base))
        return IDENTIFIER_POINTER (DECL_NAME (base));
    }
  return NULL;
}

/* Is PTR (an SSA name) BASE plus an offset, as the front end writes
   BASE[I] for a pointer BASE?  Then set *BASE and *INDEX: the text of I
   (offset_index_text), NULL when it has none (BASE[?]).  */
static char *offset_index_text (tree off, HOST_WIDE_INT size, int depth, int *prec);

static bool
indexed_pointer (tree ptr, tree *base, char **index, int depth)
{
  if (TREE_CODE (ptr) != SSA_NAME)
    return false;
  gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (ptr));
  if (!def || gimple_assign_rhs_code (def) != POINTER_PLUS_EXPR)
    return false;
  tree b = gimple_assign_rhs1 (def), off = gimple_assign_rhs2 (def);
  tree elt = POINTER_TYPE_P (TREE_TYPE (b)) ? TREE_TYPE (TREE_TYPE (b)) : NULL_TREE;
  tree size = elt && COMPLETE_TYPE_P (elt) ? TYPE_SIZE_UNIT (elt) : NULL_TREE;
  if (!size || !tree_fits_uhwi_p (size) || integer_zerop (size))
    return false;
  int prec;
  *base = b;
  *index = offset_index_text (off, (HOST_WIDE_INT) tree_to_uhwi (size), depth + 1, &prec);
  return true;
}

/* Operator precedence in the index texts (C's, for the operators
   index_text prints); ATOM for names, constants and loaded values.  */
enum { PREC_OR = 1, PREC_XOR, PREC_AND, PREC_SHIFT, PREC_ADD, PREC_MUL, PREC_UNARY, PREC_ATOM };

static int
binary_prec (enum tree_code code, const char **op)
{
  switch (code)
    {
    case MULT_EXPR: *op = " * "; return PREC_MUL;
    case TRUNC_DIV_EXPR: case EXACT_DIV_EXPR: *op = " / "; return PREC_MUL;
    case TRUNC_MOD_EXPR: *op = " % "; return PREC_MUL;
    case PLUS_EXPR: *op = " + "; return PREC_ADD;
    case MINUS_EXPR: *op = " - "; return PREC_ADD;
    case LSHIFT_EXPR: *op = " << "; return PREC_SHIFT;
    case RSHIFT_EXPR: *op = " >> "; return PREC_SHIFT;
    case BIT_AND_EXPR: *op = " & "; return PREC_AND;
    case BIT_XOR_EXPR: *op = " ^ "; return PREC_XOR;
    case BIT_IOR_EXPR: *op = " | "; return PREC_OR;
    default: return 0;
    }
}

/* An integer constant as the source would write it: negative when its
   bits are (sizetype offsets are unsigned).  */
static char *
constant_text (tree c)
{
  wide_int w = wi::to_wide (c);
  if (wi::neg_p (w, SIGNED) && wi::fits_shwi_p (w))
    return xasprintf (HOST_WIDE_INT_PRINT_DEC, w.to_shwi ());
  if (wi::fits_uhwi_p (w))
    return xasprintf (HOST_WIDE_INT_PRINT_UNSIGNED, w.to_uhwi ());
  return xstrdup ("?");
}

/* The name of integer TYPE as a cast writes it, or NULL.  */
static const char *
type_name (tree type)
{
  tree name = TYPE_NAME (type);
  if (name && TREE_CODE (name) == TYPE_DECL)
    name = DECL_NAME (name);
  if (name && TREE_CODE (name) == IDENTIFIER_NODE)
    return IDENTIFIER_POINTER (name);
  /* The optimizers' own narrow types.  */
  switch (TYPE_PRECISION (type))
    {
    case 8: return TYPE_UNSIGNED (type) ? "unsigned char" : "signed char";
    case 16: return TYPE_UNSIGNED (type) ? "unsigned short" : "short";
    default: return NULL;
    }
}

/* L OP R (OP of precedence PR) with the parentheses C needs: around an
   operand of lower precedence, and around a right operand of the same
   precedence unless OP is associative with it (+ with + and -, and each
   bitwise operator with itself): a - (b - c), a * (b / c).  Frees L and
   R.  */
static char *
compose (char *l, int lp, const char *op, int pr, char *r, int rp)
{
  bool assoc = pr == PREC_ADD ? op[1] == '+' : pr == PREC_AND || pr == PREC_XOR || pr == PREC_OR;
  char *t = xasprintf (lp < pr ? "(%s)%s" : "%s%s", l, op);
  char *u = xasprintf (rp < pr || (rp == pr && !assoc) ? "%s(%s)" : "%s%s", t, r);
  free (l);
  free (r);
  free (t);
  return u;
}

/* The text of integer value X as the source computed it (an array
   index): named variables, constants, the C operators above on them
   and values loaded from memory (key[t]), "?" for a part without a name
   (an induction variable of the optimizers', a PHI).  *PREC gets the
   precedence of its outermost operator.  xstrdup-ed.  */
static char *
index_text (tree x, int depth, int *prec)
{
  *prec = PREC_ATOM;
  if (TREE_CODE (x) == INTEGER_CST)
    return constant_text (x);
  if (TREE_CODE (x) != SSA_NAME || depth > 24 || !spend ())
    return xstrdup ("?");
  tree var = SSA_NAME_VAR (x);
  if (var && DECL_NAME (var) && !DECL_IGNORED_P (var) && !DECL_ARTIFICIAL (var))
    return xstrdup (IDENTIFIER_POINTER (DECL_NAME (var)));
  gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (x));
  if (!def)
    return xstrdup ("?");
  enum tree_code code = gimple_assign_rhs_code (def);
  tree a = gimple_assign_rhs1 (def);
  if (gimple_assign_load_p (def))
    {
      pretty_printer pp;
      print_ref (&pp, a, depth + 1);
      return xstrdup (pp_formatted_text (&pp));
    }
  if (code == SSA_NAME
      || (CONVERT_EXPR_CODE_P (code) && INTEGRAL_TYPE_P (TREE_TYPE (a))
          && TYPE_PRECISION (TREE_TYPE (x)) >= TYPE_PRECISION (TREE_TYPE (a))))
    return index_text (a, depth + 1, prec);
  if (CONVERT_EXPR_CODE_P (code))
    {
      /* A narrowing cast changes the value: (unsigned char) (h + k).  */
      const char *name = type_name (TREE_TYPE (x));
      if (!name)
        return xstrdup ("?");
      int p;
      char *t = index_text (a, depth + 1, &p);
      char *r = xasprintf (p < PREC_UNARY ? "(%s) (%s)" : "(%s) %s", name, t);
      free (t);
      *prec = PREC_UNARY;
      return r;
    }
  if (code == NEGATE_EXPR)
    {
      int p;
      char *t = index_text (a, depth + 1, &p);
      char *r = xasprintf (p < PREC_UNARY ? "-(%s)" : "-%s", t);
      free (t);
      *prec = PREC_UNARY;
      return r;
    }
  const char *op;
  int pr = binary_prec (code, &op);
  if (!pr || gimple_num_ops (def) != 3)
    return xstrdup ("?");
  tree b = gimple_assign_rhs2 (def);
  int lp, rp;
  char *l = index_text (a, depth + 1, &lp), *r;
  /* i + -1 (and its unsigned form) is i - 1.  */
  if (code == PLUS_EXPR && TREE_CODE (b) == INTEGER_CST && wi::neg_p (wi::to_wide (b), SIGNED))
    {
      op = " - ";
      r = constant_text (wide_int_to_tree (TREE_TYPE (b), -wi::to_wide (b)));
      rp = PREC_ATOM;
    }
  else
    r = index_text (b, depth + 1, &rp);
  *prec = pr;
  char *t = compose (l, lp, op, pr, r, rp);
  /* Arithmetic narrower than int wraps where C's would not: cast it.  */
  if (INTEGRAL_TYPE_P (TREE_TYPE (x))
      && TYPE_PRECISION (TREE_TYPE (x)) < TYPE_PRECISION (integer_type_node))
    {
      const char *name = type_name (TREE_TYPE (x));
      char *c = name ? xasprintf ("(%s) (%s)", name, t) : xstrdup ("?");
      free (t);
      *prec = PREC_UNARY;
      return c;
    }
  return t;
}

/* index_text for other files (fortran.cc).  */
char *
zi_index_text (tree x, int *prec)
{
  return index_text (x, 0, prec);
}

/* Print index X (index_text), "?" when too long to read.  */
static void
print_index (pretty_printer *pp, tree x, int depth)
{
  int prec;
  char *t = index_text (x, depth, &prec);
  pp_string (pp, strlen (t) <= 64 ? t : "?");
  free (t);
}

/* The index text of byte offset OFF into elements of SIZE bytes: the
   front end's I * SIZE, and the folded forms of its sums (2 * k + 1 is
   k * 16 + 8 for doubles); NULL when a part is not a multiple of SIZE.
   *PREC as for index_text.  xstrdup-ed.  */
static char *
offset_index_text (tree off, HOST_WIDE_INT size, int depth, int *prec)
{
  *prec = PREC_ATOM;
  if (depth > 24 || !spend ())
    return NULL;
  if (TREE_CODE (off) == INTEGER_CST)
    {
      /* sizetype: a negative offset is a large one.  */
      HOST_WIDE_INT o = (HOST_WIDE_INT) TREE_INT_CST_LOW (off);
      return o % size == 0 ? xasprintf (HOST_WIDE_INT_PRINT_DEC, o / size) : NULL;
    }
  if (size == 1)
    return index_text (off, depth, prec);
  gassign *def = TREE_CODE (off) == SSA_NAME ? dyn_cast<gassign *> (SSA_NAME_DEF_STMT (off)) : NULL;
  if (!def)
    return NULL;
  enum tree_code code = gimple_assign_rhs_code (def);
  tree a = gimple_assign_rhs1 (def);
  if (CONVERT_EXPR_CODE_P (code))
    return offset_index_text (a, size, depth + 1, prec);
  if (code == MULT_EXPR && tree_fits_shwi_p (gimple_assign_rhs2 (def)))
    {
      HOST_WIDE_INT c = tree_to_shwi (gimple_assign_rhs2 (def));
      if (c % size)
        return NULL;
      int p;
      char *x = index_text (a, depth + 1, &p);
      if (c == size)
        {
          *prec = p;
          return x;
        }
      *prec = PREC_MUL;
      return compose (x, p, " * ", PREC_MUL, xasprintf (HOST_WIDE_INT_PRINT_DEC, c / size), PREC_ATOM);
    }
  if (code == PLUS_EXPR || code == MINUS_EXPR)
    {
      tree b = gimple_assign_rhs2 (def);
      const char *op = code == PLUS_EXPR ? " + " : " - ";
      tree nb = b;
      if (code == PLUS_EXPR && TREE_CODE (b) == INTEGER_CST && wi::neg_p (wi::to_wide (b), SIGNED))
        {
          op = " - ";
          nb = wide_int_to_tree (TREE_TYPE (b), -wi::to_wide (b));
        }
      int lp, rp;
      char *l = offset_index_text (a, size, depth + 1, &lp);
      char *r = l ? offset_index_text (nb, size, depth + 1, &rp) : NULL;
      *prec = PREC_ADD;
      if (l && r)
        return compose (l, lp, op, PREC_ADD, r, rp);
      free (l);
      free (r);
      return NULL;
    }
  return NULL;
}

/* BASE[INDEX], BASE[?] without an index (or one too long to read);
   INDEX (xstrdup-ed) is freed.  */
static void
print_indexed (pretty_printer *pp, tree base, char *index, int depth)
{
  print_ref (pp, base, depth + 1);
  pp_string (pp, "[");
  pp_string (pp, index && strlen (index) <= 64 ? index : "?");
  pp_string (pp, "]");
  free (index);
}

/* Append to BUF a readable form of the address computation REF: decl and
   variable names, '.', '->', '[index]', '*'.  Parts that have no source
   name print as '?'.  DEPTH bounds the recursion.  */
static void print_pointer_deref (pretty_printer *, tree, tree, tree, int);

static void
print_ref (pretty_printer *pp, tree ref, int depth)
{
  if (depth > 24 || !spend ())
    {
      pp_string (pp, "...");
      return;
    }
  /* Fortran's references in Fortran's syntax, where fortran.cc knows
     them whole.  */
  pretty_printer fortran;
  if (zi_print_fortran (&fortran, ref, depth))
    {
      pp_string (pp, pp_formatted_text (&fortran));
      return;
    }
  switch (TREE_CODE (ref))
    {
    case VAR_DECL:
    case PARM_DECL:
    case RESULT_DECL:
      if (DECL_NAME (ref) && !DECL_IGNORED_P (ref))
        pp_string (pp, IDENTIFIER_POINTER (DECL_NAME (ref)));
      else
        pp_string (pp, "?");
      return;
    case SSA_NAME:
      {
        const char *name = ssa_source_name (ref, 0);
        pp_string (pp, name ? name : "?");
        return;
      }
    case INTEGER_CST:
      pp_wide_integer (pp, TREE_INT_CST_LOW (ref));
      return;
    case ADDR_EXPR:
      print_ref (pp, TREE_OPERAND (ref, 0), depth + 1);
      return;
    case COMPONENT_REF:
      {
        tree base = TREE_OPERAND (ref, 0);
        tree field = TREE_OPERAND (ref, 1);
        tree ptr_base;
        char *index;
        if ((TREE_CODE (base) == MEM_REF && omp_data_pointer_p (TREE_OPERAND (base, 0)))
            || omp_data_p (base, ".omp_data_o"))
          ;   /* a variable an OpenMP region shares: its name alone */
        else if (TREE_CODE (base) == MEM_REF && integer_zerop (TREE_OPERAND (base, 1))
                 && indexed_pointer (TREE_OPERAND (base, 0), &ptr_base, &index, depth))
          {
            print_indexed (pp, ptr_base, index, depth);
            pp_string (pp, ".");
          }
        else if (TREE_CODE (base) == MEM_REF && integer_zerop (TREE_OPERAND (base, 1))
                 && TREE_CODE (TREE_OPERAND (base, 0)) != ADDR_EXPR)
          {
            print_ref (pp, TREE_OPERAND (base, 0), depth + 1);
            pp_string (pp, "->");
          }
        else
          {
            print_ref (pp, base, depth + 1);
            pp_string (pp, ".");
          }
        pp_string (pp, DECL_NAME (field) ? IDENTIFIER_POINTER (DECL_NAME (field)) : "?");
        return;
      }
    case ARRAY_REF:
    case ARRAY_RANGE_REF:
      print_ref (pp, TREE_OPERAND (ref, 0), depth + 1);
      pp_string (pp, "[");
      print_index (pp, TREE_OPERAND (ref, 1), depth + 1);
      pp_string (pp, "]");
      return;
    case MEM_REF:
      {
        tree ptr = TREE_OPERAND (ref, 0);
        if (TREE_CODE (ptr) == ADDR_EXPR && integer_zerop (TREE_OPERAND (ref, 1)))
          {
            print_ref (pp, TREE_OPERAND (ptr, 0), depth + 1);
            return;
          }
        tree ptr_base;
        char *index;
        if (integer_zerop (TREE_OPERAND (ref, 1)) && indexed_pointer (ptr, &ptr_base, &index, depth))
          {
            print_indexed (pp, ptr_base, index, depth);
            return;
          }
        /* p[3], p[-1]: a constant index folded into the offset, when
           the access is of p's own element type.  */
        tree elt = POINTER_TYPE_P (TREE_TYPE (ptr)) ? TREE_TYPE (TREE_TYPE (ptr)) : NULL_TREE;
        tree size = elt && COMPLETE_TYPE_P (elt) ? TYPE_SIZE_UNIT (elt) : NULL_TREE;
        tree var = TREE_CODE (ptr) == SSA_NAME ? SSA_NAME_VAR (ptr) : NULL_TREE;
        if (var && DECL_NAME (var) && !DECL_IGNORED_P (var) && !DECL_ARTIFICIAL (var)
            && size && tree_fits_uhwi_p (size) && !integer_zerop (size)
            && TYPE_MAIN_VARIANT (elt) == TYPE_MAIN_VARIANT (TREE_TYPE (ref))
            && TREE_CODE (TREE_OPERAND (ref, 1)) == INTEGER_CST
            && !integer_zerop (TREE_OPERAND (ref, 1)))
          {
            /* The named pointer itself (not a pointer derived from it:
               p + i * 4 with 12 more is p[i + 3]); signed.  */
            HOST_WIDE_INT o = wi::to_wide (TREE_OPERAND (ref, 1)).to_shwi ();
            HOST_WIDE_INT e = (HOST_WIDE_INT) tree_to_uhwi (size);
            if (o % e == 0)
              {
                print_indexed (pp, ptr, xasprintf (HOST_WIDE_INT_PRINT_DEC, o / e), depth);
                return;
              }
          }
        print_pointer_deref (pp, ptr, TREE_OPERAND (ref, 1), NULL_TREE, depth);
        return;
      }
    case TARGET_MEM_REF:
      print_pointer_deref (pp, TMR_BASE (ref), TMR_OFFSET (ref), TMR_INDEX (ref), depth);
      return;
    case REALPART_EXPR:
      pp_string (pp, "__real ");
      print_ref (pp, TREE_OPERAND (ref, 0), depth + 1);
      return;
    case IMAGPART_EXPR:
      pp_string (pp, "__imag ");
      print_ref (pp, TREE_OPERAND (ref, 0), depth + 1);
      return;
    case VIEW_CONVERT_EXPR:
    case BIT_FIELD_REF:
    case NOP_EXPR:
    case CONVERT_EXPR:
      print_ref (pp, TREE_OPERAND (ref, 0), depth + 1);
      return;
    case STRING_CST:
      pp_string (pp, "\"...\"");
      return;
    default:
      pp_string (pp, "?");
      return;
    }
}

/* *p for a plain dereference of a named pointer, p[i] / p[?] when an index
   or an offset was folded in by the optimizers.  */
static void
print_pointer_deref (pretty_printer *pp, tree ptr, tree offset, tree index, int depth)
{
  bool direct = TREE_CODE (ptr) == SSA_NAME && SSA_NAME_VAR (ptr)
                && !DECL_IGNORED_P (SSA_NAME_VAR (ptr)) && !DECL_ARTIFICIAL (SSA_NAME_VAR (ptr));
  if (TREE_CODE (ptr) == ADDR_EXPR)
    direct = false;
  if (direct && !index && (!offset || integer_zerop (offset)))
    {
      pp_string (pp, "*");
      print_ref (pp, ptr, depth + 1);
      return;
    }
  int prec;
  print_indexed (pp, ptr, index ? index_text (index, depth + 1, &prec) : NULL, depth);
}

const char *
zi_ref_text (tree ref)
{
  if (!ref)
    return "";
  zi_text_begin ();
  pretty_printer pp;
  print_ref (&pp, ref, 0);
  return xstrdup (pp_formatted_text (&pp));
}

/* Texts of the loads of the early GIMPLE (zi_note_early_texts), by
   text_key; "" where loads there read differently.  */
static hash_map<nofree_string_hash, const char *> *early_texts;

/* Bytes of one element of TYPE (a vector's or a complex value's lane),
   0 if not constant.  */
static unsigned HOST_WIDE_INT
element_bytes (tree type)
{
  if (TREE_CODE (type) == VECTOR_TYPE || TREE_CODE (type) == COMPLEX_TYPE)
    type = TREE_TYPE (type);
  tree s = TYPE_SIZE_UNIT (type);
  return s && tree_fits_uhwi_p (s) ? tree_to_uhwi (s) : 0;
}

/* "file:line:column:bytes", malloc'd.  */
static char *
text_key (const expanded_location &x, unsigned HOST_WIDE_INT bytes)
{
  return xasprintf ("%s:%d:%d:%u", x.file ? x.file : "", x.line, x.column, (unsigned) bytes);
}

/* KEY (malloc'd, kept or freed) reads as TEXT; "" if another load with
   that key reads differently.  */
static void
note_text (char *key, const char *text)
{
  bool existed;
  const char *&known = early_texts->get_or_insert (key, &existed);
  if (!existed)
    known = text;
  else
    {
      if (strcmp (known, text) != 0)
        known = "";
      free (key);
    }
}

/* The key of all loads of ELEMENT bytes on a line, whatever their
   columns: a load the optimizers moved (an unrolled loop's, a loop
   exit's) can carry another statement's column.  */
static char *
line_key (const expanded_location &x, unsigned HOST_WIDE_INT bytes)
{
  return xasprintf ("%s:%d:*:%u", x.file ? x.file : "", x.line, (unsigned) bytes);
}

/* text_key of a load of an element of Fortran array ARRAY.  */
static char *
array_key (const expanded_location &x, unsigned HOST_WIDE_INT bytes, const char *array)
{
  return xasprintf ("%s:%d:%d:%u:%s", x.file ? x.file : "", x.line, x.column, (unsigned) bytes,
                    array);
}

/* The fields of array elements (p[i].y), and the array elements at a
   constant distance from an index (a[i * 2 + 1]), that a line's early
   loads read, per element size (line_key): for the vectors of
   .LOAD_LANES, which all carry the location of their group's first load
   (zi_make_site).  */
struct field_note {
  const char *element;       /* the element's text: "v3[i]", "p[i]", "a[i * 2]" */
  unsigned HOST_WIDE_INT offset;   /* the field's byte offset from it */
  const char *text;          /* the load's text; "" if loads differ */
};
static hash_map<nofree_string_hash, vec<field_note> *> *early_fields;

/* If REF is a field (of fields) of an element of an array or of what a
   pointer points to, its byte offset in the element into *OFFSET and the
   element (the reference under the fields) into *ELEMENT.  */
static bool
field_offset (tree ref, unsigned HOST_WIDE_INT *offset, tree *element)
{
  if (TREE_CODE (ref) != COMPONENT_REF)
    return false;
  *offset = 0;
  for (; TREE_CODE (ref) == COMPONENT_REF; ref = TREE_OPERAND (ref, 0))
    {
      tree field = TREE_OPERAND (ref, 1), off = DECL_FIELD_OFFSET (field);
      tree bit = DECL_FIELD_BIT_OFFSET (field);
      if (!off || !tree_fits_uhwi_p (off) || !tree_fits_uhwi_p (bit)
          || tree_to_uhwi (bit) % BITS_PER_UNIT || DECL_BIT_FIELD (field))
        return false;
      *offset += tree_to_uhwi (off) + tree_to_uhwi (bit) / BITS_PER_UNIT;
    }
  *element = ref;
  return TREE_CODE (ref) == ARRAY_REF || TREE_CODE (ref) == MEM_REF;
}

/* If REF is an array element at a constant distance from another index,
   a[X + C], the text of a[X] and C * BYTES (C >= 0) into *ETEXT and
   *OFFSET (a[X] itself: C = 0).  */
static bool
index_offset (tree ref, unsigned HOST_WIDE_INT bytes, const char **etext,
              unsigned HOST_WIDE_INT *offset)
{
  if (TREE_CODE (ref) != ARRAY_REF)
    return false;
  tree x = TREE_OPERAND (ref, 1);
  *offset = 0;
  if (TREE_CODE (x) == SSA_NAME)
    if (gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (x)))
      if (gimple_assign_rhs_code (def) == PLUS_EXPR
          && TREE_CODE (gimple_assign_rhs2 (def)) == INTEGER_CST
          && tree_fits_uhwi_p (gimple_assign_rhs2 (def))
          && tree_to_uhwi (gimple_assign_rhs2 (def)) < 64)
        {
          *offset = tree_to_uhwi (gimple_assign_rhs2 (def)) * bytes;
          x = gimple_assign_rhs1 (def);
        }
  const char *array = zi_ref_text (TREE_OPERAND (ref, 0));
  int prec;
  char *index = zi_index_text (x, &prec);
  if (!*array || !index || strchr (index, '?'))
    {
      free (index);
      return false;
    }
  *etext = xasprintf ("%s[%s]", array, index);
  free (index);
  return true;
}

/* Note that the load of REF at X, of BYTES, reads as TEXT.  */
static void
note_field (const expanded_location &x, unsigned HOST_WIDE_INT bytes, tree ref, const char *text)
{
  unsigned HOST_WIDE_INT offset;
  tree element;
  const char *etext;
  if (field_offset (ref, &offset, &element))
    etext = zi_ref_text (element);
  else if (!index_offset (ref, bytes, &etext, &offset))
    etext = "", offset = 0;   /* a load of something else: no group is sure */
  char *key = line_key (x, bytes);
  bool existed;
  vec<field_note> *&notes = early_fields->get_or_insert (key, &existed);
  if (existed)
    free (key);
  else
    notes = new vec<field_note> ();
  for (field_note &n : *notes)
    if (n.offset == offset && !strcmp (n.element, etext))
      {
        if (strcmp (n.text, text) != 0)
          n.text = "";
        return;
      }
  notes->safe_push ({ etext, offset, text });
}

/* The text of vector K of the N of a .LOAD_LANES of BYTES per element at
   X: when all the line's early loads of BYTES read fields of one array's
   element (or elements at constant distances) at offsets that are among N
   consecutive ones, BYTES apart (the group: .LOAD_LANES starts at its
   lowest field; the fields it loads but the program does not use have no
   loads), the field at the Kth; else NULL.  */
static const char *
lanes_text (const expanded_location &x, unsigned HOST_WIDE_INT bytes, unsigned k, unsigned n)
{
  char *key = line_key (x, bytes);
  vec<field_note> **found = early_fields ? early_fields->get (key) : NULL;
  free (key);
  if (!found)
    return NULL;
  /* One element's fields (or elements) only: a load of another array on
     the line might be the one the vectors hold.  */
  const char *element = (**found)[0].element;
  unsigned HOST_WIDE_INT low = (**found)[0].offset;
  for (field_note &f : **found)
    {
      if (!*f.element || strcmp (f.element, element) != 0)
        return NULL;
      low = MIN (low, f.offset);
    }
  const char *text = NULL;
  for (field_note &f : **found)
    {
      if ((f.offset - low) % bytes || (f.offset - low) / bytes >= n)
        return NULL;          /* not N consecutive places: not the group */
      if ((f.offset - low) / bytes == k)
        text = f.text;
    }
  return text && *text ? text : NULL;
}

/* The number of unknown parts of S: '?', and "..." where the printer
   stopped.  */
static unsigned
unknowns (const char *s)
{
  unsigned n = 0;
  for (const char *p = s; *p; p++)
    n += *p == '?' || (p[0] == '.' && p[1] == '.' && p[2] == '.');
  return n;
}

/* Texts of loads whose location the early pass made their own
   (tag_loads), by tag_key.  */
static hash_map<nofree_string_hash, const char *> *tagged_texts;

/* "file:line:column:bytes" of LOC's locus, then the start and finish of
   its source range, malloc'd.  */
static char *
tag_key (location_t loc, unsigned HOST_WIDE_INT bytes)
{
  source_range r = get_range_from_loc (line_table, loc);
  expanded_location x = expand_location (loc), s = expand_location (r.m_start),
                    f = expand_location (r.m_finish);
  return xasprintf ("%s:%d:%d:%u/%d:%d/%d:%d", x.file ? x.file : "", x.line, x.column,
                    (unsigned) bytes, s.line, s.column, f.line, f.column);
}

/* Distinct texts one location's loads can be told apart by at most.  */
#define MAX_TAGS 256

/* A load of the early GIMPLE, its text and its text_key.  */
struct early_load {
  char *key;
  gimple *stmt;
  const char *text;
  unsigned HOST_WIDE_INT bytes;
};

static int
early_load_cmp (const void *a, const void *b)
{
  return strcmp (((const early_load *) a)->key, ((const early_load *) b)->key);
}

/* Loads that read differently at one location and size (gfortran gives
   all loads of a statement its last column: the seven u(i +- 1, j, k)
   of a stencil) would all print the '?' of the late GIMPLE, whose
   addresses are induction variables.  Give each of them a location of
   its own, the same locus with a source range of its own (from the
   locus to K columns after it), and remember its text by that location
   (tag_key): the optimizers keep a statement's location in every copy
   they make of it (unrolling, versioning, vectorizing, inlining keeps
   the range), and neither the line table of the debug information nor
   the code depends on a range: a diagnostic about the statement
   underlines the tag's range instead of its own (a caret, in gfortran's
   case).  The sanitizers' pass (sanopt) drops a check that repeats an
   earlier one only when their locations are equal, so with a sanitizer
   nothing is tagged.  Loads whose locus is in a macro expansion, or
   whose range cannot be moved, are left as they are.  LOADS is sorted
   by key; runs of one key are tagged.  */
static void
tag_loads (vec<early_load> &loads)
{
  if (flag_sanitize)
    return;
  if (!tagged_texts)
    tagged_texts = new hash_map<nofree_string_hash, const char *>;
  for (unsigned i = 0, j; i < loads.length (); i = j)
    {
      bool differ = false;
      for (j = i + 1; j < loads.length () && !strcmp (loads[j].key, loads[i].key); j++)
        differ |= strcmp (loads[j].text, loads[i].text) != 0;
      if (!differ)
        continue;
      /* The run's own ranges (a C expression's), never taken as tags.  */
      auto_vec<char *> own;
      for (unsigned k = i; k < j; k++)
        own.safe_push (tag_key (gimple_location (loads[k].stmt), loads[k].bytes));
      /* One tag per text: the loads of one text (u%data, for each of
         the seven) share it.  */
      auto_vec<std::pair<const char *, location_t> > tags;
      unsigned next = 1;
      for (unsigned k = i; k < j; k++)
        {
          location_t loc = gimple_location (loads[k].stmt);
          location_t locus = get_pure_location (loc);
          if (linemap_location_from_macro_expansion_p (line_table, locus))
            break;
          location_t finish = UNKNOWN_LOCATION;
          for (auto &t : tags)
            if (!strcmp (t.first, loads[k].text))
              finish = t.second;
          for (; finish == UNKNOWN_LOCATION && next < MAX_TAGS; next++)
            {
              location_t f = linemap_position_for_loc_and_offset (line_table, locus, next);
              if (f == locus)
                next = MAX_TAGS;
              else
                {
                  source_range r = { locus, f };
                  char *key = tag_key (COMBINE_LOCATION_DATA (line_table, locus, r, NULL),
                                       loads[k].bytes);
                  bool taken = tagged_texts->get (key) != NULL;
                  for (char *o : own)
                    taken |= !strcmp (o, key);
                  free (key);
                  if (!taken)
                    {
                      finish = f;
                      tags.safe_push ({ loads[k].text, f });
                    }
                }
            }
          if (finish == UNKNOWN_LOCATION)
            break;
          source_range r = { locus, finish };
          location_t tagged = COMBINE_LOCATION_DATA (line_table, locus, r, LOCATION_BLOCK (loc));
          gimple_set_location (loads[k].stmt, tagged);
          char *key = tag_key (tagged, loads[k].bytes);
          bool existed;
          const char *&known = tagged_texts->get_or_insert (key, &existed);
          if (existed)
            free (key);
          known = loads[k].text;
        }
      for (char *o : own)
        free (o);
    }
}

/* Remember the text of every load of FUN as the early GIMPLE writes it,
   before the loop optimizers turn p[i].w into MEM[ivtmp + 8]: the late
   pass's sites take it where their own text has a '?' (zi_make_site).
   Keyed by location and element size, so a vectorized copy of a load
   finds its scalar text; a location whose loads read differently keeps
   none.  Inlined copies keep their locations and find it too.  */
void
zi_note_early_texts (function *fun)
{
  if (!early_texts)
    early_texts = new hash_map<nofree_string_hash, const char *>;
  if (!early_fields)
    early_fields = new hash_map<nofree_string_hash, vec<field_note> *>;
  auto_vec<early_load> loads;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi); gsi_next (&gsi))
      {
        gimple *stmt = gsi_stmt (gsi);
        location_t loc = gimple_location (stmt);
        if (!is_gimple_assign (stmt) || LOCATION_LOCUS (loc) == UNKNOWN_LOCATION)
          continue;
        tree rhs = gimple_assign_rhs1 (stmt);
        expanded_location x = expand_location (loc);
        if (!gimple_assign_load_p (stmt))
          {
            /* creal (wk) of a complex value loaded whole (wk = w[k]): the
               optimizers split the load into its parts, each at its use.  */
            enum tree_code code = TREE_CODE (rhs);
            tree val = code == REALPART_EXPR || code == IMAGPART_EXPR ? TREE_OPERAND (rhs, 0)
                                                                     : NULL_TREE;
            gimple *def = val && TREE_CODE (val) == SSA_NAME ? SSA_NAME_DEF_STMT (val) : NULL;
            if (!def || !gimple_assign_load_p (def))
              continue;
            const char *whole = zi_ref_text (gimple_assign_rhs1 (def));
            if (!*whole || !TYPE_SIZE_UNIT (TREE_TYPE (rhs))
                || !tree_fits_uhwi_p (TYPE_SIZE_UNIT (TREE_TYPE (rhs))))
              continue;
            const char *part = xasprintf ("%s %s", code == REALPART_EXPR ? "__real" : "__imag",
                                          whole);
            unsigned bytes = tree_to_uhwi (TYPE_SIZE_UNIT (TREE_TYPE (rhs)));
            note_text (text_key (x, bytes), part);
            note_text (line_key (x, bytes), part);
            continue;
          }
        const char *text = zi_ref_text (rhs);
        if (!*text)
          continue;
        unsigned bytes = element_bytes (TREE_TYPE (rhs));
        note_text (text_key (x, bytes), text);
        note_text (line_key (x, bytes), text);
        note_field (x, bytes, rhs, text);
        if (!unknowns (text))
          loads.safe_push ({ text_key (x, bytes), stmt, text, bytes });
        /* gfortran gives a statement's loads one location: per array and
           per rank too.  */
        int rank;
        if (char *array = zi_fortran_array_name (rhs, &rank))
          {
            note_text (array_key (x, bytes, array), text);
            free (array);
            array = xasprintf ("#%d", rank);
            note_text (array_key (x, bytes, array), text);
            free (array);
          }
      }
  loads.qsort (early_load_cmp);
  tag_loads (loads);
  for (early_load &l : loads)
    free (l.key);
}


/* The text of the load STMT whose reference is REF, of ELEMENT_BYTES per
   element, reported at SITE_LOC: the early GIMPLE's at STMT's own
   location (for a Fortran array's element, at that location and of that
   array or rank; else the only one of its size on its line) when that
   one is known and has no more unknown parts, else REF's.  */
/* Is STMT's value a vector that a permutation mixes with another one
   (the vectorizer's interleaved loads: x[2 * i] and x[2 * i + 1] read as
   two whole vectors, then taken apart)?  Its lanes are several of the
   source's elements, and it carries the location of the group's first.  */
static bool
interleaved_p (gimple *stmt)
{
  tree lhs = gimple_get_lhs (stmt);
  if (!lhs || TREE_CODE (lhs) != SSA_NAME || !VECTOR_TYPE_P (TREE_TYPE (lhs)))
    return false;
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, lhs)
    if (gassign *a = dyn_cast<gassign *> (USE_STMT (use)))
      if (gimple_assign_rhs_code (a) == VEC_PERM_EXPR
          && !operand_equal_p (gimple_assign_rhs1 (a), gimple_assign_rhs2 (a), 0))
        return true;
  return false;
}

static const char *
site_text (gimple *stmt, location_t site_loc, tree ref, unsigned element_bytes)
{
  const char *text = zi_ref_text (ref);
  location_t loc = gimple_location (stmt);
  if (!early_texts)
    return text;
  if (LOCATION_LOCUS (loc) == UNKNOWN_LOCATION)
    {
      /* A load without a location of its own (an unrolled copy): the
         text of the line it is reported at, if that has one.  */
      if (LOCATION_LOCUS (site_loc) == UNKNOWN_LOCATION)
        return text;
      char *key = line_key (expand_location (site_loc), element_bytes);
      const char **early = early_texts->get (key);
      free (key);
      return early && **early && (!*text || unknowns (*early) <= unknowns (text)) ? *early : text;
    }
  char *key;
  const char **early;
  if (tagged_texts && !interleaved_p (stmt))
    {
      /* A load the early pass gave a location of its own (tag_loads);
         not an interleaved vector, whose tag is its group's first
         element's (the vectorizer gives the vector that location).  */
      key = tag_key (loc, element_bytes);
      early = tagged_texts->get (key);
      free (key);
      if (early && (!*text || unknowns (*early) <= unknowns (text)))
        return *early;
    }
  expanded_location x = expand_location (loc);
  key = text_key (x, element_bytes);
  early = early_texts->get (key);
  free (key);
  int rank = 0;
  if (!early || !**early)
    if (char *array = zi_fortran_array_name (ref, &rank))
      {
        key = array_key (x, element_bytes, array);
        early = early_texts->get (key);
        free (key);
        if (!early || !**early)
          {
            /* Inlined: the caller's array, of the same rank.  */
            free (array);
            array = xasprintf ("#%d", rank);
            key = array_key (x, element_bytes, array);
            early = early_texts->get (key);
            free (key);
          }
        free (array);
      }
  if (!early || !**early)
    {
      /* The only text of its size on its line.  */
      key = line_key (x, element_bytes);
      early = early_texts->get (key);
      free (key);
    }
  if (early && **early && (!*text || unknowns (*early) <= unknowns (text)))
    return *early;
  return text;
}

/* A string constant usable in a static initializer.  */
static tree
string_cst (const char *s)
{
  return build_string_literal (strlen (s) + 1, s);
}

/* A static, non-public, initialized variable of TYPE in SECTION (or the
   default section if NULL), emitted with this unit; returns its address.
   RETAIN: emitted and kept by the linker though nothing refers to it.  */
static tree
emit_static (const char *name, tree type, tree init, const char *section, bool retain = false)
{
  tree decl = build_decl (UNKNOWN_LOCATION, VAR_DECL, create_tmp_var_name (name), type);
  TREE_STATIC (decl) = 1;
  TREE_PUBLIC (decl) = 0;
  TREE_ADDRESSABLE (decl) = 1;
  TREE_USED (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  DECL_IGNORED_P (decl) = 1;
  DECL_USER_ALIGN (decl) = 1;
  SET_DECL_ALIGN (decl, TYPE_ALIGN (type));
  DECL_INITIAL (decl) = init;
  TREE_CONSTANT (init) = 1;
  TREE_STATIC (init) = 1;
  if (section)
    set_decl_section_name (decl, section);
  if (retain)
    {
      DECL_PRESERVE_P (decl) = 1;
#if SUPPORTS_SHF_GNU_RETAIN
      DECL_ATTRIBUTES (decl) = tree_cons (get_identifier ("retain"), NULL_TREE, NULL_TREE);
#endif
    }
  varpool_node::finalize_decl (decl);
  return build_fold_addr_expr (decl);
}

/* Field positions in the descriptors' records (zeroinst-descriptors.def,
   the order of zi_build_trees' record types).  */
enum {
#define ZI_INLINE_FRAME_FIELD(NAME, CTYPE, FORM) FRAME_##NAME,
#include "zeroinst-descriptors.def"
  FRAME_FIELDS
};
enum {
#define ZI_SITE_FIELD(NAME, CTYPE, FORM) SITE_##NAME,
#include "zeroinst-descriptors.def"
  SITE_FIELDS
};
enum {
#define ZI_TAIL_FIELD(NAME, CTYPE, FORM) TAIL_##NAME,
#include "zeroinst-descriptors.def"
  TAIL_FIELDS
};
enum {
#define ZI_FN_FIELD(NAME, CTYPE, FORM) FN_##NAME,
#include "zeroinst-descriptors.def"
  FN_FIELDS
};

/* The constant N of FIELD's type.  */
static tree
num (tree field, unsigned HOST_WIDE_INT n)
{
  return build_int_cst (TREE_TYPE (field), n);
}

/* The FIELD_DECLs of record TYPE, in order, into F[0..N).  */
static void
fields_of (tree type, tree *f, unsigned n)
{
  tree x = TYPE_FIELDS (type);
  for (unsigned i = 0; i < n; i++, x = DECL_CHAIN (x))
    f[i] = x;
}

/* A static array of struct zi_inline_frame for FRAMES[1..], or a null
   pointer when nothing was inlined.  */
static tree
inline_frames_array (const auto_vec<struct site_frame> &frames)
{
  tree ptr_type = build_pointer_type (zi_t.inline_frame_type);
  if (frames.length () < 2)
    return build_int_cst (ptr_type, 0);
  tree f[FRAME_FIELDS];
  fields_of (zi_t.inline_frame_type, f, FRAME_FIELDS);
  vec<constructor_elt, va_gc> *elts = NULL;
  for (unsigned i = 1; i < frames.length (); i++)
    {
      expanded_location x = expand_location (frames[i].loc);
      unsigned flags;
      const char *name = zi_source_function_name (frames[i].fn, &flags);
      vec<constructor_elt, va_gc> *v = NULL;
      CONSTRUCTOR_APPEND_ELT (v, f[FRAME_function], string_cst (name));
      CONSTRUCTOR_APPEND_ELT (v, f[FRAME_file], string_cst (x.file ? x.file : "unknown"));
      CONSTRUCTOR_APPEND_ELT (v, f[FRAME_line], num (f[FRAME_line], x.line));
      CONSTRUCTOR_APPEND_ELT (v, f[FRAME_flags], num (f[FRAME_flags], flags));
      CONSTRUCTOR_APPEND_ELT (elts, size_int (i - 1), build_constructor (zi_t.inline_frame_type, v));
    }
  tree array_type = build_array_type_nelts (zi_t.inline_frame_type, frames.length () - 1);
  tree addr = emit_static ("__zeroinst_inl", array_type, build_constructor (array_type, elts), NULL);
  return fold_convert (ptr_type, addr);
}

/* Emit and return the address (as a tree of pointer type) of a new site
   descriptor for STMT with text TEXT.  */
static tree
make_site (gimple *stmt, enum zi_type type, unsigned lanes, unsigned access_bytes,
           const char *text)
{
  location_t loc = site_location (stmt);
  expanded_location xloc = expand_location (loc);
  auto_vec<struct site_frame> frames;
  inline_chain (stmt, loc, &frames);
  unsigned flags;
  const char *function = zi_source_function_name (frames[0].fn, &flags);

  tree f[SITE_FIELDS];
  fields_of (zi_t.site_type, f, SITE_FIELDS);
  vec<constructor_elt, va_gc> *v = NULL;
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_slot], num (f[SITE_slot], 0));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_type], num (f[SITE_type], type));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_lanes], num (f[SITE_lanes], lanes));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_access_bytes], num (f[SITE_access_bytes], access_bytes));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_line], num (f[SITE_line], xloc.line));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_column], num (f[SITE_column], xloc.column));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_file], string_cst (xloc.file ? xloc.file : "unknown"));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_function], string_cst (function));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_expr], string_cst (text));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_ninlined], num (f[SITE_ninlined], frames.length () - 1));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_flags], num (f[SITE_flags], flags));
  CONSTRUCTOR_APPEND_ELT (v, f[SITE_inlined], inline_frames_array (frames));
  return emit_static ("__zeroinst_site", zi_t.site_type, build_constructor (zi_t.site_type, v),
                      ZI_SITE_SECTION);
}

/* Build, emit and return the address (as a tree of pointer type) of a new
   site descriptor for STMT, which loads REF (may be NULL_TREE for atomic
   builtins) as LANES elements of class TYPE, ACCESS_BYTES in all.  */
tree
zi_make_site (gimple *stmt, tree ref, enum zi_type type, unsigned lanes,
              unsigned access_bytes, int lanes_k, unsigned lanes_n)
{
  unsigned element = lanes ? access_bytes / lanes : access_bytes;
  if (lanes_k < 0)
    return make_site (stmt, type, lanes, access_bytes,
                      site_text (stmt, site_location (stmt), ref, element));
  /* A vector of .LOAD_LANES: its field's early text (lanes_text), else
     REF's (base[?]).  Not the text at its location, which is the
     group's first load's.  */
  location_t loc = gimple_location (stmt);
  const char *text = LOCATION_LOCUS (loc) == UNKNOWN_LOCATION
                         ? NULL : lanes_text (expand_location (loc), element, lanes_k, lanes_n);
  return make_site (stmt, type, lanes, access_bytes, text ? text : zi_ref_text (ref));
}

/* The entry of tail call CALL in zi_fn.tails (a CONSTRUCTOR): its site,
   whose location and inline chain are the frames a path shows for the
   caller of its callee, and the callee when the call is direct.
   Builtins may have no function to take the address of (or one in a
   library the program does not link: __atomic_load_8): unless this unit
   defines them, they are library functions (or expanded inline), not
   instrumented code, and the runtime only needs to know that (1).  */
tree
zi_make_tail (gcall *call)
{
  tree f[TAIL_FIELDS];
  fields_of (zi_t.tail_type, f, TAIL_FIELDS);
  tree fndecl = gimple_call_fndecl (call);
  cgraph_node *node = fndecl ? cgraph_node::get (fndecl) : NULL;
  tree callee = !fndecl ? build_int_cst (ptr_type_node, 0)
                : fndecl_built_in_p (fndecl) && !(node && node->definition)
                  ? build_int_cst (ptr_type_node, 1)
                  : fold_convert (ptr_type_node, build_fold_addr_expr (fndecl));
  vec<constructor_elt, va_gc> *v = NULL;
  CONSTRUCTOR_APPEND_ELT (v, f[TAIL_site], fold_convert (TREE_TYPE (f[TAIL_site]),
                                                 make_site (call, ZI_OTHER, 0, 0, "")));
  CONSTRUCTOR_APPEND_ELT (v, f[TAIL_callee], callee);
  return build_constructor (zi_t.tail_type, v);
}

/* A static array NAME of ITEMS, each converted to the type PTR_TYPE
   points to (site descriptor addresses, zi_tail constructors), as a
   tree of type PTR_TYPE (a null pointer when there are none).  */
static tree
static_array (const char *name, tree ptr_type, const vec<tree> &items)
{
  if (items.is_empty ())
    return build_int_cst (ptr_type, 0);
  tree elt = TREE_TYPE (ptr_type);
  vec<constructor_elt, va_gc> *elts = NULL;
  for (unsigned i = 0; i < items.length (); i++)
    CONSTRUCTOR_APPEND_ELT (elts, size_int (i), fold_convert (elt, items[i]));
  tree array_type = build_array_type_nelts (elt, items.length ());
  return fold_convert (ptr_type, emit_static (name, array_type,
                                              build_constructor (array_type, elts), NULL));
}

/* Refer to the runtime's ZI_ABI_SYMBOL (zeroinst-abi.h) from this unit,
   once, when it gets generated code: a pointer to it, kept by the linker
   even under --gc-sections (SHF_GNU_RETAIN, where the assembler has it),
   so that a runtime of another version is refused by name when the
   program is linked.  */
void
zi_refer_to_abi_symbol (void)
{
  static bool done;
  if (done)
    return;
  done = true;
  tree sym = zi_runtime_var (ZI_ABI_SYMBOL_NAME,
                             build_qualified_type (char_type_node, TYPE_QUAL_CONST));
  TREE_READONLY (sym) = 1;
  TREE_ADDRESSABLE (sym) = 1;
  emit_static ("__zeroinst_abi", ptr_type_node,
               fold_convert (ptr_type_node, build_fold_addr_expr (sym)), NULL, true);
}

/* The function descriptor (struct zi_fn) of the current function, whose
   counter slots are those of SITES (site descriptor addresses, in slot
   order), NUNITS slots in all, and whose tail calls with a tail node are
   TAILS (zi_make_tail).  */
tree
zi_make_fn_desc (const vec<tree> &sites, unsigned nunits, const vec<tree> &tails)
{
  expanded_location x = expand_location (DECL_SOURCE_LOCATION (current_function_decl));
  unsigned flags;
  const char *name = zi_source_function_name (current_function_decl, &flags);
  tree f[FN_FIELDS];
  fields_of (zi_t.fn_type, f, FN_FIELDS);
  vec<constructor_elt, va_gc> *v = NULL;
  CONSTRUCTOR_APPEND_ELT (v, f[FN_addr],
                          fold_convert (ptr_type_node, build_fold_addr_expr (current_function_decl)));
  CONSTRUCTOR_APPEND_ELT (v, f[FN_name], string_cst (name));
  CONSTRUCTOR_APPEND_ELT (v, f[FN_file], string_cst (x.file ? x.file : "unknown"));
  CONSTRUCTOR_APPEND_ELT (v, f[FN_line], num (f[FN_line], x.line));
  CONSTRUCTOR_APPEND_ELT (v, f[FN_flags], num (f[FN_flags], flags));
  CONSTRUCTOR_APPEND_ELT (v, f[FN_nsites], num (f[FN_nsites], sites.length ()));
  CONSTRUCTOR_APPEND_ELT (v, f[FN_nunits], num (f[FN_nunits], nunits));
  CONSTRUCTOR_APPEND_ELT (v, f[FN_sites],
                          static_array ("__zeroinst_sites", TREE_TYPE (f[FN_sites]), sites));
  CONSTRUCTOR_APPEND_ELT (v, f[FN_ntails], num (f[FN_ntails], tails.length ()));
  CONSTRUCTOR_APPEND_ELT (v, f[FN_tails],
                          static_array ("__zeroinst_tails", TREE_TYPE (f[FN_tails]), tails));
  return emit_static ("__zeroinst_fn", zi_t.fn_type, build_constructor (zi_t.fn_type, v),
                      ZI_FN_SECTION);
}
