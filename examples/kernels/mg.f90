! mg.f90 - multigrid V-cycles for the 3-D Poisson equation (the pattern
! of NPB MG: residual, smoother, restriction and prolongation sweeps over
! a hierarchy of 3-D grids, with a right-hand side that is zero almost
! everywhere).  Fortran with OpenMP.
!
! Kernel.  -laplace(u) = f on the unit cube, u = 0 on the boundary, on an
! n x n x n cell grid (n a power of two) with one ghost layer.  As in NPB
! MG, f is zero except at 20 cells: +1 at ten of them and -1 at ten others
! (chosen by a random-number generator).  Each V-cycle, on every level
! from the finest (n) to the coarsest (2): two weighted-Jacobi smoothing
! steps, the residual r = f - A u, restriction of r (average of the 8
! children, halved: see restrict) as the next level's right-hand side, a zero initial guess on
! the coarser level, the recursive solve, prolongation (each coarse value
! added to its 8 children) and two more smoothing steps.  The coarsest
! level is smoothed 20 times.  The residual norm is printed after every
! cycle; it is summed per plane and the planes are added in order, so the
! output does not depend on the number of threads.
!
! Redundant zeros zeroinst should find:
! - the right-hand side f on the finest level: 20 non-zero cells out of
!   n^3, so the load of f in every residual and smoothing sweep there is
!   essentially 100% zero elements (NPB MG has the same property); on the
!   coarser levels f is the restricted residual, mostly non-zero.  The f
!   load in the residual is ~90% zero over all levels;
! - the coarse-level solutions u start at 0.0 every cycle, so the first
!   smoothing step of every coarse level loads only zeros;
! - early in the first cycle the residual is exactly zero away from the
!   20 charges: zeros propagate only one cell per sweep.
!
! Size: the first argument (or env EXAMPLE_SIZE) is "quick", "default" or
! n, the grid side (a power of two, at least 4).
module mg_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0), i8 = selected_int_kind(18)
  real(dp), parameter :: omega = 2.0_dp / 3.0_dp

  type level_t
    integer :: n
    real(dp) :: h
    real(dp), allocatable :: u(:, :, :), f(:, :, :), r(:, :, :)
  end type level_t

  type(level_t), allocatable :: lev(:)
  integer :: nlev
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
        write (0, '(a)') 'usage: mg [quick|default|N]'
        stop 2
      end if
      problem_size = v
    end select
  end function problem_size

  ! r = f - A u on the interior (A = 7-point negative Laplacian / h^2)
  subroutine residual(l)
    integer, intent(in) :: l
    integer :: i, j, k, n
    real(dp) :: c
    n = lev(l)%n
    c = 1.0_dp / lev(l)%h**2
    associate (u => lev(l)%u, f => lev(l)%f, r => lev(l)%r)
      !$omp parallel do private(i, j) schedule(static)
      do k = 1, n
        do j = 1, n
          do i = 1, n
            r(i, j, k) = f(i, j, k) - c * (6.0_dp * u(i, j, k) &
                 - u(i - 1, j, k) - u(i + 1, j, k) - u(i, j - 1, k) &
                 - u(i, j + 1, k) - u(i, j, k - 1) - u(i, j, k + 1))
          end do
        end do
      end do
      !$omp end parallel do
    end associate
  end subroutine residual

  ! one weighted-Jacobi step: u = u + omega * h^2/6 * (f - A u)
  subroutine smooth(l)
    integer, intent(in) :: l
    integer :: i, j, k, n
    real(dp) :: w
    n = lev(l)%n
    w = omega * lev(l)%h**2 / 6.0_dp
    call residual(l)
    associate (u => lev(l)%u, r => lev(l)%r)
      !$omp parallel do private(i, j) schedule(static)
      do k = 1, n
        do j = 1, n
          do i = 1, n
            u(i, j, k) = u(i, j, k) + w * r(i, j, k)
          end do
        end do
      end do
      !$omp end parallel do
    end associate
  end subroutine smooth

  ! f(l+1) = half the average of the 8 children of r(l); u(l+1) = 0.
  ! With constant prolongation P and averaging restriction R, the Galerkin
  ! coarse operator R A P is twice the coarse operator the level uses, so
  ! the coarse right-hand side is halved (1/16 = 1/2 * 1/8).
  subroutine restrict(l)
    integer, intent(in) :: l
    integer :: i, j, k, nc
    nc = lev(l + 1)%n
    associate (r => lev(l)%r, fc => lev(l + 1)%f, uc => lev(l + 1)%u)
      !$omp parallel do private(i, j) schedule(static)
      do k = 1, nc
        do j = 1, nc
          do i = 1, nc
            fc(i, j, k) = 0.0625_dp * sum(r(2 * i - 1:2 * i, 2 * j - 1:2 * j, 2 * k - 1:2 * k))
          end do
        end do
      end do
      !$omp end parallel do
      uc = 0.0_dp
    end associate
  end subroutine restrict

  ! u(l) += coarse u(l+1), constant over the 8 children
  subroutine prolong(l)
    integer, intent(in) :: l
    integer :: i, j, k, n
    n = lev(l)%n
    associate (u => lev(l)%u, uc => lev(l + 1)%u)
      !$omp parallel do private(i, j) schedule(static)
      do k = 1, n
        do j = 1, n
          do i = 1, n
            u(i, j, k) = u(i, j, k) + uc((i + 1) / 2, (j + 1) / 2, (k + 1) / 2)
          end do
        end do
      end do
      !$omp end parallel do
    end associate
  end subroutine prolong

  recursive subroutine vcycle(l)
    integer, intent(in) :: l
    integer :: s
    if (l == nlev) then
      do s = 1, 20
        call smooth(l)
      end do
      return
    end if
    call smooth(l)
    call smooth(l)
    call residual(l)
    call restrict(l)
    call vcycle(l + 1)
    call prolong(l)
    call smooth(l)
    call smooth(l)
  end subroutine vcycle

  ! |r| on level 1, summed per plane, planes added in order
  real(dp) function rnorm()
    integer :: i, j, k, n
    real(dp), allocatable :: part(:)
    real(dp) :: s
    n = lev(1)%n
    allocate (part(n))
    call residual(1)
    associate (r => lev(1)%r)
      !$omp parallel do private(i, j, s) schedule(static)
      do k = 1, n
        s = 0.0_dp
        do j = 1, n
          do i = 1, n
            s = s + r(i, j, k)**2
          end do
        end do
        part(k) = s
      end do
      !$omp end parallel do
    end associate
    rnorm = 0.0_dp
    do k = 1, n
      rnorm = rnorm + part(k)
    end do
    rnorm = sqrt(rnorm)
  end function rnorm
end module mg_mod

program mg
  use mg_mod
  implicit none
  integer, parameter :: ncycle = 12
  integer :: n, l, c, q, i, j, k
  integer(i8) :: seed
  real(dp) :: sign_

  n = problem_size(64, 176)
  if (n < 4 .or. n > 1024 .or. mod(n, 4) /= 0) then
    write (0, '(a)') 'mg: n must be a multiple of 4 in [4, 1024]'
    stop 2
  end if
  ! levels: halve while even and above 2
  nlev = 1
  do while (mod(n / 2**(nlev - 1), 2) == 0 .and. n / 2**(nlev - 1) > 2)
    nlev = nlev + 1
  end do
  allocate (lev(nlev))
  do l = 1, nlev
    lev(l)%n = n / 2**(l - 1)
    lev(l)%h = 1.0_dp / lev(l)%n
    allocate (lev(l)%u(0:lev(l)%n + 1, 0:lev(l)%n + 1, 0:lev(l)%n + 1))
    allocate (lev(l)%f, lev(l)%r, mold=lev(l)%u)
    lev(l)%u = 0.0_dp
    lev(l)%f = 0.0_dp
    lev(l)%r = 0.0_dp
  end do

  ! 10 charges of +1 and 10 of -1 (Park-Miller generator)
  seed = 314159_i8
  do q = 1, 20
    seed = mod(seed * 48271_i8, 2147483647_i8)
    i = 1 + int(mod(seed, int(n, i8)))
    seed = mod(seed * 48271_i8, 2147483647_i8)
    j = 1 + int(mod(seed, int(n, i8)))
    seed = mod(seed * 48271_i8, 2147483647_i8)
    k = 1 + int(mod(seed, int(n, i8)))
    sign_ = merge(1.0_dp, -1.0_dp, q <= 10)
    lev(1)%f(i, j, k) = sign_
  end do

  write (*, '(a,i0,a,i0,a,es20.12)') 'mg.f90: n=', n, ' levels=', nlev, '  initial residual', rnorm()
  do c = 1, ncycle
    call vcycle(1)
    write (*, '(a,i3,a,es20.12)') 'mg.f90: cycle', c, '  residual', rnorm()
  end do
  write (*, '(a,es22.14)') 'mg.f90: sum(u)', sum(lev(1)%u)
end program mg
