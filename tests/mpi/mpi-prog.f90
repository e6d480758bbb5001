! mpi-prog.f90 - the Fortran twin of mpi-prog.c (tests/mpi).
!
! Rank r sets the first 64*r of the 256 integer(8) elements of the module
! array a to 1 and the rest to 0; sum_a loads each once.  For rank r:
!   elements 256, bytes 2048, zero elements 256 - 64r;
!   redundant bytes 7*64r + 8*(256 - 64r) = 2048 - 64r;
!   redmap "00000000" for rank 0, else "0000000x";
!   the static object counts::a: always-zero bytes 2048 - 64r, byte map
!   "1x7z" for each 1, the zeros after it in one run.
module counts
  implicit none
  integer(8) :: a(256)
contains
  subroutine sum_a(s)
    integer(8), intent(out) :: s
    integer :: i
    s = 0
    do i = 1, 256
      s = s + a(i)
    end do
  end subroutine sum_a
end module counts

program mpi_prog
  use mpi
  use counts
  implicit none
  integer :: rank, ierr, i
  integer(8) :: s, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  do i = 1, 256
    a(i) = merge(1_8, 0_8, i <= 64 * rank)
  end do
  call sum_a(s)
  call MPI_Reduce(s, total, 1, MPI_INTEGER8, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(I0)', total
  call MPI_Finalize(ierr)
end program mpi_prog
