/* real-prog.c - a small program for the tool.real-report test: sum()
   loads 100 unsigned values below 256, so its site has redmap 000x.  */
#include <stdio.h>

unsigned values[100];

__attribute__ ((noinline)) static unsigned
sum (void)
{
  unsigned s = 0;
  for (int i = 0; i < 100; i++)
    s += values[i];
  return s;
}

int
main (int argc, char **argv)
{
  (void) argv;
  for (int i = 0; i < 100; i++)
    values[i] = (unsigned) (i * argc) & 0xff;
  printf ("%u\n", sum ());
  return 0;
}
