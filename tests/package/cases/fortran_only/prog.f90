! Reads 10 integer(8) ones in total: 10 elements, 70 redundant bytes.
! (fill only stores; print's argument is a temporary that is stored, and
! the I/O library that reads it is not instrumented.)
module m
  integer(8) :: v(10)
contains
  subroutine fill ()
    v = 1
  end subroutine
  integer(8) function total ()
    integer :: i
    total = 0
    do i = 1, 10
      total = total + v(i)
    end do
  end function
end module
program p
  use m
  call fill ()
  print '(I0)', total ()
end program
