/* period.h - periodic stretches of a buffer, for the data analysis
   (analyze_data.c: keyed per site).

   Loads of several sites interleave in a buffer, but periodically: a loop
   body appends the same sequence of keys every iteration (a sparse matvec:
   index, value, vector element; a vectorized loop: the K lanes of each
   load).  An analysis cuts the buffer into stretches of whole rows of P
   entries in which entry i has the key of entry i - P, and does per row
   what needs no lookup, per stretch what does.  */
#ifndef ZEROINST_PERIOD_H
#define ZEROINST_PERIOD_H

#include "zeroinst-abi.h"

#define ZI_MAX_PERIOD 64

/* Do the entries at P and Q have the same key, the site?  */
static inline __attribute__ ((always_inline)) int
zi_same_key (const char *p, const char *q)
{
  return ((const struct zi_entry *) p)->site == ((const struct zi_entry *) q)->site;
}

/* The smallest period P (<= ZI_MAX_PERIOD) whose first row, at P, repeats
   in the next entries (at least 4 of them, so that the lanes of
   consecutive vector loads, AABB..., are one stretch of P = 4 rather than
   many of P = 1), or 0.  LEFT is the number of entries from P on, each
   STRIDE bytes.  The caller checks the later rows.  */
static inline __attribute__ ((always_inline)) unsigned
zi_find_period (const char *p, size_t left, unsigned stride)
{
  const struct zi_site *site0 = ((const struct zi_entry *) p)->site;
  for (unsigned d = 1; d <= ZI_MAX_PERIOD && 2 * d <= left; d++)
    {
      /* The next entry of the first one's site ... */
      if (((const struct zi_entry *) (p + d * stride))->site != site0)
        continue;
      /* ... starts the second row?  */
      unsigned check = d < 4 ? 4 : d, i;
      if (d + check > left)
        check = d;
      for (i = 0; i < check; i++)
        if (!zi_same_key (p + (d + i) * stride, p + i * stride))
          break;
      if (i == check)
        return d;
      if (d >= 4)
        return 0;    /* irregular: do not search on (short periods may be AABB) */
    }
  return 0;
}

/* The loop the analysis runs over a buffer, from the entry at P (a
   variable) to END, entries of STRIDE bytes: each periodic stretch is
   folded by STRETCH (N), a statement that advances P past the rows it
   folds (N is a constant for the common periods 1, 2 and 4, so each gets
   its own unrolled code), and the entries where no stretch is found by
   ALONE (Q), one entry at Q each.  Where stretches are short (irregular
   code, a graph walk), more entries are taken alone after each failed
   search, so that searching costs little where it does not pay.  */
#define ZI_FOLD_BUFFER(P, END, STRIDE, STRETCH, ALONE)                                   \
  do                                                                                     \
    {                                                                                    \
      unsigned alone_ = 8;                                                               \
      while ((P) < (END))                                                                \
        {                                                                                \
          unsigned period_ = zi_find_period ((P), (size_t) ((END) - (P)) / (STRIDE),     \
                                             (STRIDE));                                  \
          const char *start_ = (P);                                                      \
          switch (period_)                                                               \
            {                                                                            \
            case 0: break;                                                               \
            case 1: STRETCH (1); break;                                                  \
            case 2: STRETCH (2); break;                                                  \
            case 4: STRETCH (4); break;                                                  \
            default: STRETCH (period_); break;                                           \
            }                                                                            \
          if ((size_t) ((P) - start_) >= 16 * (STRIDE))                                  \
            {                                                                            \
              alone_ = 8;                                                                \
              continue;                                                                  \
            }                                                                            \
          for (unsigned i_ = 0; i_ < alone_ && (P) < (END); i_++, (P) += (STRIDE))       \
            ALONE (P);                                                                   \
          if (alone_ < 512)                                                              \
            alone_ *= 2;                                                                 \
        }                                                                                \
    }                                                                                    \
  while (0)

/* The rows of a stretch of period N, from the entry at P (a variable,
   left after them) to END, entries of STRIDE bytes: entry J of a row must
   pass IN (J, Q) -- it still belongs to position J; Q is its address --
   and is then folded by FOLD (J, Q).  Rows of at most 4 entries are
   checked whole, then folded (unrolled); in a longer row, an entry that
   fails ends the stretch after the entries before it, whose number goes
   to PARTIAL.  ROWS counts the whole rows.  */
#define ZI_FOLD_ROWS(P, END, N, STRIDE, IN, FOLD, ROWS, PARTIAL)                       \
  do                                                                                   \
    {                                                                                  \
      while ((size_t) ((END) - (P)) >= (N) * (STRIDE))                                 \
        {                                                                              \
          if ((N) <= 4)                                                                \
            {                                                                          \
              int ok_ = 1;                                                             \
              _Pragma ("GCC unroll 4")                                                 \
              for (unsigned j_ = 0; j_ < (N); j_++)                                    \
                ok_ &= IN (j_, (P) + j_ * (STRIDE));                                   \
              if (!ok_)                                                                \
                break;                                                                 \
              _Pragma ("GCC unroll 4")                                                 \
              for (unsigned j_ = 0; j_ < (N); j_++)                                    \
                FOLD (j_, (P) + j_ * (STRIDE));                                        \
            }                                                                          \
          else                                                                         \
            {                                                                          \
              unsigned j_;                                                             \
              for (j_ = 0; j_ < (N) && IN (j_, (P) + j_ * (STRIDE)); j_++)             \
                FOLD (j_, (P) + j_ * (STRIDE));                                        \
              if (j_ < (N))                                                            \
                {                                                                      \
                  (PARTIAL) = j_;                                                      \
                  (P) += j_ * (STRIDE);                                                \
                  break;                                                               \
                }                                                                      \
            }                                                                          \
          (ROWS)++;                                                                    \
          (P) += (N) * (STRIDE);                                                       \
        }                                                                              \
    }                                                                                  \
  while (0)

#endif
