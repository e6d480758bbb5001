! Fortran: integer(8) values far smaller than their width, a mostly-zero
! real(8) array, and a common block.  Values depend on the run-time
! argument count (0) so the compiler cannot fold the sums away.
! zeroinst-flags: -O1
! expect-total: int.elements=110 int.bytes=840 int.redundant_bytes=731 int.zero_elements=1
! expect-total: float.elements=50 float.bytes=400 float.redundant_bytes=320 float.zero_elements=40
program zeros
  implicit none
  integer(8) :: a(100)
  real(8) :: x(50)
  integer(4) :: c(10)
  common /blk/ c
  integer :: i, n
  integer(8) :: s
  real(8) :: t
  n = command_argument_count()
  do i = 1, 100
     a(i) = i + n              ! 1..100: 7 redundant bytes each
  end do
  do i = 1, 50
     x(i) = 0
     if (mod(i, 5) == 0) x(i) = i + n   ! 10 non-zero, 40 zeros
  end do
  do i = 1, 10
     c(i) = i - 1 + n          ! 0..9: 4 + 9 * 3 = 31 redundant, 1 zero
  end do
  s = 0
  do i = 1, 100
     s = s + a(i)  ! expect: elements=100 bytes=800 redundant_bytes=700 zero_elements=0 redmap=0000000x
  end do
  t = 0
  do i = 1, 50
     t = t + x(i)  ! expect: elements=50 bytes=400 redundant_bytes=320 zero_elements=40 elem_type=f64
  end do
  do i = 1, 10
     s = s + c(i)  ! expect: elements=10 bytes=40 redundant_bytes=31 zero_elements=1 redmap=000x
  end do
  print *, s, t
end program zeros
