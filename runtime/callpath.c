/* callpath.c - the full call path of a record, innermost frame first:

     the load's frame and the frames GCC inlined it through (from the site
     descriptor, so they are exact even without debug information), then,
     for the activation's node and each ancestor, the frames of its caller
     at the node's return address (symbols.c).  A caller that is itself
     instrumented is named by its function descriptor (the source name, as
     for sites); uninstrumented frames by their symbol.

   Loads below a truncated activation (ZEROINST_MAX_DEPTH) get a frame
   "..." between their own frames and the truncated activation's caller.
   Paths are trimmed above main (the C runtime's start-up frames) and above
   a thread's start routine (start_thread, clone).  A node's part of the
   path is computed once and shared by all records under it.  */
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

static int
is_startup_frame (const char *name)
{
  static const char *const startup[] = {
    "start_thread", "clone", "clone3", "__clone", "__clone3", "__clone_internal",
    "_start", "__libc_start_main", "__libc_start_call_main", "__libc_start_main_impl", NULL
  };
  for (int i = 0; startup[i]; i++)
    if (!strcmp (name, startup[i]))
      return 1;
  return 0;
}

static void
append (struct zi_frames *dst, const struct zi_frame *f, size_t n)
{
  if (!n)
    return;
  dst->f = realloc (dst->f, (dst->n + n) * sizeof *dst->f);
  if (!dst->f)
    abort ();
  memcpy (dst->f + dst->n, f, n * sizeof *f);
  dst->n += n;
}

/* Frames contributed by NODE and its ancestors (memoized in the node).  */
static const struct zi_frames *
node_frames (const struct zi_node *cnode)
{
  struct zi_node *node = (struct zi_node *) cnode;
  if (node->frames)
    return node->frames;
  struct zi_frames *fr = calloc (1, sizeof *fr);
  if (!fr)
    abort ();
  int is_main_node = node->pub.fn && !(node->flags & ZI_NODE_FOREIGN)
                     && !strcmp (node->fn_name, "main");
  if (node->pub.ra && !is_main_node)
    {
      size_t n;
      /* The caller's frame(s): with lines when the caller is instrumented,
         named only when it is uninstrumented code.  */
      const struct zi_node *p = node->parent;
      int instrumented_caller = p && p->pub.fn && !(p->flags & ZI_NODE_FOREIGN);
      const struct zi_frame *f = zi_symbolize (node->pub.ra, instrumented_caller, &n);
      append (fr, f, n);
      /* The outermost of them is the caller itself: name it from its own
         descriptor when it is instrumented.  */
      if (instrumented_caller)
        {
          unsigned omp = 0;
          fr->f[fr->n - 1].function = zi_clean_name (p->fn_name, &omp);
          fr->f[fr->n - 1].omp_region = (p->fn_flags & ZI_FN_OMP_REGION) != 0;
          if (!*fr->f[fr->n - 1].file)
            fr->f[fr->n - 1].file = p->fn_file;
        }
    }
  /* Nothing above main is reported: do not symbolize the C runtime's
     start-up frames (that would load libc's debug information).  */
  if (node->parent && !is_main_node)
    {
      const struct zi_frames *up = node_frames (node->parent);
      append (fr, up->f, up->n);
    }
  node->frames = fr;
  return fr;
}

/* Keep main and below; drop thread start-up frames.  */
static void
trim (struct zi_frames *out)
{
  for (size_t i = 0; i < out->n; i++)
    if (!strcmp (out->f[i].function, "main") && !out->f[i].inlined)
      {
        out->n = i + 1;
        break;
      }
  /* Outermost frames that are thread start-up, or that have no name (the
     C library's local symbols without its debug information, as for
     start_thread on most machines), are not part of the program's path.  */
  while (out->n > 1 && (is_startup_frame (out->f[out->n - 1].function)
                        || !strcmp (out->f[out->n - 1].function, "??")))
    out->n--;
}

/* The path of an allocation node (contexts.c, zi_alloc_node): the
   allocator's caller first.  */
void
zi_node_path (const struct zi_node *node, struct zi_frames *out)
{
  memset (out, 0, sizeof *out);
  const struct zi_frames *up = node_frames (node);
  append (out, up->f, up->n);
  trim (out);
}

void
zi_record_path (const struct zi_site_info *site, const struct zi_node *node, struct zi_frames *out)
{
  memset (out, 0, sizeof *out);
  append (out, site->frames.f, site->frames.n);
  /* A load below a truncated activation: say that frames are missing.  */
  if (node && (node->flags & ZI_NODE_TRUNCATED) && node->pub.fn
      && strcmp (site->frames.f[site->frames.n - 1].function, node->fn_name) != 0)
    {
      static const struct zi_frame elided = { "...", "", 0, 0, 0 };
      append (out, &elided, 1);
    }
  if (node)
    {
      const struct zi_frames *up = node_frames (node);
      append (out, up->f, up->n);
    }
  trim (out);
}

static int
frame_cmp (const struct zi_frame *a, const struct zi_frame *b)
{
  /* Frames of one return address share their strings: compare pointers
     first (sorting many records by path is most of the report's time).  */
  int r = a->function == b->function ? 0 : strcmp (a->function, b->function);
  if (!r && a->file != b->file)
    r = strcmp (a->file, b->file);
  if (!r && a->line != b->line)
    r = a->line < b->line ? -1 : 1;
  if (!r)
    r = (int) a->inlined - (int) b->inlined;
  return r;
}

/* Order of paths (for sorting records before merging).  */
int
zi_frames_cmp (const struct zi_frames *a, const struct zi_frames *b)
{
  for (size_t i = 0; i < a->n && i < b->n; i++)
    {
      int r = frame_cmp (&a->f[i], &b->f[i]);
      if (r)
        return r;
    }
  return a->n == b->n ? 0 : a->n < b->n ? -1 : 1;
}

int
zi_frames_equal (const struct zi_frames *a, const struct zi_frames *b)
{
  return zi_frames_cmp (a, b) == 0;
}
