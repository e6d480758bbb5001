/* zeroinst-plugin.cc - GCC plugin entry: options, shared trees, pass.

   Usage:  gcc -fplugin=PATH/zeroinst.so [-fplugin-arg-zeroinst-KEY[=VALUE] ...]

   Options (-fplugin-arg-zeroinst-KEY[=VALUE]): options.def, the table
   that parsing, validation and the help (`gcc -fplugin=... --help -v`)
   are made from.

   An unknown option or a malformed value is a compile error that lists the
   valid options.  The pass ("zeroinst") runs just before "optimized", after
   every GIMPLE optimization, at all -O levels and in LTO link-time units, so
   it instruments exactly the loads the optimized program performs.  The
   plugin checks that it runs in the GCC it was built for.  */

#include "zeroinst-plugin.h"
#include "plugin-version.h"
#include "output.h"          /* asm_out_file */
#include <fnmatch.h>

int plugin_is_GPL_compatible;

struct zi_options zi_opts;
struct zi_trees zi_t;

const char *zi_plugin_name = "zeroinst";

/* The options (options.def), each with the field it sets: a flag to
   true, patterns to a copy of the value.  */
enum option_value { VALUE_NONE, VALUE_PATTERNS };
static const struct option_spec {
  const char *key;
  enum option_value value;
  const char *help;
  bool *flag;
  const char **patterns;
} options[] = {
#define FIELD_NONE(FIELD) &zi_opts.FIELD, NULL
#define FIELD_PATTERNS(FIELD) NULL, &zi_opts.FIELD
#define ZI_PLUGIN_OPTION(KEY, FIELD, VALUE, HELP) { KEY, VALUE_##VALUE, HELP, FIELD_##VALUE (FIELD) },
#include "options.def"
#undef ZI_PLUGIN_OPTION
#undef FIELD_NONE
#undef FIELD_PATTERNS
};

/* "out-of-line, include=PATTERNS, ...": what errors list.  */
static const char *
valid_keys (void)
{
  static char *list;
  if (!list)
    {
      list = xstrdup ("");
      for (const option_spec &o : options)
        list = reconcat (list, list, *list ? ", " : "", o.key,
                         o.value == VALUE_PATTERNS ? "=PATTERNS" : "", NULL);
    }
  return list;
}

/* The help of `gcc -fplugin=zeroinst.so --help -v`: each option, its
   text's lines indented beside it.  */
static const char *
help_text (void)
{
  char *s = xasprintf ("instruments every load for redundant-zero profiling; "
                       "options (-fplugin-arg-%s-KEY[=VALUE]):", zi_plugin_name);
  for (const option_spec &o : options)
    {
      char key[24];
      snprintf (key, sizeof key, "%s%s", o.key, o.value == VALUE_PATTERNS ? "=PATTERNS" : "");
      for (const char *h = o.help; *h;)
        {
          size_t n = strcspn (h, "\n");
          char *line = xasprintf ("\n  %-20s%.*s", h == o.help ? key : "", (int) n, h);
          s = reconcat (s, s, line, NULL);
          free (line);
          h += n + (h[n] == '\n');
        }
    }
  return s;
}

static tree
const_string_type (void)
{
  return build_pointer_type (build_qualified_type (char_type_node, TYPE_QUAL_CONST));
}

/* The type of a descriptor field of form FORM (zeroinst-descriptors.def).  */
enum field_form { S32, U8, U16, U32, STR, ADDR, FRAMES, SITE, SITES, TAILS };
static tree
form_type (enum field_form form)
{
  switch (form)
    {
    case S32: return build_nonstandard_integer_type (32, 0);
    case U8: return build_nonstandard_integer_type (8, 1);
    case U16: return build_nonstandard_integer_type (16, 1);
    case U32: return build_nonstandard_integer_type (32, 1);
    case STR: return const_string_type ();
    case ADDR: return ptr_type_node;
    case FRAMES: return build_pointer_type (zi_t.inline_frame_type);
    case SITE: return build_pointer_type (zi_t.site_type);
    case SITES: return build_pointer_type (build_pointer_type (zi_t.site_type));
    case TAILS: return build_pointer_type (zi_t.tail_type);
    }
  gcc_unreachable ();
}

/* The descriptor records, in the order they refer to each other (a
   field's FORM may name an earlier one).  */
enum record { INLINE_FRAME, SITE_RECORD, TAIL_RECORD, FN_RECORD, RECORDS };

/* A field as the table lists it, and how the C compiler that built the
   plugin laid out and typed it (the host's layout, which is the target's
   on the LP64 targets supported: zi_build_trees).  */
struct field_spec {
  enum record record;
  const char *name;
  enum field_form form;
  size_t offset, size;
  bool is_pointer, is_signed;
};

/* The RECORD_TYPE NAME of the fields of R in SPECS[0..N), checked field
   by field against its C twin of SIZE bytes: a table entry whose CTYPE
   and FORM disagree (in place, size, signedness or pointer-ness) stops
   the compilation with a message, before any descriptor is emitted.  */
static tree
make_record (enum record r, const char *name, const struct field_spec *specs, unsigned n,
             size_t size)
{
  /* finish_builtin_struct reverses the chain: fields are pushed in
     declaration order.  */
  tree chain = NULL_TREE;
  for (unsigned i = 0; i < n; i++)
    if (specs[i].record == r)
      {
        tree f = build_decl (UNKNOWN_LOCATION, FIELD_DECL, get_identifier (specs[i].name),
                             form_type (specs[i].form));
        DECL_CHAIN (f) = chain;
        chain = f;
      }
  tree rec = lang_hooks.types.make_type (RECORD_TYPE);
  finish_builtin_struct (rec, name, chain, NULL_TREE);
  unsigned i = 0;
  for (tree f = TYPE_FIELDS (rec); f; f = DECL_CHAIN (f), i++)
    {
      while (specs[i].record != r)
        i++;
      tree t = TREE_TYPE (f);
      if (int_byte_position (f) != (HOST_WIDE_INT) specs[i].offset
          || tree_to_uhwi (DECL_SIZE_UNIT (f)) != specs[i].size
          || POINTER_TYPE_P (t) != specs[i].is_pointer
          || (!POINTER_TYPE_P (t) && TYPE_UNSIGNED (t) == specs[i].is_signed))
        fatal_error (UNKNOWN_LOCATION, "%s: field %qs of %qs does not match its C type "
                     "(zeroinst-descriptors.def): this plugin is broken", zi_plugin_name,
                     specs[i].name, name);
    }
  if (int_size_in_bytes (rec) != (HOST_WIDE_INT) size)
    fatal_error (UNKNOWN_LOCATION, "%s: %qs does not match its C struct: this plugin is broken",
                 zi_plugin_name, name);
  return rec;
}

/* The RECORD_TYPEs of struct zi_inline_frame, zi_site, zi_tail and
   zi_fn, from zeroinst-descriptors.def.  */
static void
build_descriptor_types (void)
{
#define SPEC(R, S, NAME, FORM)                                                      \
  { R, #NAME, FORM, offsetof (struct S, NAME), sizeof (((struct S *) 0)->NAME),     \
    std::is_pointer<decltype (((struct S *) 0)->NAME)>::value,                      \
    std::is_signed<decltype (((struct S *) 0)->NAME)>::value },
  static const struct field_spec specs[] = {
#define ZI_INLINE_FRAME_FIELD(NAME, CTYPE, FORM) SPEC (INLINE_FRAME, zi_inline_frame, NAME, FORM)
#define ZI_SITE_FIELD(NAME, CTYPE, FORM) SPEC (SITE_RECORD, zi_site, NAME, FORM)
#define ZI_TAIL_FIELD(NAME, CTYPE, FORM) SPEC (TAIL_RECORD, zi_tail, NAME, FORM)
#define ZI_FN_FIELD(NAME, CTYPE, FORM) SPEC (FN_RECORD, zi_fn, NAME, FORM)
#include "zeroinst-descriptors.def"
  };
#undef SPEC
  const struct { const char *name; size_t size; tree *type; } records[RECORDS] = {
    { "__zeroinst_inline_frame", sizeof (struct zi_inline_frame), &zi_t.inline_frame_type },
    { "__zeroinst_site", sizeof (struct zi_site), &zi_t.site_type },
    { "__zeroinst_tail", sizeof (struct zi_tail), &zi_t.tail_type },
    { "__zeroinst_fn", sizeof (struct zi_fn), &zi_t.fn_type },
  };
  for (int r = 0; r < RECORDS; r++)
    *records[r].type = make_record ((enum record) r, records[r].name, specs, ARRAY_SIZE (specs),
                                    records[r].size);
}

/* An external variable NAME of TYPE, which the runtime defines.  */
tree
zi_runtime_var (const char *name, tree type)
{
  tree var = build_decl (UNKNOWN_LOCATION, VAR_DECL, get_identifier (name), type);
  TREE_PUBLIC (var) = 1;
  DECL_EXTERNAL (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  return var;
}

/* The same, initial-exec thread-local.  */
static tree
runtime_tls_var (const char *name, tree type)
{
  tree var = zi_runtime_var (name, type);
  set_decl_tls_model (var, TLS_MODEL_INITIAL_EXEC);
  return var;
}

/* A runtime function declaration with no exceptions; LEAF if it never
   calls back into the program.  */
static tree
runtime_fn (const char *name, tree type, bool cold)
{
  tree fn = build_fn_decl (name, type);
  TREE_NOTHROW (fn) = 1;
  DECL_ATTRIBUTES (fn) = tree_cons (get_identifier ("leaf"), NULL_TREE, DECL_ATTRIBUTES (fn));
  if (cold)
    DECL_ATTRIBUTES (fn) = tree_cons (get_identifier ("cold"), NULL_TREE, DECL_ATTRIBUTES (fn));
  return fn;
}

/* extern __thread const char *volatile __zeroinst_alloc_name, for the
   early pass (allocations.cc): built on its own, of the compiler's
   standard types only, since the other trees are built after
   free_lang_data (the late pass): records made by the front end's hooks
   before it would keep the front end's data.  Volatile: each store
   before an allocation call stays.  */
tree
zi_alloc_name_var (void)
{
  if (!zi_t.alloc_name_var)
    {
      zi_t.alloc_name_var = runtime_tls_var ("__zeroinst_alloc_name", const_string_type ());
      TREE_THIS_VOLATILE (zi_t.alloc_name_var) = 1;
      TREE_SIDE_EFFECTS (zi_t.alloc_name_var) = 1;
    }
  return zi_t.alloc_name_var;
}

bool
zi_build_trees (void)
{
  /* The runtime's structures have LP64 layouts (8-byte pointers and long).  */
  if (TYPE_PRECISION (ptr_type_node) != 64 || TYPE_PRECISION (long_integer_type_node) != 64)
    {
      error ("%s supports LP64 targets only (this compilation has %d-bit pointers); "
             "compile without the plugin or for a 64-bit target", zi_plugin_name,
             (int) TYPE_PRECISION (ptr_type_node));
      return false;
    }
  zi_t.u64 = make_unsigned_type (64);
  zi_t.u64_ptr = build_pointer_type (zi_t.u64);
  build_descriptor_types ();
  zi_t.u32 = make_unsigned_type (32);
  zi_t.u32_ptr = build_pointer_type (zi_t.u32);
  zi_t.u16 = make_unsigned_type (16);
  zi_t.u16_ptr = build_pointer_type (zi_t.u16);
  zi_t.u8 = make_unsigned_type (8);
  zi_t.u8_ptr = build_pointer_type (zi_t.u8);
  /* Read-only: its loads are not clobbered by the program's stores, so
     they can be hoisted and shared.  */
  zi_t.unseen_var = zi_runtime_var ("__zeroinst_unseen",
                                    build_array_type (build_qualified_type (zi_t.u64, TYPE_QUAL_CONST),
                                                      build_index_type (size_int (255))));
  TREE_READONLY (zi_t.unseen_var) = 1;
  zi_t.ctx_var = runtime_tls_var ("__zeroinst_ctx", ptr_type_node);
  zi_t.flat_var = runtime_tls_var ("__zeroinst_flat", ptr_type_node);
  zi_t.data_on_var = zi_runtime_var ("__zeroinst_data_on", integer_type_node);
  zi_t.gen_var = zi_runtime_var ("__zeroinst_gen", zi_t.u64);
  zi_t.shadow_top_var
      = zi_runtime_var ("__zeroinst_shadow_top",
                        build_array_type (zi_t.u64_ptr,
                                          build_index_type (size_int (ZI_SHADOW_KINDS - 1))));
  zi_t.clz_fn = direct_internal_fn_supported_p (IFN_CLZ, long_long_unsigned_type_node,
                                                OPTIMIZE_FOR_SPEED)
                && builtin_decl_explicit_p (BUILT_IN_CLZLL)
                ? builtin_decl_explicit (BUILT_IN_CLZLL) : NULL_TREE;
  zi_t.object_fn = runtime_fn ("__zeroinst_lookup",
                               build_function_type_list (zi_t.u64, ptr_type_node, zi_t.u64,
                                                         zi_t.u64, NULL_TREE),
                               true);
  zi_t.mark_fn = runtime_fn ("__zeroinst_mark",
                             build_function_type_list (void_type_node, zi_t.u64, zi_t.u64, zi_t.u64,
                                                       zi_t.u64, NULL_TREE),
                             true);
  zi_t.enter_fn = runtime_fn ("__zeroinst_enter_node",
                              build_function_type_list (ptr_type_node, ptr_type_node,
                                                        ptr_type_node, NULL_TREE),
                              true);
  zi_t.tail_fn = runtime_fn ("__zeroinst_tail_node",
                             build_function_type_list (ptr_type_node, ptr_type_node,
                                                       pointer_sized_int_node, NULL_TREE),
                             true);
  zi_t.record_fn = runtime_fn ("__zeroinst_count",
                               build_function_type_list (void_type_node, ptr_type_node,
                                                         ptr_type_node, ptr_type_node, zi_t.u64,
                                                         zi_t.u64, zi_t.u64, NULL_TREE),
                               false);
  zi_t.lanes_fn = runtime_fn ("__zeroinst_count_lanes",
                              build_function_type_list (void_type_node, ptr_type_node,
                                                        ptr_type_node, ptr_type_node, zi_t.u64,
                                                        ptr_type_node, ptr_type_node, zi_t.u64,
                                                        ptr_type_node, zi_t.u64, NULL_TREE),
                              false);
  return true;
}

/* The trees above live across functions: make them GC roots.  */
static const struct ggc_root_tab zi_gc_roots[] = {
  { &zi_t, sizeof zi_t / sizeof (tree), sizeof (tree), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

/* True if NAME matches one of the ':'-separated PATTERNS.  */
static bool
matches_any (const char *patterns, const char *name)
{
  char *copy = xstrdup (patterns);
  bool hit = false;
  for (char *save = NULL, *p = strtok_r (copy, ":", &save); p && !hit;
       p = strtok_r (NULL, ":", &save))
    hit = fnmatch (p, name, 0) == 0;
  free (copy);
  return hit;
}

/* Should FUN be instrumented?  Never the runtime's own entry points.  */
static bool
wanted (function *fun)
{
  tree decl = fun->decl;
  const char *asm_name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  if (strncmp (asm_name, "__zeroinst", 10) == 0)
    return false;
  if (DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT (decl)
      && lookup_attribute ("no_instrument_function", DECL_ATTRIBUTES (decl)))
    return false;
  if (!zi_opts.include && !zi_opts.exclude)
    return true;
  const char *name = zi_source_function_name (decl, NULL);
  bool ok = !zi_opts.include || matches_any (zi_opts.include, name)
            || matches_any (zi_opts.include, asm_name);
  if (ok && zi_opts.exclude)
    ok = !matches_any (zi_opts.exclude, name) && !matches_any (zi_opts.exclude, asm_name);
  free (CONST_CAST (char *, name));
  return ok;
}

namespace {

/* The two passes: GIMPLE passes on functions in SSA form, for the
   functions the options select (wanted), whose execute returns their
   TODO flags.  */
template <unsigned int (*EXECUTE) (function *)>
class zeroinst_gimple_pass : public gimple_opt_pass
{
public:
  zeroinst_gimple_pass (gcc::context *ctxt, const char *pass_name)
      : gimple_opt_pass ({ GIMPLE_PASS,             /* type */
                           pass_name,               /* name; its dump FILE.NNNt.NAME */
                           OPTGROUP_NONE,           /* optinfo_flags */
                           TV_NONE,                 /* tv_id */
                           PROP_ssa | PROP_cfg,     /* properties_required */
                           0,                       /* properties_provided */
                           0,                       /* properties_destroyed */
                           0,                       /* todo_flags_start */
                           0 },                     /* todo_flags_finish */
                         ctxt)
  {
  }
  opt_pass *clone () final override { return new zeroinst_gimple_pass (m_ctxt, name); }
  bool gate (function *fun) final override { return wanted (fun); }
  unsigned int execute (function *fun) final override { return EXECUTE (fun); }
};

/* Early, right after the function is in SSA form: the loads' source
   texts before the optimizers rewrite their addresses (site.cc), and
   the names of allocations (allocations.cc).  */
unsigned int
note_texts (function *fun)
{
  zi_note_early_texts (fun);
  return zi_name_allocations (fun);
}

} // namespace

/* -flto with the plugin only at compile time.  An LTO object holds GIMPLE:
   the pass runs where code is generated, in the link-time compiler (lto1),
   and only if the plugin is loaded there too.  Without it the program
   links uninstrumented and writes an empty report.  So each unit's LTO
   GIMPLE gets a preserved static pointer to LTO_LINK_SYMBOL, which nothing
   defines; an LTO link that loads the plugin defines it (weak: once per
   ltrans unit), and one that does not fails with "undefined reference to
   `zeroinst_lto_link_needs_fplugin_zeroinst_so'".  GCC links LTO objects
   with LTO even without -flto at link time, fat ones (-ffat-lto-objects)
   too; the machine code of a fat object is instrumented already, so the
   pointer is kept out of it and a -fno-lto link of fat objects works.  */
static const char lto_link_symbol[] = "zeroinst_lto_link_needs_fplugin_zeroinst_so";

static void
lto_reference_link_symbol (void *, void *)
{
  if (in_lto_p || !flag_generate_lto)
    return;
  tree target = build_decl (UNKNOWN_LOCATION, VAR_DECL, get_identifier (lto_link_symbol),
                            char_type_node);
  TREE_PUBLIC (target) = 1;
  DECL_EXTERNAL (target) = 1;
  TREE_ADDRESSABLE (target) = 1;
  tree ptr = build_pointer_type (char_type_node);
  tree ref = build_decl (UNKNOWN_LOCATION, VAR_DECL, get_identifier ("__zeroinst_lto_check"), ptr);
  TREE_STATIC (ref) = 1;
  TREE_READONLY (ref) = 1;
  TREE_USED (ref) = 1;
  DECL_ARTIFICIAL (ref) = 1;
  DECL_PRESERVE_P (ref) = 1;     /* kept although nothing reads it */
  DECL_INITIAL (ref) = build_fold_addr_expr (target);
  varpool_node::finalize_decl (ref);
  /* The unit was analysed already: record the reference to TARGET now, or
     the variable is streamed without it and the link does not see it.  */
  varpool_node::get (ref)->analyze ();
}

/* After the LTO GIMPLE was written: keep the pointer out of a fat object's
   machine code.  */
static void
lto_drop_reference (void *, void *)
{
  if (in_lto_p || !flag_generate_lto || !flag_fat_lto_objects)
    return;
  if (symtab_node *node = symtab_node::get_for_asmname (get_identifier ("__zeroinst_lto_check")))
    node->remove ();
}

/* In lto1 when it generates code (an ltrans unit, or -flto-partition=none;
   not the WPA stage, which writes no code): define LTO_LINK_SYMBOL.  */
static void
lto_define_link_symbol (void *, void *)
{
  if (!in_lto_p || flag_wpa || !asm_out_file)
    return;
  fprintf (asm_out_file, "\t.weak\t%s\n\t.pushsection\t.rodata.%s,\"a\"\n%s:\n\t.byte\t0\n"
           "\t.popsection\n", lto_link_symbol, lto_link_symbol, lto_link_symbol);
}

/* Parse one -fplugin-arg-zeroinst-KEY[=VALUE]; false (after an error) if bad.  */
static bool
parse_option (const struct plugin_argument *arg)
{
  const char *key = arg->key, *value = arg->value;
  const option_spec *o = NULL;
  for (const option_spec &x : options)
    if (strcmp (key, x.key) == 0)
      o = &x;
  if (!o)
    {
      error ("%s: unknown option %<-fplugin-arg-%s-%s%>; valid options: %s", zi_plugin_name,
             zi_plugin_name, key, valid_keys ());
      return false;
    }
  if (o->value == VALUE_NONE && value)
    {
      error ("%s: option %<%s%> takes no value (got %<%s%>); valid options: %s", zi_plugin_name,
             key, value, valid_keys ());
      return false;
    }
  if (o->value == VALUE_PATTERNS && (!value || !*value))
    {
      error ("%s: option %<%s%> needs a value, e.g. %<-fplugin-arg-%s-%s=solve*:init%>; "
             "valid options: %s", zi_plugin_name, key, zi_plugin_name, key, valid_keys ());
      return false;
    }
  if (o->flag)
    *o->flag = true;
  else
    *o->patterns = xstrdup (value);
  return true;
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  zi_plugin_name = info->base_name;
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("%s: this plugin was built for GCC %s (%s) and cannot run in GCC %s; "
             "use the zeroinst.so built for this compiler", zi_plugin_name,
             gcc_version.basever, gcc_version.datestamp, version->basever);
      return 1;
    }
  bool ok = true;
  for (int i = 0; i < info->argc; i++)
    ok &= parse_option (&info->argv[i]);
  if (!ok)
    return 1;
  /* Call paths are unwound through the program's frames (by the
     runtime's libunwind, where instrumented code is entered from
     uninstrumented code and at each allocation): every function needs
     unwind tables, which x86-64 and aarch64 emit by default and riscv64
     (GCC 12) does not.  They change no code.  An explicit
     -fno-asynchronous-unwind-tables is kept.  */
  if (!global_options_set.x_flag_asynchronous_unwind_tables)
    flag_asynchronous_unwind_tables = 1;

  static struct plugin_info plugin_info = { ZEROINST_VERSION, help_text () };
  register_callback (info->base_name, PLUGIN_INFO, NULL, &plugin_info);
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                     const_cast<ggc_root_tab *> (zi_gc_roots));
  /* Just before "optimized": the loads the optimized program performs.  */
  struct register_pass_info pass = { new zeroinst_gimple_pass<zi_instrument_function> (g, "zeroinst"),
                                     "optimized", 1,
                                     PASS_POS_INSERT_BEFORE };
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
  struct register_pass_info texts = { new zeroinst_gimple_pass<note_texts> (g, "zeroinst_texts"),
                                      "ssa", 1,
                                      PASS_POS_INSERT_AFTER };
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &texts);
  register_callback (info->base_name, PLUGIN_ALL_IPA_PASSES_START, lto_reference_link_symbol, NULL);
  register_callback (info->base_name, PLUGIN_ALL_IPA_PASSES_END, lto_drop_reference, NULL);
  register_callback (info->base_name, PLUGIN_FINISH_UNIT, lto_define_link_symbol, NULL);
  return 0;
}
