! Fortran's references in Fortran's syntax (plugin/fortran.cc): elements
! of arrays with descriptors (an assumed-shape dummy, an allocatable of
! the host, a component array of an allocatable array's element) with
! their subscripts as written, and the descriptors' own fields.  One
! array reference per statement: gfortran gives a statement's loads one
! location (exprs_fortran_opt.f90 has the optimized build).  At -O0
! every element's address is computed from its descriptor, whose fields
! load on the element's line: data (the pointer), offset, the strides.
! n = 4 (3 + argc): 3 * 3 iterations of each line.
! zeroinst-flags: -O0 -g
program exprs_fortran
  implicit none
  type box
     real(8), allocatable :: v(:)
  end type box
  type(box), allocatable :: boxes(:)
  real(8), allocatable :: a(:, :), x(:), al(:, :)
  real(8) :: t
  integer :: n, j
  n = 3 + command_argument_count() + 1
  allocate(a(n, n), x(n), al(n, n), boxes(n))
  do j = 1, n
     allocate(boxes(j)%v(n))
     boxes(j)%v = j
  end do
  a = 1
  x = 2
  al = 3
  t = walk(a, x)
  print *, t
contains
  real(8) function walk(a, x) result(s)
    real(8), intent(in) :: a(:, :), x(:)
    integer :: i, j
    s = 0
    do j = 2, n
       do i = 1, n - 1
          s = s + a(i + 1, j - 1)  ! expect: elements=9 expr="a(i + 1, j - 1)"
          s = s + x(i)  ! expect: elements=9 expr=x(i)
          s = s + al(i, j)  ! expect: elements=36 expr="al(i, j)"|al%data|al%offset|al%dim(2)%stride
          s = s + boxes(j)%v(i)  ! expect: elements=63 expr=boxes(j)%v(i)|boxes%data|boxes%offset|boxes(j)%v%data|boxes(j)%v%offset
       end do
    end do
  end function walk
end program exprs_fortran
