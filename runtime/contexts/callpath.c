/* callpath.c - the full call path of a record, innermost frame first:

     the load's frame and the frames GCC inlined it through (from the site
     descriptor, so they are exact even without debug information), then,
     for the activation's node and each ancestor, the frames of its caller
     at the node's return address (symbols/symbols.c).  A caller that is itself
     instrumented is named by its function descriptor (the source name, as
     for sites); uninstrumented frames by their symbol.

   Loads below a truncated activation (ZEROINST_MAX_DEPTH) get a frame
   "..." between their own frames and the truncated activation's caller.
   Paths are trimmed above main (the C runtime's start-up frames) and above
   a thread's start routine (start_thread, clone).  A node's part of the
   path is computed once and shared by all records under it (node_path),
   and a site's frames are looked up once (site_frames).

   A report keeps each path once, in its path table (struct zi_paths):
   every distinct frame once, every distinct path once as its innermost
   frame and the path of its caller, so that a record holds one index and
   equal paths have equal indices.  report.json writes the table as it is
   ("frames" and "contexts", report/report_json.c).  */
#include <stdlib.h>
#include <string.h>
#include "contexts/contexts.h"

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
  if (dst->n + n > dst->cap)
    {
      dst->cap = dst->n + n > 2 * dst->cap ? dst->n + n : 2 * dst->cap;
      dst->f = realloc (dst->f, dst->cap * sizeof *dst->f);
      if (!dst->f)
        abort ();
    }
  memcpy (dst->f + dst->n, f, n * sizeof *f);
  dst->n += n;
}

/* Frame of a table slot: frames are compared by content (frames of one
   return address share their strings, other equal frames may not).  */
static uint64_t
frame_hash (const struct zi_frame *fr)
{
  uint64_t h = 1469598103934665603ull;
  for (const char *s = fr->function; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ull;
  h = (h ^ 0xff) * 1099511628211ull;
  for (const char *s = fr->file; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ull;
  h ^= ((uint64_t) fr->line << 2 | fr->inlined << 1 | fr->omp_region) * 0x9e3779b97f4a7c15ull;
  return h ^ h >> 29;
}

static int
frame_same (const struct zi_frame *a, const struct zi_frame *b)
{
  return a->line == b->line && a->inlined == b->inlined && a->omp_region == b->omp_region
         && (a->function == b->function || !strcmp (a->function, b->function))
         && (a->file == b->file || !strcmp (a->file, b->file));
}

static uint64_t
ctx_hash (uint32_t frame, int32_t parent)
{
  uint64_t h = ((uint64_t) frame << 32 | (uint32_t) parent) * 0x9e3779b97f4a7c15ull;
  return h ^ h >> 31;
}

/* Grow the array *A of *CAP elements of SIZE bytes to hold N + 1, and its
   hash set *SET (mask *MASK) to stay at most half full.  Returns 1 when
   the set is new (empty: the caller re-inserts its elements), else 0.
   Out of memory aborts, as append does.  */
static int
reserve (void **a, size_t *cap, size_t size, size_t n, uint32_t **set, size_t *mask)
{
  if (n < *cap)
    return 0;
  size_t ncap = *cap ? *cap * 2 : 1024;
  *a = realloc (*a, ncap * size);
  free (*set);
  *set = calloc (ncap * 2, sizeof **set);
  if (!*a || !*set)
    abort ();
  *cap = ncap;
  *mask = ncap * 2 - 1;
  return 1;
}

static uint32_t
frame_index (struct zi_paths *t, const struct zi_frame *fr)
{
  uint64_t h = frame_hash (fr);
  for (size_t i = h & t->frame_mask; t->frame_set && t->frame_set[i]; i = (i + 1) & t->frame_mask)
    if (frame_same (&t->frames[t->frame_set[i] - 1], fr))
      return t->frame_set[i] - 1;
  int r = reserve ((void **) &t->frames, &t->frames_cap, sizeof *t->frames, t->nframes,
                   &t->frame_set, &t->frame_mask);
  t->frames[t->nframes++] = *fr;
  for (size_t k = r ? 0 : t->nframes - 1; k < t->nframes; k++)
    {
      size_t i = frame_hash (&t->frames[k]) & t->frame_mask;
      while (t->frame_set[i])
        i = (i + 1) & t->frame_mask;
      t->frame_set[i] = (uint32_t) k + 1;
    }
  return (uint32_t) t->nframes - 1;
}

static int32_t
ctx_index (struct zi_paths *t, uint32_t frame, int32_t parent)
{
  uint64_t h = ctx_hash (frame, parent);
  for (size_t i = h & t->ctx_mask; t->ctx_set && t->ctx_set[i]; i = (i + 1) & t->ctx_mask)
    {
      uint32_t k = t->ctx_set[i] - 1;
      if (t->ctx[k].frame == frame && t->ctx[k].parent == parent)
        return (int32_t) k;
    }
  int r = reserve ((void **) &t->ctx, &t->ctx_cap, sizeof *t->ctx, t->nctx, &t->ctx_set,
                   &t->ctx_mask);
  t->ctx[t->nctx].frame = frame;
  t->ctx[t->nctx].parent = parent;
  t->nctx++;
  for (size_t k = r ? 0 : t->nctx - 1; k < t->nctx; k++)
    {
      size_t i = ctx_hash (t->ctx[k].frame, t->ctx[k].parent) & t->ctx_mask;
      while (t->ctx_set[i])
        i = (i + 1) & t->ctx_mask;
      t->ctx_set[i] = (uint32_t) k + 1;
    }
  return (int32_t) t->nctx - 1;
}

/* F[0..N) (innermost first) added on top of the path UP.  */
static int32_t
add_frames (struct zi_paths *t, const struct zi_frame *f, size_t n, int32_t up)
{
  int32_t c = up;
  for (size_t i = n; i-- > 0;)
    c = ctx_index (t, frame_index (t, &f[i]), c);
  return c;
}

/* Paths end at main's own frame: not one inlined into another, and not
   the body of an OpenMP region in main (main._omp_fn.N, shown as "main"
   [parallel region]), whose path goes on through GOMP_parallel to main.  */
static int
is_main_frame (const struct zi_frame *f)
{
  return !f->inlined && !f->omp_region && !strcmp (f->function, "main");
}

/* Cut F[0..*N) after its first main frame; returns whether there was one.  */
static int
cut_at_main (const struct zi_frame *f, size_t *n)
{
  for (size_t i = 0; i < *n; i++)
    if (is_main_frame (&f[i]))
      {
        *n = i + 1;
        return 1;
      }
  return 0;
}

/* Drop the outermost frames of F[0..*N) that are thread start-up, or that
   have no name (the C library's local symbols without its debug
   information, as for start_thread on most machines): they are not part
   of the program's path.  At least KEEP frames stay.  */
static void
strip_startup (const struct zi_frame *f, size_t *n, size_t keep)
{
  while (*n > keep && (is_startup_frame (f[*n - 1].function) || !strcmp (f[*n - 1].function, "??")))
    --*n;
}

static int
is_main_node (const struct zi_node *node)
{
  if (!node->pub.fn || (node->flags & ZI_NODE_FOREIGN) || strcmp (node->fn_name, "main"))
    return 0;
  if (!(node->fn_flags & ZI_FN_OMP_REGION))
    return 1;
  /* The body of an OpenMP region in main: its path goes on to main where
     the runtime linked it there (GOMP_parallel, contexts.c); a region
     libgomp started by another entry point, whose workers' paths do not
     reach main, ends here, so that its threads' records stay one.  */
  for (const struct zi_node *p = node->parent; p; p = p->parent)
    if (p->pub.fn && !(p->flags & ZI_NODE_FOREIGN) && !(p->fn_flags & ZI_FN_OMP_REGION)
        && !strcmp (p->fn_name, "main"))
      return 0;
  return 1;
}

/* Append NODE's own frames to OUT: those of its caller at its return
   address, with lines when the caller is instrumented, named only when it
   is uninstrumented code; those of the tail call when it was entered by
   one (its parent is a tail node, contexts.c).  main's node has none: nothing above main is
   reported, so the C runtime's start-up frames are not symbolized (that
   would load libc's debug information).  */
static void
own_frames (const struct zi_node *node, struct zi_frames *out)
{
  if ((node->flags & ZI_NODE_TAIL) || !node->pub.ra || is_main_node (node))
    return;          /* a tail node's frames are its children's (below) */
  size_t n, first = out->n;
  const struct zi_node *p = node->parent;
  if (p && (p->flags & ZI_NODE_TAIL))
    {
      /* Entered by a tail call, with the return address of the caller's
         caller: the caller's frames are the tail call's (its site's).  */
      if (p->tail_site > 0)
        {
          const struct zi_site_info *si = zi_site_get (p->tail_site);
          append (out, si->frames.f, si->frames.n);
        }
      return;
    }
  int instrumented_caller = p && p->pub.fn && !(p->flags & ZI_NODE_FOREIGN);
  const struct zi_frame *f = zi_symbolize (node->pub.ra, instrumented_caller, &n);
  append (out, f, n);
  /* The outermost of them is the caller itself: name it from its own
     descriptor when it is instrumented.  */
  if (instrumented_caller && out->n > first)
    {
      struct zi_frame *caller = &out->f[out->n - 1];
      unsigned omp = 0;
      caller->function = zi_clean_name (p->fn_name, &omp);
      caller->omp_region = (p->fn_flags & ZI_FN_OMP_REGION) != 0;
      if (!*caller->file)
        caller->file = p->fn_file;
    }
}

/* The part of a path that NODE and its ancestors contribute: the own
   frames of NODE, of its parent, ... up to main's node, cut after main's
   frame, with start-up frames stripped from the outer end down to none
   (-1).  Memoized per node: records under one node share it, and a
   node's part is its own frames on top of its parent's, or, when the
   parent's part is empty or the own frames reach main, its own frames
   alone, stripped.  */
static int32_t
node_path (struct zi_paths *t, const struct zi_node *node)
{
  int32_t path = *zi_ptrmap_at (&t->node_paths, node);
  if (path != ZI_PTRMAP_NEW)
    return path;
  int32_t up = node->parent && !is_main_node (node) ? node_path (t, node->parent) : -1;
  struct zi_frames *own = &t->scratch;       /* after the recursion, which uses it too */
  own->n = 0;
  own_frames (node, own);
  if (cut_at_main (own->f, &own->n))
    up = -1;
  if (up < 0)
    strip_startup (own->f, &own->n, 0);
  path = add_frames (t, own->f, own->n, up);
  *zi_ptrmap_at (&t->node_paths, node) = path;
  return path;
}

/* The path of an allocation node (contexts.c, zi_alloc_node): the
   allocator's caller first.  */
int32_t
zi_node_path (struct zi_paths *t, const struct zi_node *node)
{
  int32_t path = node_path (t, node);
  if (path >= 0)
    return path;
  /* Nothing but start-up frames (if anything): the path keeps its
     innermost frame, as every path does.  Rare; built whole.  */
  struct zi_frames *all = &t->scratch;
  all->n = 0;
  for (const struct zi_node *n = node; n; n = n->parent)
    {
      own_frames (n, all);
      if (is_main_node (n))
        break;
    }
  cut_at_main (all->f, &all->n);
  strip_startup (all->f, &all->n, 1);
  return add_frames (t, all->f, all->n, -1);
}

#define SITE_REACHES_MAIN UINT32_MAX

/* The entry of SITE in T's site_frames: the number of its frames and
   their indices in T's frames, or SITE_REACHES_MAIN alone when they reach
   main.  Made at the site's first record: a large program's records are
   many per site (sqlite3 speedtest1: 295,225 of 7,178 sites), and each
   frame's lookup hashes its strings.  */
static uint32_t
site_frames (struct zi_paths *t, const struct zi_site_info *site)
{
  int32_t *at = zi_ptrmap_at (&t->site_index, site);
  if (*at != ZI_PTRMAP_NEW)
    return (uint32_t) *at;
  size_t n = site->frames.n;
  int reaches_main = cut_at_main (site->frames.f, &n);
  if (reaches_main)
    n = 0;
  if (t->nsite_frames + 1 + n > t->site_frames_cap)
    {
      size_t cap = 2 * t->site_frames_cap > t->nsite_frames + 1 + n
                     ? 2 * t->site_frames_cap : t->nsite_frames + 1 + n + 1024;
      t->site_frames = realloc (t->site_frames, cap * sizeof *t->site_frames);
      if (!t->site_frames)
        abort ();
      t->site_frames_cap = cap;
    }
  uint32_t e = (uint32_t) t->nsite_frames;
  t->site_frames[e] = reaches_main ? SITE_REACHES_MAIN : (uint32_t) n;
  for (size_t i = 0; i < n; i++)
    t->site_frames[e + 1 + i] = frame_index (t, &site->frames.f[i]);
  t->nsite_frames += 1 + n;
  *at = (int32_t) e;
  return e;
}

/* The path of a record of SITE under NODE (NULL: none): the site's frames,
   "..." below a truncated activation, then NODE's part (node_path).  The
   path is cut after the first main frame and start-up frames are
   stripped from its outer end, down to one frame.  */
int32_t
zi_record_path (struct zi_paths *t, const struct zi_site_info *site, const struct zi_node *node)
{
  /* Records come node by node (report/finish.c): the last node's part first.  */
  if (node && node != t->last_node)
    {
      t->last_path = node_path (t, node);
      t->last_node = node;
    }
  int32_t up = node ? t->last_path : -1;
  /* A load below a truncated activation: say that frames are missing.  */
  int elided = node && (node->flags & ZI_NODE_TRUNCATED) && node->pub.fn
               && strcmp (site->frames.f[site->frames.n - 1].function, node->fn_name) != 0;
  /* Most records: the site's frames, known by index, on top of UP.  */
  if (!elided && up >= 0)
    {
      uint32_t e = site_frames (t, site);
      if (t->site_frames[e] != SITE_REACHES_MAIN)
        {
          int32_t c = up;
          for (uint32_t i = t->site_frames[e]; i > 0; i--)
            c = ctx_index (t, t->site_frames[e + i], c);
          return c;
        }
    }
  struct zi_frames *out = &t->scratch;
  out->n = 0;
  append (out, site->frames.f, site->frames.n);
  if (elided)
    {
      static const struct zi_frame dots = { "...", "", 0, 0, 0 };
      append (out, &dots, 1);
    }
  if (cut_at_main (out->f, &out->n))
    up = -1;
  if (up < 0)
    strip_startup (out->f, &out->n, 1);
  return add_frames (t, out->f, out->n, up);
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
  if (!r)
    r = (int) a->omp_region - (int) b->omp_region;
  return r;
}

/* Order of paths A and B of T (for sorting records): frame by frame from
   the innermost, a path before its extensions.  0 only for the same
   path, as equal paths have one index.  */
int
zi_paths_cmp (const struct zi_paths *t, int32_t a, int32_t b)
{
  while (a != b)
    {
      if (a < 0 || b < 0)
        return a < 0 ? -1 : 1;
      int r = frame_cmp (&t->frames[t->ctx[a].frame], &t->frames[t->ctx[b].frame]);
      if (r)
        return r;
      a = t->ctx[a].parent;
      b = t->ctx[b].parent;
    }
  return 0;
}

/* Keys that order T's paths as zi_paths_cmp does, a few frames at a time:
   the ranks (+ 1) of a path's innermost frames, innermost highest, in as
   many bits as the frames need but at least 16 (four frames per key, or
   three when the frames need 17 to 21 bits, two up to 32), 0 where the
   path is shorter; two such keys, then the path past their frames.  NULL
   when out of memory.  Sorting sqlite3 speedtest1's 295,225 records
   compares many paths of one site, frame by frame through the strings
   otherwise.  */
static int
by_frame (const void *a, const void *b, void *frames)
{
  const struct zi_frame *f = frames;
  return frame_cmp (&f[*(const uint32_t *) a], &f[*(const uint32_t *) b]);
}

struct zi_path_key *
zi_paths_keys (const struct zi_paths *t)
{
  unsigned bits = 16;
  while (bits < 32 && ((uint64_t) t->nframes + 1) >> bits)
    bits++;
  unsigned per_key = 64 / bits;
  uint32_t *order = malloc ((t->nframes + 1) * sizeof *order);
  int32_t *up_key = malloc ((t->nctx + 1) * sizeof *up_key);
  struct zi_path_key *keys
    = malloc (((t->nctx > t->nframes ? t->nctx : t->nframes) + 1) * sizeof *keys);
  if (!order || !up_key || !keys)
    {
      free (order);
      free (up_key);
      free (keys);
      return NULL;
    }
  for (size_t i = 0; i < t->nframes; i++)
    order[i] = (uint32_t) i;
  qsort_r (order, t->nframes, sizeof *order, by_frame, t->frames);
  /* Frames are distinct by frame_cmp (interned by content): ranks too.  */
  uint32_t *rank = order;
  for (size_t i = 0; i < t->nframes; i++)
    keys[order[i]].past = (int32_t) i + 1;   /* keys as scratch: frame -> rank + 1 */
  for (size_t i = 0; i < t->nframes; i++)
    rank[i] = (uint32_t) keys[i].past;
  /* A path's parent is an earlier path, whose keys are there already:
     its first key is its frame's rank on top of its parent's first key.
     UP_KEY holds the path per_key frames up, which has its second key;
     the one 2 * per_key frames up is the one past both.  */
  for (size_t c = 0; c < t->nctx; c++)
    {
      int32_t up = t->ctx[c].parent;
      keys[c].key[0] = (uint64_t) rank[t->ctx[c].frame] << ((per_key - 1) * bits)
                       | (up >= 0 ? keys[up].key[0] >> bits : 0);
      for (unsigned k = 1; k < per_key && up >= 0; k++)
        up = t->ctx[up].parent;
      up_key[c] = up;
      keys[c].key[1] = up >= 0 ? keys[up].key[0] : 0;
      keys[c].past = up >= 0 ? up_key[up] : -1;
    }
  free (order);
  free (up_key);
  return keys;
}

/* zi_paths_cmp through KEYS (zi_paths_keys).  */
int
zi_paths_cmp_keyed (const struct zi_path_key *keys, int32_t a, int32_t b)
{
  while (a != b)
    {
      if (a < 0 || b < 0)
        return a < 0 ? -1 : 1;
      for (int k = 0; k < 2; k++)
        if (keys[a].key[k] != keys[b].key[k])
          return keys[a].key[k] < keys[b].key[k] ? -1 : 1;
      /* The same frames (or fewer, as many in both): go past them.  */
      a = keys[a].past;
      b = keys[b].past;
    }
  return 0;
}

void
zi_paths_free (struct zi_paths *t)
{
  free (t->frames);
  free (t->frame_set);
  free (t->ctx);
  free (t->ctx_set);
  free (t->scratch.f);
  free (t->site_frames);
  zi_ptrmap_free (&t->node_paths);
  zi_ptrmap_free (&t->site_index);
  memset (t, 0, sizeof *t);
}
