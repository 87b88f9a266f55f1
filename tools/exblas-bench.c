/* exblas-bench — times one cuBLAS FP64 routine at one size under the current EXBLAS_MODE, through
 * libdfshim.so (which it preloads into itself when needed) or, with --no-shim, cuBLAS alone.
 * Prints CSV on stdout, one header line and one row.  This file: the arguments; bench-run.c: the
 * operands, the runs, the check and the CSV.
 *
 * Usage:
 *   exblas-bench dgemm M N K [--op NN|NT|TN|TT] [options]
 *   exblas-bench dgemv M N [--op N|T] [options]
 *   exblas-bench ddot N [options]
 *   exblas-bench sgemm M N K [--op NN|NT|TN|TT] [options]
 *                   cublasSgemm (never intercepted) on the same data rounded to binary32: the
 *                   reference for the ozaki-sgemm engine; --check compares its result with the
 *                   exact product of the binary64 data
 *   exblas-bench zgemm M N K [--op NN|NT|NC|TN|TT|TC|CN|CT|CC] [options]
 *                   cublasZgemm_v2, complex double (C: the conjugate transpose); gflops counted
 *                   as 8mnk/t (a complex multiply-add is 8 real flops)
 *   exblas-bench dsyrk N K [--op N|T] [options]
 *                   cublasDsyrk_v2, lower: C = alpha op(A) op(A)^T + beta C, op(A) N x K;
 *                   gflops counted as N (N + 1) K / t (the triangle)
 *   exblas-bench dtrsm M N [--op N|T] [options]
 *                   cublasDtrsm_v2, left, lower, non-unit: op(A) X = alpha B, A M x M (its
 *                   strict lower part from the data scaled by 1/M, its diagonal 1 + |a_ii|: well
 *                   conditioned), B M x N restored before every run (not timed); gflops counted
 *                   as M^2 N / t
 *   exblas-bench dtrmm M N [--op N|T] [options]
 *                   cublasDtrmm_v2 (out of place), left, lower, non-unit: C = alpha op(A) B, A
 *                   M x M from the data (its lower triangle read), B and C M x N; gflops counted
 *                   as M^2 N / t
 * Options:
 *   --reps R        timed runs (default 10)          --warmup W   untimed runs first (default 3)
 *   --shim PATH     the libdfshim.so to preload (default ../shim/libdfshim.so next to this
 *                   executable, i.e. the build tree; else the installed one)
 *   --no-shim       cuBLAS alone (a libdfshim.so already in LD_PRELOAD is taken out)
 *   --host-overhead (dgemm, zgemm) host time per call instead of GPU time: CALLS calls issued back
 *                   to back on one stream, clock_gettime around the issuing loop only; 7 rounds
 *                   after an untimed one; median and min in us per call.  Where a call's GPU work
 *                   outlasts its issue the launch queue fills and the GPU is measured: the
 *                   default 200 calls stay below its depth (README, Tools), or --quick-return.
 *   --calls N       calls per round for --host-overhead (default 200)
 *   --quick-return  the --host-overhead loop calls the routine with m = 0 (nothing to compute:
 *                   pure call overhead)
 *   --phi X         the Ozaki papers' data: (U - 0.5) exp(X N), U uniform in [0, 1), N standard
 *                   normal, same fixed seed; X >= 0 (0: uniform in [-0.5, 0.5)); X = 4 spreads
 *                   the magnitudes by e^+-4 (about 2^+-5.8) within one standard deviation of N;
 *                   zgemm: real and imaginary parts drawn independently (all the real parts of a
 *                   matrix, then all its imaginary parts)
 *   --data K        the values shaped further (tools/bench-data.h; dgemm, sgemm and zgemm, whose
 *                   real and imaginary parts are each shaped alike; under also dgemv and ddot):
 *                   mixed, every 8th column of op(A) about 1e300 and the others about 1e-300,
 *                   op(B) zero on those rows for the even columns of C (half the outputs see only
 *                   tiny products); under, everything about 1e-160 (the products underflow);
 *                   subnormal, op(A) x 2^-1000 and op(B) x 2^-40 (subnormal products)
 *   --alpha A, --beta B  (dgemm, dgemv, zgemm, dsyrk; dtrsm, dtrmm: --alpha; default 1, 0) the
 *                   scalars, host pointer mode;
 *                   with beta != 0 C (y) starts from random data and each run reads it
 *   --alpha-im A, --beta-im B  (zgemm; default 0) the scalars' imaginary parts
 *   --check S       (dgemm, sgemm, zgemm; not with --host-overhead) after the timed runs, the
 *                   largest relative and normwise errors of C over S entries (i, j) drawn from a
 *                   fixed seed of their own, with replacement (every entry once when S >= m n),
 *                   against the correctly rounded RN(alpha op(A) op(B) + beta C0) of the
 *                   reproducible engine's CPU DGEMM (tools/bench-check.h); with beta != 0 one
 *                   more run from C's first values C0 is the one checked.  Not timed.  zgemm:
 *                   the real and the imaginary parts of the sampled entries, each against its
 *                   correctly rounded value (the reproducible engine's CPU ZGEMM,
 *                   engines/repro/zhost.c), the largest error over both parts; a part's
 *                   normwise denominator sums the absolute values of its exact value's real
 *                   terms (bench-check.h)
 * Output (GPU time, CUDA events on the default stream; median and min of R runs):
 *   routine,mode,m,n,k,op,reps,median_ms,min_ms,gflops,gbps,phi,max_rel_err,data,max_norm_err,
 *   alpha,beta
 *   gflops = 2mnk/t (dgemm, sgemm), 8mnk/t (zgemm), 2mn/t (dgemv), 2n/t (ddot), with t the median;
 *   gbps = bytes of the operands read or written once / t (C and y counted once, written; zgemm:
 *   16 bytes an element).  Fields that do not apply are empty.  mode is EXBLAS_MODE ("auto" when
 *   unset) or "no-shim".  phi is the --phi value, empty without --phi (uniform data).
 *   max_rel_err is the --check result, max |c - ref| / |ref| over the sample (zgemm: over both
 *   parts), with |c - ref| itself for an entry whose ref is 0 (0 when c is 0 too; NaN if some c
 *   is NaN); 0 for an empty C (m or n 0); empty without --check.
 *   data is --data's class (empty: none); max_norm_err is max |c - ref| / (|alpha| sum_q
 *   |op(A)(i,q) op(B)(q,j)| + |beta c0|) over the same sample (what native FP64's bound scales
 *   with); alpha and beta are the scalars (empty for ddot and sgemm; zgemm: the real part alone
 *   when the imaginary part is 0, else re+imi or re-imi, e.g. 1+0.5i).
 *   ddot returns its result to device memory (CUBLAS_POINTER_MODE_DEVICE).
 * Output of --host-overhead:
 *   routine,mode,m,n,k,op,calls,rounds,median_us_per_call,min_us_per_call,phi,alpha,beta
 * Examples:
 *   exblas-bench dgemm 4096 4096 4096 --op NT
 *   EXBLAS_MODE=native exblas-bench dgemv 8192 8192 --op T --reps 50
 *   exblas-bench dgemm 64 64 64 --host-overhead; exblas-bench dgemm 64 64 64 --host-overhead --no-shim
 *   EXBLAS_MODE=repro exblas-bench ddot 100000000 --phi 4
 *   EXBLAS_MODE=ozaki:splits=3 exblas-bench dgemm 4096 4096 4096 --phi 1 --check 256
 *   EXBLAS_MODE=repro exblas-bench dgemm 2048 2048 2048 --beta 1 --check 256
 *   EXBLAS_MODE=accurate exblas-bench zgemm 2048 2048 2048 --op CN --phi 1 --check 256
 * Data are random in [-1,1) from a fixed seed (with --phi X: the phi generator above, from the
 * same seed).
 *
 * Exit status: 0 done; 1 a CUDA or cuBLAS call failed; 2 usage error, or the shim cannot be found
 * or loaded; 77 no CUDA GPU ("exblas-bench: no CUDA GPU available (<reason>)" on stderr). */
#include "bench-data.h"
#include "bench-preload.h"
#include "bench-run.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: exblas-bench dgemm M N K [--op NN|NT|TN|TT] [options]\n"
          "       exblas-bench dgemv M N [--op N|T] [options]\n"
          "       exblas-bench ddot N [options]\n"
          "       exblas-bench sgemm M N K [--op NN|NT|TN|TT] [options]   (cublasSgemm, binary32)\n"
          "       exblas-bench zgemm M N K [--op NN|NT|NC|TN|TT|TC|CN|CT|CC] [options]\n"
          "                   (cublasZgemm_v2, complex double; C: conjugate transpose;\n"
          "                   gflops counted as 8mnk/t)\n"
          "       exblas-bench dsyrk N K [--op N|T] [options]   (lower; C is N x N)\n"
          "       exblas-bench dtrsm M N [--op N|T] [options]   (left, lower, non-unit; B is\n"
          "                   M x N, restored before every run)\n"
          "       exblas-bench dtrmm M N [--op N|T] [options]   (out of place, left, lower,\n"
          "                   non-unit: C = alpha op(A) B, B and C M x N)\n"
          "options: --reps R (10)  --warmup W (3)  --shim PATH  --no-shim\n"
          "         --host-overhead [--calls N (200)] [--quick-return]   (dgemm, zgemm)\n"
          "         --phi X   data (U - 0.5) exp(X N) instead of uniform in [-1,1) (X >= 0)\n"
          "         --data mixed|under|subnormal   (dgemm, sgemm, zgemm; under also dgemv,\n"
          "                   ddot) 1e+-300 columns with zero partners, products that\n"
          "                   underflow, subnormal products (on top of --phi; zgemm: both parts)\n"
          "         --alpha A  --beta B   (dgemm, dgemv, zgemm, dsyrk; dtrsm, dtrmm alpha)\n"
          "         --alpha-im A  --beta-im B   (zgemm; 0 and 0) their imaginary parts\n"
          "         --check S   max relative and normwise errors of S sampled entries of C\n"
          "                     against the correctly rounded result (CPU), after the timed\n"
          "                     runs (dgemm, sgemm, zgemm: the worst of both parts)\n"
          "CSV on stdout: routine,mode,m,n,k,op,reps,median_ms,min_ms,gflops,gbps,phi,max_rel_err,\n"
          "  data,max_norm_err,alpha,beta\n"
          "  (--host-overhead: routine,mode,m,n,k,op,calls,rounds,median_us_per_call,min_us_per_call,\n"
          "  phi,alpha,beta)\n"
          "Exit 77 without a GPU.\n",
          f);
}

/* ---------- arguments ---------- */

static int parse_int(const char *s, int lo, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

/* A finite number (--alpha, --beta). */
static int parse_scalar(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* A finite number >= 0 (the --phi value). */
static int parse_phi(const char *s, options *o)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= 0) || !isfinite(v))
        return -1;
    o->phi = v;
    o->has_phi = 1;
    return 0;
}

/* One op letter: N or T, and C (the conjugate transpose) for zgemm; -1 for anything else. */
static int op_of(char c, const options *o)
{
    switch (c) {
    case 'N': case 'n': return CUBLAS_OP_N;
    case 'T': case 't': return CUBLAS_OP_T;
    case 'C': case 'c': return o->r == ZGEMM ? CUBLAS_OP_C : -1;
    }
    return -1;
}

static int parse_op(const char *s, options *o)
{
    size_t want = o->r == DGEMM || o->r == SGEMM || o->r == ZGEMM ? 2 : 1;
    if (strlen(s) != want || o->r == DDOT)
        return -1;
    for (size_t i = 0; i < want; i++)
        if (op_of(s[i], o) < 0)
            return -1;
    o->ta = (cublasOperation_t)op_of(s[0], o);
    if (want == 2)
        o->tb = (cublasOperation_t)op_of(s[1], o);
    return 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    if (argc < 2)
        return -1;
    static const int ndims[BENCH_ROUTINES] = {3, 2, 1, 3, 3, 2, 2, 2}; /* as routine's order */
    int r = -1;
    for (int i = 0; i < BENCH_ROUTINES; i++)
        if (!strcmp(argv[1], dfs_bench_routine_names[i]))
            r = i;
    if (r < 0)
        return -1;
    o->r = (routine)r;
    int *dims[3] = {&o->m, &o->n, &o->k};
    if (o->r == DDOT)
        dims[0] = &o->n;
    if (o->r == DSYRK) {
        dims[0] = &o->n;
        dims[1] = &o->k;
    }
    if (argc < 2 + ndims[r])
        return -1;
    for (int i = 0; i < ndims[r]; i++)
        if (parse_int(argv[2 + i], 0, dims[i]))
            return -1;
    int scalars = 0, scalars_im = 0;
    for (int i = 2 + ndims[r]; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--op") && v)
            bad = parse_op(argv[++i], o);
        else if (!strcmp(a, "--reps") && v)
            bad = parse_int(argv[++i], 1, &o->reps);
        else if (!strcmp(a, "--warmup") && v)
            bad = parse_int(argv[++i], 0, &o->warmup);
        else if (!strcmp(a, "--calls") && v)
            bad = parse_int(argv[++i], 1, &o->calls);
        else if (!strcmp(a, "--shim") && v)
            o->shim = argv[++i];
        else if (!strcmp(a, "--phi") && v)
            bad = parse_phi(argv[++i], o);
        else if (!strcmp(a, "--data") && v) {
            const char *w = argv[++i];
            o->data = !strcmp(w, "mixed") ? BENCH_MIXED : !strcmp(w, "under") ? BENCH_UNDER
                      : !strcmp(w, "subnormal") ? BENCH_SUBNORMAL : -1;
            bad = o->data < 0;
        } else if (!strcmp(a, "--alpha") && v) {
            bad = parse_scalar(argv[++i], &o->alpha);
            scalars = 1;
        } else if (!strcmp(a, "--beta") && v) {
            bad = parse_scalar(argv[++i], &o->beta);
            scalars = 1;
        } else if (!strcmp(a, "--alpha-im") && v) {
            bad = parse_scalar(argv[++i], &o->alpha_im);
            scalars_im = 1;
        } else if (!strcmp(a, "--beta-im") && v) {
            bad = parse_scalar(argv[++i], &o->beta_im);
            scalars_im = 1;
        } else if (!strcmp(a, "--check") && v)
            bad = parse_int(argv[++i], 1, &o->check);
        else if (!strcmp(a, "--no-shim"))
            o->no_shim = 1;
        else if (!strcmp(a, "--host-overhead"))
            o->host_overhead = 1;
        else if (!strcmp(a, "--quick-return"))
            o->quick_return = 1;
        else
            bad = 1;
        if (bad) {
            fprintf(stderr, "exblas-bench: bad argument: %s%s%s\n", a, argv[i] != a ? " " : "",
                    argv[i] != a ? argv[i] : "");
            return -1;
        }
    }
    const int gemm = o->r == DGEMM || o->r == SGEMM || o->r == ZGEMM;
    if ((o->host_overhead || o->quick_return) && o->r != DGEMM && o->r != ZGEMM) {
        fprintf(stderr,
                "exblas-bench: --host-overhead and --quick-return are for dgemm and zgemm\n");
        return -1;
    }
    if (o->data && o->r == DTRSM) {
        fprintf(stderr, "exblas-bench: --data is not for dtrsm (its A is made well conditioned)\n");
        return -1;
    }
    if (o->data && o->data != BENCH_UNDER && !gemm) {
        fprintf(stderr,
                "exblas-bench: --data mixed and subnormal are for dgemm, sgemm and zgemm\n");
        return -1;
    }
    if (o->check && (!gemm || o->host_overhead)) {
        fprintf(stderr, "exblas-bench: --check is for dgemm, sgemm and zgemm, without "
                        "--host-overhead\n");
        return -1;
    }
    if (scalars && o->r != DGEMM && o->r != DGEMV && o->r != ZGEMM && o->r != DSYRK &&
        o->r != DTRSM && o->r != DTRMM) {
        fprintf(stderr, "exblas-bench: --alpha and --beta are for dgemm, dgemv, zgemm and dsyrk "
                        "(dtrsm, dtrmm: --alpha)\n");
        return -1;
    }
    if ((o->r == DTRSM || o->r == DTRMM) && o->beta != 0) {
        fprintf(stderr, "exblas-bench: dtrsm and dtrmm take no --beta\n");
        return -1;
    }
    if (scalars_im && o->r != ZGEMM) {
        fprintf(stderr, "exblas-bench: --alpha-im and --beta-im are for zgemm\n");
        return -1;
    }
    if (o->quick_return && !o->host_overhead) {
        fprintf(stderr, "exblas-bench: --quick-return goes with --host-overhead\n");
        return -1;
    }
    if (o->no_shim && o->shim) {
        fprintf(stderr, "exblas-bench: --shim and --no-shim exclude each other\n");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
    options o = {.ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N, .reps = 10, .warmup = 3, .calls = 200,
                 .alpha = 1.0, .beta = 0.0, .alpha_im = 0.0, .beta_im = 0.0};
    if (parse_args(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    dfs_bench_ensure_shim(o.no_shim, o.shim, argv);

    int ndev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        fprintf(stderr, "exblas-bench: no CUDA GPU available (%s)\n",
                cudaGetErrorString(e != cudaSuccess ? e : cudaErrorNoDevice));
        return 77;
    }
    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));

    operands d;
    dfs_bench_operands(h, &o, &d);
    if (o.host_overhead)
        dfs_bench_host(h, &o, &d);
    else
        dfs_bench_gpu(h, &o, &d);
    dfs_bench_operands_free(&o, &d);
    CUBLAS_CHECK(cublasDestroy(h));
    return 0;
}
