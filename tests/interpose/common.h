/* common.h — helpers shared by the interposition tests: loud failures, reference BLAS, files,
 * the shim's trace log, and re-running the test program as a child with a chosen environment. */
#ifndef INTERPOSE_COMMON_H
#define INTERPOSE_COMMON_H

#include <cublas_api.h>
#include <stddef.h>
#include <stdint.h>

/* Prints "FAIL file:line: message" on stderr and exits with status 1. */
#define FAIL(...) fail_at(__FILE__, __LINE__, __VA_ARGS__)
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            FAIL(__VA_ARGS__);                                                                     \
    } while (0)
_Noreturn void fail_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- reference BLAS (column-major; same rules as cuBLAS: beta == 0 never reads C / y) ---- */
void ref_dgemm(cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
               double alpha, const double *A, int64_t lda, const double *B, int64_t ldb,
               double beta, double *C, int64_t ldc);
void ref_sgemm(cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
               float alpha, const float *A, int64_t lda, const float *B, int64_t ldb, float beta,
               float *C, int64_t ldc);
void ref_dgemv(cublasOperation_t t, int64_t m, int64_t n, double alpha, const double *A,
               int64_t lda, const double *x, int64_t incx, double beta, double *y, int64_t incy);
double ref_ddot(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy);

/* Fills x[0..n) with small integers (-4..4) from a seed: every product and sum in the tests is
 * then exact, so any correct summation order gives the same bits. */
void fill_ints(double *x, size_t n, unsigned seed);
void fill_ints_f(float *x, size_t n, unsigned seed);
/* Element-wise equality, NaN equal to NaN (index of the first difference, or -1). */
long first_diff(const double *a, const double *b, size_t n);

/* ---- files ---- */
/* The whole file as a NUL-terminated string (exits on error); *len gets its length if len. */
char *read_file(const char *path, size_t *len);
void write_file(const char *path, const void *data, size_t len);
/* A fresh directory under $TMPDIR (or /tmp); remove_tree removes it and what it holds. */
char *make_temp_dir(const char *tag);
void remove_tree(const char *dir);
/* Fails unless every entry of dir is one of names (NULL-terminated). */
void expect_only_entries(const char *dir, const char *const names[]);
/* dir + "/" + name, malloc'd. */
char *path_join(const char *dir, const char *name);
/* Number of '\n'-terminated lines in s (a last unterminated line counts too). */
int count_lines(const char *s);
/* Line i (0-based) of s, malloc'd without its newline, or NULL. */
char *nth_line(const char *s, int i);

/* ---- the shim's log file, read as it grows ---- */
typedef struct {
    const char *path;
    size_t offset;
} log_cursor;
/* What was appended since the last call (malloc'd; "" when nothing). */
char *log_take(log_cursor *c);
/* Exactly one new line was appended, and it equals `expected` (without newline). */
void log_expect_line_at(const char *file, int line, log_cursor *c, const char *expected);
#define log_expect_line(c, expected) log_expect_line_at(__FILE__, __LINE__, c, expected)
void log_expect_nothing_at(const char *file, int line, log_cursor *c);
#define log_expect_nothing(c) log_expect_nothing_at(__FILE__, __LINE__, c)

/* ---- the shim ---- */
/* Fails unless `symbol`, looked up in the global scope, is defined in libdfshim.so: the test
 * runs with the shim preloaded. */
void require_shim(const char *symbol);

/* ---- children ---- */
/* Runs this program (/proc/self/exe) with argv, in the current environment minus every EXBLAS_*
 * variable plus the "NAME=value" strings of `env` (NULL-terminated, may be NULL).  stdout and
 * stderr go to the files out_path and err_path (truncated), or are inherited where NULL.  The
 * child is killed after timeout_s seconds.  Returns the exit status, or 128 + the signal. */
int run_self(char *const argv[], const char *const env[], const char *out_path,
             const char *err_path, unsigned timeout_s);

#endif
