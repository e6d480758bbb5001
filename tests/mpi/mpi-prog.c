/* mpi-prog.c - an MPI program whose loads depend on its rank (tests/mpi).

   Rank r sets the first 64*r of the 256 elements of the uint32_t array buf
   to 1 and the rest to 0 (stores are not counted), then sum_buf loads each
   element once.  So, for rank r (0..3):
     elements 256, bytes 1024;
     zero elements 256 - 64r;
     redundant bytes: a 1 has 3 zero high bytes, a 0 has 4:
       3*64r + 4*(256 - 64r) = 1024 - 64r  (1024, 960, 896, 832);
     redmap "0000" for rank 0 (all zero), else "000x";
     the static object buf: never-loaded bytes 0, always-zero bytes
       1024 - 64r (every byte but the low byte of each 1), byte map
       (little-endian) "1x3z" for each 1, the zeros after it in one run.  */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

uint32_t buf[256];

__attribute__ ((noinline)) static uint64_t
sum_buf (void)
{
  uint64_t s = 0;
  for (int i = 0; i < 256; i++)
    s += buf[i];
  return s;
}

int
main (int argc, char **argv)
{
  int rank;
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  for (int i = 0; i < 256; i++)
    buf[i] = i < 64 * rank;
  uint64_t s = sum_buf (), all = 0;
  MPI_Reduce (&s, &all, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf ("%llu\n", (unsigned long long) all);
  MPI_Finalize ();
  return 0;
}
