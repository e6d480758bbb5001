/* nw.c - Needleman-Wunsch global sequence alignment (the pattern of
   Rodinia's nw: dynamic programming over an (L+1) x (L+1) integer score
   matrix, computed in blocks along anti-diagonals).  OpenMP.

   Kernel.  Two protein-like sequences of length L over a 24-letter
   alphabet; the second is a mutated copy of the first (1 in 4 letters
   substituted, and an insertion or deletion every 64 letters or so), so
   the optimal alignment stays near the diagonal.
   As in Rodinia, the substitution score of every cell is first looked up
   into a full (L+1) x (L+1) int matrix ref[][].  Then

     score[i][j] = max(score[i-1][j-1] + ref[i][j],
                       score[i-1][j] - GAP, score[i][j-1] - GAP)

   is filled in B x B blocks: the blocks of one anti-diagonal are
   independent and run in parallel.  A traceback from (L, L) counts
   matches, mismatches and gaps.  Integer arithmetic only: the result does
   not depend on the number of threads.

   Redundant zeros zeroinst should find:
   - the sequences are int arrays holding letters 0..23: three zero bytes
     in every load (unsigned char would do);
   - ref[][] is int but holds scores in [-4, 11]: the positive ones have
     three zero high bytes; the negative ones have none (0xff..., which is
     not a zero: a useful contrast in the redmap);
   - the score matrix is mostly negative far from the diagonal (0xff high
     bytes, not redundant) and small positive near it.

   Size: argv[1] (or env EXAMPLE_SIZE) is "quick", "default" or L.  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALPHA 24
#define GAP 10
#define B 64

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

static inline int
max3 (int a, int b, int c)
{
  int m = a > b ? a : b;
  return m > c ? m : c;
}

int
main (int argc, char **argv)
{
  long len = problem_size (argc, argv, 2560, 12000);
  if (len < B || len > 40000)
    {
      fprintf (stderr, "nw: L must be in [%d, 40000]\n", B);
      return 2;
    }
  long w = len + 1;             /* row length of the matrices */
  int *seq1 = malloc (w * sizeof *seq1), *seq2 = malloc (w * sizeof *seq2);
  int *ref = malloc (w * w * sizeof *ref);
  int *score = malloc (w * w * sizeof *score);
  int sub[ALPHA][ALPHA];

  /* A symmetric substitution table: identities score 5..11, other pairs
     -4..1.  */
  for (int a = 0; a < ALPHA; a++)
    for (int b = 0; b <= a; b++)
      {
        int v = a == b ? 5 + a % 7 : (int) (mix64 ((uint64_t) (a * ALPHA + b)) % 6) - 4;
        sub[a][b] = sub[b][a] = v;
      }
  seq1[0] = seq2[0] = 0;        /* unused: sequences start at index 1 */
  for (long i = 1; i <= len; i++)
    seq1[i] = (int) (mix64 ((uint64_t) i) % ALPHA);
  long shift = 0;
  for (long i = 1; i <= len; i++)
    {
      uint64_t h = mix64 (0xabcdef00 + (uint64_t) i);
      if ((h >> 8) % 64 == 0 && shift > -16 && shift < 16)
        shift += (h >> 16) & 1 ? 1 : -1;          /* an insertion or deletion */
      long src = i + shift;
      if (src < 1 || src > len)
        src = i;
      seq2[i] = (h & 0xff) < 64 ? (int) ((h >> 24) % ALPHA) : seq1[src];
    }

  #pragma omp parallel for schedule(static)
  for (long i = 1; i <= len; i++)
    for (long j = 1; j <= len; j++)
      ref[i * w + j] = sub[seq1[i]][seq2[j]];
  for (long i = 0; i <= len; i++)
    {
      score[i * w] = (int) (-GAP * i);
      score[i] = (int) (-GAP * i);
    }

  long nb = (len + B - 1) / B;
  for (long d = 0; d < 2 * nb - 1; d++)
    {
      long lo = d < nb ? 0 : d - nb + 1, hi = d < nb ? d : nb - 1;
      #pragma omp parallel for schedule(dynamic, 1)
      for (long bi = lo; bi <= hi; bi++)
        {
          long bj = d - bi;
          long i0 = 1 + bi * B, i1 = i0 + B < w ? i0 + B : w;
          long j0 = 1 + bj * B, j1 = j0 + B < w ? j0 + B : w;
          for (long i = i0; i < i1; i++)
            for (long j = j0; j < j1; j++)
              score[i * w + j] = max3 (score[(i - 1) * w + j - 1] + ref[i * w + j],
                                       score[(i - 1) * w + j] - GAP,
                                       score[i * w + j - 1] - GAP);
        }
    }

  /* Traceback.  */
  long i = len, j = len, matches = 0, mismatches = 0, gaps = 0;
  while (i > 0 || j > 0)
    {
      if (i > 0 && j > 0
          && score[i * w + j] == score[(i - 1) * w + j - 1] + ref[i * w + j])
        {
          if (seq1[i] == seq2[j])
            matches++;
          else
            mismatches++;
          i--, j--;
        }
      else if (i > 0 && score[i * w + j] == score[(i - 1) * w + j] - GAP)
        gaps++, i--;
      else
        gaps++, j--;
    }
  uint64_t check = 0;
  for (long r = 0; r <= len; r += 7)
    check = check * 1000003 + (uint32_t) score[r * w + (r * 13) % w];
  printf ("nw: L=%ld score %d\n", len, score[len * w + len]);
  printf ("nw: matches %ld  mismatches %ld  gaps %ld  checksum %llu\n",
          matches, mismatches, gaps, (unsigned long long) check);
  free (seq1); free (seq2); free (ref); free (score);
  return 0;
}
