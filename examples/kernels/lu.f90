! lu.f90 - dense LU factorization with partial pivoting of a discretized
! 2-D operator, in Fortran with OpenMP (the dense-LU pattern of LINPACK,
! applied, as happens in practice, to a matrix that is really sparse).
!
! Kernel.  A is the 5-point convection-diffusion operator on a g x g grid
! (n = g^2 unknowns, natural ordering): 4.2 on the diagonal, -1 +- a
! small random skew for the four neighbours.  It is stored as a dense
! n x n column-major array and factored by the right-looking algorithm:
! for each column k, find the pivot (maxloc of |a(k:n,k)|), swap rows,
! scale the column below the pivot, and update the trailing matrix one
! column j at a time (columns in parallel):
!     a(k+1:n, j) = a(k+1:n, j) - a(k, j) * a(k+1:n, k)
! The factors solve A x = b with b = A * (1, ..., 1); the program prints
! sum(x), max |x - 1| and log |det A|.  Every element is updated in the
! same order by any number of threads, so the output does not depend on
! the thread count.
!
! Redundant zeros zeroinst should find: the matrix has bandwidth g, and
! its LU factors stay inside the band (fill-in happens only between the
! outermost diagonals), so in the dense update
! - a(k, j) is 0.0 for all but ~g of the columns j > k, and a(k+1:n, k)
!   is 0.0 below row k + g: most multiplier loads are zero elements;
! - a(i, j) loaded by the update is 0.0 outside the band: for the default
!   g = 44 the band (2g+1 = 89 diagonals, n = 1936) is under 5% of the
!   matrix, so nearly all floating-point bytes loaded are zero -- the case
!   for a banded or sparse solver;
! - the pivot search scans a mostly zero column.
!
! Size: the first argument (or env EXAMPLE_SIZE) is "quick", "default" or
! g, the grid side (n = g^2).
module lu_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0), i8 = selected_int_kind(18)
contains

  integer function problem_size(quick, dflt)
    integer, intent(in) :: quick, dflt
    character(len=64) :: arg
    integer :: stat, v
    if (command_argument_count() >= 1) then
      call get_command_argument(1, arg)
    else
      call get_environment_variable('EXAMPLE_SIZE', arg, status=stat)
      if (stat /= 0) arg = 'default'
    end if
    select case (trim(arg))
    case ('default')
      problem_size = dflt
    case ('quick')
      problem_size = quick
    case default
      read (arg, *, iostat=stat) v
      if (stat /= 0 .or. v <= 0) then
        write (0, '(a)') 'usage: lu [quick|default|N]'
        stop 2
      end if
      problem_size = v
    end select
  end function problem_size

  ! a deterministic value in [-0.1, 0.1) for the entry (i, j)
  real(dp) function skew(i, j)
    integer, intent(in) :: i, j
    integer(i8) :: h
    h = mod(int(i, i8) * 2654435_i8 + int(j, i8) * 40503_i8 + 12345_i8, 2147483647_i8)
    h = mod(h * 48271_i8, 2147483647_i8)
    skew = 0.2_dp * (real(h, dp) / 2147483647.0_dp) - 0.1_dp
  end function skew
end module lu_mod

program lu
  use lu_mod
  implicit none
  integer :: g, n, i, j, k, p, ix, iy
  integer, allocatable :: ipiv(:)
  real(dp), allocatable :: a(:, :), b(:), x(:), row(:)
  real(dp) :: t, logdet, err

  g = problem_size(24, 44)
  if (g < 2 .or. g > 200) then
    write (0, '(a)') 'lu: g must be in [2, 200]'
    stop 2
  end if
  n = g * g
  allocate (a(n, n), b(n), x(n), ipiv(n), row(n))

  ! the 5-point operator, natural ordering: i = ix + g*(iy-1)
  !$omp parallel do private(i, ix, iy) schedule(static)
  do j = 1, n
    a(:, j) = 0.0_dp
    ix = 1 + mod(j - 1, g)
    iy = 1 + (j - 1) / g
    a(j, j) = 4.2_dp
    ! entries (i, j) for the four grid neighbours i of j
    if (ix > 1) a(j - 1, j) = -1.0_dp + skew(j - 1, j)
    if (ix < g) a(j + 1, j) = -1.0_dp + skew(j + 1, j)
    if (iy > 1) a(j - g, j) = -1.0_dp + skew(j - g, j)
    if (iy < g) a(j + g, j) = -1.0_dp + skew(j + g, j)
  end do
  !$omp end parallel do
  do i = 1, n
    b(i) = sum(a(i, :))
  end do

  ! factor
  logdet = 0.0_dp
  do k = 1, n
    p = k - 1 + maxloc(abs(a(k:n, k)), dim=1)
    ipiv(k) = p
    if (p /= k) then
      row = a(k, :)
      a(k, :) = a(p, :)
      a(p, :) = row
    end if
    logdet = logdet + log(abs(a(k, k)))
    a(k + 1:n, k) = a(k + 1:n, k) / a(k, k)
    !$omp parallel do private(i, t) schedule(static)
    do j = k + 1, n
      t = a(k, j)
      do i = k + 1, n
        a(i, j) = a(i, j) - t * a(i, k)
      end do
    end do
    !$omp end parallel do
  end do

  ! solve: apply the row swaps to b, then L y = b, U x = y
  x = b
  do k = 1, n
    if (ipiv(k) /= k) then
      t = x(k)
      x(k) = x(ipiv(k))
      x(ipiv(k)) = t
    end if
  end do
  do j = 1, n
    x(j + 1:n) = x(j + 1:n) - x(j) * a(j + 1:n, j)
  end do
  do j = n, 1, -1
    x(j) = x(j) / a(j, j)
    x(1:j - 1) = x(1:j - 1) - x(j) * a(1:j - 1, j)
  end do
  err = maxval(abs(x - 1.0_dp))

  write (*, '(a,i0,a,i0)') 'lu.f90: g=', g, ' n=', n
  write (*, '(a,es20.12)') 'lu.f90: log|det|', logdet
  write (*, '(a,es20.12,a,es10.3)') 'lu.f90: sum(x)', sum(x), '  max|x-1|', err
  deallocate (a, b, x, ipiv, row)
end program lu
