! cg.f90 - conjugate gradient on a 3-D diffusion operator stored in
! ELLPACK format (the NPB CG pattern, sparse matrix-vector products, in
! Fortran with OpenMP).
!
! Kernel.  The operator is the 7-point finite-volume diffusion matrix on
! an m x m x m grid (n = m^3 unknowns) with a conductivity field kappa:
! the coupling between neighbouring cells p and q is -kappa(p)*kappa(q),
! and the diagonal is SHIFT plus the sum of the |couplings| (symmetric,
! diagonally dominant: positive definite).  The matrix is stored in
! ELLPACK form: exactly 7 entries per row (col(1:7, i), val(1:7, i)); a
! cell on the boundary has fewer than 6 neighbours and its missing
! entries are padding (val = 0.0, col = i), as ELLPACK requires.  CG
! solves A x = b (b varied, x = 0 at the start) for a fixed number of
! iterations and prints the residual norm along the way.  Dot products
! add NBLK fixed blocks in a fixed order, so the output does not depend on
! the number of threads.
!
! Redundant zeros zeroinst should find:
! - col is integer(8), but n < 2^31: four (or more) zero high bytes in
!   every index loaded by the matrix-vector product;
! - kappa is 0 in an insulating block (the octant with all coordinates
!   below m/2, 1/8 of the cells), so every coupling of those cells is an
!   exact 0.0 -- plus the ELLPACK padding on the faces: about 1/8 of the
!   stored off-diagonal values are zero elements;
! - x starts at 0.0, so the first update loads zeros.
!
! Size: the first argument (or env EXAMPLE_SIZE) is "quick", "default" or
! m, the grid side.
module cg_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0), i8 = selected_int_kind(18)
  integer, parameter :: nblk = 256
  real(dp), parameter :: shift = 0.1_dp
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
        write (0, '(a)') 'usage: cg [quick|default|N]'
        stop 2
      end if
      problem_size = v
    end select
  end function problem_size

  ! x . y, in nblk fixed blocks added in order
  real(dp) function dot(x, y, n)
    integer(i8), intent(in) :: n
    real(dp), intent(in) :: x(n), y(n)
    real(dp) :: part(nblk), s
    integer(i8) :: i, lo, hi
    integer :: b
    !$omp parallel do private(i, lo, hi, s) schedule(static)
    do b = 1, nblk
      lo = (n * (b - 1)) / nblk + 1
      hi = (n * b) / nblk
      s = 0.0_dp
      do i = lo, hi
        s = s + x(i) * y(i)
      end do
      part(b) = s
    end do
    !$omp end parallel do
    dot = 0.0_dp
    do b = 1, nblk
      dot = dot + part(b)
    end do
  end function dot

  ! y = A x, A in ELLPACK form
  subroutine matvec(col, val, x, y, n)
    integer(i8), intent(in) :: n
    integer(i8), intent(in) :: col(7, n)
    real(dp), intent(in) :: val(7, n), x(n)
    real(dp), intent(out) :: y(n)
    integer(i8) :: i
    integer :: e
    real(dp) :: s
    !$omp parallel do private(e, s) schedule(static)
    do i = 1, n
      s = 0.0_dp
      do e = 1, 7
        s = s + val(e, i) * x(col(e, i))
      end do
      y(i) = s
    end do
    !$omp end parallel do
  end subroutine matvec
end module cg_mod

program cg
  use cg_mod
  implicit none
  integer, parameter :: niter = 120
  integer :: m, it, d
  integer(i8) :: n, i, q, ix, iy, iz, jx, jy, jz
  integer(i8), allocatable :: col(:, :)
  real(dp), allocatable :: val(:, :), kappa(:), x(:), r(:), p(:), ap(:), b(:)
  real(dp) :: rho, rho_new, alpha, beta, diag, c
  integer :: dxyz(3, 6)

  m = problem_size(32, 92)
  if (m < 4 .or. m > 1000) then
    write (0, '(a)') 'cg: m must be in [4, 1000]'
    stop 2
  end if
  n = int(m, i8)**3
  allocate (col(7, n), val(7, n), kappa(n), x(n), r(n), p(n), ap(n), b(n))
  dxyz = reshape([-1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1], [3, 6])

  ! conductivity: 0 in the insulating octant, smooth elsewhere
  !$omp parallel do private(ix, iy, iz) schedule(static)
  do i = 1, n
    ix = mod(i - 1, int(m, i8))
    iy = mod((i - 1) / m, int(m, i8))
    iz = (i - 1) / (int(m, i8) * m)
    if (2 * ix < m .and. 2 * iy < m .and. 2 * iz < m) then
      kappa(i) = 0.0_dp
    else
      kappa(i) = 1.0_dp + 0.5_dp * sin(0.3_dp * ix) * cos(0.2_dp * iy + 0.1_dp * iz)
    end if
  end do
  !$omp end parallel do

  ! ELLPACK rows: 6 neighbours (or padding), then the diagonal
  !$omp parallel do private(ix, iy, iz, jx, jy, jz, q, d, c, diag) schedule(static)
  do i = 1, n
    ix = mod(i - 1, int(m, i8))
    iy = mod((i - 1) / m, int(m, i8))
    iz = (i - 1) / (int(m, i8) * m)
    diag = shift
    do d = 1, 6
      jx = ix + dxyz(1, d)
      jy = iy + dxyz(2, d)
      jz = iz + dxyz(3, d)
      if (jx < 0 .or. jy < 0 .or. jz < 0 .or. jx >= m .or. jy >= m .or. jz >= m) then
        col(d, i) = i            ! padding
        val(d, i) = 0.0_dp
      else
        q = 1 + jx + m * (jy + int(m, i8) * jz)
        c = -kappa(i) * kappa(q)
        col(d, i) = q
        val(d, i) = c
        diag = diag + abs(c)
      end if
    end do
    col(7, i) = i
    val(7, i) = diag
  end do
  !$omp end parallel do

  ! CG on A x = b from x = 0
  !$omp parallel do schedule(static)
  do i = 1, n
    b(i) = real(mod(i * 7919_i8, 101_i8), dp) / 50.0_dp - 1.0_dp
    x(i) = 0.0_dp
    r(i) = b(i)
    p(i) = b(i)
  end do
  !$omp end parallel do
  rho = dot(r, r, n)
  do it = 1, niter
    call matvec(col, val, p, ap, n)
    alpha = rho / dot(p, ap, n)
    !$omp parallel do schedule(static)
    do i = 1, n
      x(i) = x(i) + alpha * p(i)
      r(i) = r(i) - alpha * ap(i)
    end do
    !$omp end parallel do
    rho_new = dot(r, r, n)
    beta = rho_new / rho
    rho = rho_new
    !$omp parallel do schedule(static)
    do i = 1, n
      p(i) = r(i) + beta * p(i)
    end do
    !$omp end parallel do
    if (it == 1 .or. it == 10 .or. it == 40 .or. it == niter) then
      write (*, '(a,i4,a,es20.12)') 'cg.f90: iteration', it, '  residual', sqrt(rho)
    end if
  end do

  ! true residual |b - A x| and the solution's sum
  call matvec(col, val, x, ap, n)
  !$omp parallel do schedule(static)
  do i = 1, n
    r(i) = b(i) - ap(i)
  end do
  !$omp end parallel do
  write (*, '(a,i0,a,i0,a,es20.12)') 'cg.f90: m=', m, ' n=', n, '  true residual', sqrt(dot(r, r, n))
  write (*, '(a,es22.14)') 'cg.f90: b . x', dot(x, b, n)
  deallocate (col, val, kappa, x, r, p, ap, b)
end program cg
