/* paths_diff.c - the order of call paths (runtime/contexts/callpath.c:
   zi_paths_cmp, and zi_paths_cmp_keyed through zi_paths_keys, which a
   report's records are sorted by) against a reference that compares the
   paths written out as lists of frames.

   Random path tables as a report makes them: distinct frames from few
   names, files and lines (so that many frames share strings and paths
   share long runs of frames), and distinct paths as (innermost frame,
   caller's path) with the caller an earlier path, some as deep as 40
   frames.  Every pair of paths in a sample is compared all three ways;
   the signs must agree, and the keyed order must be the same total order
   (0 only for a path with itself).  Exit status 0 when everything
   agrees.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "contexts/contexts.h"
#include "random.h"

/* What callpath.c needs of the rest of the runtime: no node is made here.  */
const struct zi_frame *
zi_symbolize (uintptr_t ra, int full, size_t *n)
{
  (void) ra;
  (void) full;
  *n = 0;
  return NULL;
}
const char *
zi_clean_name (const char *name, unsigned *omp_region)
{
  *omp_region = 0;
  return name;
}
const struct zi_site_info *
zi_site_get (int32_t slot)
{
  (void) slot;
  abort ();       /* no tail node is made here either */
}

static const char *const functions[] = { "f", "g", "main", "ff", "f2", "solve", "" };
static const char *const files[] = { "a.c", "b.c", "a.c.h", "", "/src/a.c" };
#define NFUNCTIONS (sizeof functions / sizeof *functions)
#define NFILES (sizeof files / sizeof *files)

/* The reference: frames by function, file (strcmp), line, inlined, then
   parallel_region; paths frame by frame from the innermost, a path before
   its extensions.  */
static int
ref_frame (const struct zi_frame *a, const struct zi_frame *b)
{
  int r = strcmp (a->function, b->function);
  if (!r)
    r = strcmp (a->file, b->file);
  if (!r)
    r = (a->line > b->line) - (a->line < b->line);
  if (!r)
    r = (int) a->inlined - (int) b->inlined;
  if (!r)
    r = (int) a->omp_region - (int) b->omp_region;
  return r;
}

static size_t
ref_list (const struct zi_paths *t, int32_t c, const struct zi_frame **out)
{
  size_t n = 0;
  for (; c >= 0; c = t->ctx[c].parent)
    out[n++] = &t->frames[t->ctx[c].frame];
  return n;
}

static int
ref_cmp (const struct zi_paths *t, int32_t a, int32_t b)
{
  static const struct zi_frame *x[4096], *y[4096];
  size_t n = ref_list (t, a, x), m = ref_list (t, b, y);
  for (size_t i = 0; i < n && i < m; i++)
    {
      int r = ref_frame (x[i], y[i]);
      if (r)
        return r;
    }
  return (n > m) - (n < m);
}

static int
sign (int v)
{
  return (v > 0) - (v < 0);
}

#define MANY_FRAMES 1000

/* One table of NFRAMES frames (at most) and NCTX paths; DEEP: callers
   mostly among the last paths, so that paths grow long.  */
static long
run (size_t nframes, size_t nctx, int deep)
{
  struct zi_paths t;
  memset (&t, 0, sizeof t);
  t.frames = calloc (nframes, sizeof *t.frames);
  t.ctx = calloc (nctx, sizeof *t.ctx);
  int32_t *depth = calloc (nctx, sizeof *depth);
  if (!t.frames || !t.ctx || !depth)
    abort ();
  /* Distinct frames, as the report's table interns them.  Past
     MANY_FRAMES, made distinct by their lines: enough for keys of three
     and of two frames (17 to 21, and 22 or more bits a rank).  */
  while (nframes > MANY_FRAMES && t.nframes < nframes)
    {
      t.frames[t.nframes] = (struct zi_frame) { functions[rnd () % NFUNCTIONS],
                                                files[rnd () % NFILES], (unsigned) (4 + t.nframes),
                                                (unsigned) (rnd () % 2), (unsigned) (rnd () % 8 == 0) };
      t.nframes++;
    }
  while (t.nframes < nframes)
    {
      struct zi_frame fr = { functions[rnd () % NFUNCTIONS], files[rnd () % NFILES],
                             (unsigned) (rnd () % 4), (unsigned) (rnd () % 2),
                             (unsigned) (rnd () % 8 == 0) };
      size_t k = 0;
      while (k < t.nframes && ref_frame (&t.frames[k], &fr) != 0)
        k++;
      if (k == t.nframes)
        t.frames[t.nframes++] = fr;
      else if (rnd () % 64 == 0)
        break;                       /* few distinct frames are possible */
    }
  /* Distinct paths: equal paths have one index.  */
  for (size_t tries = 0; t.nctx < nctx && tries < 100 * nctx; tries++)
    {
      /* With many frames, most paths share a few of them (so that keys
         tie and comparisons go deep), the rest are spread.  */
      uint32_t frame = (uint32_t) (t.nframes > MANY_FRAMES && rnd () % 4 ? rnd () % 16
                                                                          : rnd () % t.nframes);
      int32_t parent = -1;
      if (t.nctx && rnd () % 8)
        {
          size_t span = deep && t.nctx > 16 ? 16 : t.nctx;
          parent = (int32_t) (t.nctx - 1 - rnd () % span);
        }
      if (parent >= 0 && depth[parent] >= 40)
        parent = -1;
      size_t k = 0;
      while (k < t.nctx && !(t.ctx[k].frame == frame && t.ctx[k].parent == parent))
        k++;
      if (k < t.nctx)
        continue;
      t.ctx[t.nctx].frame = frame;
      t.ctx[t.nctx].parent = parent;
      depth[t.nctx] = parent >= 0 ? depth[parent] + 1 : 1;
      t.nctx++;
    }
  struct zi_path_key *keys = zi_paths_keys (&t);
  long bad = 0;
  if (!keys)
    {
      printf ("FAIL: no keys for %zu frames\n", t.nframes);
      return 1;
    }
  for (int32_t a = -1; a < (int32_t) t.nctx; a++)
    for (int32_t b = -1; b < (int32_t) t.nctx; b++)
      {
        int want = sign (ref_cmp (&t, a, b));
        int plain = sign (zi_paths_cmp (&t, a, b));
        int keyed = sign (zi_paths_cmp_keyed (keys, a, b));
        if ((plain != want || keyed != want || (want == 0) != (a == b)) && bad++ < 5)
          printf ("FAIL: paths %d and %d: reference %d, zi_paths_cmp %d, keyed %d\n", a, b, want,
                  plain, keyed);
      }
  free (keys);
  free (t.frames);
  free (t.ctx);
  free (depth);
  return bad;
}

int
main (void)
{
  rs = 0x9a7b5c3d1e2f4061ull;
  long bad = 0;
  size_t pairs = 0;
  static const struct { size_t frames, ctx; int deep, reps; } cases[] = {
    { 3, 40, 0, 4 }, { 8, 300, 1, 4 }, { 30, 600, 1, 4 }, { 120, 600, 0, 4 }, { 2, 200, 1, 4 },
    { 70000, 400, 1, 2 }, { 2100000, 300, 1, 1 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    for (int rep = 0; rep < cases[i].reps; rep++)
      {
        bad += run (cases[i].frames, cases[i].ctx, cases[i].deep);
        pairs += (cases[i].ctx + 1) * (cases[i].ctx + 1);
      }
  if (bad)
    {
      printf ("FAIL: %ld of about %zu comparisons disagree\n", bad, pairs);
      return 1;
    }
  printf ("ok: about %zu comparisons of paths agree with the reference\n", pairs);
  return 0;
}
