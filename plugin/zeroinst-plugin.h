/* zeroinst-plugin.h - declarations shared by the plugin's files.  */
#ifndef ZEROINST_PLUGIN_H
#define ZEROINST_PLUGIN_H

#include "gcc-includes.h"
#include "zeroinst-abi.h"

/* Options, set once by plugin_init from -fplugin-arg-zeroinst-*.  */
struct zi_options {
#define ZI_OPTION_FIELD_NONE bool
#define ZI_OPTION_FIELD_PATTERNS const char *
#define ZI_PLUGIN_OPTION(KEY, FIELD, VALUE, HELP) ZI_OPTION_FIELD_##VALUE FIELD;
#include "options.def"
#undef ZI_PLUGIN_OPTION
#undef ZI_OPTION_FIELD_NONE
#undef ZI_OPTION_FIELD_PATTERNS
};
extern struct zi_options zi_opts;
/* The plugin's base name (zeroinst, for zeroinst.so): the prefix of its
   messages and of its options, -fplugin-arg-NAME-KEY.  */
extern const char *zi_plugin_name;

/* Trees built once per compilation (registered as GC roots).  */
struct zi_trees {
  tree u64;                  /* private 64-bit unsigned type: its own alias set */
  tree u64_ptr;              /* pointer to it, for MEM_REF offsets */
  tree site_type;            /* RECORD_TYPE matching struct zi_site */
  tree inline_frame_type;    /* ... struct zi_inline_frame */
  tree fn_type;              /* ... struct zi_fn */
  tree tail_type;            /* ... struct zi_tail */
  tree ctx_var;              /* extern __thread const struct zi_ctx *__zeroinst_ctx */
  tree flat_var;             /* extern __thread const struct zi_ctx *__zeroinst_flat */
  tree data_on_var;          /* extern int __zeroinst_data_on */
  tree enter_fn;             /* __zeroinst_enter_node (fn *, uintptr) */
  tree tail_fn;              /* __zeroinst_tail_node (ctx *, uintptr) */
  tree u32;                  /* private 32-bit unsigned type: shadow words */
  tree u32_ptr;
  tree u16;                  /* private 16-bit unsigned type: halves of shadow words */
  tree u16_ptr;
  tree u8;                   /* private 8-bit unsigned type: bytes of shadow halves */
  tree u8_ptr;
  tree unseen_var;           /* extern const u64 __zeroinst_unseen[256] */
  tree gen_var;              /* extern u64 __zeroinst_gen */
  tree shadow_top_var;       /* extern u64 *__zeroinst_shadow_top[2]: chunks by region */
  tree object_fn;            /* __zeroinst_lookup (dslot *, u64, u64) */
  tree mark_fn;              /* __zeroinst_mark (u64, u64, u64, u64) */
  tree record_fn;            /* __zeroinst_count (site *, ctx *, slot *, u64, u64, u64) */
  tree lanes_fn;             /* __zeroinst_count_lanes (site *, ctx *, slot *, u64, void *,
                                void *, u64, void *, u64): a scalable vector's lanes */
  tree alloc_name_var;       /* extern __thread const char *volatile __zeroinst_alloc_name */
  tree clz_fn;               /* __builtin_clzll, where the target has an instruction for it */
};
extern struct zi_trees zi_t;
bool zi_build_trees (void);
/* An external variable NAME of TYPE, which the runtime defines.  */
tree zi_runtime_var (const char *name, tree type);
tree zi_alloc_name_var (void);

/* site.cc */
/* LANES_K, LANES_N: for vector K of the N of a .LOAD_LANES, which holds
   every Nth element from the Kth; else -1, 0.  */
tree zi_make_site (gimple *stmt, tree ref, enum zi_type type, unsigned lanes,
                   unsigned access_bytes, int lanes_k = -1, unsigned lanes_n = 0);
tree zi_make_tail (gcall *call);
const char *zi_ref_text (tree ref);
char *zi_index_text (tree x, int *prec);
void zi_text_begin (void);

/* fortran.cc */
bool zi_print_fortran (pretty_printer *pp, tree ref, int depth);
bool zi_print_fortran_place (pretty_printer *pp, tree ref);
char *zi_fortran_array_name (tree ref, int *rank);
const char *zi_source_function_name (tree fndecl, unsigned *flags);
/* site.cc: this unit refers to the runtime's ZI_ABI_SYMBOL (once).  */
void zi_refer_to_abi_symbol (void);
tree zi_make_fn_desc (const vec<tree> &sites, unsigned nunits, const vec<tree> &tails);

/* allocations.cc */
unsigned int zi_name_allocations (function *fun);

/* contexts.cc */
void zi_insert_after_stmt (gimple *stmt, gimple *g);
void zi_find_tail_calls (function *fun, vec<gcall *> *calls);
tree zi_enter_context (function *fun, bool has_loads, tree fn_desc,
                       const vec<gcall *> &tail_calls, tree *slots, tree *data_on);

/* instrument.cc */
unsigned int zi_instrument_function (function *fun);
void zi_note_early_texts (function *fun);
/* What the trampoline of a runtime call keeps of the vector, x87 and
   mask registers (x86-64; runtime/core/stack.c); the rest is declared
   clobbered.  */
enum zi_keep { ZI_KEEP_GPRS, ZI_KEEP_SSE, ZI_KEEP_ALL };
gimple *zi_runtime_call (tree fn, const char *keep, enum zi_keep keeps, unsigned nargs,
                         const tree *args);
bool zi_sse_only_p (void);
tree zi_guarded_call (gimple_stmt_iterator *gsi, enum tree_code code, tree lhs, tree rhs,
                      gimple *call, tree fast, gimple_stmt_iterator *join);

#endif
