! One statement's loads of one array told apart.  gfortran gives every
! load of a statement one location (its last line's end) and the loop
! optimizers rewrite each element's address into an induction variable,
! so the late GIMPLE cannot say which element a load reads; the early pass
! gives each load a location of its own (a source range, not the line
! table's) and its text follows it.  Each of the four is a record of its
! own, with its own text and counts: n = 4, 16 iterations each, and
! u(a, b) = mod(a * a + 2 * b, 3) is zero in 6, 7, 5 and 4 of the elements
! they read (counted by hand per subscript, e.g. u(i, j + 1): b = 3 with
! a = 3, or b = 4 with a = 1, 2 or 4).
! zeroinst-flags: -O2 -g
! expect@s: text="u(i - 1, j)" elements=16 zero_elements=6
! expect@s: text="u(i + 1, j)" elements=16 zero_elements=7
! expect@s: text="u(i, j - 1)" elements=16 zero_elements=5
! expect@s: text="u(i, j + 1)" elements=16 zero_elements=4
module stencil_mod
  implicit none
contains
  subroutine sweep(u, v, n)
    integer, value :: n
    real(8), intent(in) :: u(0:, 0:)
    real(8), intent(out) :: v(:, :)
    integer :: i, j
    do j = 1, n
       do i = 1, n
          v(i, j) = u(i - 1, j) + 2 * u(i + 1, j) &
               + 3 * u(i, j - 1) + 4 * u(i, j + 1)  ! [[s]]
       end do
    end do
  end subroutine sweep
end module stencil_mod

program exprs_fortran_stencil
  use stencil_mod
  implicit none
  real(8), allocatable :: u(:, :), v(:, :)
  integer :: n, a, b
  n = 3 + command_argument_count() + 1
  allocate(u(0:n + 1, 0:n + 1), v(n, n))
  do b = 0, n + 1
     do a = 0, n + 1
        u(a, b) = mod(a * a + 2 * b, 3)
     end do
  end do
  call sweep(u, v, n)
  print *, sum(v)
end program exprs_fortran_stencil
