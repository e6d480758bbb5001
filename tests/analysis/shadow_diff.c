/* shadow_diff.c - the shadow of byte states (runtime/data/shadow.c) against a
   plain array of states, one per byte of a window of the address space.

   The window straddles a region boundary (a chunk is mapped per 64 MiB
   region), so marks, counts, clears and moves cross from one chunk to the
   next.  Random operations: marks of 1..16 bytes at any alignment with
   random values, counts of random ranges, clears (small, and large ones
   that give whole shadow pages back), and resizes of random ranges to
   random places, overlapping or not, aligned to 16 bytes or not (a
   realloc); counts of long ranges of marked bytes.  Half of the marks of
   at most 8 bytes are made as generated code makes them, by
   __zeroinst_mark (runtime/data/mark.c), called as generated code calls it
   (on x86-64 the registers it must keep are checked); the second half of
   the operations runs after a thread was made (the marks' atomic OR).  A
   mark beyond the shadow's range changes nothing.
   Exit status 0 when every count and every state agree.  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data/data.h"
#include "data/shadow.h"
#include "random.h"

void zi_warn (const char *fmt, ...) { (void) fmt; }

#define WINDOW (12u << 20)
static unsigned char ref[ZI_SHADOW_KINDS][WINDOW];
static uintptr_t base;
static long bad;

/* __zeroinst_mark called as generated code calls it on x86-64
   (plugin/instrument.cc, zi_runtime_call): from an asm statement that
   declares only memory and the flags clobbered, past the red zone,
   through the GOT.  Every other general register, then xmm0-7, hold
   sentinels, which must come back unchanged, as must the arguments (two
   calls, as an asm statement has at most 30 operands: marks are ORs, the
   second changes nothing).  */
#define MARK_CALL                                                       \
  "lea -128(%%rsp), %%rsp\n\t"                                          \
  "call *__zeroinst_mark@GOTPCREL(%%rip)\n\t"                           \
  "lea 128(%%rsp), %%rsp"
static void
mark_as_generated (uintptr_t chunk, uintptr_t a, uint64_t v, uint64_t n)
{
#if defined __x86_64__
  const uint64_t in[4] = { chunk, a, v, n };
  uint64_t out[4];
  {
    register uint64_t rdi __asm__ ("rdi") = chunk, rsi __asm__ ("rsi") = a,
        rdx __asm__ ("rdx") = v, rcx __asm__ ("rcx") = n, rax __asm__ ("rax") = 0xa0a0,
        rbx __asm__ ("rbx") = 0xb0b0, r8 __asm__ ("r8") = 0x0808, r9 __asm__ ("r9") = 0x0909,
        r10 __asm__ ("r10") = 0x1010, r11 __asm__ ("r11") = 0x1111, r12 __asm__ ("r12") = 0x1212,
        r13 __asm__ ("r13") = 0x1313, r14 __asm__ ("r14") = 0x1414, r15 __asm__ ("r15") = 0x1515;
    __asm__ volatile (MARK_CALL
                      : "+r" (rdi), "+r" (rsi), "+r" (rdx), "+r" (rcx), "+r" (rax), "+r" (rbx),
                        "+r" (r8), "+r" (r9), "+r" (r10), "+r" (r11), "+r" (r12), "+r" (r13),
                        "+r" (r14), "+r" (r15)
                      :
                      : "memory", "cc");
    const uint64_t kept[10] = { rax, rbx, r8, r9, r10, r11, r12, r13, r14, r15 };
    const uint64_t want[10] = { 0xa0a0, 0xb0b0, 0x0808, 0x0909, 0x1010,
                                0x1111, 0x1212, 0x1313, 0x1414, 0x1515 };
    out[0] = rdi, out[1] = rsi, out[2] = rdx, out[3] = rcx;
    if ((memcmp (in, out, sizeof in) || memcmp (kept, want, sizeof kept)) && bad++ < 5)
      printf ("__zeroinst_mark changed a general register the call keeps\n");
  }
  {
    register uint64_t rdi __asm__ ("rdi") = chunk, rsi __asm__ ("rsi") = a,
        rdx __asm__ ("rdx") = v, rcx __asm__ ("rcx") = n;
    register double x0 __asm__ ("xmm0") = 0.5, x1 __asm__ ("xmm1") = 1.5,
        x2 __asm__ ("xmm2") = 2.5, x3 __asm__ ("xmm3") = 3.5, x4 __asm__ ("xmm4") = 4.5,
        x5 __asm__ ("xmm5") = 5.5, x6 __asm__ ("xmm6") = 6.5, x7 __asm__ ("xmm7") = 7.5;
    __asm__ volatile (MARK_CALL
                      : "+r" (rdi), "+r" (rsi), "+r" (rdx), "+r" (rcx), "+x" (x0), "+x" (x1),
                        "+x" (x2), "+x" (x3), "+x" (x4), "+x" (x5), "+x" (x6), "+x" (x7)
                      :
                      : "memory", "cc");
    const double xs[8] = { x0, x1, x2, x3, x4, x5, x6, x7 };
    int lost = rdi != chunk || rsi != a || rdx != v || rcx != n;
    for (int i = 0; i < 8; i++)
      lost |= xs[i] != i + 0.5;
    if (lost && bad++ < 5)
      printf ("__zeroinst_mark changed a vector register\n");
  }
#else
  __zeroinst_mark (chunk, a, v, n);
#endif
}

static void *
nothing (void *arg)
{
  return arg;
}

static uintptr_t
pick (size_t room)
{
  return base + rnd () % (WINDOW - room);
}

static void
check_count (int iter, int kind, uintptr_t a, size_t n)
{
  uint64_t never, zero, want_never = 0, want_zero = 0;
  zi_shadow_count (kind, a, n, &never, &zero);
  for (size_t i = 0; i < n; i++)
    {
      unsigned s = ref[kind][a - base + i];
      want_never += !s;
      want_zero += s == ZI_MAP_LOADED;
    }
  if ((never != want_never || zero != want_zero) && bad++ < 5)
    printf ("op %d: count [%#lx, +%zu) kind %d: never %lu/%lu zero %lu/%lu\n", iter,
            (unsigned long) a, n, kind, never, want_never, zero, want_zero);
}

int
main (void)
{
  rs = 0x9e3779b97f4a7c15ull;
  if (zi_shadow_init () < 0)
    return 1;
  /* 1 MiB before the boundary of regions 40 and 41, 11 MiB after.  */
  base = ((uintptr_t) 41 << ZI_SHADOW_REGION_BITS) - (1u << 20);
  for (int iter = 0; iter < 200000; iter++)
    {
      if (iter == 100000)
        {
          /* The second half with a second thread made: the marks' locked
             OR (__libc_single_threaded is never set again).  */
          pthread_t t;
          if (pthread_create (&t, NULL, nothing, NULL) == 0)
            pthread_join (t, NULL);
        }
      int kind = rnd () % ZI_SHADOW_KINDS;
      unsigned op = rnd () % 100;
      if (op < 70)
        {
          unsigned n = 1 + rnd () % 16;
          uintptr_t a = rnd () % 4 ? pick (n) : base + (1u << 20) - rnd () % 24;
          uint64_t lo = rnd () % 3 ? rnd () >> (rnd () % 64) : 0;
          uint64_t hi = rnd () % 2 ? rnd () >> (rnd () % 64) : 0;
          if (rnd () % 8 == 0)
            lo &= 0xff00ff0000ff00ffull;
          else if (rnd () % 8 == 0)
            /* Bytes with only their high or their low bit: the edges of
               zi_nonzero_bytes's carry trick.  */
            lo &= 0x8001800180018001ull;
          uintptr_t last = a + (n > 8 ? 8 : n) - 1;
          if (n <= 8 && rnd () % 2 && a >> ZI_SHADOW_REGION_BITS == last >> ZI_SHADOW_REGION_BITS)
            {
              /* Generated code's marks (runtime/data/mark.c): a piece of at
                 most 8 bytes, zero-extended, in one region, with the
                 chunk of its region.  */
              uint32_t *w = zi_shadow_word (kind, a);
              if (n < 8)
                lo &= (1ull << (8 * n)) - 1;
              hi = 0;
              mark_as_generated ((uintptr_t) (w - zi_shadow_index (a)), a, lo, n);
            }
          else
            zi_shadow_mark (kind, a, n, lo, hi);
          for (unsigned k = 0; k < n; k++)
            {
              unsigned byte = (unsigned) ((k < 8 ? lo >> (8 * k) : hi >> (8 * (k - 8))) & 0xff);
              ref[kind][a - base + k] |= ZI_MAP_LOADED | (byte ? ZI_MAP_NONZERO : 0);
            }
        }
      else if (op < 85)
        {
          size_t n = rnd () % 3 ? rnd () % 200 : rnd () % 100000;
          check_count (iter, kind, pick (n), n);
        }
      else if (op < 92)
        {
          size_t n = rnd () % 4 ? rnd () % 300 : rnd () % (WINDOW / 2);
          uintptr_t a = pick (n);
          zi_shadow_clear (kind, a, n);
          memset (&ref[kind][a - base], 0, n);
        }
      else
        {
          size_t old_n = rnd () % 3 ? rnd () % 500 : rnd () % 60000;
          size_t new_n = rnd () % 3 ? rnd () % 500 : rnd () % 60000;
          size_t room = old_n > new_n ? old_n : new_n;
          uintptr_t from = pick (room), to = rnd () % 3 ? pick (room) : from + rnd () % 64 - 32;
          if (to < base || to + room > base + WINDOW)
            to = from;
          if (rnd () % 2)
            from &= ~(uintptr_t) 15, to &= ~(uintptr_t) 15;
          zi_shadow_resize (kind, from, old_n, to, new_n);
          size_t keep = old_n < new_n ? old_n : new_n;
          unsigned char *saved = malloc (keep + 1);
          memcpy (saved, &ref[kind][from - base], keep);
          /* The old range is cleared, the surviving bytes copied; new
             bytes outside the old range keep their states (in the
             runtime they have none: marks land in live objects only).  */
          memset (&ref[kind][from - base], 0, old_n);
          memcpy (&ref[kind][to - base], saved, keep);
          free (saved);
        }
    }
  /* Ranges whose every byte is loaded, non-zero or always zero: the
     counts of whole lines, summed 16 bits a line, must not overflow
     (100,000 lines, across the regions' boundary).  */
  for (int kind = 0; kind < ZI_SHADOW_KINDS; kind++)
    {
      size_t n = 1600000 + rnd () % 16;
      uintptr_t a = base + (1u << 20) - 800000 - rnd () % 16;
      for (size_t k = 0; k < n; k += 8)
        {
          uint64_t v = kind ? 0 : 0x0101010101010101ull;
          unsigned m = n - k < 8 ? (unsigned) (n - k) : 8;
          zi_shadow_mark (kind, a + k, m, v, 0);
          for (unsigned b = 0; b < m; b++)
            ref[kind][a - base + k + b] |= ZI_MAP_LOADED | (kind ? 0 : ZI_MAP_NONZERO);
        }
      check_count (-1, kind, a, n);
      check_count (-1, kind, a + 3, n - 40);
    }
  /* Beyond the shadow: nothing happens, nothing breaks.  */
  zi_shadow_mark (0, (uintptr_t) 1 << ZI_SHADOW_BITS, 8, ~0ull, 0);
  uint64_t never, zero;
  zi_shadow_count (0, (uintptr_t) 1 << ZI_SHADOW_BITS, 64, &never, &zero);
  if (never != 64 || zero)
    bad++, printf ("beyond the shadow: never %lu zero %lu\n", never, zero);
  for (int kind = 0; kind < ZI_SHADOW_KINDS; kind++)
    for (size_t i = 0; i < WINDOW; i++)
      if (zi_shadow_state (kind, base + i) != ref[kind][i] && bad++ < 10)
        printf ("kind %d byte %#lx: state %u, expected %u\n", kind,
                (unsigned long) (base + i), zi_shadow_state (kind, base + i), ref[kind][i]);
  printf ("%ld mismatches\n", bad);
  return bad != 0;
}
