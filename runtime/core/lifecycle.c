/* lifecycle.c - start-up and every way out of the process.

   The runtime starts from a constructor or, if instrumented code runs
   first (static linking, other constructors), from its first function
   entry (__zeroinst_enter_node).  The
   report is written:
     - at exit (atexit: return from main, exit() from any thread, the last
       thread's pthread_exit);
     - before exec* replaces the process image (interpose/exec.c);
     - on a signal whose default action ends the process, while that is
       its disposition (signals.c): written, then the signal is re-raised
       with its default action, so the exit status is what it would have
       been;
     - in a forked child, which starts with empty counters and writes its own
       report (only if it loaded something itself).
   _exit() and SIGKILL cannot be caught: their data is lost.  A program that
   installs its own handler for one of these signals keeps it (zeroinst then
   reports at exit only).  Signals that arrive while a thread is inside the
   runtime wait until it leaves (signals.c).  */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/report.h"
#include "data/shadow.h"

pid_t zi_pid;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
at_exit (void)
{
  zi_finish ("exit");
}

/* fork: flush the forking thread so the parent keeps what it loaded; the
   child starts empty.  zi_lock, then the write side of zi_objects_lock
   (the order of a report), is held across fork so the child never
   inherits them locked by a thread that does not exist there, nor the
   objects' tables half changed.  */
static int objects_held;

static void
before_fork (void)
{
  struct zi_thread *t = zi_thread_self ();
  zi_enter ();
  zi_contexts_fold (t, 1, zi_table_fold, &t->counters);
  pthread_mutex_lock (&zi_lock);
  objects_held = zi_data_on ? zi_objects_wrlock () : 0;
}

static void
after_fork_parent (void)
{
  zi_objects_unlock (objects_held);
  pthread_mutex_unlock (&zi_lock);
  zi_leave ();
}

/* O was not loaded in this process.  */
static void
forget_loads (struct zi_object *o, void *arg)
{
  (void) arg;
  o->word &= ~((uint64_t) 0xff << ZI_OBJECT_KINDS_SHIFT);
}

/* A forked child reports only what it loads itself; what the forking
   thread counted before the fork was taken by before_fork, and is the
   parent's.  So no group has counts or states, no live object has been
   loaded (nor its slot in the chunk tables), and the shadow (byte
   states, group ids) is empty; data slots fill again.  */
static void
forget_parent_data (void)
{
  zi_groups_forget ();
  zi_statics_each (forget_loads, NULL);
  zi_heap_each (forget_loads, NULL);
  zi_chunks_forget_loads ();
  zi_shadow_reset ();
  zi_dslots_stale (NULL);
}

static void
after_fork_child (void)
{
  pthread_mutex_init (&zi_lock, NULL);
  zi_stopping = 0;           /* a report being written in the parent is the parent's */
  zi_pid = getpid ();
  zi_threads_after_fork_child ();
  zi_contexts_after_fork_child ();
  zi_objects_after_fork_child ();
  if (zi_data_on)
    {
      zi_statics_after_fork_child (zi_self);
      forget_parent_data ();
    }
  zi_symbols_reset ();
  zi_leave ();
}

static void
init_once (void)
{
  zi_enter ();
  zi_pid = getpid ();
  zi_remember_start ();
  zi_read_options ();
  zi_threads_init ();
  zi_contexts_init ();
  zi_stack_init ();      /* before thread 0 reads its (raised) stack bounds */
  zi_thread_self ();     /* the initial thread is thread 0 (its stack known for data mode) */
  zi_objects_init ();
  atexit (at_exit);
  zi_signals_init ();
  pthread_atfork (before_fork, after_fork_parent, after_fork_child);
  zi_leave ();
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
