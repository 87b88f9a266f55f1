/* installed_blas.c — a user's program, built by tests/install/install.sh against the INSTALLED
 * dfshim through pkg-config (cc $(pkg-config --cflags ddblas dfblas) ... $(pkg-config --libs
 * ddblas dfblas)) and run there without a GPU: libddblas's CPU routines on double-double data
 * whose exact results are known, and libdfblas's handle and argument checks.  It shows that the
 * installed headers, libraries (their SONAMEs) and .pc files are enough to build and run. */
#include <ddblas.h>
#include <dfblas.h>

#include <stdio.h>

static int fails;

static void expect(const char *what, ddblas_dd got, double hi, double lo)
{
    if (got.hi != hi || got.lo != lo) {
        printf("FAIL: %s = %a + %a, expected %a + %a\n", what, got.hi, got.lo, hi, lo);
        fails++;
    }
}

int main(void)
{
    /* DOT: x = (1 + 2^-60, 3), y = (1, 2^-70): 1 + 2^-60 + 3 2^-70, exact in double-double
     * (lost in binary64). */
    double xhi[2] = {1.0, 3.0}, xlo[2] = {0x1p-60, 0.0};
    double yhi[2] = {1.0, 0x1p-70}, ylo[2] = {0.0, 0.0};
    const ddblas_array x = {DDBLAS_DD, xhi, xlo}, y = {DDBLAS_DD, yhi, ylo};
    ddblas_dd dot;
    if (ddblas_dot_host(2, x, 1, y, 1, &dot) != DDBLAS_SUCCESS) {
        printf("FAIL: ddblas_dot_host\n");
        return 1;
    }
    expect("dot", dot, 1.0, 0x1p-60 + 0x3p-70);

    /* GEMM: C = A B with A = diag(1 + 2^-60, 2), B = diag(3, 1 + 2^-80) (column-major 2 x 2):
     * C = diag(3 + 3 2^-60, 2 + 2^-79). */
    double ahi[4] = {1.0, 0.0, 0.0, 2.0}, alo[4] = {0x1p-60, 0.0, 0.0, 0.0};
    double bhi[4] = {3.0, 0.0, 0.0, 1.0}, blo[4] = {0.0, 0.0, 0.0, 0x1p-80};
    double chi[4] = {0}, clo[4] = {0};
    const ddblas_array A = {DDBLAS_DD, ahi, alo}, B = {DDBLAS_DD, bhi, blo},
                       C = {DDBLAS_DD, chi, clo};
    const ddblas_dd one = {1.0, 0.0}, zero = {0.0, 0.0};
    if (ddblas_gemm_host(DDBLAS_ACCURATE, 'N', 'N', 2, 2, 2, one, A, 2, B, 2, zero, C, 2) !=
        DDBLAS_SUCCESS) {
        printf("FAIL: ddblas_gemm_host\n");
        return 1;
    }
    expect("C(0,0)", ddblas_get(C, 0), 3.0, 0x3p-60);
    expect("C(1,0)", ddblas_get(C, 1), 0.0, 0.0);
    expect("C(0,1)", ddblas_get(C, 2), 0.0, 0.0);
    expect("C(1,1)", ddblas_get(C, 3), 2.0, 0x1p-79);

    /* libdfblas: a handle needs no GPU; a negative size is refused before any GPU work. */
    dfblas_handle h;
    if (dfblas_create(&h) != DFBLAS_SUCCESS) {
        printf("FAIL: dfblas_create\n");
        return 1;
    }
    const dfblas_df a1 = dfblas_from_double(1.0), b0 = dfblas_from_double(0.0);
    if (dfblas_gemm(h, 0, DFBLAS_FUSED, 'N', 'N', -1, 1, 1, a1, NULL, 1, NULL, 1, b0, NULL, 1,
                    0) != DFBLAS_INVALID_VALUE) {
        printf("FAIL: dfblas_gemm accepts m = -1\n");
        fails++;
    }
    dfblas_destroy(h);

    if (!fails)
        printf("ok: libddblas's CPU DOT and GEMM exact, libdfblas's checks, through the installed tree\n");
    return fails != 0;
}
