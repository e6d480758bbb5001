/* stack.c - room for the larger frames of instrumented code.

   Instrumented functions keep more values in callee-saved registers and
   stack slots than plain ones (the saved parent context, and whatever is
   live across the rare calls into the runtime: README, Performance), so a
   recursion that just fits the stack plain would overflow it
   instrumented.  At start the runtime therefore multiplies

     - the main thread's soft RLIMIT_STACK (the kernel checks it when the
       stack grows, at fault time; below the stack it keeps a gap of at
       least 128 MiB free for it at exec, and never lets the stack grow
       into another mapping), up to the hard limit;
     - the default stack size of threads created later
       (pthread_setattr_default_np; used by every thread whose attributes
       name no size, OpenMP's included), unless RLIMIT_AS is finite: an
       address-space limit is what multiplied thread stacks could exhaust
       where plain ones do not;

   by ZI_STACK_FACTOR, the largest ratio of instrumented to plain frame
   size measured on small recursive functions (README).  Stack pages cost
   nothing until they are touched.  Programs see the raised limit through
   getrlimit.  zi_stack_before_exec and zi_stack_after_exec, for interpose/exec.c,
   give a program the process execs the original limit.  */
#include <pthread.h>
#include <sys/resource.h>
#include "core/core.h"

#define ZI_STACK_FACTOR 4

/* The soft limit found at start; RLIM_INFINITY when it was not raised.  */
static rlim_t original_soft = RLIM_INFINITY;

/* LIMIT * ZI_STACK_FACTOR, at most CAP.  */
static rlim_t
scaled (rlim_t limit, rlim_t cap)
{
  if (cap != RLIM_INFINITY && limit >= cap / ZI_STACK_FACTOR)
    return cap;
  return limit * ZI_STACK_FACTOR;
}

#if defined (__x86_64__) && defined (__LP64__)
void zi_xsave_init (void) ZI_HIDDEN;
#endif

void
zi_stack_init (void)
{
#if defined (__x86_64__) && defined (__LP64__)
  zi_xsave_init ();
#endif
  struct rlimit rl;
  if (getrlimit (RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    {
      rlim_t old = rl.rlim_cur;
      rl.rlim_cur = scaled (old, rl.rlim_max);
      if (rl.rlim_cur > old && setrlimit (RLIMIT_STACK, &rl) == 0)
        original_soft = old;
    }
  struct rlimit as;
  pthread_attr_t attr;
  size_t size;
  if (getrlimit (RLIMIT_AS, &as) == 0 && as.rlim_cur == RLIM_INFINITY
      && pthread_getattr_default_np (&attr) == 0)
    {
      if (pthread_attr_getstacksize (&attr, &size) == 0 && size > 0
          && size <= SIZE_MAX / ZI_STACK_FACTOR
          && pthread_attr_setstacksize (&attr, size * ZI_STACK_FACTOR) == 0)
        pthread_setattr_default_np (&attr);
      pthread_attr_destroy (&attr);
    }
}

/* Before an exec: the new program gets the soft limit the process
   started with.  */
void
zi_stack_before_exec (void)
{
  struct rlimit rl;
  if (original_soft != RLIM_INFINITY && getrlimit (RLIMIT_STACK, &rl) == 0)
    {
      rl.rlim_cur = original_soft;
      setrlimit (RLIMIT_STACK, &rl);
    }
}

/* After an exec that failed: this process goes on with instrumented
   frames.  */
void
zi_stack_after_exec (void)
{
  struct rlimit rl;
  if (original_soft != RLIM_INFINITY && getrlimit (RLIMIT_STACK, &rl) == 0
      && rl.rlim_cur == original_soft)
    {
      rl.rlim_cur = scaled (original_soft, rl.rlim_max);
      setrlimit (RLIMIT_STACK, &rl);
    }
}

#if defined (__x86_64__) && defined (__LP64__)
/* Register-preserving trampolines for the rare calls of generated code
   on x86-64 (plugin/instrument.cc, zi_runtime_call).  The caller has
   stepped 128 bytes below its stack pointer (its red zone) and calls
   __zeroinst_enter_node_keep, __zeroinst_tail_node_keep,
   __zeroinst_lookup_keep or __zeroinst_lookup_keepall with the arguments
   in rdi, rsi and rdx; the result comes back in rax and every other
   general-purpose register keeps its value.  For the first three
   (function entry, a tail call's first time, and data-mode loads outside
   loops) the vector, x87 and mask registers are declared clobbered
   by the generated asm instead (few values live in them there, and saving
   their whole state with XSAVE would cost more than the runtime function).
   __zeroinst_lookup_keepall preserves them too, with XSAVE (FXSAVE where
   the system has no XSAVE): it serves loads inside loops, whose
   floating-point values would otherwise live on the stack, in every run,
   for a call made once per object the loop moves to.
   __zeroinst_lookup_keepsse serves the same loads in functions compiled
   without AVX, whose vector values can only be in the 128 bits of
   xmm0-15: it saves those 16 registers (256 bytes, where XSAVE writes
   about 2.4 KiB with AVX-512's state); the x87 registers are declared
   clobbered.

   Unwind information: the canonical frame address is the caller's stack
   pointer before the 128-byte step (rsp at entry + 8 + 128), so unwinders
   (libunwind from __zeroinst_enter_node, debuggers) find the caller's frame
   with the plain rule "caller's rsp = CFA".  */
#define ZI_KEEP_STUB_TO(NAME, TARGET, COMMON)                            \
  "  .globl " NAME "\n"                                                 \
  "  .type " NAME ", @function\n"                                       \
  NAME ":\n"                                                            \
  "  .cfi_startproc\n"                                                  \
  "  .cfi_def_cfa_offset 136\n"                                         \
  "  .cfi_offset 16, -136\n"                                            \
  "  movq " TARGET "@GOTPCREL(%rip), %rax\n"                            \
  "  jmp " COMMON "\n"                                                  \
  "  .cfi_endproc\n"                                                    \
  "  .size " NAME ", .-" NAME "\n"
#define ZI_KEEP_STUB(NAME, TARGET) ZI_KEEP_STUB_TO (NAME, TARGET, "zi_keep_common")

/* The state __zeroinst_lookup_keepall saves: x87, SSE, AVX, and AVX-512's
   mask and upper registers (XSAVE components 0, 1, 2, 5, 6, 7), not AMX
   tiles (8 KiB, never touched by the runtime).  */
#define ZI_XSAVE_MASK 0xe7u
/* Bytes of the XSAVE area for those components (CPUID leaf 0xD), 0
   without XSAVE (then FXSAVE: x87 and SSE are all there is).  */
uint64_t zi_xsave_bytes __attribute__ ((visibility ("hidden")));

/* Set zi_xsave_bytes; by the constructor, and by zi_init before any
   generated code can reach the runtime.  */
__attribute__ ((constructor (101))) void
zi_xsave_init (void)
{
  unsigned a, b, c, d;
  __asm__ ("cpuid" : "=a" (a), "=b" (b), "=c" (c), "=d" (d) : "a" (1), "c" (0));
  if (!(c & (1u << 27)))         /* OSXSAVE */
    return;
  uint64_t bytes = 576;          /* legacy area and header */
  for (unsigned i = 2; i < 8; i++)
    if (ZI_XSAVE_MASK & (1u << i))
      {
        __asm__ ("cpuid" : "=a" (a), "=b" (b), "=c" (c), "=d" (d) : "a" (0xd), "c" (i));
        if (a && b + a > bytes)
          bytes = b + a;         /* size a at offset b */
      }
  zi_xsave_bytes = bytes;
}

/* The common part's frame: rbp, then every caller-saved general-purpose
   register but rax (the result) below it; the epilogue restores them from
   rbp, whatever the body did to rsp.  */
#define ZI_KEEP_PROLOGUE                                                \
  "  .cfi_startproc\n"                                                  \
  "  .cfi_def_cfa_offset 136\n"                                         \
  "  .cfi_offset 16, -136\n"                                            \
  "  pushq %rbp\n"                                                      \
  "  .cfi_def_cfa_offset 144\n"                                         \
  "  .cfi_offset %rbp, -144\n"                                          \
  "  movq %rsp, %rbp\n"                                                 \
  "  .cfi_def_cfa_register %rbp\n"                                      \
  "  pushq %rcx\n"                                                      \
  "  pushq %rdx\n"                                                      \
  "  pushq %rsi\n"                                                      \
  "  pushq %rdi\n"                                                      \
  "  pushq %r8\n"                                                       \
  "  pushq %r9\n"                                                       \
  "  pushq %r10\n"                                                      \
  "  pushq %r11\n"
#define ZI_KEEP_EPILOGUE                                                \
  "  leaq -64(%rbp), %rsp\n"                                            \
  "  popq %r11\n"                                                       \
  "  popq %r10\n"                                                       \
  "  popq %r9\n"                                                        \
  "  popq %r8\n"                                                        \
  "  popq %rdi\n"                                                       \
  "  popq %rsi\n"                                                       \
  "  popq %rdx\n"                                                       \
  "  popq %rcx\n"                                                       \
  "  popq %rbp\n"                                                       \
  "  .cfi_def_cfa %rsp, 136\n"                                          \
  "  ret\n"                                                             \
  "  .cfi_endproc\n"

__asm__ (
  "  .text\n"
  ZI_KEEP_STUB_TO ("__zeroinst_lookup_keepall", "__zeroinst_lookup", "zi_keepall_common")
  ZI_KEEP_STUB_TO ("__zeroinst_lookup_keepsse", "__zeroinst_lookup", "zi_keepsse_common")
  ZI_KEEP_STUB ("__zeroinst_lookup_keep", "__zeroinst_lookup")
  ZI_KEEP_STUB ("__zeroinst_enter_node_keep", "__zeroinst_enter_node")
  ZI_KEEP_STUB ("__zeroinst_tail_node_keep", "__zeroinst_tail_node")
  "  .type zi_keep_common, @function\n"
  "zi_keep_common:\n"
  ZI_KEEP_PROLOGUE
  "  andq $-16, %rsp\n"
  "  call *%rax\n"
  ZI_KEEP_EPILOGUE
  "  .size zi_keep_common, .-zi_keep_common\n"
  /* The same, with the vector, x87 and mask state saved around the call
     (XSAVE needs its 64-byte header zeroed and a 64-byte aligned area).  */
  "  .type zi_keepall_common, @function\n"
  "zi_keepall_common:\n"
  ZI_KEEP_PROLOGUE
  "  movq %rax, %r11\n"
  "  movq %rdx, %r8\n"             /* the third argument, across XSAVE's edx */
  "  movq zi_xsave_bytes(%rip), %rcx\n"
  "  testq %rcx, %rcx\n"
  "  jz 1f\n"
  "  subq %rcx, %rsp\n"
  "  andq $-64, %rsp\n"
  "  xorl %eax, %eax\n"
  "  movq %rax, 512(%rsp)\n"
  "  movq %rax, 520(%rsp)\n"
  "  movq %rax, 528(%rsp)\n"
  "  movq %rax, 536(%rsp)\n"
  "  movq %rax, 544(%rsp)\n"
  "  movq %rax, 552(%rsp)\n"
  "  movq %rax, 560(%rsp)\n"
  "  movq %rax, 568(%rsp)\n"
  "  movl $0xe7, %eax\n"         /* ZI_XSAVE_MASK */
  "  xorl %edx, %edx\n"
  "  xsave (%rsp)\n"
  "  movq %r8, %rdx\n"
  "  call *%r11\n"
  "  movq %rax, %r11\n"
  "  movl $0xe7, %eax\n"
  "  xorl %edx, %edx\n"
  "  xrstor (%rsp)\n"
  "  jmp 2f\n"
  "1:\n"
  "  subq $512, %rsp\n"
  "  andq $-16, %rsp\n"
  "  fxsave (%rsp)\n"
  "  call *%r11\n"
  "  movq %rax, %r11\n"
  "  fxrstor (%rsp)\n"
  "2:\n"
  "  movq %r11, %rax\n"
  ZI_KEEP_EPILOGUE
  "  .size zi_keepall_common, .-zi_keepall_common\n"
  /* The same, with xmm0-15 saved around the call.  */
  "  .type zi_keepsse_common, @function\n"
  "zi_keepsse_common:\n"
  ZI_KEEP_PROLOGUE
  "  movq %rax, %r11\n"
  "  subq $256, %rsp\n"
  "  andq $-16, %rsp\n"
  "  movaps %xmm0, 0(%rsp)\n"
  "  movaps %xmm1, 16(%rsp)\n"
  "  movaps %xmm2, 32(%rsp)\n"
  "  movaps %xmm3, 48(%rsp)\n"
  "  movaps %xmm4, 64(%rsp)\n"
  "  movaps %xmm5, 80(%rsp)\n"
  "  movaps %xmm6, 96(%rsp)\n"
  "  movaps %xmm7, 112(%rsp)\n"
  "  movaps %xmm8, 128(%rsp)\n"
  "  movaps %xmm9, 144(%rsp)\n"
  "  movaps %xmm10, 160(%rsp)\n"
  "  movaps %xmm11, 176(%rsp)\n"
  "  movaps %xmm12, 192(%rsp)\n"
  "  movaps %xmm13, 208(%rsp)\n"
  "  movaps %xmm14, 224(%rsp)\n"
  "  movaps %xmm15, 240(%rsp)\n"
  "  call *%r11\n"
  "  movaps 0(%rsp), %xmm0\n"
  "  movaps 16(%rsp), %xmm1\n"
  "  movaps 32(%rsp), %xmm2\n"
  "  movaps 48(%rsp), %xmm3\n"
  "  movaps 64(%rsp), %xmm4\n"
  "  movaps 80(%rsp), %xmm5\n"
  "  movaps 96(%rsp), %xmm6\n"
  "  movaps 112(%rsp), %xmm7\n"
  "  movaps 128(%rsp), %xmm8\n"
  "  movaps 144(%rsp), %xmm9\n"
  "  movaps 160(%rsp), %xmm10\n"
  "  movaps 176(%rsp), %xmm11\n"
  "  movaps 192(%rsp), %xmm12\n"
  "  movaps 208(%rsp), %xmm13\n"
  "  movaps 224(%rsp), %xmm14\n"
  "  movaps 240(%rsp), %xmm15\n"
  ZI_KEEP_EPILOGUE
  "  .size zi_keepsse_common, .-zi_keepsse_common\n");
#endif
