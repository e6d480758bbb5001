! Data-centric analysis in Fortran: a module variable (record name
! "mymod::arr"), a common block ("/blk/", known from DWARF: -g) and an
! allocatable array (gfortran's ALLOCATE calls malloc: a heap object whose
! alloc_path[0] is the ALLOCATE line).  n = command_argument_count() = 0
! (passed by value, so no load of it) keeps the values from being folded.
! -O1: one scalar load per element; the allocatable's descriptor lives in
! registers.  Little-endian byte maps.
! zeroinst-flags: -O1 -g
! zeroinst-env: ZEROINST_MODE=code,data
! expect-records: 3
! expect-data-records: 3
!
! int: arr 10/80/70/0 + c 10/40/31/1 = 20/120/101/1 (all static)
! float: x 50/400/392/49 (heap)
! expect-total: int.elements=20 int.bytes=120 int.redundant_bytes=101 int.zero_elements=1
! expect-total: float.elements=50 float.bytes=400 float.redundant_bytes=392 float.zero_elements=49
! expect-data-total: static.int.elements=20 static.int.bytes=120 static.int.redundant_bytes=101 static.int.zero_elements=1
! expect-data-total: heap.float.elements=50 heap.float.bytes=400 heap.float.redundant_bytes=392 heap.float.zero_elements=49
! expect-data-total: heap.int.elements=0 static.float.elements=0 stack.int.elements=0 stack.float.elements=0 unknown.int.elements=0 unknown.float.elements=0
!
! arr(i) = i (1..20), arr(1:10) read: 7 redundant bytes each (70), bytes
! 80..159 never loaded.
! expect-data: static=mymod::arr int size=160 elements=10 bytes=80 redundant_bytes=70 zero_elements=0 never_loaded_bytes=80 always_zero_bytes=70 map=1x7z1x7z1x7z1x7z1x7z1x7z1x7z1x7z1x7z1x7z80n
!
! c(i) = i - 1 (0..9): the zero element has 4 redundant bytes, the others
! 3: 31; map "4z" then "1x3z" nine times.
! expect-data: static=/blk/ int size=40 elements=10 bytes=40 redundant_bytes=31 zero_elements=1 never_loaded_bytes=0 always_zero_bytes=31 map=4z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z1x3z
!
! x(1:50) = 0 except x(7) = 2.0 (0x4000000000000000: "7z1x"), all read:
! 49 zero elements (392 redundant bytes), always zero 392 + 7 = 399; map:
! elements 1..6 (48 bytes) and 7 bytes of x(7): 55z, 1x, then 43 * 8 = 344z.
! The call frame's line is not checked: gfortran's line table puts the
! call instruction of "call work" on the program statement's line.
! expect-data: heap@alloc_x float variable=x path=work@alloc_x,data_fortran,* allocations=1 size=400 elements=50 bytes=400 redundant_bytes=392 zero_elements=49 never_loaded_bytes=0 always_zero_bytes=399 map=55z1x344z allocator=malloc
! expect-data: heap@alloc_x int absent
module mymod
  implicit none
  integer(8) :: arr(20)
contains
  subroutine work(n, s, t)
    integer, value :: n
    integer(8), intent(out) :: s
    real(8), intent(out) :: t
    real(8), allocatable :: x(:)
    integer :: i
    allocate(x(50))  ! [[alloc_x]]
    do i = 1, 50
       x(i) = 0
    end do
    x(7) = 2 + n
    t = 0
    do i = 1, 50
       t = t + x(i)  ! expect: elements=50 bytes=400 redundant_bytes=392 zero_elements=49
    end do
    deallocate(x)
    s = 0
    do i = 1, 10
       s = s + arr(i)  ! expect: elements=10 bytes=80 redundant_bytes=70 zero_elements=0
    end do
  end subroutine work
end module mymod

subroutine sumc(s)
  implicit none
  integer(8), intent(out) :: s
  integer(4) :: c(10)
  common /blk/ c
  integer :: i
  s = 0
  do i = 1, 10
     s = s + c(i)  ! expect: elements=10 bytes=40 redundant_bytes=31 zero_elements=1
  end do
end subroutine sumc

program data_fortran
  use mymod
  implicit none
  integer(4) :: c(10)
  common /blk/ c
  integer :: i, n
  integer(8) :: s, s2
  real(8) :: t
  n = command_argument_count()
  do i = 1, 20
     arr(i) = i + n
  end do
  do i = 1, 10
     c(i) = i - 1 + n
  end do
  call work(n, s, t)
  call sumc(s2)
  print *, s, s2, t
end program data_fortran
