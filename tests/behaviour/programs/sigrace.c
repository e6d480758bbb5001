/* sigrace.c - loads in a SIGALRM handler, every 50 us, interrupt loads in
   main, and so the runtime's own work too (re-entry).  Returns 0.  */
#include <signal.h>
#include <sys/time.h>
#define N 100000
long arr[N];
volatile long hsum;
static void handler(int s) { long t = 0; for (int i = 0; i < 1000; i++) t += arr[i]; hsum += t; }
int main(void) {
  for (int i = 0; i < N; i++) arr[i] = i & 7;
  signal(SIGALRM, handler);
  struct itimerval it = {{0, 50}, {0, 50}};
  setitimer(ITIMER_REAL, &it, 0);
  long s = 0;
  for (int r = 0; r < 1000; r++) for (int i = 0; i < N; i++) s += arr[i];
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, 0);
  return s != 1000L * (N / 8) * 28;
}
