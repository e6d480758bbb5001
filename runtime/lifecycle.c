/* lifecycle.c - start-up and every way out of the process.

   The runtime starts from a constructor or, if instrumented code runs
   first (static linking, other constructors), from the first refill.  The
   report is written:
     - at exit (atexit: return from main, exit() from any thread, the last
       thread's pthread_exit);
     - before exec* replaces the process image (exec.c);
     - on a fatal signal whose disposition was the default (SIGSEGV, SIGBUS,
       SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGTERM, SIGINT, SIGQUIT,
       SIGHUP, SIGXCPU, SIGXFSZ): written, then the signal is re-raised with
       its default action, so the exit status is what it would have been;
     - in a forked child, which starts with empty counters and writes its own
       report (only if it loaded something itself).
   _exit() and SIGKILL cannot be caught: their data is lost.  A program that
   installs its own handler for one of these signals keeps it (zeroinst then
   reports at exit only).  */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runtime.h"

pid_t zi_pid;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const int fatal_signals[] = {
  SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS,
  SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGXCPU, SIGXFSZ,
};

static void
at_exit (void)
{
  zi_finish ("exit");
}

static void
on_fatal_signal (int sig)
{
  int saved = errno;
  static volatile sig_atomic_t reported;
  if (!reported)
    {
      reported = 1;
      zi_finish ("signal");
    }
  struct sigaction dfl;
  memset (&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction (sig, &dfl, NULL);
  errno = saved;
  raise (sig);
}

/* Handlers only where the program (or its parent) left the default: an
   ignored or handled signal stays as it was.  A small alternate stack lets
   the handler run after a stack overflow in the main thread.  */
static void
install_signal_handlers (void)
{
  /* Report writing symbolizes with libdw, which needs a deep stack; pages
     of this array cost nothing until a fatal signal uses them.  */
  static char altstack[1 << 22];
  stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
  stack_t old;
  if (sigaltstack (NULL, &old) == 0 && (old.ss_flags & SS_DISABLE))
    sigaltstack (&ss, NULL);
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    {
      struct sigaction cur;
      if (sigaction (fatal_signals[i], NULL, &cur) != 0 || cur.sa_handler != SIG_DFL
          || (cur.sa_flags & SA_SIGINFO))
        continue;
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = on_fatal_signal;
      sa.sa_flags = SA_ONSTACK;
      sigemptyset (&sa.sa_mask);
      sigaction (fatal_signals[i], &sa, NULL);
    }
}

/* fork: flush the forking thread so the parent keeps what it loaded; the
   child starts empty.  zi_lock is held across fork so the child never
   inherits it locked by a thread that does not exist there.  */
static void
before_fork (void)
{
  struct zi_thread *t = zi_thread_self ();
  zi_in_runtime++;
  zi_flush_thread (t);
  pthread_mutex_lock (&zi_lock);
}

static void
after_fork_parent (void)
{
  pthread_mutex_unlock (&zi_lock);
  zi_in_runtime--;
}

static void
after_fork_child (void)
{
  pthread_mutex_init (&zi_lock, NULL);
  zi_pid = getpid ();
  zi_threads_after_fork_child ();
  zi_contexts_after_fork_child ();
  zi_objects_after_fork_child ();
  zi_symbols_reset ();
  zi_in_runtime--;
}

static void
init_once (void)
{
  zi_in_runtime++;
  zi_pid = getpid ();
  zi_remember_start ();
  zi_read_options ();
  zi_threads_init ();
  zi_contexts_init ();
  zi_stack_init ();      /* before thread 0 reads its (raised) stack bounds */
  zi_thread_self ();     /* the initial thread is thread 0 (its stack known for data mode) */
  zi_objects_init ();
  atexit (at_exit);
  install_signal_handlers ();
  pthread_atfork (before_fork, after_fork_parent, after_fork_child);
  zi_in_runtime--;
}

void
zi_init (void)
{
  pthread_once (&once, init_once);
}

__attribute__ ((constructor (101))) static void
zeroinst_constructor (void)
{
  zi_init ();
}
