! Shadow halves as induction variables in Fortran (plugin/instrument.cc:
! tmr_address_u64, half_iv_p): the walk of an assumed-shape array reads
! through its descriptor, whose stride the compiler does not know, so the
! element address steps by an invariant (a multiple of 8: the stride
! times 8) through GCC's own induction variables.  As in data_halves.c,
! each walk first reads a part of its array in the checked loop (a fresh
! slot misses), then runs the fast loop over elements not read yet beside
! elements that were: a shadow half variable that stepped wrongly would
! test a marked half for an unmarked element, and that element's bytes
! would stay "never loaded".  n = command_argument_count() = 0 keeps the
! values from being folded.
! zeroinst-flags: -O2 -g
! zeroinst-env: ZEROINST_MODE=code,data
!
! x(1:64) = 1.0 (bytes 00 00 00 00 00 00 f0 3f); total reads x(33:64)
! (checked), x(1:32) (fast), x(1:64) (fast): 128 elements, 1024 bytes,
! none zero; bytes 0-5 of each element always zero (384).
! expect-data: heap@alloc_x float path=data_halves_fortran@alloc_x,* allocations=1 size=512 elements=128 bytes=1024 redundant_bytes=0 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=384 allocator=malloc
! y(1:32) = 3 (integer(8)); itotal reads y(17:32:2) (checked), then
! y(1:32:2) (fast): 24 elements, 192 bytes, 7 redundant bytes each (168);
! the 16 elements of even index never loaded (128), bytes 1-7 of the
! others always zero (112).
! expect-data: heap@alloc_y int path=data_halves_fortran@alloc_y,* allocations=1 size=256 elements=24 bytes=192 redundant_bytes=168 zero_elements=0 never_loaded_bytes=128 always_zero_bytes=112 map=1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n1x7z8n allocator=malloc
module halves
  implicit none
contains
  function total(a) result(s)
    real(8), intent(in) :: a(:)
    real(8) :: s
    integer :: i
    s = 0
    do i = 1, size(a)
       s = s + a(i)
    end do
  end function total

  function itotal(a) result(s)
    integer(8), intent(in) :: a(:)
    integer(8) :: s
    integer :: i
    s = 0
    do i = 1, size(a)
       s = s + a(i)
    end do
  end function itotal
end module halves

program data_halves_fortran
  use halves
  implicit none
  real(8), allocatable :: x(:)
  integer(8), allocatable :: y(:)
  integer :: k, n
  integer :: lo(3), hi(3), st(3)
  real(8) :: s
  integer(8) :: t
  n = command_argument_count()
  allocate(x(64))  ! [[alloc_x]]
  x = 1 + n
  lo = [33, 1, 1]
  hi = [64, 32, 64]
  s = 0
  do k = 1, 3 + n
     s = s + total(x(lo(k):hi(k)))
  end do
  allocate(y(32))  ! [[alloc_y]]
  y = 3 + n
  lo = [17, 1, 1]
  hi = [32, 32, 32]
  st = [2, 2, 2]
  t = 0
  do k = 1, 2 + n
     t = t + itotal(y(lo(k):hi(k):st(k)))
  end do
  print *, s, t
  deallocate(x, y)
end program data_halves_fortran
