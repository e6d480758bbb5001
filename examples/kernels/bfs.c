/* bfs.c - breadth-first search on a random graph (the pattern of Rodinia's
   bfs: level-synchronous sweeps over all nodes with byte masks for the
   frontier and the visited set).  OpenMP.

   Kernel.  An undirected random graph with n nodes and DEG*n/2 random
   edges, stored in CSR form: offsets (int64_t, one per node + 1) into an
   adjacency array (int32_t).  BFS from NSRC sources.  Each level sweeps
   every node in parallel; an unvisited node whose neighbour is in the
   current frontier gets the next level ("bottom-up" BFS: each node writes
   only its own entries, so there is no race and the levels do not depend
   on the number of threads).  Then a second sweep moves the new frontier
   into the visited set.  The checksum is the sum of levels, the number of
   reached nodes and the depth, per source.

   Redundant zeros zeroinst should find:
   - frontier[] is a byte mask with a handful of 1s per level: the sweep
     loads frontier[v] for the neighbours of every unvisited node, and
     almost all of those bytes are 0;
   - visited[] is 0 for most nodes in the early levels and the next[]
     mask scanned by the second sweep is mostly 0: whole zero elements;
   - offsets[] are int64_t but hold values < 2^31: four zero high bytes
     (and the node ids in adj[] are int32_t < n: one or more zero bytes);
   - level[] (int) is small: three zero high bytes, except the -1 of the
     unreached nodes.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or n, the
   number of nodes.  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG 8          /* average degree */
#define NSRC 4

static long
problem_size (int argc, char **argv, long quick, long dflt)
{
  const char *s = argc > 1 ? argv[1] : getenv ("EXAMPLE_SIZE");
  if (!s || !strcmp (s, "default"))
    return dflt;
  if (!strcmp (s, "quick"))
    return quick;
  char *end;
  long v = strtol (s, &end, 10);
  if (end == s || *end || v <= 0)
    {
      fprintf (stderr, "usage: %s [quick|default|N]\n", argv[0]);
      exit (2);
    }
  return v;
}

static uint64_t
mix64 (uint64_t z)
{
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct graph
{
  long n;
  int64_t *offsets;   /* n + 1 */
  int32_t *adj;
};

/* Random edges (u, v), u != v, each stored in both directions.  */
static void
build_graph (struct graph *g, long n)
{
  long m = n * DEG / 2;
  int32_t *eu = malloc (m * sizeof *eu), *ev = malloc (m * sizeof *ev);
  int64_t *fill = malloc (n * sizeof *fill);
  g->n = n;
  g->offsets = calloc (n + 1, sizeof *g->offsets);
  g->adj = malloc (2 * m * sizeof *g->adj);
  for (long e = 0; e < m; e++)
    {
      uint64_t h = mix64 ((uint64_t) e);
      long u = (long) ((h & 0xffffffff) % (uint64_t) n);
      long v = (long) ((h >> 32) % (uint64_t) (n - 1));
      if (v >= u)
        v++;
      eu[e] = (int32_t) u;
      ev[e] = (int32_t) v;
      g->offsets[u + 1]++;
      g->offsets[v + 1]++;
    }
  for (long i = 0; i < n; i++)
    g->offsets[i + 1] += g->offsets[i];
  memcpy (fill, g->offsets, n * sizeof *fill);
  for (long e = 0; e < m; e++)
    {
      g->adj[fill[eu[e]]++] = ev[e];
      g->adj[fill[ev[e]]++] = eu[e];
    }
  free (eu); free (ev); free (fill);
}

/* BFS from src; level[v] = distance or -1.  Returns the depth.  */
static int
bfs (const struct graph *g, long src, int *level, unsigned char *visited,
     unsigned char *frontier, unsigned char *next)
{
  long n = g->n;
  #pragma omp parallel for schedule(static)
  for (long v = 0; v < n; v++)
    {
      level[v] = -1;
      visited[v] = 0;
      frontier[v] = 0;
      next[v] = 0;
    }
  level[src] = 0;
  visited[src] = 1;
  frontier[src] = 1;
  int depth = 0;
  for (;;)
    {
      long added = 0;
      #pragma omp parallel for schedule(dynamic, 1024) reduction(+:added)
      for (long v = 0; v < n; v++)
        {
          if (visited[v])
            continue;
          for (int64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
            if (frontier[g->adj[e]])
              {
                level[v] = depth + 1;
                next[v] = 1;
                added++;
                break;
              }
        }
      if (added == 0)
        break;
      depth++;
      #pragma omp parallel for schedule(static)
      for (long v = 0; v < n; v++)
        {
          frontier[v] = next[v];
          if (next[v])
            {
              visited[v] = 1;
              next[v] = 0;
            }
        }
    }
  return depth;
}

int
main (int argc, char **argv)
{
  long n = problem_size (argc, argv, 80000, 1200000);
  if (n < 16 || n > (1L << 28))
    {
      fprintf (stderr, "bfs: n must be in [16, 2^28]\n");
      return 2;
    }
  struct graph g;
  build_graph (&g, n);
  int *level = malloc (n * sizeof *level);
  unsigned char *visited = malloc (n), *frontier = malloc (n), *next = malloc (n);

  printf ("bfs: nodes=%ld edges=%ld\n", n, (long) g.offsets[n] / 2);
  for (int s = 0; s < NSRC; s++)
    {
      long src = (long) (mix64 (777 + s) % (uint64_t) n);
      int depth = bfs (&g, src, level, visited, frontier, next);
      long reached = 0, sum = 0;
      for (long v = 0; v < n; v++)
        if (level[v] >= 0)
          {
            reached++;
            sum += level[v];
          }
      printf ("bfs: source %ld  depth %d  reached %ld  level sum %ld\n",
              src, depth, reached, sum);
    }
  free (level); free (visited); free (frontier); free (next);
  free (g.offsets); free (g.adj);
  return 0;
}
