! OpenMP threadprivate module variables are thread-local (gfortran puts
! them in TLS): each thread's instance is an object, and a variable's
! instances are one record ("thread_local": true, allocations = the
! instances read).  A parallel region of two threads: thread t (0, 1)
! fills its buf with t + 1 in elements 1..4 and 0 elsewhere, and totals
! its first 16 (t + 1) elements into hits (initialized to 256 in every
! thread: the module's TLS image).  The reduction of s loads main's
! stack; those loads are not checked here.
! -O1: one scalar load per element, one load of hits per total.
! zeroinst-flags: -O1 -g -fopenmp
! zeroinst-env: ZEROINST_MODE=code,data
! expect-data-records: 2
!
! buf (int32(32)): thread 0 totals 16 elements, 4 of value 1 (3
! redundant bytes each) and 12 zeros: 16/64/60/12 (elements/bytes/
! redundant/zero); thread 1 totals 32, 4 of value 2 and 28 zeros:
! 32/128/124/28.  In all 48/192/184/40.  Two instances of 128 bytes:
! size 256.  Never loaded: thread 0's elements 17..32, 64 bytes.  Always
! zero 60 + 124 = 184.  Map by offset: elements 1..4 "1x3z", 5..16 zero
! in both, 17..32 zero in thread 1 and never loaded in thread 0 (z over
! n): "1x3z" three times, then 1x and 3 + 28 * 4 = 115 z.
! expect-data: static=tp::buf int thread_local=True module=inst size=256 allocations=2 elements=48 bytes=192 redundant_bytes=184 zero_elements=40 never_loaded_bytes=64 always_zero_bytes=184 map=1x3z1x3z1x3z1x115z
!
! hits (int64, 256 = bytes 00 01 00 00 00 00 00 00 in each thread when
! loaded): 2 loads, 6 redundant bytes each, none zero: 2/16/12/0.  Size
! 16; always zero 7 bytes of each: 14; map "1z1x6z".
! expect-data: static=tp::hits int thread_local=True size=16 allocations=2 elements=2 bytes=16 redundant_bytes=12 zero_elements=0 never_loaded_bytes=0 always_zero_bytes=14 map=1z1x6z
! expect-data-total: static.int.elements=50 static.int.bytes=208 static.int.redundant_bytes=196 static.int.zero_elements=40
! expect-data-total: unknown.int.elements=0 heap.int.elements=0
module tp
  implicit none
  integer(4) :: buf(32)
  integer(8) :: hits = 256
  !$omp threadprivate(buf, hits)
contains
  subroutine fill(k)
    integer, intent(in) :: k
    integer :: i
    do i = 1, 32
      buf(i) = 0
    end do
    buf(1:4) = k
  end subroutine fill
  integer(8) function total(n)
    integer, intent(in) :: n
    integer :: i
    total = 0
    do i = 1, n
      total = total + buf(i)  ! expect: elements=48 bytes=192 redundant_bytes=184 zero_elements=40
    end do
    hits = hits + total  ! expect: elements=2 bytes=16 redundant_bytes=12 zero_elements=0
    total = hits
  end function total
end module tp

program main
  use tp
  use omp_lib
  implicit none
  integer(8) :: s
  integer :: t
  s = 0
  !$omp parallel num_threads(2) private(t) reduction(+:s)
  t = omp_get_thread_num()
  call fill(t + 1)
  s = s + total(16 * (t + 1))
  !$omp end parallel
  print *, s
end program main
