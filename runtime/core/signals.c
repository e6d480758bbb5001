/* signals.c - fatal signals, and signals that arrive while the runtime runs.

   A report on death.  Every signal whose default action ends the process
   (fatal_signals) and whose disposition is the default gets the runtime's
   handler: it writes the report, then restores the default and raises the
   signal again, so the exit status is what it would have been.  A signal
   the program ignores stays ignored.

   Never inside the runtime.  A signal handler must not run while its
   thread is inside the runtime (zi_in_runtime > 0: looking an object up,
   tracking an allocation, inside the C library's malloc called by the
   runtime's wrappers, writing the report): the runtime's handler would
   find its state half-updated, and a program's handler that calls exit()
   (a common SIGTERM/SIGALRM pattern) or longjmp()s would do the same or
   worse.  Such a signal is deferred, with its siginfo intact:

       handler, inside the runtime:  add the signal to the interrupted
           context's mask (uc_sigmask, restored by sigreturn), queue it
           again to this thread with its own siginfo (rt_tgsigqueueinfo),
           note it in zi_deferred, return;
       zi_leave, leaving the outermost runtime section:  unblock the noted
           signals; the kernel delivers the queued copy at once, now
           outside the runtime, to whatever handler is installed.

   Faults the kernel raises on the faulting instruction (SIGSEGV, SIGBUS,
   SIGFPE, SIGILL, SIGTRAP, SIGSYS) and abort() cannot wait: inside the
   runtime they are a defect of the runtime, reported as such.

   To defer the program's own handlers, sigaction, signal, bsd_signal,
   sysv_signal and __sysv_signal are interposed: the kernel holds this file's trampoline, the
   program's action is kept in progs[] and given back to the program when it
   asks (sigaction's OLDACT), so it sees exactly what it set.  A program
   that sets SIG_DFL for a fatal signal gets the runtime's handler again.
   sigset (obsolete) and direct rt_sigaction system calls are not
   interposed: their handlers run undeferred.  */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#include "core/core.h"

/* glibc's own sigaction, which the interposers below forward to.  */
extern int __sigaction (int sig, const struct sigaction *act, struct sigaction *old);

__thread int zi_in_runtime __attribute__ ((tls_model ("initial-exec")));
__thread uint64_t zi_deferred __attribute__ ((tls_model ("initial-exec")));

/* Signals whose default action ends the process (signal(7)), but for the
   realtime ones (glibc uses some itself).  */
static const int fatal_signals[] = {
  SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGUSR1, SIGSEGV,
  SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
  SIGIO, SIGPWR, SIGSYS,
};

static int
is_fatal (int sig)
{
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    if (fatal_signals[i] == sig)
      return 1;
  return 0;
}

/* Who holds each signal.  The program's action is double-buffered
   (progs[sig][cur[sig]]): a handler reading it while another thread
   changes it sees one whole action.  */
enum holder {
  HELD_BY_KERNEL,    /* as the program (or its parent) set it: default, ignored */
  HELD_BY_RUNTIME,   /* the runtime's fatal handler; the program sees SIG_DFL */
  HELD_BY_WRAPPER,   /* the program's handler, behind the trampoline */
};
static volatile int holder[_NSIG];
static struct sigaction progs[_NSIG][2];
static volatile int cur[_NSIG];
static int runtime_handlers;     /* the runtime's handlers are installed */
static int change_lock;          /* serializes changes (spin; all signals blocked) */

/* The program's action for SIG (snapshot).  */
static const struct sigaction *
program_action (int sig)
{
  return &progs[sig][__atomic_load_n (&cur[sig], __ATOMIC_ACQUIRE)];
}

static void
set_program_action (int sig, const struct sigaction *act)
{
  int next = !cur[sig];
  progs[sig][next] = *act;
  __atomic_store_n (&cur[sig], next, __ATOMIC_RELEASE);
}

static void
lock_changes (sigset_t *old)
{
  sigset_t all;
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, old);
  while (__atomic_exchange_n (&change_lock, 1, __ATOMIC_ACQUIRE))
    sched_yield ();
}

static void
unlock_changes (const sigset_t *old)
{
  __atomic_store_n (&change_lock, 0, __ATOMIC_RELEASE);
  pthread_sigmask (SIG_SETMASK, old, NULL);
}

/* Must SIG be handled now, even inside the runtime?  */
static int
cannot_wait (int sig, const siginfo_t *info)
{
  switch (sig)
    {
    case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGTRAP: case SIGSYS:
      return info->si_code > 0;             /* raised by the faulting instruction */
    case SIGABRT:
      return info->si_code == SI_TKILL && info->si_pid == getpid ();   /* abort () */
    default:
      return 0;
    }
}

/* Inside the runtime: hand SIG back to the kernel until zi_leave (1), or
   0.  errno is as it was either way.  */
static int
defer (int sig, siginfo_t *info, void *uc)
{
  if (!zi_in_runtime || cannot_wait (sig, info))
    return 0;
  int saved = errno;
  sigaddset (&((ucontext_t *) uc)->uc_sigmask, sig);
  zi_deferred |= 1ull << (sig - 1);
  int queued = syscall (SYS_rt_tgsigqueueinfo, getpid (), (pid_t) syscall (SYS_gettid), sig,
                        info) == 0;
  if (!queued)
    {
      /* Cannot happen (a process may queue anything to itself); take the
         signal back rather than lose it.  */
      sigdelset (&((ucontext_t *) uc)->uc_sigmask, sig);
      zi_deferred &= ~(1ull << (sig - 1));
    }
  errno = saved;
  return queued;
}

void
zi_undefer (void)
{
  sigset_t set;
  sigemptyset (&set);
  uint64_t d = zi_deferred;
  zi_deferred = 0;
  for (int sig = 1; sig < _NSIG && sig <= 64; sig++)
    if (d & (1ull << (sig - 1)))
      sigaddset (&set, sig);
  pthread_sigmask (SIG_UNBLOCK, &set, NULL);
}

/* Die of SIG as the program would have without zeroinst.  */
static void
die (int sig)
{
  struct sigaction dfl;
  memset (&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  __sigaction (sig, &dfl, NULL);
  sigset_t set;
  sigemptyset (&set);
  sigaddset (&set, sig);
  pthread_sigmask (SIG_UNBLOCK, &set, NULL);
  raise (sig);
}

/* The runtime's handler of fatal signals.  */
static void
on_fatal_signal (int sig, siginfo_t *info, void *uc)
{
  if (defer (sig, info, uc))
    return;
  int saved = errno;
  if (zi_in_runtime)
    zi_warn ("report not written: signal %d (%s) inside the runtime", sig, strsignal (sig));
  else
    {
      static int reported;
      if (!__atomic_exchange_n (&reported, 1, __ATOMIC_ACQ_REL))
        zi_finish ("signal");
    }
  die (sig);
  errno = saved;         /* a fault re-executes, and now dies */
}

static int install (int sig, const struct sigaction *act);

/* The program's handler, outside the runtime.  */
static void
trampoline (int sig, siginfo_t *info, void *uc)
{
  if (defer (sig, info, uc))
    return;
  int saved = errno;
  struct sigaction a = *program_action (sig);
  if (a.sa_handler == SIG_DFL)
    {
      /* A second signal that raced with a SA_RESETHAND reset below: the
         default action.  */
      errno = saved;
      if (is_fatal (sig))
        on_fatal_signal (sig, info, uc);
      return;
    }
  if (a.sa_flags & SA_RESETHAND)
    {
      /* The kernel was not asked to reset the handler (a deferred signal
         must come back here): reset it now, keeping flags and mask as the
         kernel does, and give a fatal signal the runtime's handler.  */
      sigset_t mask;
      lock_changes (&mask);
      struct sigaction dfl = a;
      dfl.sa_handler = SIG_DFL;
      install (sig, &dfl);
      unlock_changes (&mask);
    }
  errno = saved;
  if (a.sa_flags & SA_SIGINFO)
    a.sa_sigaction (sig, info, uc);
  else if (a.sa_handler != SIG_IGN)
    a.sa_handler (sig);
}

/* Can the runtime manage SIG?  Not SIGKILL/SIGSTOP, nor glibc's own
   realtime signals (below SIGRTMIN).  */
static int
managed (int sig)
{
  return sig > 0 && sig < _NSIG && sig <= 64 && sig != SIGKILL && sig != SIGSTOP
         && !(sig >= __SIGRTMIN && sig < SIGRTMIN);
}

/* Make the kernel hold what the program asks for SIG (ACT), with the
   runtime's handler or trampoline in front where needed.  Lock held.  */
static int
install (int sig, const struct sigaction *act)
{
  struct sigaction k = *act;
  enum holder h = HELD_BY_KERNEL;
  if (act->sa_handler == SIG_DFL && runtime_handlers && is_fatal (sig))
    {
      memset (&k, 0, sizeof k);
      k.sa_sigaction = on_fatal_signal;
      k.sa_flags = SA_SIGINFO | SA_ONSTACK;
      h = HELD_BY_RUNTIME;
    }
  else if (act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN)
    {
      k.sa_sigaction = trampoline;
      /* The trampoline does SA_RESETHAND's reset itself: a signal it
         defers must find it again.  */
      k.sa_flags = (k.sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
      h = HELD_BY_WRAPPER;
    }
  if (__sigaction (sig, &k, NULL) != 0)
    return -1;
  set_program_action (sig, act);
  holder[sig] = h;
  return 0;
}

/* At start: the runtime's handler where the disposition is the default,
   the trampoline in front of handlers installed before the runtime
   started (other constructors, .preinit_array code).  A small alternate
   stack lets the handler run after a stack overflow in the main thread.  */
void
zi_signals_init (void)
{
  /* Report writing symbolizes with libdw, which needs a deep stack; pages
     of this array cost nothing until a fatal signal uses them.  */
  static char altstack[1 << 22];
  stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
  stack_t old;
  if (sigaltstack (NULL, &old) == 0 && (old.ss_flags & SS_DISABLE))
    sigaltstack (&ss, NULL);
  sigset_t mask;
  lock_changes (&mask);
  runtime_handlers = 1;
  for (int sig = 1; sig < _NSIG; sig++)
    {
      struct sigaction now;
      if (!managed (sig) || holder[sig] != HELD_BY_KERNEL || __sigaction (sig, NULL, &now) != 0)
        continue;
      if (now.sa_handler == SIG_IGN || (now.sa_handler == SIG_DFL && !is_fatal (sig)))
        continue;
      install (sig, &now);
    }
  unlock_changes (&mask);
}

ZI_EXPORT int
sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  if (!managed (sig))
    return __sigaction (sig, act, old);
  sigset_t mask;
  lock_changes (&mask);
  int r = 0;
  struct sigaction was;
  if (holder[sig] == HELD_BY_KERNEL)
    r = __sigaction (sig, NULL, &was);
  else
    was = *program_action (sig);
  if (r == 0 && act)
    r = install (sig, act);
  int saved = errno;
  unlock_changes (&mask);
  if (r == 0 && old)
    *old = was;
  errno = saved;
  return r;
}

/* signal() and its variants, whose glibc versions call __sigaction
   directly.  */
static sighandler_t
set_handler (int sig, sighandler_t handler, int flags, int mask_self)
{
  struct sigaction act, old;
  memset (&act, 0, sizeof act);
  act.sa_handler = handler;
  act.sa_flags = flags;
  sigemptyset (&act.sa_mask);
  if (mask_self && sig > 0 && sig < _NSIG)
    sigaddset (&act.sa_mask, sig);
  if (handler == SIG_ERR)
    {
      errno = EINVAL;
      return SIG_ERR;
    }
  return sigaction (sig, &act, &old) == 0 ? old.sa_handler : SIG_ERR;
}

/* BSD semantics (glibc's signal): SA_RESTART, the signal masked in its
   handler.  */
ZI_EXPORT sighandler_t
signal (int sig, sighandler_t handler)
{
  return set_handler (sig, handler, SA_RESTART, 1);
}

ZI_EXPORT sighandler_t
bsd_signal (int sig, sighandler_t handler)
{
  return set_handler (sig, handler, SA_RESTART, 1);
}

/* System V semantics: reset to the default on delivery, not masked.
   glibc's <signal.h> makes signal () in a strict ISO C program
   (-std=c99) a call to __sysv_signal.  */
ZI_EXPORT sighandler_t
sysv_signal (int sig, sighandler_t handler)
{
  return set_handler (sig, handler, SA_RESETHAND | SA_NODEFER, 0);
}

ZI_EXPORT sighandler_t
__sysv_signal (int sig, sighandler_t handler)
{
  return set_handler (sig, handler, SA_RESETHAND | SA_NODEFER, 0);
}
