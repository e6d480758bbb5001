! Heap groups named by the array they were allocated for, in Fortran:
! ALLOCATE stores malloc's result in the array descriptor's data field,
! and the group takes the array's name: a module array (rhs), a local
! one (x), a derived type's component (s%buf) and a component of an
! array's elements (hs(l)%v, one group of two allocations).  The module array's
! descriptor is a static object of its own, marked as a descriptor (from
! DWARF: DW_AT_data_location); main's s, a derived type that holds one,
! is not.  The descriptors' own loads (bounds, data pointers) hold
! addresses and are not counted here: only the heap records are (and
! heap floats: hs's own elements are descriptors, loaded as integers).
! n = 10 + command_argument_count() (passed by value: no load of it).
! -O1: one scalar load per element.  Little-endian byte maps.
! zeroinst-flags: -O1 -g
! zeroinst-env: ZEROINST_MODE=code,data
!
! rhs: 10 doubles, rhs(2) = 1.5 (0x3FF8000000000000: "6z2x"): 9 zero
! elements, 72 redundant bytes; map 8z, 6z2x, 64z.
! x: x(3) = 2.0 (0x4000000000000000: "7z1x"): map 16z, 7z1x, 56z.
! buf: 10 int32, buf(4) = 7: 9 zero elements (36 bytes) + 3 = 39
! redundant bytes; map 12z, 1x3z, 24z.
! expect-data: heap@rhs float variable=rhs allocator=malloc allocations=1 size=80 elements=10 bytes=80 redundant_bytes=72 zero_elements=9 always_zero_bytes=78 map=14z2x64z
! expect-data: heap@x float variable=x allocator=malloc allocations=1 size=80 elements=10 bytes=80 redundant_bytes=72 zero_elements=9 always_zero_bytes=79 map=23z1x56z
! expect-data: heap@buf int variable=s%buf allocator=malloc allocations=1 size=40 elements=10 bytes=40 redundant_bytes=39 zero_elements=9 always_zero_bytes=39 map=12z1x27z
! hs(l)%v, l = 1, 2: v(1) = l (1.0 = 0x3FF0000000000000: "6z2x"; 2.0:
! "7z1x"), 18 zero elements of 20; the group's map merges the blocks byte
! by byte (x over z): 6z2x72z; always zero 78 + 79.
! expect-data: heap@hs float variable=hs(l)%v allocator=malloc allocations=2 size=160 elements=20 bytes=160 redundant_bytes=144 zero_elements=18 always_zero_bytes=157 map=6z2x72z
! expect-data: static=names_mod::rhs int descriptor=True
! expect-data: static=s int descriptor=False
! expect-data-total: heap.float.elements=40 heap.float.bytes=320 heap.float.redundant_bytes=288 heap.float.zero_elements=36
module names_mod
  implicit none
  real(8), allocatable :: rhs(:)
  type holder
     integer(4), allocatable :: buf(:)
  end type holder
  type vec
     real(8), allocatable :: v(:)
  end type vec
contains
  subroutine more(n, t)
    integer, value :: n
    real(8), intent(inout) :: t
    type(vec), allocatable :: hs(:)
    integer :: i, l
    allocate(hs(2))
    do l = 1, 2
       allocate(hs(l)%v(n))  ! [[hs]]
       do i = 1, n
          hs(l)%v(i) = 0
       end do
       hs(l)%v(1) = l
    end do
    do l = 1, 2
       do i = 1, n
          t = t + hs(l)%v(i)
       end do
    end do
  end subroutine more

  subroutine work(n, s, t, u)
    integer, value :: n
    type(holder), intent(inout) :: s
    real(8), intent(out) :: t
    integer(8), intent(out) :: u
    real(8), allocatable :: x(:)
    integer :: i
    allocate(rhs(n))  ! [[rhs]]
    allocate(x(n))  ! [[x]]
    allocate(s%buf(n))  ! [[buf]]
    do i = 1, n
       rhs(i) = 0
       x(i) = 0
       s%buf(i) = 0
    end do
    rhs(2) = 1.5d0
    x(3) = 2
    s%buf(4) = 7
    t = 0
    u = 0
    do i = 1, n
       t = t + rhs(i) + x(i)
       u = u + s%buf(i)
    end do
    deallocate(x)
  end subroutine work
end module names_mod

program data_names_fortran
  use names_mod
  implicit none
  type(holder) :: s
  real(8) :: t
  integer(8) :: u
  call work(10 + command_argument_count(), s, t, u)
  call more(10 + command_argument_count(), t)
  print *, t, u
end program data_names_fortran
