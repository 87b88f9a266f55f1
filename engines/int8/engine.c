/* int8/engine.c — the int8 engine (EXBLAS_MODE=int8, and the mode `fast` on tensor-core parts):
 * DGEMM (and ZGEMM through the real representation, ../zreal/zreal.h, by Karatsuba's three
 * products a modulus where faster: ../oz/kernels_zkara.cuh), as the exact product of the rows
 * and columns rounded to integers of 50 bits and
 * more (dfs_crt_fast_moduli: 15 moduli up to k = 2^16, 16 above; more bits for rows of a few
 * large elements), from int8 residues on integer tensor cores (the Ozaki scheme II,
 * ../oz/crt_gemm.c in its fast mode), rounded once: native accuracy or better on well-scaled
 * data, faster than native FP64 at large sizes (../oz/README.md).  Every output meets the fast
 * contract, native FP64's own error bound, on any data: outputs the integers cannot carry are
 * recomputed in FP64 (../oz/crt_check.h); the moduli follow the data (choice.c), and data that
 * would need more than pays run natively.
 * Options: moduli, native and workspace_mb (the table int8_options below).  A call it
 * cannot take (k >= 2^17, no workspace) runs natively. */
#include "../engine.h"
#include "../zreal/zreal.h"
#include "../oz/crt.h"
#include "../oz/crt_gemm.h"
#include "choice.h"

static int int8_can_run(const dfs_device *d)
{
    /* int8 tensor cores from cc 7.5 (the fatbins hold code for 7.5 and later, PTX for newer) */
    return d->cc_major > 7 || (d->cc_major == 7 && d->cc_minor >= 5);
}

static const char *const native_words[] = {"faster", "never", NULL};
static const dfs_option_spec int8_option_spec[] = {
    {.key = "moduli", .kind = DFS_OPT_INT, .lo = 2, .hi = DFS_CRT_FAST_MODULI, .zero = "from the data",
     .def = 0,
     .meaning = "how many moduli (int8 GEMMs), fixed: more is more accurate and slower; 0: "
                "chosen from the data"},
    {.key = "native", .kind = DFS_OPT_WORD, .words = native_words, .def = 0,
     .meaning = "when a call runs natively instead: faster (where native FP64 is faster by the "
                "cost model, from the shape or from the moduli the data asked for), never (every "
                "call it can take, for accuracy studies)"},
    {.key = "workspace_mb", .kind = DFS_OPT_INT, .lo = 16, .hi = 1 << 24, .def = 8192,
     .meaning = "the most scratch space (MiB) one DGEMM may use; larger products run block by "
                "block"},
    {.key = NULL},
};
static const dfs_option_table int8_options = {"int8", int8_option_spec, NULL};

/* The break-even moduli of c (dfs_int8_breakeven: a real DGEMM's), or with zk (c the real
 * representation of a complex product, ../zreal/zreal.h) the better of its four products and,
 * where they fit, three (dfs_int8_breakeven_z: fewer GEMMs, more int32 sums to finish); *three
 * (set with zk): whether the three are the better. */
static double breakeven(const dfs_device *dev, const dfs_gemm_call *c, int zk, int *three)
{
    const int64_t k = c->k > 0 ? c->k : 1;
    const double real = dfs_int8_device_breakeven(dev, c->m, c->n, k);
    const double kara = zk && dfs_crt_zk_fits(c->k)
                            ? dfs_int8_device_breakeven_z(dev, c->m, c->n / 2, k / 2)
                            : -1.0;
    if (three)
        *three = kara >= real;
    return kara >= real ? kara : real;
}

/* c a real DGEMM, or (zk) the real representation of a complex product, by three products a
 * modulus where the cost model prefers them (../oz/crt_gemm.h). */
static cublasStatus_t int8_run(const dfs_ctx *x, const dfs_gemm_call *c, int zk)
{
    int three = 0;
    const double b = breakeven(x->dev, c, zk, &three);
    const double bmod =
        dfs_option_word(x->options, &int8_options, "native") != 0 ? DFS_INT8_NEVER_NATIVE : b;
    dfs_int8_choice ch;
    dfs_int8_choose(x, c, (int)dfs_option_int(x->options, &int8_options, "moduli"), bmod, &ch);
    if (ch.native)
        return DFS_STATUS_PREFER_NATIVE;
    const dfs_crt_gemm_opts o = {
        0, ch.moduli,
        (size_t)dfs_option_int(x->options, &int8_options, "workspace_mb") << 20, ch.record,
        ch.seq, DFS_CRT_KGROUPS_ONE, 0, NULL, NULL, three};
    return dfs_crt_dgemm_gpu(x, c, &o);
}

static cublasStatus_t int8_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    return int8_run(x, c, 0);
}

static cublasStatus_t int8_zgemm_real(const dfs_ctx *x, const dfs_gemm_call *c)
{
    return int8_run(x, c, 1);
}

/* exblas-info's question: does a call of c's shape run natively whatever its data?  Complex
 * calls as their real representation (m x 2n x 2k), by three products or four. */
static int int8_gemm_prefers_native(const dfs_device *dev, const dfs_gemm_call *c,
                                    const dfs_options *o)
{
    if (dfs_option_int(o, &int8_options, "moduli") > 0 ||
        dfs_option_word(o, &int8_options, "native") != 0)
        return 0;
    const int z = c->type == DFS_C64 ? 2 : 1;
    dfs_gemm_call r = *c;
    r.n = z * c->n;
    r.k = z * c->k;
    return dfs_int8_shape_native(breakeven(dev, &r, z == 2, NULL), r.k > 0 ? r.k : 1);
}

/* Complex calls through the real representation (../zreal/zreal.h). */
static cublasStatus_t int8_gemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    if (c->tri != DFS_TRI_ALL && c->type != DFS_R64) /* real triangles only */
        return DFS_STATUS_DECLINED;
    return c->type == DFS_C64 ? dfs_zr_gemm(x, c, int8_zgemm_real, 0) : int8_dgemm(x, c);
}

const dfs_engine dfs_engine_int8 = {
    .name = "int8",
    .summary = "DGEMM and ZGEMM (three products) from exact int8 tensor-core products (Ozaki "
               "scheme II), native accuracy or better",
    .options = &int8_options,
    .can_run = int8_can_run,
    .caps = DFS_CAP_COMPLEX | DFS_CAP_TRIANGLE, /* a real triangle of C: crt_gemm.c's */
    .gemm = int8_gemm,
    .gemm_prefers_native = int8_gemm_prefers_native,
    /* TRSM: fewer, larger GEMMs (each splits both operands into residues); native FP64's
     * contract, so the parts whose update native does faster are one cuBLAS TRSM each */
    .trsm_nb = 256,
    .trsm_native_parts = 1,
    /* SYRK...: two panels (H100, DSYRK 4096 with native=never: 2.89 ms against 4.60 with eight) */
    .l3_panels = 2,
};
