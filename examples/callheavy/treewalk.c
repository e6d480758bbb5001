/* treewalk.c - a call-heavy workload for measuring the cost of calling
   contexts: a binary search tree of 2^18 keys walked recursively, many
   times, through small functions that are not inlined (a call per node
   and per field read).  Its redundant zeros: keys are small integers in
   int64 fields, and the "weight" field is 0 in 15 of 16 nodes.

   usage: treewalk [ROUNDS]    (default 80, about a second at -O2)  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
  int64_t key;
  int64_t weight;
  struct node *left, *right;
};

#define NOINLINE __attribute__ ((noinline))

static NOINLINE int64_t key_of (const struct node *n) { return n->key; }
static NOINLINE int64_t weight_of (const struct node *n) { return n->weight; }
static NOINLINE int64_t visit (const struct node *n) { return key_of (n) * 3 + weight_of (n); }

static NOINLINE int64_t
walk (const struct node *n)
{
  if (!n)
    return 0;
  return visit (n) + walk (n->left) + walk (n->right);
}

/* A balanced tree over keys [lo, hi).  */
static struct node *
build (int64_t lo, int64_t hi)
{
  if (lo >= hi)
    return NULL;
  int64_t mid = lo + (hi - lo) / 2;
  struct node *n = malloc (sizeof *n);
  if (!n)
    abort ();
  n->key = mid;
  n->weight = mid % 16 == 0 ? mid : 0;
  n->left = build (lo, mid);
  n->right = build (mid + 1, hi);
  return n;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 80;
  struct node *root = build (0, 1 << 18);
  int64_t total = 0;
  for (int r = 0; r < rounds; r++)
    total += walk (root);
  printf ("%lld\n", (long long) total);
  return 0;
}
