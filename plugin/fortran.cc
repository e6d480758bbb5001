/* fortran.cc - Fortran's memory references as a Fortran programmer writes
   them: a(i, j), s%buf, lev(l)%u, a%dim(2)%stride.

   gfortran lowers an element of an array with a descriptor (allocatable,
   assumed-shape, pointer, an associate name of one) to one linear index
   into the data pointer:

     (*a.data)[a.offset + i + j * a.dim[1].stride]           (allocatable)
     *(a.0 + (offset.4 + i * stride.1 + j * stride.3) * 8)   (assumed shape;
                                     a.0 = a->data, stride.1 from a->dim[0])

   The index is a sum of the offset, and per dimension k its subscript
   times that dimension's stride (dimension 0 of a contiguous array: the
   subscript alone).  The strides name their dimension: each is loaded
   from DESC.dim[k].stride, directly or through the function's copies of
   it.  So the subscripts are found term by term, and printed with the
   index printer of site.cc (index_text), ':' for the loop index of an
   array section (a(i, :), the scalarizer's S.N); a term that cannot be placed,
   or a dimension without one (a constant subscript, folded into the
   offset), leaves the dimension '?'.  The rank is the descriptor type's:
   the length of its dim array.

   After the loop optimizers the data pointer is an induction variable
   whose start is such an address: the array is still known (a(?, ?));
   site.cc then takes the early GIMPLE's text for the load's location,
   which the early pass made the load's own where a statement's loads
   share one (tag_loads), else for its location and array
   (zi_fortran_array_name), or for its location and rank: an inlined
   dummy argument's array is the caller's.

   Arrays without a descriptor (explicit shape, fixed size) are flattened
   by gfortran to one dimension whose extents only the front end knows:
   they keep the C form of site.cc (fixed[j * 10 + i - 11]).

   Only in the front end's own compiler (lang_GNU_Fortran): the type flag
   that marks descriptors (GFC_DESCRIPTOR_TYPE_P, TYPE_LANG_FLAG_1) is
   the front end's.  */

#include "zeroinst-plugin.h"

/* A user variable's own name (not a temporary of the compiler's).  A
   dummy argument passed with its descriptor is an artificial parameter
   of the dummy's own name (gfortran describes the dummy to the debugger
   apart); the compiler's temporaries have a '.' in theirs.  */
static const char *
user_name (tree decl)
{
  if (!decl || !DECL_P (decl) || !DECL_NAME (decl))
    return NULL;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (decl));
  if (TREE_CODE (decl) == PARM_DECL && !strchr (name, '.'))
    return name;
  if (VAR_P (decl) && !DECL_IGNORED_P (decl) && !DECL_ARTIFICIAL (decl))
    return name;
  return NULL;
}

static bool
fortran_p (void)
{
  static int is = -1;
  if (is < 0)
    is = lang_GNU_Fortran ();
  return is;
}

/* Is TYPE an array descriptor's record?  */
static bool
descriptor_type_p (tree type)
{
  return type && TREE_CODE (type) == RECORD_TYPE && TYPE_LANG_FLAG_1 (type);
}

/* Is REF DESC.FIELD of a descriptor DESC?  */
static bool
descriptor_field_p (tree ref, const char *field)
{
  if (TREE_CODE (ref) != COMPONENT_REF || !descriptor_type_p (TREE_TYPE (TREE_OPERAND (ref, 0))))
    return false;
  tree f = TREE_OPERAND (ref, 1);
  return DECL_NAME (f) && strcmp (IDENTIFIER_POINTER (DECL_NAME (f)), field) == 0;
}

/* The rank of descriptor type TYPE: the length of its dim array.  */
static int
descriptor_rank (tree type)
{
  for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
    if (DECL_NAME (f) && strcmp (IDENTIFIER_POINTER (DECL_NAME (f)), "dim") == 0
        && TREE_CODE (TREE_TYPE (f)) == ARRAY_TYPE && TYPE_DOMAIN (TREE_TYPE (f))
        && tree_fits_shwi_p (TYPE_MAX_VALUE (TYPE_DOMAIN (TREE_TYPE (f)))))
      {
        HOST_WIDE_INT r = tree_to_shwi (TYPE_MAX_VALUE (TYPE_DOMAIN (TREE_TYPE (f)))) + 1;
        return r > 0 && r <= 15 ? (int) r : 0;
      }
  return 0;
}

/* The SSA definition of VAL if it is a load of DESC.FIELD: DESC, else
   NULL.  */
static tree
loaded_field (tree val, const char *field)
{
  if (TREE_CODE (val) != SSA_NAME)
    return NULL_TREE;
  gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (val));
  if (!def || !gimple_assign_load_p (def) || !descriptor_field_p (gimple_assign_rhs1 (def), field))
    return NULL_TREE;
  return TREE_OPERAND (gimple_assign_rhs1 (def), 0);
}

/* How far trace follows a value back: always through copies and
   conversions; with T_PHI through PHIs (gfortran's choice of a stride
   or 1, induction variables), with T_ADDRESS through address arithmetic
   to its base (either term of an integer sum, a pointer sum's pointer).  */
enum { T_PHI = 1, T_ADDRESS = 2 };

/* The first value VAL was set from, following FLAGS, that WANT maps to
   non-NULL: what WANT returns.  */
template <typename F>
static tree
trace (tree val, int flags, int depth, F want)
{
  if (depth > 8)
    return NULL_TREE;
  if (tree t = want (val))
    return t;
  if (TREE_CODE (val) != SSA_NAME)
    return NULL_TREE;
  gimple *def = SSA_NAME_DEF_STMT (val);
  if (gassign *a = dyn_cast<gassign *> (def))
    {
      enum tree_code code = gimple_assign_rhs_code (a);
      if (code == SSA_NAME || CONVERT_EXPR_CODE_P (code)
          || (code == POINTER_PLUS_EXPR && (flags & T_ADDRESS)))
        return trace (gimple_assign_rhs1 (a), flags, depth + 1, want);
      if (code == PLUS_EXPR && (flags & T_ADDRESS))
        {
          if (tree t = trace (gimple_assign_rhs1 (a), flags, depth + 1, want))
            return t;
          return trace (gimple_assign_rhs2 (a), flags, depth + 1, want);
        }
      return NULL_TREE;
    }
  if (gphi *phi = dyn_cast<gphi *> (def))
    if (flags & T_PHI)
      for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
        if (gimple_phi_arg_def (phi, i) != val)
          if (tree t = trace (gimple_phi_arg_def (phi, i), flags, depth + 1, want))
            return t;
  return NULL_TREE;
}

/* The dimension whose stride VAL is (0-based), or -1; *DESC gets its
   descriptor.  */
static int
stride_dim (tree val, tree *desc)
{
  int dim = -1;
  trace (val, T_PHI, 0, [&] (tree v) -> tree {
    if (TREE_CODE (v) != SSA_NAME)
      return NULL_TREE;
    gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (v));
    if (!def || !gimple_assign_load_p (def))
      return NULL_TREE;
    tree r = gimple_assign_rhs1 (def);
    /* DESC.dim[k].stride  */
    if (TREE_CODE (r) != COMPONENT_REF || !DECL_NAME (TREE_OPERAND (r, 1))
        || strcmp (IDENTIFIER_POINTER (DECL_NAME (TREE_OPERAND (r, 1))), "stride") != 0)
      return NULL_TREE;
    tree elt = TREE_OPERAND (r, 0);
    if (TREE_CODE (elt) != ARRAY_REF || !tree_fits_shwi_p (TREE_OPERAND (elt, 1))
        || !descriptor_field_p (TREE_OPERAND (elt, 0), "dim"))
      return NULL_TREE;
    dim = (int) tree_to_shwi (TREE_OPERAND (elt, 1));
    *desc = TREE_OPERAND (TREE_OPERAND (elt, 0), 0);
    return r;
  });
  return dim;
}

/* The name of the compiler's temporary X ("offset.4", "S.9": an SSA
   name of one carries the name only, or an artificial variable), or
   NULL.  */
static const char *
temporary_name (tree x)
{
  tree id = NULL_TREE;
  if (TREE_CODE (x) == SSA_NAME)
    id = SSA_NAME_VAR (x) ? (DECL_ARTIFICIAL (SSA_NAME_VAR (x)) ? DECL_NAME (SSA_NAME_VAR (x))
                                                               : NULL_TREE)
                          : SSA_NAME_IDENTIFIER (x);
  else if (VAR_P (x) && DECL_ARTIFICIAL (x))
    id = DECL_NAME (x);
  return id ? IDENTIFIER_POINTER (id) : NULL;
}

/* Is VAL the array's offset (DESC.offset, or the function's copy of it,
   offset.N, computed from the strides)?  */
static bool
offset_term_p (tree val)
{
  if (loaded_field (val, "offset"))
    return true;
  const char *n = temporary_name (val);
  return n && strncmp (n, "offset", 6) == 0 && (!n[6] || n[6] == '.');
}

/* The descriptor whose data pointer PTR is (through copies; with BASE,
   the base of an induction variable or of pointer arithmetic: an
   element somewhere in that array), or NULL.  */
static tree
data_descriptor (tree ptr, bool base)
{
  return trace (ptr, base ? T_PHI | T_ADDRESS : 0, 0,
                [] (tree v) { return loaded_field (v, "data"); });
}

static bool print_fortran (pretty_printer *pp, tree ref, int depth, bool place);

/* Are A and B the same descriptor: one tree, or one text without unknown
   parts (gfortran reloads lev(l)%u, and an OpenMP region the pointer to
   a shared one, for each of its fields)?  */
static bool
same_descriptor (tree a, tree b)
{
  if (operand_equal_p (a, b, 0))
    return true;
  pretty_printer pa, pb;
  if (!print_fortran (&pa, a, 0, true) || !print_fortran (&pb, b, 0, true))
    return false;
  const char *ta = pp_formatted_text (&pa), *tb = pp_formatted_text (&pb);
  return !strchr (ta, '?') && strcmp (ta, tb) == 0;
}

/* Add the terms of the sum X to TERMS (at most 16).  */
static void
sum_terms (tree x, vec<tree> *terms, int depth)
{
  gassign *def = TREE_CODE (x) == SSA_NAME ? dyn_cast<gassign *> (SSA_NAME_DEF_STMT (x)) : NULL;
  if (def && depth < 8 && gimple_assign_rhs_code (def) == PLUS_EXPR && !SSA_NAME_VAR (x))
    {
      sum_terms (gimple_assign_rhs1 (def), terms, depth + 1);
      sum_terms (gimple_assign_rhs2 (def), terms, depth + 1);
      return;
    }
  if (terms->length () < 16)
    terms->safe_push (x);
}

/* Is X (through conversions) a loop index of gfortran's scalarizer (a
   temporary S.N): the subscript of an array section, a(:, k)?  */
static bool
section_index_p (tree x)
{
  for (int i = 0; i < 4; i++)
    {
      const char *n = temporary_name (x);
      if (n)
        return n[0] == 'S' && n[1] == '.' && n[2] && strspn (n + 2, "0123456789") == strlen (n + 2);
      /* Through conversions, and at -O0 the load of S.N from memory.  */
      gassign *def = TREE_CODE (x) == SSA_NAME ? dyn_cast<gassign *> (SSA_NAME_DEF_STMT (x)) : NULL;
      if (!def || !(CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def))
                    || (gimple_assign_load_p (def) && VAR_P (gimple_assign_rhs1 (def)))))
        return false;
      x = gimple_assign_rhs1 (def);
    }
  return false;
}

/* The text of subscript X: ":" for a section's.  */
static char *
subscript_text (tree x)
{
  int prec;
  return section_index_p (x) ? xstrdup (":") : zi_index_text (x, &prec);
}

/* Print the subscripts of the element at linear INDEX of the RANK-
   dimensional array of descriptor DESC: "(i, j + 1)", '?' for a
   dimension not found.  */
static void
print_subscripts (pretty_printer *pp, tree desc, int rank, tree index)
{
  auto_vec<tree, 16> terms;
  if (index)
    sum_terms (index, &terms, 0);
  char *sub[15] = { NULL };
  bool ok = index != NULL_TREE;
  tree bare = NULL_TREE;
  for (tree t : terms)
    {
      if (offset_term_p (t))
        continue;
      gassign *mul = TREE_CODE (t) == SSA_NAME ? dyn_cast<gassign *> (SSA_NAME_DEF_STMT (t)) : NULL;
      tree d = NULL_TREE;
      int k;
      if (mul && gimple_assign_rhs_code (mul) == MULT_EXPR)
        {
          tree a = gimple_assign_rhs1 (mul), b = gimple_assign_rhs2 (mul), s = NULL_TREE;
          if ((k = stride_dim (a, &d)) >= 0)
            s = b;
          else if ((k = stride_dim (b, &d)) >= 0)
            s = a;
          if (s && k < rank && !sub[k] && d && same_descriptor (d, desc))
            {
              sub[k] = subscript_text (s);
              continue;
            }
          ok = false;
        }
      else if ((k = stride_dim (t, &d)) >= 0)
        {
          /* a(1, j): the stride times 1; once per dimension.  */
          if (k < rank && !sub[k] && d && same_descriptor (d, desc))
            sub[k] = xstrdup ("1");
          else
            ok = false;
        }
      else if (!bare)
        bare = t;                   /* dimension 0, of stride 1 */
      else
        ok = false;
    }
  if (ok && bare && !sub[0])
    sub[0] = subscript_text (bare);
  pp_string (pp, "(");
  for (int k = 0; k < rank; k++)
    {
      if (k)
        pp_string (pp, ", ");
      pp_string (pp, ok && sub[k] && strlen (sub[k]) <= 40 ? sub[k] : "?");
      free (sub[k]);
    }
  pp_string (pp, ")");
}

/* The element REF reads of a descriptor's array: its descriptor and the
   linear index (NULL when the optimizers made it an induction
   variable), or false.  */
static bool
array_element (tree ref, tree *desc, tree *index)
{
  *index = NULL_TREE;
  if (TREE_CODE (ref) == ARRAY_REF && TREE_CODE (TREE_OPERAND (ref, 0)) == MEM_REF
      && integer_zerop (TREE_OPERAND (TREE_OPERAND (ref, 0), 1)))
    {
      /* (*DESC.data)[index]  */
      *desc = data_descriptor (TREE_OPERAND (TREE_OPERAND (ref, 0), 0), false);
      *index = TREE_OPERAND (ref, 1);
      return *desc != NULL_TREE;
    }
  if (TREE_CODE (ref) != MEM_REF && TREE_CODE (ref) != TARGET_MEM_REF)
    return false;
  tree ptr = TREE_OPERAND (ref, 0);
  /* *(DATA + index * size), with DATA a copy of DESC.data.  */
  gassign *add = TREE_CODE (ptr) == SSA_NAME ? dyn_cast<gassign *> (SSA_NAME_DEF_STMT (ptr)) : NULL;
  tree size = TYPE_SIZE_UNIT (TREE_TYPE (ref));
  if (TREE_CODE (ref) == MEM_REF && integer_zerop (TREE_OPERAND (ref, 1)) && add
      && gimple_assign_rhs_code (add) == POINTER_PLUS_EXPR && size && tree_fits_uhwi_p (size))
    if ((*desc = data_descriptor (gimple_assign_rhs1 (add), false)))
      {
        /* (sizetype) (index * size)  */
        tree off = gimple_assign_rhs2 (add);
        gassign *d = TREE_CODE (off) == SSA_NAME ? dyn_cast<gassign *> (SSA_NAME_DEF_STMT (off)) : NULL;
        if (d && CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (d)))
          {
            off = gimple_assign_rhs1 (d);
            d = TREE_CODE (off) == SSA_NAME ? dyn_cast<gassign *> (SSA_NAME_DEF_STMT (off)) : NULL;
          }
        if (d && gimple_assign_rhs_code (d) == MULT_EXPR
            && tree_fits_uhwi_p (gimple_assign_rhs2 (d))
            && tree_to_uhwi (gimple_assign_rhs2 (d)) == tree_to_uhwi (size))
          *index = gimple_assign_rhs1 (d);
        return true;
      }
  /* An induction variable: its start.  */
  *desc = data_descriptor (ptr, true);
  return *desc != NULL_TREE;
}


/* Print the Fortran text of REF, a load's reference: a component chain
   (s%buf, lev(l)%u), a descriptor's own fields (a%dim(2)%stride,
   a%data: the pointer), a dummy argument (its pointer: s), an element
   of a descriptor's array (a(i, j)).  False if some part is not
   understood: the caller prints it its own way.  */
bool
zi_print_fortran (pretty_printer *pp, tree ref, int depth)
{
  return print_fortran (pp, ref, depth, false);
}

/* The same for the place an allocation is stored to: a descriptor's
   data field is its array (rhs for rhs.data).  */
bool
zi_print_fortran_place (pretty_printer *pp, tree ref)
{
  return print_fortran (pp, ref, 0, true);
}

/* PLACE: REF is an allocation's place (a descriptor's data is the
   array), else a load's reference.  */
static bool
print_fortran (pretty_printer *pp, tree ref, int depth, bool place)
{
  if (!fortran_p () || depth > 8)
    return false;
  tree desc, index;
  switch (TREE_CODE (ref))
    {
    case VAR_DECL:
    case PARM_DECL:
    case SSA_NAME:
      {
        const char *name = user_name (TREE_CODE (ref) == SSA_NAME ? SSA_NAME_VAR (ref) : ref);
        if (name)
          pp_string (pp, name);
        /* A pointer loaded from a component: an OpenMP region's shared
           variable (.omp_data_i->u), a pointer component.  */
        else if (TREE_CODE (ref) == SSA_NAME && !SSA_NAME_VAR (ref))
          if (gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (ref)))
            if (gimple_assign_load_p (def) && TREE_CODE (gimple_assign_rhs1 (def)) == COMPONENT_REF)
              return print_fortran (pp, gimple_assign_rhs1 (def), depth + 1, true);
        return name != NULL;
      }
    case COMPONENT_REF:
      {
        tree base = TREE_OPERAND (ref, 0), field = TREE_OPERAND (ref, 1);
        /* The data pointer: the array itself inside an element's
           reference and as an allocation's place; a load of it reads
           the pointer.  */
        if (descriptor_field_p (ref, "data") && (place || depth))
          return print_fortran (pp, base, depth + 1, true);
        /* A variable an OpenMP region shares, or an internal procedure's
           host variable (through the static chain, CHAIN->x, or in the
           host's FRAME): its name alone.  */
        tree var = TREE_CODE (base) == MEM_REF ? TREE_OPERAND (base, 0) : base;
        if (TREE_CODE (var) == SSA_NAME)
          var = SSA_NAME_VAR (var);
        const char *vn = var && DECL_P (var) && DECL_ARTIFICIAL (var) && DECL_NAME (var)
                         ? IDENTIFIER_POINTER (DECL_NAME (var)) : "";
        if (DECL_NAME (field) && (strncmp (vn, ".omp_data_", 10) == 0 || strncmp (vn, "CHAIN", 5) == 0
                                  || strncmp (vn, "FRAME", 5) == 0))
          {
            pp_string (pp, IDENTIFIER_POINTER (DECL_NAME (field)));
            return true;
          }
        if (!DECL_NAME (field) || !print_fortran (pp, base, depth + 1, true))
          return false;
        pp_string (pp, "%");
        pp_string (pp, IDENTIFIER_POINTER (DECL_NAME (field)));
        return true;
      }
    case ARRAY_REF:
      if (array_element (ref, &desc, &index))
        break;
      /* A descriptor's dim array, 0-based: dim(k + 1).  A component
         array of fixed size keeps its own lower bound: x%brr(3).  */
      if (TREE_CODE (TREE_OPERAND (ref, 0)) == COMPONENT_REF
          && tree_fits_shwi_p (TREE_OPERAND (ref, 1))
          && print_fortran (pp, TREE_OPERAND (ref, 0), depth + 1, true))
        {
          bool dim = descriptor_field_p (TREE_OPERAND (ref, 0), "dim");
          pp_printf (pp, "(" HOST_WIDE_INT_PRINT_DEC ")",
                     tree_to_shwi (TREE_OPERAND (ref, 1)) + (dim ? 1 : 0));
          return true;
        }
      return false;
    case MEM_REF:
    case TARGET_MEM_REF:
      if (array_element (ref, &desc, &index))
        break;
      /* *s for a dummy argument s: s.  */
      if (TREE_CODE (ref) == MEM_REF && integer_zerop (TREE_OPERAND (ref, 1)))
        {
          tree ptr = TREE_OPERAND (ref, 0);
          if (TREE_CODE (ptr) == ADDR_EXPR)
            return print_fortran (pp, TREE_OPERAND (ptr, 0), depth + 1, true);
          return print_fortran (pp, ptr, depth + 1, true);
        }
      return false;
    default:
      return false;
    }
  int rank = descriptor_rank (TREE_TYPE (desc));
  if (!rank || !print_fortran (pp, desc, depth + 1, true))
    return false;
  print_subscripts (pp, desc, rank, index);
  return true;
}

/* The name of the descriptor's array that load REF reads an element
   (or a component of an element) of: "a", "lev(l)%u"; xstrdup-ed, or
   NULL.  *RANK gets the array's rank.  */
char *
zi_fortran_array_name (tree ref, int *rank)
{
  tree desc, index;
  /* lev(l)%n: the element of lev.  */
  while (TREE_CODE (ref) == COMPONENT_REF && !descriptor_field_p (ref, "data"))
    ref = TREE_OPERAND (ref, 0);
  if (!fortran_p () || !array_element (ref, &desc, &index))
    return NULL;
  zi_text_begin ();
  *rank = descriptor_rank (TREE_TYPE (desc));
  pretty_printer pp;
  return print_fortran (&pp, desc, 0, true) ? xstrdup (pp_formatted_text (&pp)) : NULL;
}
