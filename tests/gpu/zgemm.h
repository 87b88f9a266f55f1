/* zgemm.h — what zgemm.c (the groups), zgemm_calls.c (one call of an entry point, real or
 * through the shim) and zgemm_cases.c (data, twins) share. */
#ifndef GT_ZGEMM_H
#define GT_ZGEMM_H

#include <cublas_api.h>
#include <stdint.h>

/* The entry points under test. */
enum { Z_GEMM, Z_GEMM_64, Z_3M, Z_3M_64, Z_EX, Z_EX_64, Z_SB, Z_SB_64, Z_SBEX, Z_SBEX_64,
       Z_LEGACY, Z_COUNT };
extern const char *const zname[Z_COUNT];
/* intercepted[a]: the program's symbol for entry point a is not libcublas's (zlookup). */
extern int intercepted[Z_COUNT];

static inline int is_strided(int api) { return api >= Z_SB && api <= Z_SBEX_64; }
static inline int is_ex(int api)
{
    return api == Z_EX || api == Z_EX_64 || api == Z_SBEX || api == Z_SBEX_64;
}

/* One call's arguments (the legacy call takes its operations as characters). */
typedef struct {
    int api;
    cublasHandle_t h;
    cublasOperation_t ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    long long sA, sB, sC;
    int64_t batch;
    cublasGemmAlgo_t algo;
    const cuDoubleComplex *alpha, *beta; /* host or device, as the handle's pointer mode */
    const double *A, *B;
    double *C;
    int lower; /* legacy: lower-case operation characters */
} zcall;

/* Finds the real Z functions in libcublas (dlsym on its handle) and fills intercepted[]. */
void zlookup(void);
/* The operation's legacy character ('X' for an invalid one). */
char op_char(cublasOperation_t op, int lower);
/* Runs c for real (real = 1) or through the shim; the legacy call's status is cublasGetError's. */
cublasStatus_t zrun(int real, const zcall *c);

/* zgemm_cases.c: a problem's data (kind: zgemm.c's K_*), a twin over it (dd's, or with repro
 * set the correctly rounded one, on threads) and the scale of its error bound, all tight, batch
 * entry b at b * tstride complex elements. */
void zgemm_gen(int kind, int ta, int tb, int64_t m, int64_t n, int64_t k, int64_t batch,
               int bshared, uint64_t seed, int64_t tstride, double *A, double *B, double *C0);
void zgemm_twin(int ta, int tb, int64_t m, int64_t n, int64_t k, int64_t batch,
                const double alpha[2], const double beta[2], const double *A, const double *B,
                const double *C0, int64_t tstride, int threads, int repro, double *T);
void zgemm_scale(int ta, int tb, int64_t m, int64_t n, int64_t k, int64_t batch,
                 const double alpha[2], const double beta[2], const double *A, const double *B,
                 const double *C0, int64_t tstride, int per_part, double *S);

#endif
