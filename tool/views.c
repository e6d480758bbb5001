/* views.c - the aggregated views and call trees of `zeroinst show`.

     --by function   per function: the sites in it (self) and, along call
                     paths, everything it or its callees loaded (inclusive:
                     each record once per function of its path, so
                     recursion does not count it twice);
     --by file       per source file of the sites;
     --by line       per file:line of the sites;
     --tree top-down     the calling-context tree from the outermost frames
                         (main, thread start) down to the sites, each node
                         with what was loaded under it;
     --tree bottom-up    from each site up through its callers.

   Entries are ranked by --sort (self counts for --by; a node's counts in
   trees), print at most --top per section or per node's children, and
   those below --min-share are left out (trees default to 1%, since a
   large program has hundreds of thousands of contexts).  Tree nodes are
   functions (a caller's call lines are merged) and sites; "[inlined]" and
   "[parallel region]" mark frames the compiler inlined and OpenMP
   outlined bodies.  */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

#define TREE_MIN_SHARE 1.0
#define TREE_MAX_DEPTH 1000 /* printed levels (the runtime's paths: 256 frames) */

/* The counts of a view entry.  */
enum
{
  C_RED,
  C_BYTES,
  C_ZERO,
  C_ELEMENTS,
  C_LOADS,
  NCOUNTS
};
static const char *const count_keys[NCOUNTS] = { "redundant_bytes", "bytes", "zero_elements",
                                                 "elements", "loads" };

/* An entry of a --by view, or a node of a tree.  */
struct node
{
  char *label;
  uint64_t self[NCOUNTS]; /* --by: the sites' own; tree: everything under */
  uint64_t incl[NCOUNTS]; /* --by function: along call paths */
  size_t parent;          /* tree: index of the parent, or SIZE_MAX */
  size_t *children;       /* tree, filled before printing */
  size_t nchildren;
  uint64_t seen;          /* record number + 1 that last added incl */
};

/* The nodes by key; V and N mirror TABLE's items.  */
struct nodes
{
  struct tool_table table;
  struct node *v;
  size_t n;
  int sort; /* the count ranked by */
  uint64_t kind_red;
};

/* The node with KEY (made, labelled LABEL, under PARENT if new); SIZE_MAX
   when out of memory.  */
static size_t
node_get (struct nodes *set, const char *key, const char *label, size_t parent)
{
  int added;
  size_t at = tool_table_get (&set->table, key, &added);
  if (at == SIZE_MAX)
    return SIZE_MAX;
  set->v = set->table.items;
  set->n = set->table.n;
  if (added)
    {
      set->v[at].parent = parent;
      if (!(set->v[at].label = strdup (label)))
        return SIZE_MAX;
    }
  return at;
}

static void
add_counts (uint64_t *to, const json_t *rec)
{
  for (int c = 0; c < NCOUNTS; c++)
    to[c] += json_count (rec, count_keys[c]);
}

/* "expr (file:line:col)", or "file:line:col" for an unknown expression,
   of SITE into BUF.  */
static const char *
site_label (const json_t *site, char *buf, size_t size)
{
  const char *expr = json_str (site, "expr");
  char where[64];
  uint64_t column = json_count (site, "column");
  if (column)
    snprintf (where, sizeof where, ":%" PRIu64 ":%" PRIu64, json_count (site, "line"), column);
  else
    snprintf (where, sizeof where, ":%" PRIu64, json_count (site, "line"));
  if (*expr)
    snprintf (buf, size, "%s (%s%s)", expr, json_str (site, "file"), where);
  else
    snprintf (buf, size, "%s%s", json_str (site, "file"), where);
  return buf;
}

/* A frame's label: its function and what kind of frame it is.  */
static const char *
frame_label (const json_t *frame, char *buf, size_t size)
{
  snprintf (buf, size, "%s%s%s", json_str (frame, "function"),
            json_is_true (json_object_get (frame, "inlined")) ? " [inlined]" : "",
            json_is_true (json_object_get (frame, "parallel_region")) ? " [parallel region]"
                                                                          : "");
  return buf;
}

/* Order of node indices for qsort_r (context: the nodes): larger self
   count first, then larger inclusive count, then label.  Labels are
   unique among the nodes sorted together (--by keys, a node's children,
   the roots), so the order is total and the output deterministic.  */
static int
compare_index (const void *pa, const void *pb, void *ctx)
{
  const struct nodes *set = ctx;
  const struct node *x = &set->v[*(const size_t *) pa], *y = &set->v[*(const size_t *) pb];
  if (x->self[set->sort] != y->self[set->sort])
    return x->self[set->sort] > y->self[set->sort] ? -1 : 1;
  if (x->incl[set->sort] != y->incl[set->sort])
    return x->incl[set->sort] > y->incl[set->sort] ? -1 : 1;
  return strcmp (x->label, y->label);
}

/* Sort the N indices IDX of SET's nodes by compare_index.  */
static void
sort_indices (const struct nodes *set, size_t *idx, size_t n)
{
  qsort_r (idx, n, sizeof *idx, compare_index, (void *) set);
}

static double
share_of (const struct nodes *set, const uint64_t *v)
{
  return percent (v[C_RED], set->kind_red);
}

static void
nodes_free (struct nodes *set)
{
  for (size_t i = 0; i < set->n; i++)
    {
      free (set->v[i].label);
      free (set->v[i].children);
    }
  tool_table_free (&set->table);
}

/* The index of the count KEY ranks by.  */
static int
sort_count (const char *key)
{
  for (int c = 0; c < NCOUNTS; c++)
    if (strcmp (count_keys[c], key) == 0)
      return c;
  return C_RED;
}

/* --by: fill SET with one entry per function, file or line of the code
   records of KIND.  */
static int
build_by (struct nodes *set, const json_t *root, const char *kind, int by)
{
  size_t i;
  const json_t *rec;
  char key[4096];
  json_array_foreach (json_object_get (root, "code"), i, rec)
    {
      if (strcmp (json_str (rec, "kind"), kind))
        continue;
      const json_t *site = json_object_get (rec, "site");
      if (by == 1)
        snprintf (key, sizeof key, "%s", json_str (site, "function"));
      else if (by == 2)
        snprintf (key, sizeof key, "%s", tool_file_name (json_str (site, "file")));
      else
        snprintf (key, sizeof key, "%s:%" PRIu64, tool_file_name (json_str (site, "file")),
                  json_count (site, "line"));
      tool_utf8_cut (key);
      size_t at = node_get (set, key, key, SIZE_MAX);
      if (at == SIZE_MAX)
        return -1;
      add_counts (set->v[at].self, rec);
      if (by != 1)
        continue;
      /* Inclusive: the site's function and every function of its path,
         each once for this record.  */
      const json_t *path = json_object_get (rec, "call_path");
      for (size_t f = 0; f <= json_array_size (path); f++)
        {
          const char *name = f ? json_str (json_array_get (path, f - 1), "function")
                               : json_str (site, "function");
          size_t fn = node_get (set, name, name, SIZE_MAX);
          if (fn == SIZE_MAX)
            return -1;
          if (set->v[fn].seen != i + 1)
            {
              set->v[fn].seen = i + 1;
              add_counts (set->v[fn].incl, rec);
            }
        }
    }
  return 0;
}

static void
print_by (const struct nodes *set, int by, const struct show_options *opts)
{
  static const char *const what[][2] = { { "", "" }, { "function", "functions" },
                                         { "file", "files" }, { "line", "lines" } };
  size_t *idx = malloc ((set->n + 1) * sizeof *idx), n = 0;
  if (!idx)
    {
      tool_error ("out of memory");
      return;
    }
  for (size_t i = 0; i < set->n; i++)
    {
      double share = share_of (set, set->v[i].self), incl = share_of (set, set->v[i].incl);
      if (opts->min_share < 0 || (share > incl ? share : incl) >= opts->min_share)
        idx[n++] = i;
    }
  sort_indices (set, idx, n);
  size_t shown = opts->top && opts->top < n ? opts->top : n;
  printf ("%zu %s (self: the sites in it%s)\n", set->n, what[by][set->n != 1],
          by == 1 ? "; incl: also what its callees loaded" : "");
  for (size_t r = 0; r < shown; r++)
    {
      const struct node *e = &set->v[idx[r]];
      printf ("#%-3zu share %6.2f%%  ", r + 1, share_of (set, e->self));
      if (by == 1)
        printf ("incl %6.2f%%  ", share_of (set, e->incl));
      printf ("local %6.2f%%  zero %6.2f%%  loads %" PRIu64 "  %s\n",
              percent (e->self[C_RED], e->self[C_BYTES]),
              percent (e->self[C_ZERO], e->self[C_ELEMENTS]), e->self[C_LOADS], e->label);
    }
  if (shown < n)
    printf ("... %zu more (--top 0 prints all)\n", n - shown);
  free (idx);
}

/* Trees: add code record REC (number I) along its path, from the
   outermost frame (TOP_DOWN) or from its site.  */
static int
tree_add (struct nodes *set, const json_t *rec, int top_down)
{
  const json_t *path = json_object_get (rec, "call_path"), *site = json_object_get (rec, "site");
  size_t depth = json_array_size (path), parent = SIZE_MAX;
  char label[4096], key[4200];
  /* The steps: top-down the frames outermost first, then the site;
     bottom-up the site (with its function), then the callers.  */
  size_t steps = top_down ? depth + 1 : (depth ? depth : 1);
  for (size_t s = 0; s < steps; s++)
    {
      if (top_down && s < depth)
        frame_label (json_array_get (path, depth - 1 - s), label, sizeof label);
      else if (top_down || s == 0)
        {
          char where[4000];
          site_label (site, where, sizeof where);
          if (top_down)
            snprintf (label, sizeof label, "%s", where);
          else
            snprintf (label, sizeof label, "%s in %s", where, json_str (site, "function"));
        }
      else
        frame_label (json_array_get (path, s), label, sizeof label);
      tool_utf8_cut (label);
      snprintf (key, sizeof key, "%zu\x1f%s", parent, label);
      tool_utf8_cut (key);
      size_t at = node_get (set, key, label, parent);
      if (at == SIZE_MAX)
        return -1;
      add_counts (set->v[at].self, rec);
      parent = at;
    }
  return 0;
}

/* Print node AT and, ranked, its children at DEPTH + 1.  */
static void
print_node (const struct nodes *set, size_t at, int depth, double min_share, size_t top)
{
  const struct node *nd = &set->v[at];
  printf ("%6.2f%%  %14" PRIu64 "  %*s%s\n", share_of (set, nd->self), nd->self[C_RED], 2 * depth,
          "", nd->label);
  if (depth >= TREE_MAX_DEPTH && nd->nchildren)
    {
      printf ("%6s   %14s  %*s... deeper levels not shown\n", "", "", 2 * (depth + 1), "");
      return;
    }
  sort_indices (set, nd->children, nd->nchildren);
  size_t shown = 0;
  uint64_t hidden = 0;
  for (size_t c = 0; c < nd->nchildren; c++)
    if (shown < (top ? top : SIZE_MAX) && share_of (set, set->v[nd->children[c]].self) >= min_share)
      {
        print_node (set, nd->children[c], depth + 1, min_share, top);
        shown++;
      }
    else
      hidden += set->v[nd->children[c]].self[C_RED];
  if (shown < nd->nchildren)
    printf ("%6.2f%%  %14" PRIu64 "  %*s... %zu more\n", percent (hidden, set->kind_red), hidden,
            2 * (depth + 1), "", nd->nchildren - shown);
}

/* Link each node of SET to its parent's list of children.  The roots go
   to ROOTS (malloc'd, *NROOTS of them).  */
static int
link_children (struct nodes *set, size_t **roots, size_t *nroots)
{
  size_t *count = calloc (set->n + 1, sizeof *count);
  *roots = malloc ((set->n + 1) * sizeof **roots);
  *nroots = 0;
  if (!count || !*roots)
    {
      free (count);
      return -1;
    }
  for (size_t i = 0; i < set->n; i++)
    if (set->v[i].parent != SIZE_MAX)
      count[set->v[i].parent]++;
  for (size_t i = 0; i < set->n; i++)
    if (count[i] && !(set->v[i].children = malloc (count[i] * sizeof (size_t))))
      {
        free (count);
        return -1;
      }
  for (size_t i = 0; i < set->n; i++)
    {
      size_t p = set->v[i].parent;
      if (p == SIZE_MAX)
        (*roots)[(*nroots)++] = i;
      else
        set->v[p].children[set->v[p].nchildren++] = i;
    }
  free (count);
  return 0;
}

void
views_print (const json_t *root, const char *kind, const json_t *totals,
             const struct show_options *opts)
{
  struct nodes set = { .sort = sort_count (opts->sort_code),
                       .kind_red = json_count (totals, "redundant_bytes") };
  int status = tool_table_init (&set.table, sizeof (struct node));
  if (!status && opts->by)
    {
      status = build_by (&set, root, kind, opts->by);
      if (!status)
        print_by (&set, opts->by, opts);
    }
  else if (!status)
    {
      size_t i, *roots = NULL, nroots = 0;
      const json_t *rec;
      json_array_foreach (json_object_get (root, "code"), i, rec)
        if (!status && strcmp (json_str (rec, "kind"), kind) == 0)
          status = tree_add (&set, rec, opts->tree == 1);
      if (!status)
        status = link_children (&set, &roots, &nroots);
      if (!status)
        {
          double min_share = opts->min_share < 0 ? TREE_MIN_SHARE : opts->min_share;
          printf ("%s call tree: share, redundant bytes; nodes under %.2f%% not shown\n",
                  opts->tree == 1 ? "top-down" : "bottom-up", min_share);
          /* The roots as the children of a node of their own.  */
          sort_indices (&set, roots, nroots);
          size_t shown = 0, top = opts->top;
          uint64_t hidden = 0;
          for (size_t r = 0; r < nroots; r++)
            if (shown < (top ? top : SIZE_MAX) && share_of (&set, set.v[roots[r]].self) >= min_share)
              {
                print_node (&set, roots[r], 0, min_share, top);
                shown++;
              }
            else
              hidden += set.v[roots[r]].self[C_RED];
          if (shown < nroots)
            printf ("%6.2f%%  %14" PRIu64 "  ... %zu more\n", percent (hidden, set.kind_red),
                    hidden, nroots - shown);
        }
      free (roots);
    }
  if (status)
    tool_error ("out of memory");
  nodes_free (&set);
}

/* views_tree_json: append node AT and its children (ranked) to OUT, as
   long as they have MIN_SHARE and OUT has room.  */
static int
tree_json_node (const struct nodes *set, size_t at, json_int_t parent, double min_share,
                size_t max_nodes, json_t *out)
{
  const struct node *nd = &set->v[at];
  if (json_array_size (out) >= max_nodes || share_of (set, nd->self) < min_share)
    return 0;
  json_int_t me = (json_int_t) json_array_size (out);
  if (json_array_append_new (out, json_pack ("[s,I,I,I]", nd->label, parent,
                                             (json_int_t) nd->self[C_RED],
                                             (json_int_t) nd->self[C_BYTES])))
    return -1;
  sort_indices (set, nd->children, nd->nchildren);
  for (size_t c = 0; c < nd->nchildren; c++)
    if (tree_json_node (set, nd->children[c], me, min_share, max_nodes, out))
      return -1;
  return 0;
}

json_t *
views_tree_json (const json_t *root, const char *kind, uint64_t total_red, double min_share,
                 size_t max_nodes)
{
  struct nodes set = { .sort = C_RED, .kind_red = total_red };
  json_t *out = json_array ();
  size_t i, *roots = NULL, nroots = 0;
  const json_t *rec;
  int status = !out || tool_table_init (&set.table, sizeof (struct node));
  json_array_foreach (json_object_get (root, "code"), i, rec)
    if (!status && strcmp (json_str (rec, "kind"), kind) == 0)
      status = tree_add (&set, rec, 1);
  if (!status)
    status = link_children (&set, &roots, &nroots);
  if (!status)
    {
      sort_indices (&set, roots, nroots);
      for (size_t r = 0; r < nroots && !status; r++)
        status = tree_json_node (&set, roots[r], -1, min_share, max_nodes, out);
    }
  free (roots);
  if (set.table.index)
    nodes_free (&set);
  if (status)
    {
      json_decref (out);
      return NULL;
    }
  return out;
}
