! Fortran's references in Fortran's syntax, optimized (exprs_fortran.f90
! at -O0): the loop optimizers rewrite each element's address into an
! induction variable, and the text is the early GIMPLE's, found by the
! statement's location (gfortran gives a statement's loads one location;
! the plugin's early pass makes each load's its own, a source range).  Two
! elements of one array in one statement read p(r, c) and p(c, r).  The
! descriptors' fields load once, before the loops.  k = 4 (3 + argc): 3 * 3 iterations per line.
! zeroinst-flags: -O2 -g
module exprs_opt_mod
  implicit none
  real(8), allocatable :: g(:, :)
contains
  subroutine run(p, q, k, total)
    integer, value :: k
    real(8), intent(in) :: p(:, :)
    real(8), intent(in) :: q(:)
    real(8), intent(out) :: total
    real(8) :: s
    integer :: r, c
    s = 0
    do c = 2, k
       do r = 1, k - 1
          s = s + p(r + 1, c - 1)  ! expect: elements=9 expr="p(r + 1, c - 1)"
          s = s + q(r)  ! expect: elements=9 expr=q(r)
          s = s + g(r, c)  ! expect: elements=12 expr="g(r, c)"|g%data|g%offset|g%dim(2)%stride
          s = s + p(r, c) * p(c, r)  ! expect: elements=18 expr="p(r, c)|p(c, r)"
       end do
    end do
    total = s
  end subroutine run
end module exprs_opt_mod

program exprs_fortran_opt
  use exprs_opt_mod
  implicit none
  real(8), allocatable :: m(:, :), w(:)
  real(8) :: total
  integer :: k
  k = 3 + command_argument_count() + 1
  allocate(m(k, k), w(k), g(k, k))
  m = 1
  w = 2
  g = 3
  call run(m, w, k, total)
  print *, total
end program exprs_fortran_opt
