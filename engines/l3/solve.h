/* solve.h — the small triangular solve of a blocked TRSM's diagonal block (shim/l3_trsm.h): its
 * argument block, shared by the kernel (kernels.cu), its launch (copy.c) and the sweep, and the
 * same solve on the CPU, operation for operation, for the CPU twin of the whole TRSM.
 *
 * T X = s B for one block: T (n x n) is T(r, c) = A[r + c lda], or A[c + r lda] when trans_a,
 * lower or upper triangular (lower: forward substitution, else backward), only that triangle
 * read, its diagonal not read when unit; B (n x nrhs) is B(r, q) = B[r rs + q cs] and is
 * overwritten with X.  s is *scale when scale is not NULL (a device pointer on the GPU: the
 * caller's alpha in device pointer mode), else scale_h.
 *
 * The order of operations is fixed and the same on the CPU and the GPU (plain binary64, each
 * operation rounded to nearest, no fused multiply-add: the project's -ffp-contract=off and
 * nvcc's -fmad=false, and explicit _rn intrinsics on the device): for every right-hand side,
 *   b_r := s * b_r                                       for every r
 *   for i in order (0..n-1 forward, n-1..0 backward):
 *       x_i := unit ? b_i : b_i / T(i, i)
 *       b_r := b_r - T(r, i) * x_i                       for r after i (below forward, above
 *                                                        backward), the product rounded first
 * so each b_r sees its subtractions in one order, whatever thread does them.  The same bits on
 * every GPU, launch shape and the CPU.  No singularity test: a zero diagonal gives Inf or NaN
 * by IEEE rules, as cuBLAS.
 *
 * Complex data (cplx: A, B and the scale of two doubles each, real part first, as
 * cuDoubleComplex; leading dimensions and strides in elements; s is (scale_h, scale_hi) on the
 * host): the same steps, T(r, c) conjugated when conj (op C), each complex operation written out
 * in binary64 real operations in this order, each rounded:
 *   s * b          (sr br - si bi,  sr bi + si br)          the four products first
 *   t * x          (tr xr - ti xi,  tr xi + ti xr)          likewise
 *   b - p          (br - pr,  bi - pi)
 *   b / t          Smith's: when |tr| >= |ti|, q = ti / tr, d = tr + ti q,
 *                  ((br + bi q) / d, (bi - br q) / d); else q = tr / ti, d = tr q + ti,
 *                  ((br q + bi) / d, (bi q - br) / d)
 * (the branch on the data taken alike on both sides). */
#ifndef DFS_L3_SOLVE_H
#define DFS_L3_SOLVE_H

#include <stdint.h>

/* The largest block the kernel takes (its shared memory holds DFS_L3_SOLVE_MAX x 16 doubles). */
#define DFS_L3_SOLVE_MAX 256

typedef struct {
    const double *A;
    int64_t lda;
    int trans_a, lower, unit;
    int64_t n, nrhs;
    double *B;
    int64_t rs, cs;
    const double *scale;
    double scale_h;
    int cplx, conj;  /* complex data; T conjugated */
    double scale_hi; /* complex: the host scale's imaginary part */
} dfs_l3_solve;

/* Complex binary64 arithmetic in real operations, the order above (each operation rounded to
 * nearest: the project builds without contraction; the kernel passes the _rn intrinsics).
 * DFS_L3_Z(Q, MUL, ADD, SUB, DIV, ABS) defines dfs_l3_zmul and dfs_l3_zdiv with the qualifiers
 * Q and the given real operations (the CPU's below, the kernel's in kernels.cu). */
#define DFS_L3_Z(Q, MUL, ADD, SUB, DIV, ABS)                                                       \
    Q void dfs_l3_zmul(double ar, double ai, double br, double bi, double *r, double *i)          \
    {                                                                                              \
        const double p1 = MUL(ar, br), p2 = MUL(ai, bi), p3 = MUL(ar, bi), p4 = MUL(ai, br);     \
        *r = SUB(p1, p2);                                                                          \
        *i = ADD(p3, p4);                                                                          \
    }                                                                                              \
    Q void dfs_l3_zdiv(double br, double bi, double tr, double ti, double *r, double *i)          \
    {                                                                                              \
        if (ABS(tr) >= ABS(ti)) {                                                                  \
            const double q = DIV(ti, tr), d = ADD(tr, MUL(ti, q));                                 \
            *r = DIV(ADD(br, MUL(bi, q)), d);                                                      \
            *i = DIV(SUB(bi, MUL(br, q)), d);                                                      \
        } else {                                                                                   \
            const double q = DIV(tr, ti), d = ADD(MUL(tr, q), ti);                                 \
            *r = DIV(ADD(MUL(br, q), bi), d);                                                      \
            *i = DIV(SUB(MUL(bi, q), br), d);                                                      \
        }                                                                                          \
    }

#ifndef __CUDACC__
static inline double dfs_l3_hmul(double a, double b) { return a * b; }
static inline double dfs_l3_hadd(double a, double b) { return a + b; }
static inline double dfs_l3_hsub(double a, double b) { return a - b; }
static inline double dfs_l3_hdiv(double a, double b) { return a / b; }
static inline double dfs_l3_habs(double a) { return a < 0 ? -a : a; }
DFS_L3_Z(static inline, dfs_l3_hmul, dfs_l3_hadd, dfs_l3_hsub, dfs_l3_hdiv, dfs_l3_habs)

/* The complex solve on the CPU (dfs_l3_zsolve_kernel's operations in its order). */
static inline void dfs_l3_zsolve_host(const dfs_l3_solve *a)
{
    const double sr = a->scale ? a->scale[0] : a->scale_h;
    const double si = a->scale ? a->scale[1] : a->scale_hi;
    for (int64_t q = 0; q < a->nrhs; q++) {
        double *b = a->B + 2 * q * a->cs;
        for (int64_t r = 0; r < a->n; r++) {
            double *e = b + 2 * r * a->rs;
            dfs_l3_zmul(sr, si, e[0], e[1], &e[0], &e[1]);
        }
        for (int64_t p = 0; p < a->n; p++) {
            const int64_t i = a->lower ? p : a->n - 1 - p;
            double *x = b + 2 * i * a->rs;
            if (!a->unit) {
                const double *d = a->A + 2 * (i + i * a->lda);
                dfs_l3_zdiv(x[0], x[1], d[0], a->conj ? -d[1] : d[1], &x[0], &x[1]);
            }
            const int64_t r0 = a->lower ? i + 1 : 0, r1 = a->lower ? a->n : i;
            for (int64_t r = r0; r < r1; r++) {
                const double *t = a->A + 2 * (a->trans_a ? i + r * a->lda : r + i * a->lda);
                double pr, pi;
                dfs_l3_zmul(t[0], a->conj ? -t[1] : t[1], x[0], x[1], &pr, &pi);
                double *e = b + 2 * r * a->rs;
                e[0] = e[0] - pr;
                e[1] = e[1] - pi;
            }
        }
    }
}

/* The solve on the CPU (host memory): dfs_l3_solve_kernel's operations in its order. */
static inline void dfs_l3_solve_host(const dfs_l3_solve *a)
{
    if (a->cplx) {
        dfs_l3_zsolve_host(a);
        return;
    }
    const double s = a->scale ? *a->scale : a->scale_h;
    for (int64_t q = 0; q < a->nrhs; q++) {
        double *b = a->B + q * a->cs;
        for (int64_t r = 0; r < a->n; r++)
            b[r * a->rs] = s * b[r * a->rs];
        for (int64_t p = 0; p < a->n; p++) {
            const int64_t i = a->lower ? p : a->n - 1 - p;
            double x = b[i * a->rs];
            if (!a->unit)
                x = x / a->A[i + i * a->lda];
            b[i * a->rs] = x;
            const int64_t r0 = a->lower ? i + 1 : 0, r1 = a->lower ? a->n : i;
            for (int64_t r = r0; r < r1; r++) {
                const double t = a->trans_a ? a->A[i + r * a->lda] : a->A[r + i * a->lda];
                const double prod = t * x;
                b[r * a->rs] = b[r * a->rs] - prod;
            }
        }
    }
}
#endif

#endif
