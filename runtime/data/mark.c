/* mark.c - the shadow marks of generated code, made out of line.

   Generated code tests inline whether a piece of a loaded value (N <= 8
   bytes at ADDR) changes the states of its bytes (zeroinst-abi.h: a byte
   loaded for the first time, or seen non-zero for the first time); only
   then are the states set.  Outside register and range loops it calls
   __zeroinst_mark for that: the marks' code, written out at every load,
   was 40% of the code of five files of lua's interpreter (678 KB of
   1,669 KB of text), and it runs only when a state changes; the call
   took 23% off lua's and sqlite3's code.  Register and range loops keep
   their marks inline (the plugin's mark_half, which this follows): there
   a first pass over an array marks at every element.

   On x86-64 the call is an asm statement that declares nothing clobbered
   but the flags and memory: this function keeps every register it uses
   (no_caller_saved_registers, ZI_KEEPS_REGISTERS) and uses no vector
   register (general-regs-only), so the load's function keeps its values
   in registers across the call.  Its stack is not known to be aligned
   (the call comes from an asm statement, after the red zone): it spills
   nothing that needs alignment.  Elsewhere the call is a plain one.  */
#if defined __x86_64__
/* Before the headers: the inline functions the marks use must be of the
   same target (no vector registers) to be inlined.  */
#pragma GCC target ("general-regs-only")
#endif
#include "data/data.h"
#include "data/shadow.h"

/* OR BITS16 (a half's loaded bits in 0-7, non-zero bits in 8-15) into the
   half of ADDR's states in CHUNK, the chunk of ADDR's region.  Atomic:
   another thread may mark the other bytes of the word.  On x86-64 a
   locked OR waits for every older load and store of the thread, so while
   the process has one thread (glibc's __libc_single_threaded, cleared
   before a second thread exists and never set again) it is a plain one,
   still one instruction, so that a signal handler that marks the same
   word cannot come between its read and its write.  */
static inline __attribute__ ((always_inline)) void
mark_half (uintptr_t chunk, uintptr_t addr, uint32_t bits16)
{
  uint32_t *w = (uint32_t *) chunk + zi_shadow_index (addr);
  uint32_t bits = bits16 << ((addr & 8) << 1);
#if defined __x86_64__
  if (__libc_single_threaded)
    {
      __asm__ volatile ("orl %1, %0" : "+m" (*w) : "r" (bits) : "cc");
      return;
    }
#endif
  __atomic_fetch_or (w, bits, __ATOMIC_RELAXED);
}

void
__zeroinst_mark (uintptr_t chunk, uintptr_t addr, uint64_t value, uint64_t n)
{
  unsigned at = addr & 7;
  uint32_t lb = ((1u << n) - 1) << at;
  uint32_t nb = (zi_nonzero_bytes (value) & ((1u << n) - 1)) << at;
  mark_half (chunk, addr, (lb & 0xff) | (nb & 0xff) << 8);
  /* The bytes past the half, when the piece straddles two.  */
  uint32_t next = (lb >> 8) | (nb >> 8) << 8;
  if (next)
    mark_half (chunk, addr + n - 1, next);
}
