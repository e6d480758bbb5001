! ep.f90 - "embarrassingly parallel" Gaussian pairs, in Fortran with
! OpenMP (the NPB EP pattern: random numbers, log and sqrt, counts per
! square annulus).
!
! Kernel.  nbatch batches of NB = 2^16 pairs.  The uniform numbers come
! from the Park-Miller generator x' = 48271 x mod (2^31 - 1); batch b
! starts 2*NB*b numbers into the sequence, reached by modular
! exponentiation, so batches are independent and the result does not
! depend on the number of threads.  A batch fills a buffer with its 2*NB
! uniform numbers, then applies the Marsaglia polar method and counts each
! Gaussian pair in annulus l = floor(max(|X|, |Y|)).  As in NPB EP, the
! counts are kept as double precision numbers.  Per-batch counts and sums
! are combined in batch order.
!
! Redundant zeros zeroinst should find: almost none in the hot loop (the
! uniform numbers in the buffer have random mantissas), which makes this
! a control case.  Two smaller things show up when the batches are
! combined:
! - the counts are small whole numbers stored as real(8): not zero, but
!   their low mantissa bytes always are -- visible in the floating redmap;
! - annuli 6..9 are always empty: whole zero elements.
!
! Size: the first argument (or env EXAMPLE_SIZE) is "quick", "default" or
! nbatch.
module ep_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0), i8 = selected_int_kind(18)
  integer, parameter :: nb = 65536, nq = 10
  integer(i8), parameter :: pm_a = 48271_i8, pm_m = 2147483647_i8
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
        write (0, '(a)') 'usage: ep [quick|default|N]'
        stop 2
      end if
      problem_size = v
    end select
  end function problem_size

  ! a**e mod pm_m (all products stay below 2^62)
  integer(i8) function powmod(a, e)
    integer(i8), intent(in) :: a, e
    integer(i8) :: base, k
    powmod = 1
    base = mod(a, pm_m)
    k = e
    do while (k > 0)
      if (mod(k, 2_i8) == 1) powmod = mod(powmod * base, pm_m)
      base = mod(base * base, pm_m)
      k = k / 2
    end do
  end function powmod

  subroutine run_batch(b, q, sx, sy)
    integer, intent(in) :: b
    real(dp), intent(out) :: q(0:nq - 1), sx, sy
    real(dp), allocatable :: buf(:)
    integer(i8) :: x
    integer :: k, l
    real(dp) :: u, v, t, f, gx, gy
    allocate (buf(2 * nb))
    x = mod(12345_i8 * powmod(pm_a, 2_i8 * nb * b), pm_m)
    do k = 1, 2 * nb
      x = mod(x * pm_a, pm_m)
      buf(k) = real(x, dp) / real(pm_m, dp)
    end do
    q = 0.0_dp
    sx = 0.0_dp
    sy = 0.0_dp
    do k = 1, nb
      u = 2.0_dp * buf(2 * k - 1) - 1.0_dp
      v = 2.0_dp * buf(2 * k) - 1.0_dp
      t = u * u + v * v
      if (t <= 1.0_dp .and. t > 0.0_dp) then
        f = sqrt(-2.0_dp * log(t) / t)
        gx = u * f
        gy = v * f
        l = int(max(abs(gx), abs(gy)))
        if (l < nq) q(l) = q(l) + 1.0_dp
        sx = sx + gx
        sy = sy + gy
      end if
    end do
    deallocate (buf)
  end subroutine run_batch
end module ep_mod

program ep
  use ep_mod
  implicit none
  integer :: nbatch, b, l
  real(dp), allocatable :: q(:, :), sx(:), sy(:)
  real(dp) :: qt(0:nq - 1), tx, ty

  nbatch = problem_size(32, 512)
  if (nbatch > 16383) then
    write (0, '(a)') 'ep: at most 16383 batches (the generator''s period)'
    stop 2
  end if
  allocate (q(0:nq - 1, 0:nbatch - 1), sx(0:nbatch - 1), sy(0:nbatch - 1))
  !$omp parallel do schedule(dynamic)
  do b = 0, nbatch - 1
    call run_batch(b, q(:, b), sx(b), sy(b))
  end do
  !$omp end parallel do

  qt = 0.0_dp
  tx = 0.0_dp
  ty = 0.0_dp
  do b = 0, nbatch - 1
    qt = qt + q(:, b)
    tx = tx + sx(b)
    ty = ty + sy(b)
  end do
  write (*, '(a,i0,a,i0)') 'ep.f90: batches=', nbatch, ' pairs=', int(nbatch, i8) * nb
  write (*, '(a,es20.12,a,es20.12)') 'ep.f90: sum X', tx, '  sum Y', ty
  do l = 0, nq - 1
    write (*, '(a,i2,f16.0)') 'ep.f90: annulus', l, qt(l)
  end do
  write (*, '(a,f16.0)') 'ep.f90: gaussian pairs', sum(qt)
end program ep
