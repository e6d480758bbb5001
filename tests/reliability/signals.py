#!/usr/bin/env python3
"""Reliability under signals: a report for every default-disposition fatal
signal, whatever the thread was doing (issue items 4 and 5), and the
program's own handlers as it set them.

The load-heavy program below runs until killed: every thread calls
load_ones(1000) in a loop, and allocates and frees a block every
iteration (so signals also land in the allocator and, in data mode, in the
heap tracking).  It prints "ready" once every thread has finished one full
load_ones(1000): from then on a report must hold at least 1000 elements of
load_ones per thread, and a thread row for each thread.
"""
import os
import random
import signal
import subprocess
import time

import common
from common import check

LOOPER = r"""
static pthread_barrier_t started;
static void *work (void *is_main)
{
  for (int first = 1;; first = 0)
    {
      load_ones (1000);
      char *p = malloc (64 + (sink & 255));
      p[0] = 1;
      sink += p[0];
      free (p);
      if (first)
        {
          pthread_barrier_wait (&started);
          if (is_main)
            {
              printf ("ready\n");
              fflush (stdout);
            }
        }
    }
}
int main (int argc, char **argv)
{
  init ();
  int nthreads = atoi (argv[1]);
  pthread_barrier_init (&started, 0, nthreads);
  for (int i = 1; i < nthreads; i++)
    {
      pthread_t t;
      pthread_create (&t, 0, work, 0);
    }
  work ((void *) 1);
}
"""

RUNS = 50


def wait_ready(proc):
    line = proc.stdout.readline()
    check(line == "ready\n", "program did not start: %r" % line)


def kill_at_random(threads, mode):
    """RUNS runs, each killed by SIGTERM or SIGINT (alternating) 0-40 ms
    after "ready": every run dies of that signal and leaves a complete
    report with >= 1000 load_ones elements per thread, and nothing on
    stderr (no "report not written")."""
    exe = common.build("looper", LOOPER)
    rng = random.Random(threads * 100 + len(mode))
    for i in range(RUNS):
        sig = (signal.SIGTERM, signal.SIGINT)[i % 2]
        out = os.path.join(common.TMP, "rep%d" % i)
        p = subprocess.Popen([exe, str(threads)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=common.TMP,
                             env=common.env_without_zeroinst({"ZEROINST_OUTPUT": out,
                                                              "ZEROINST_MODE": mode}))
        wait_ready(p)
        time.sleep(rng.uniform(0, 0.04))
        p.send_signal(sig)
        _, err = p.communicate(timeout=120)
        check(p.returncode == -sig, "run %d: status %d, expected death by %s; stderr %r"
              % (i, p.returncode, sig.name, err))
        check(err == "", "run %d: stderr %r" % (i, err))
        rep = common.valid_report(out)
        check(len(rep["threads"]) >= threads, "run %d: %d thread rows" % (i, len(rep["threads"])))
        if "code" in mode:
            check(common.elements_of(rep) >= 1000 * threads,
                  "run %d: %d load_ones elements" % (i, common.elements_of(rep)))
        else:
            total = rep["summary"]["int"]["elements"]
            check(total >= 1000 * threads, "run %d: %d int elements" % (i, total))


def case_kill_1_thread_code():
    kill_at_random(1, "code")


def case_kill_4_threads_code():
    kill_at_random(4, "code")


def case_kill_1_thread_data():
    kill_at_random(1, "data")


def case_kill_4_threads_data():
    kill_at_random(4, "data")


EXIT_HANDLER = r"""
#include <sys/time.h>
static void on_signal (int sig) { exit (sig == SIGALRM ? 9 : 7); }
""" + LOOPER.replace("int main (int argc, char **argv)\n{\n  init ();", r"""int main (int argc, char **argv)
{
  init ();
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGTERM, &sa, 0);
  signal (SIGALRM, on_signal);
  if (argc > 2)
    {
      /* argv[2]: microseconds until SIGALRM, from inside the process */
      struct itimerval it = { { 0, 0 }, { 0, atoi (argv[2]) } };
      setitimer (ITIMER_REAL, &it, 0);
    }""")


def case_exit_in_program_handler():
    """The program's SIGTERM handler calls exit(7) (the batch-system
    pattern), in RUNS runs killed at random times, and its SIGALRM handler,
    from a timer, exit(9) in RUNS more, one and four threads: each ends
    with that status and a complete report holding every thread's first
    1000 load_ones elements."""
    exe = common.build("exiter", EXIT_HANDLER)
    rng = random.Random(5)
    for i in range(2 * RUNS):
        threads = (1, 4)[i % 2]
        out = os.path.join(common.TMP, "rep%d" % i)
        env = common.env_without_zeroinst({"ZEROINST_OUTPUT": out,
                                           "ZEROINST_MODE": ("code", "code,data")[(i // 2) % 2]})
        if i < RUNS:
            p = subprocess.Popen([exe, str(threads)], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, cwd=common.TMP, env=env)
            wait_ready(p)
            time.sleep(rng.uniform(0, 0.04))
            p.send_signal(signal.SIGTERM)
            expect = 7
        else:
            # The timer may fire before "ready": then fewer loads are in.
            p = subprocess.Popen([exe, str(threads), str(rng.randint(20000, 60000))],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 cwd=common.TMP, env=env)
            expect = 9
        outp, err = p.communicate(timeout=120)
        check(p.returncode == expect, "run %d: status %d, expected %d; stderr %r"
              % (i, p.returncode, expect, err))
        check(err == "", "run %d: stderr %r" % (i, err))
        rep = common.valid_report(out)
        if outp == "ready\n":
            check(common.elements_of(rep) >= 1000 * threads,
                  "run %d: %d load_ones elements" % (i, common.elements_of(rep)))


SIGACTION_VIEW = r"""
static void h1 (int s) { }
static void h2 (int s, siginfo_t *i, void *c) { }
static void show (const char *what, int sig)
{
  struct sigaction o;
  sigaction (sig, 0, &o);
  printf ("%s: %s flags %#x masked-self %d\n", what,
          o.sa_handler == SIG_DFL ? "default" : o.sa_handler == SIG_IGN ? "ignored"
          : o.sa_handler == h1 ? "h1" : (void *) o.sa_sigaction == (void *) h2 ? "h2" : "OTHER",
          o.sa_flags & (SA_SIGINFO | SA_RESETHAND | SA_RESTART | SA_NODEFER),
          sigismember (&o.sa_mask, sig));
}
int main (void)
{
  init ();
  setvbuf (stdout, 0, _IONBF, 0);   /* the output before the final raise counts */
  show ("TERM at start", SIGTERM);
  show ("USR1 at start", SIGUSR1);
  show ("CHLD at start", SIGCHLD);
  printf ("signal returned %s\n", signal (SIGTERM, h1) == SIG_DFL ? "default" : "OTHER");
  show ("TERM after signal", SIGTERM);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = h2;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigaction (SIGUSR1, &sa, 0);
  show ("USR1 after sigaction", SIGUSR1);
  raise (SIGUSR1);
  show ("USR1 after one-shot delivery", SIGUSR1);
  printf ("sysv_signal returned %s\n", sysv_signal (SIGTERM, SIG_IGN) == h1 ? "h1" : "OTHER");
  show ("TERM ignored", SIGTERM);
  signal (SIGTERM, SIG_DFL);
  show ("TERM default again", SIGTERM);
  printf ("%lld\n", (long long) load_ones (10));
  raise (SIGTERM);
  return 0;
}
"""


def case_program_sees_its_own_actions():
    """sigaction's OLDACT and signal's result are what the program set, as
    in the plain build (the runtime's handler and trampoline are invisible),
    a SA_RESETHAND handler is reset after delivery, and SIGTERM set back
    to SIG_DFL still ends the program with a report (10 elements)."""
    plain = common.run([common.build("view", SIGACTION_VIEW, plugin=False)])
    inst = common.run([common.build("view", SIGACTION_VIEW)],
                      env={"ZEROINST_OUTPUT": os.path.join(common.TMP, "rep")})
    check(plain.returncode == -signal.SIGTERM and plain.stdout.count("\n") == 11,
          "plain status %d stdout %r" % (plain.returncode, plain.stdout))
    check((inst.returncode, inst.stdout) == (plain.returncode, plain.stdout),
          "differs from plain:\n%s\nvs\n%s" % (inst.stdout, plain.stdout))
    check(common.elements_of(common.valid_report(os.path.join(common.TMP, "rep"))) == 10,
          "elements")


REPORT_RACE = r"""
static volatile int exiting;
static int delay_us;
static void mark (void) { exiting = 1; }
static void *work (void *a)
{
  sigset_t s;
  sigemptyset (&s);
  sigaddset (&s, SIGTERM);
  pthread_sigmask (SIG_BLOCK, &s, 0);
  while (!exiting)
    free (malloc (64));
  usleep (delay_us);
  kill (getpid (), SIGTERM);
  for (;;)
    free (malloc (64));
}
int main (int argc, char **argv)
{
  init ();
  load_ones (1000);
  delay_us = atoi (argv[1]);
  pthread_t t;
  pthread_create (&t, 0, work, 0);
  usleep (20000);
  atexit (mark);
  return 0;
}
"""


def case_signal_during_report():
    """main returns; an atexit handler (run before the runtime's) lets a
    thread send SIGTERM after 0-5000 us, so that it lands while main
    writes the report (or before, or after).  18 runs: each ends (status 0
    or death by SIGTERM, never a hang) with a complete report of main's
    1000 elements."""
    exe = common.build("race", REPORT_RACE)
    for i, delay in enumerate([0, 50, 200, 1000, 2000, 5000] * 3):
        out = os.path.join(common.TMP, "rep%d" % i)
        try:
            r = common.run([exe, str(delay)], env={"ZEROINST_OUTPUT": out}, timeout=30)
        except subprocess.TimeoutExpired:
            raise common.Failure("run %d (delay %d us) hung" % (i, delay))
        check(r.returncode in (0, -signal.SIGTERM) and r.stderr == "",
              "run %d: status %d stderr %r" % (i, r.returncode, r.stderr))
        check(common.elements_of(common.valid_report(out)) == 1000, "run %d: elements" % i)


RESETHAND = r"""
#include <sys/syscall.h>
static volatile sig_atomic_t got;
static volatile pid_t wtid;
static void h (int s) { got = 1; }
static void *work (void *a)
{
  wtid = syscall (SYS_gettid);
  while (!got)
    free (malloc (64));
  return a;
}
int main (void)
{
  init ();
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = h;
  sa.sa_flags = SA_RESETHAND;
  sigaction (SIGUSR1, &sa, 0);
  pthread_t t;
  pthread_create (&t, 0, work, 0);
  while (!wtid)
    ;
  usleep (10000);
  syscall (SYS_tgkill, getpid (), wtid, SIGUSR1);
  pthread_join (t, 0);
  printf ("%lld\n", (long long) load_ones (3));
  return 0;
}
"""


def case_resethand_handler_deferred():
    """A one-shot (SA_RESETHAND) SIGUSR1 handler, the signal sent to a
    thread that spends its time in malloc/free (so usually deferred): the
    handler runs once in each of 20 runs, the program prints 3 and exits
    0, as plain (the kernel must not reset the handler before a deferred
    copy comes back)."""
    exe = common.build("reset", RESETHAND)
    for i in range(20):
        r = common.run([exe], env={"ZEROINST_OUTPUT": os.path.join(common.TMP, "rep%d" % i)})
        check(r.returncode == 0 and r.stdout == "3\n" and r.stderr == "",
              "run %d: status %d out %r err %r" % (i, r.returncode, r.stdout, r.stderr))


STRICT_C = r"""
#include <signal.h>
#include <stdio.h>
static void h (int s) { (void) s; }
int main (void)
{
  signal (SIGINT, h);
  struct sigaction o;
  sigaction (SIGINT, 0, &o);
  printf ("readback %s\n", o.sa_handler == h ? "h" : o.sa_handler == SIG_DFL ? "SIG_DFL" : "other");
  fflush (stdout);
  signal (SIGINT, SIG_DFL);
  raise (SIGINT);
  return 0;
}
"""


def case_strict_iso_c_signal():
    """In a -std=c99 program glibc's signal() is __sysv_signal: the handler
    reads back as set ("readback h", as plain), and SIGINT set back to
    SIG_DFL still ends the program with a report (ZEROINST_EMPTY_REPORT:
    it loads nothing)."""
    flags = ["-std=c99"]
    plain = common.run([common.build("strict", STRICT_C, flags, plugin=False, prelude=False)])
    out = os.path.join(common.TMP, "rep")
    inst = common.run([common.build("strict", STRICT_C, flags, prelude=False)],
                      env={"ZEROINST_OUTPUT": out, "ZEROINST_EMPTY_REPORT": "1"})
    check(plain.stdout == "readback h\n" and plain.returncode == -signal.SIGINT,
          "plain %d %r" % (plain.returncode, plain.stdout))
    check((inst.returncode, inst.stdout) == (plain.returncode, plain.stdout),
          "instrumented %d %r" % (inst.returncode, inst.stdout))
    common.valid_report(out)


if __name__ == "__main__":
    common.main(globals())
