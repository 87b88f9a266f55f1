! fortran_blas.f90 -- a Fortran program that calls cuBLAS through ISO_C_BINDING, as scientific
! codes do, and knows nothing of dfshim: the v2 API (cublasDgemm_v2, cublasDgemv_v2,
! cublasDdot_v2 on a handle) and the legacy API (cublasInit, cublasDgemm, cublasDdot,
! cublasGetError, cublasShutdown), with device memory from cudaMalloc.  The data are small
! integers, so every result is exact: each is compared with Fortran's own matmul and
! dot_product.  Prints "fortran_blas: ok" and stops with code 0, or names the first difference
! and stops with code 1.  tests/ links it to the real libraries (GPU suite) and to the stand-ins
! (interposition suite).
program fortran_blas
  use iso_c_binding
  implicit none

  interface
    integer(c_int) function cudaMalloc(ptr, bytes) bind(C, name='cudaMalloc')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr) :: ptr
      integer(c_size_t), value :: bytes
    end function
    integer(c_int) function cudaFree(ptr) bind(C, name='cudaFree')
      import :: c_int, c_ptr
      type(c_ptr), value :: ptr
    end function
    integer(c_int) function cudaMemcpy(dst, src, bytes, kind) bind(C, name='cudaMemcpy')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int), value :: kind
    end function
    integer(c_int) function cublasCreate(h) bind(C, name='cublasCreate_v2')
      import :: c_int, c_ptr
      type(c_ptr) :: h
    end function
    integer(c_int) function cublasDestroy(h) bind(C, name='cublasDestroy_v2')
      import :: c_int, c_ptr
      type(c_ptr), value :: h
    end function
    integer(c_int) function cublasDgemm(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) &
        bind(C, name='cublasDgemm_v2')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: h, a, b, c
      integer(c_int), value :: ta, tb, m, n, k, lda, ldb, ldc
      real(c_double) :: alpha, beta
    end function
    integer(c_int) function cublasDgemv(h, t, m, n, alpha, a, lda, x, incx, beta, y, incy) &
        bind(C, name='cublasDgemv_v2')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: h, a, x, y
      integer(c_int), value :: t, m, n, lda, incx, incy
      real(c_double) :: alpha, beta
    end function
    integer(c_int) function cublasDdot(h, n, x, incx, y, incy, r) bind(C, name='cublasDdot_v2')
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: h, x, y
      integer(c_int), value :: n, incx, incy
      real(c_double) :: r
    end function
    integer(c_int) function cublasInit() bind(C, name='cublasInit')
      import :: c_int
    end function
    integer(c_int) function cublasShutdown() bind(C, name='cublasShutdown')
      import :: c_int
    end function
    integer(c_int) function cublasGetError() bind(C, name='cublasGetError')
      import :: c_int
    end function
    subroutine cublasDgemmLegacy(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) &
        bind(C, name='cublasDgemm')
      import :: c_int, c_ptr, c_double, c_char
      character(kind=c_char), value :: ta, tb
      integer(c_int), value :: m, n, k, lda, ldb, ldc
      real(c_double), value :: alpha, beta
      type(c_ptr), value :: a, b, c
    end subroutine
    real(c_double) function cublasDdotLegacy(n, x, incx, y, incy) bind(C, name='cublasDdot')
      import :: c_int, c_ptr, c_double
      integer(c_int), value :: n, incx, incy
      type(c_ptr), value :: x, y
    end function
  end interface

  integer, parameter :: m = 37, n = 29, k = 41
  integer(c_int), parameter :: op_n = 0, to_device = 1, to_host = 2
  real(c_double), target :: a(m, k), b(k, n), c(m, n), x(k), y(m)
  real(c_double) :: want_c(m, n), want_y(m), r, alpha, beta
  type(c_ptr) :: h, da, db, dc, dx, dy, dz
  integer :: i, j, st

  do j = 1, k
    do i = 1, m
      a(i, j) = real(mod(i * 7 + j * 3, 11) - 5, c_double)
    end do
  end do
  do j = 1, n
    do i = 1, k
      b(i, j) = real(mod(i * 5 + j * 2, 9) - 4, c_double)
    end do
  end do
  do i = 1, k
    x(i) = real(mod(i * 3, 7) - 3, c_double)
  end do
  c = 1.0_c_double
  y = 2.0_c_double

  call check(cudaMalloc(da, bytes(m * k)), 'cudaMalloc A')
  call check(cudaMalloc(db, bytes(k * n)), 'cudaMalloc B')
  call check(cudaMalloc(dc, bytes(m * n)), 'cudaMalloc C')
  call check(cudaMalloc(dx, bytes(k)), 'cudaMalloc x')
  call check(cudaMalloc(dy, bytes(m)), 'cudaMalloc y')
  call check(cudaMalloc(dz, bytes(m)), 'cudaMalloc z')
  call check(cudaMemcpy(da, c_loc(a), bytes(m * k), to_device), 'copy A')
  call check(cudaMemcpy(db, c_loc(b), bytes(k * n), to_device), 'copy B')
  call check(cudaMemcpy(dc, c_loc(c), bytes(m * n), to_device), 'copy C')
  call check(cudaMemcpy(dx, c_loc(x), bytes(k), to_device), 'copy x')
  call check(cudaMemcpy(dy, c_loc(y), bytes(m), to_device), 'copy y')

  ! ---- the v2 API ----
  call check(cublasCreate(h), 'cublasCreate_v2')
  alpha = 2.0_c_double
  beta = -1.0_c_double
  call check(cublasDgemm(h, op_n, op_n, m, n, k, alpha, da, m, db, k, beta, dc, m), 'DGEMM')
  call check(cudaMemcpy(c_loc(c), dc, bytes(m * n), to_host), 'copy C back')
  want_c = 2.0_c_double * matmul(a, b) - 1.0_c_double
  call compare('cublasDgemm_v2', reshape(c, [m * n]), reshape(want_c, [m * n]))

  alpha = 1.0_c_double
  beta = 3.0_c_double
  call check(cublasDgemv(h, op_n, m, k, alpha, da, m, dx, 1, beta, dy, 1), 'DGEMV')
  call check(cudaMemcpy(c_loc(y), dy, bytes(m), to_host), 'copy y back')
  want_y = matmul(a, x) + 3.0_c_double * 2.0_c_double
  call compare('cublasDgemv_v2', y, want_y)

  call check(cublasDdot(h, k, dx, 1, dx, 1, r), 'DDOT')
  call compare('cublasDdot_v2', [r], [dot_product(x, x)])
  call check(cublasDestroy(h), 'cublasDestroy_v2')

  ! ---- the legacy API ----
  call check(cublasInit(), 'cublasInit')
  call cublasDgemmLegacy('T', 'N', k, 1, m, 1.0_c_double, da, m, dy, m, 0.0_c_double, dx, k)
  call check(cublasGetError(), 'legacy cublasDgemm')
  call check(cudaMemcpy(c_loc(x), dx, bytes(k), to_host), 'copy x back')
  call compare('cublasDgemm (legacy)', x, matmul(transpose(a), y))
  r = cublasDdotLegacy(k, dx, 1, dx, 1)
  call check(cublasGetError(), 'legacy cublasDdot')
  call compare('cublasDdot (legacy)', [r], [dot_product(x, x)])
  call cublasDgemmLegacy('X', 'N', 1, 1, 1, 1.0_c_double, da, 1, db, 1, 0.0_c_double, dz, 1)
  st = cublasGetError()
  if (st /= 7) then ! CUBLAS_STATUS_INVALID_VALUE
    print '(a, i0)', 'fortran_blas: an invalid operation gave status ', st
    stop 1
  end if
  call check(cublasShutdown(), 'cublasShutdown')

  call check(cudaFree(da), 'cudaFree')
  call check(cudaFree(db), 'cudaFree')
  call check(cudaFree(dc), 'cudaFree')
  call check(cudaFree(dx), 'cudaFree')
  call check(cudaFree(dy), 'cudaFree')
  call check(cudaFree(dz), 'cudaFree')
  print '(a)', 'fortran_blas: ok'

contains

  integer(c_size_t) function bytes(count)
    integer, intent(in) :: count
    bytes = int(count, c_size_t) * 8_c_size_t
  end function

  subroutine check(status, what)
    integer(c_int), intent(in) :: status
    character(*), intent(in) :: what
    if (status /= 0) then
      print '(a, a, a, i0)', 'fortran_blas: ', what, ' returned ', status
      stop 1
    end if
  end subroutine

  subroutine compare(what, got, want)
    character(*), intent(in) :: what
    real(c_double), intent(in) :: got(:), want(:)
    integer :: i
    do i = 1, size(want)
      ! bit for bit (the data make every result exact)
      if (transfer(got(i), 0_c_int64_t) /= transfer(want(i), 0_c_int64_t)) then
        print '(a, a, a, i0, a, es12.5, a, es12.5)', 'fortran_blas: ', what, ' element ', i, &
          ' is ', got(i), ', expected ', want(i)
        stop 1
      end if
    end do
  end subroutine

end program fortran_blas
