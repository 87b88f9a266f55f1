/* crt_gemm.c — DGEMM by the Ozaki scheme II on integer tensor cores (crt.h; host_crt.c is the
 * CPU twin, README.md the method):
 *   dfs_oz_rows        per row of op(A) / column of op(B): top exponent, l1 norm, sum of
 *                      squares, specials;
 *   dfs_crt_residues   each row scaled to an integer of dfs_crt_row_bits bits, its int8
 *                      residues modulo each of N moduli;
 *   (cuBLAS)           per modulus, the int8 GEMM with exact int32 sums (k < 2^17);
 *   dfs_crt_finish_*   per output: the exact product of the integers reconstructed (CRT), then
 *                      fast: C = alpha RN(S) + beta C;  verify: C = RN(alpha S + beta C) when
 *                      the truncation cannot change it, else listed;
 *   dfs_oz_direct      the listed outputs (and those with Inf or NaN operands), exactly.
 * No host synchronisation.  C is computed block by block so that residues and int32 sums stay
 * within the workspace budget; the blocks change nothing in any output. */
#include "crt_gemm.h"

#include "../../core/gpu.h"
#include "../../core/log.h"
#include "../../core/resolve.h"
#include "call.h"
#include "crt.h"
#include "feedback.h"
#include "kgroups.h"
#include "plan.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The inner dimension in groups (kgroups.h): the top exponents of op(A)'s columns and op(B)'s
 * rows (rows passes over them; need and nrm their by-products), the classes, the split found;
 * with two groups, group 1's rows and columns (group 0's are the call's, c). */
typedef struct {
    int *tA, *tB, *need, *out, *maxneed;
    double *nrm;
    signed char *kcls;
    dfs_oz_call_ws r1; /* group 1's rows pass (dfs_oz_carve_rows: its fields only) */
    int *bitsA, *bitsB;
} kgroups_ws;

typedef struct {
    dfs_oz_call_ws c;
    signed char *RA, *RB;
    int32_t *Cl;
    uint32_t *list, *fail;
    int *bitsA, *bitsB;
    dfs_crt_fast_stats *fstats;
    unsigned long long *vneed;
    kgroups_ws g;
} layout;

/* The kgroups_ws of a call with inner dimension k (groups: 0, none; 1, the classes only; 2,
 * group 1's rows too). */
static size_t carve_groups(CUdeviceptr base, size_t off, int64_t m, int64_t n, int64_t k,
                           int groups, kgroups_ws *g)
{
    memset(g, 0, sizeof *g);
    if (groups < 1)
        return off;
    g->tA = dfs_oz_take(base, &off, (size_t)k * sizeof(int));
    g->tB = dfs_oz_take(base, &off, (size_t)k * sizeof(int));
    g->need = dfs_oz_take(base, &off, (size_t)k * sizeof(int));
    g->nrm = dfs_oz_take(base, &off, (size_t)k * sizeof(double));
    g->kcls = dfs_oz_take(base, &off, (size_t)k);
    g->out = dfs_oz_take(base, &off, 2 * sizeof(int));
    g->maxneed = dfs_oz_take(base, &off, sizeof(int));
    if (groups < 2)
        return off;
    off = dfs_oz_carve_rows(base, off, m, n, 1, &g->r1);
    g->bitsA = dfs_oz_take(base, &off, (size_t)m * sizeof(int));
    g->bitsB = dfs_oz_take(base, &off, (size_t)n * sizeof(int));
    return off;
}

/* Bytes for blocks of bm x bn with P residue matrices per operand (the N moduli per group, and
 * fast the magnitudes; three each with zk) and k padded to kp; fills l from base when base != 0.
 * cols: real outputs per column of the block (2 with zk: both parts).  fast: the failure bitmap
 * and counters; groups: carve_groups's. */
static size_t carve(CUdeviceptr base, int64_t m, int64_t n, int64_t kp, int64_t bm, int64_t bn,
                    int P, int cols, int fast, int groups, layout *l)
{
    /* the counters of fast (fstats) or verify (vneed) with the call's (one memset) */
    const size_t extra = fast ? sizeof(dfs_crt_fast_stats)
                              : DFS_CRT_VNEED_BINS * sizeof(unsigned long long);
    size_t off = dfs_oz_carve_call(base, m, n, 1, extra, &l->c);
    off = carve_groups(base, off, m, n, kp, groups, &l->g);
    l->RA = dfs_oz_take(base, &off, (size_t)P * bm * kp);
    l->RB = dfs_oz_take(base, &off, (size_t)P * bn * kp);
    l->Cl = dfs_oz_take(base, &off, (size_t)P * bm * bn * sizeof(int32_t));
    l->list = dfs_oz_take(base, &off, (size_t)(bm * bn * cols) * sizeof(uint32_t));
    l->bitsA = dfs_oz_take(base, &off, (size_t)m * sizeof(int));
    l->bitsB = dfs_oz_take(base, &off, (size_t)n * sizeof(int));
    l->fail = fast ? dfs_oz_take(base, &off,
                                 (size_t)((bm + 31) / 32 * bn * cols) * sizeof(uint32_t))
                   : NULL;
    l->fstats = fast ? l->c.extra : NULL;
    l->vneed = fast ? NULL : l->c.extra;
    return off;
}

/* The blocks (dfs_oz_plan_blocks) at the least cost, in int8 operations: the GEMMs (thin
 * blocks slower: dfs_oz_thin_factor) and the memory traffic at tuning.h's operations per byte;
 * blocks of more than tuning.h's block_outputs are refused (cuBLAS's int8 GEMMs run faster on
 * smaller ones; the cap, not the cost, decides only for larger blocks).  Column blocks are the
 * outer loop: op(B)'s residues are made once, op(A)'s once per column block unless one row
 * block holds all of op(A); each residue pass reads 8 and writes N bytes per element. */
typedef struct {
    int64_t m, n, kp;
    int P, cols, fast, groups; /* residue matrices per operand, as carve's */
    int tri;                   /* a triangle of C (dfs_gemm_call.tri; m = n) */
    const dfs_oz_tuning *t;
} plan_in;

static int eval_block(const void *ctx, int64_t bm, int64_t bn, size_t *need, double *cost)
{
    const plan_in *p = ctx;
    layout dry; /* carve() only counting */
    *need = carve(0, p->m, p->n, p->kp, bm, bn, p->P, p->cols, p->fast, p->groups, &dry);
    /* the finish steps through the sums in 32-bit offsets (dfs_crt_reconstruct) */
    if ((uint64_t)p->P * (uint64_t)(bm * bn) >= ((uint64_t)1 << 32))
        return 0;
    if (bm * bn > p->t->crt_block_outputs)
        return 0;
    if (bn * p->cols > 65536) /* the list holds a column of the block in 16 bits (pack_rc) */
        return 0;
    const double cblocks = (double)((p->n + bn - 1) / bn);
    /* a triangle: each column block from (to) its diagonal, about (n + bn) / 2 rows of it; the
     * row blocks past the diagonal skipped, about half of them */
    const double part = p->tri ? (0.5 + 0.5 * (double)bn / (double)p->n) : 1.0;
    const double passes_a = bm == p->m ? 1.0 : p->tri ? (cblocks + 1.0) / 2.0 : cblocks;
    const double gemm = 2.0 * p->P * (double)p->m * (double)p->n * (double)p->kp * part *
                        dfs_oz_thin_factor(p->t->thin, bm, bn);
    /* per element of an operand (a complex one by zk: two reals, three residue matrices) */
    const double bytes = (8.0 * p->cols + p->P) * (double)p->kp *
                         ((double)p->m * passes_a + (double)p->n);
    *cost = gemm + p->t->crt_ops_per_byte * bytes;
    if (p->tri) { /* column blocks of about n / tri_blocks (tuning.h), else the nearest */
        const double want = (double)p->n / p->t->tri_blocks, w = (double)bn;
        *cost *= w > want ? w / want : want / w;
    }
    return 1;
}

typedef struct {
    const dfs_ctx *x;
    const dfs_crt_gemm_opts *o;
    const CUfunction *k;
    CUstream st;
    int sms;
} run;

/* The words per element of the residue kernel's byte form (dfs_crt_bcoefs) with L bits of
 * moduli: 2 when no row gets more than 62 bits (dfs_crt_max_bits), else 4. */
static int residue_words(int L)
{
    return dfs_crt_max_bits(L) <= 62 ? 2 : 4;
}

/* The residue kernel over a's rows and then b's (b NULL: a's alone), 32 rows and 64 columns q
 * a block. */
static int launch_pair(const run *R, const dfs_crt_residue_args *a, const dfs_crt_residue_args *b)
{
    dfs_crt_residue_pair p;
    memset(&p, 0, sizeof p); /* b: no rows unless given */
    p.a = *a;
    if (b)
        p.b = *b;
    const int64_t y = (a->rows + 31) / 32 + (p.b.rows + 31) / 32;
    return dfs_launch(R->k[residue_words(a->L) == 2 ? DFS_OZ_K_RESIDUES62 : DFS_OZ_K_RESIDUES],
                      (unsigned)((a->kp + 63) / 64), (unsigned)y, 1, 256, 1, R->st, &p);
}

/* The residues of rows r0 .. r0+rows-1 of an operand: a (its fields but the rows and R set
 * once per call, its coefficients for residue_words(a->L) words), into the planes from plane0
 * on of the block's residues at base (plane l at base + l * rows * kp, or a->ps apart). */
static int launch_residues(const run *R, dfs_crt_residue_args *a, int64_t r0, int64_t rows,
                           signed char *base, int plane0)
{
    if (rows <= 0 || a->kp <= 0)
        return 0;
    a->r0 = r0;
    a->rows = rows;
    a->R = base + (size_t)plane0 * (size_t)rows * (size_t)a->kp;
    return launch_pair(R, a, NULL);
}

/* op(A)'s residues (all its rows, into RA) and those of op(B)'s columns c0 .. c0+cols-1 (into
 * RB) in one launch: the two fill the GPU together where each alone would leave it half idle
 * (n = 1024: one wave each).  The same residues as launch_residues's. */
static int launch_residues_ab(const run *R, dfs_crt_residue_args *a, int64_t rows,
                              signed char *RA, dfs_crt_residue_args *b, int64_t c0, int64_t cols,
                              signed char *RB)
{
    if (rows <= 0 || cols <= 0 || a->kp <= 0)
        return launch_residues(R, a, 0, rows, RA, 0) | launch_residues(R, b, c0, cols, RB, 0);
    a->r0 = 0, a->rows = rows, a->R = RA;
    b->r0 = c0, b->rows = cols, b->R = RB;
    return launch_pair(R, a, b);
}

/* zk: the residues of rows r0 .. r0+rows-1 of a complex operand, its real parts by re and
 * its imaginary parts (or, op(B), minus them) by im, into the first two of each plane's three
 * matrices at base, then the third (dfs_crt_zk_sums: the difference for op(A), sub, else the
 * sum). */
static int launch_zk_residues(const run *R, dfs_crt_residue_args *re, dfs_crt_residue_args *im,
                              int64_t r0, int64_t rows, signed char *base, int planes, int sub)
{
    if (rows <= 0 || re->kp <= 0)
        return 0;
    re->ps = im->ps = 3 * rows * re->kp;
    int err = launch_residues(R, re, r0, rows, base, 0);
    err |= launch_residues(R, im, r0, rows, base + rows * re->kp, 0);
    dfs_crt_zk_sums_args z = {base, rows, re->kp, re->n, sub, {0}};
    for (int l = 0; l < re->n; l++)
        z.mod[l] = dfs_crt_modulus(l);
    const int64_t blocks = (rows * re->kp / 4 + 255) / 256, cap = (int64_t)R->sms * 4;
    err |= dfs_launch(R->k[DFS_OZ_K_ZK_SUMS], (unsigned)(blocks < cap ? blocks : cap),
                      (unsigned)planes, 1, 256, 1, R->st, &z);
    return err;
}

/* The moduli of a call: fast, the option or the default; verify, the guess (feedback.h) from
 * the bits an output needs to be decided in most cases: 53, half of log2 k for the growth of
 * the sum, 16 to spare. */
static int moduli(const run *R, int64_t k, unsigned long long *seq)
{
    if (!R->o->verify)
        return dfs_crt_int8_moduli(R->o->moduli, k);
    const int want = 53 + (dfs_oz_ceil_log2(k) + 1) / 2 + 16;
    const int first = dfs_crt_count(want, k);
    return dfs_crt_fit_moduli(
        dfs_oz_fb_choose(DFS_OZ_FB_MODULI, R->x->device, first ? first : DFS_CRT_MODULI, seq), k);
}

/* How many groups a verifying call's inner dimension takes (kgroups.h): the option's, or
 * (auto) two when the last call on this device split its own (its classes copied back with the
 * counters); 0 for the int8 engine and when k < 2. */
static int kgroups_of(const run *R, int64_t k, volatile dfs_oz_fb_dev *fb)
{
    if (!R->o->verify || k < 2)
        return 0;
    if (R->o->kgroups == DFS_CRT_KGROUPS_ONE)
        return 0;
    if (R->o->kgroups == DFS_CRT_KGROUPS_TWO)
        return 2;
    return fb && fb->kgroups[1] ? 2 : 1;
}

/* The classes of the inner dimension (kgroups.h): the top exponents of op(A)'s columns and of
 * op(B)'s rows by rows passes over them, then the split; its result back to the host for the
 * next call's choice.  gate (or NULL): the call's rows passes' largest tau - low (op(A), op(B));
 * where neither exceeds DFS_OZ_KGATE the kernels do nothing and the result is no split.  0 on
 * success. */
static int launch_kgroups(const run *R, const kgroups_ws *g, const double *A, int64_t ars,
                          int64_t aqs, const double *B, int64_t bqs, int64_t bcs, int64_t m,
                          int64_t n, int64_t k, const double *alpha_dev, const int *gate,
                          volatile dfs_oz_fb_dev *fb)
{
    dfs_oz_rows_args ra = {.X = A, .rs = aqs, .qs = ars, .rows = k, .k = m, .tau = g->tA,
                           .need = g->need, .maxneed = g->maxneed, .nrm = g->nrm, .beta = 1,
                           .alpha = alpha_dev, .gate = gate};
    dfs_oz_rows_args rb = ra; /* need, nrm: scratch, the two passes' alike (not read) */
    rb.X = B, rb.rs = bqs, rb.qs = bcs, rb.k = n, rb.tau = g->tB;
    int err = dfs_oz_launch_rows(R->k, R->st, ra, &rb);
    dfs_oz_kgroups_args a = {g->tA, g->tB, k, g->kcls, g->out, gate};
    err |= dfs_launch(R->k[DFS_OZ_K_KGROUPS], 1, 1, 1, DFS_OZ_KGROUPS_THREADS, 1, R->st, &a);
    if (!err && fb &&
        DFS_DRV(cuMemcpyDtoHAsync)((void *)fb->kgroups, (CUdeviceptr)(uintptr_t)g->out,
                                   2 * sizeof(int), R->st) != CUDA_SUCCESS)
        err = 1;
    return err;
}

static cublasStatus_t one_gemm(const run *R, const dfs_gemm_call *c, const double *A,
                               const double *B, double *C)
{
    const int64_t m = c->m, n = c->n, k = c->k;
    const int ta = c->transa != CUBLAS_OP_N, tb = c->transb != CUBLAS_OP_N;
    /* op(A)(r, q) = A[r * ars + q * aqs]; op(B)(q, col) = B[q * bqs + col * bcs] */
    const int64_t ars = ta ? c->lda : 1, aqs = ta ? 1 : c->lda;
    const int64_t bqs = tb ? c->ldb : 1, bcs = tb ? 1 : c->ldb;
    const int dev_scalars = R->x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    const int verify = R->o->verify;
    unsigned long long seq = 0;
    const int N = moduli(R, k > 0 ? k : 1, &seq);
    volatile dfs_oz_fb_dev *fb = verify ? dfs_oz_fb_slot(DFS_OZ_FB_MODULI, R->x->device) : NULL;
    const int pairs = verify && R->o->zpairs;
    const int groups = kgroups_of(R, k, fb), G = groups == 2 ? 2 : 1;
    /* planes: the moduli of each group, and (fast) the magnitudes (crt_check.h) */
    const int fast = !verify, P = G * N + fast;
    /* zk: the complex product by three products (crt_gemm.h): residues, GEMMs and blocks over
     * the complex columns nq and inner dimension kq, three residue matrices a plane */
    const int zk = fast && R->o->zk && !ta && !tb && n % 2 == 0 && k % 2 == 0 && dfs_crt_zk_fits(k);
    /* a triangle of C: real products (neither pairs nor zk), square */
    const int tri = c->tri;
    if (tri != DFS_TRI_ALL && (pairs || zk || m != n || c->batch != 1))
        return DFS_STATUS_DECLINED;
    const int64_t nq = zk ? n / 2 : n, kq = zk ? k / 2 : k, kpq = (kq + 15) / 16 * 16;
    const int PM = zk ? 3 * P : P;
    /* op(B)'s column stride over those columns (zk: the real representation's columns 2 j; its
     * column 2 j + 1 holds the same values) */
    const int64_t bcq = zk ? 2 * bcs : bcs;
    int64_t bm = 0, bn = 0;
    const plan_in pin = {m, nq, kpq, PM, zk ? 2 : 1, fast, groups, tri != DFS_TRI_ALL,
                         dfs_oz_tuning_ctx(R->x)};
    /* row pairs: blocks of whole pairs */
    const size_t need = dfs_oz_plan_blocks(m, nq, pairs ? 2 : 1, R->o->workspace, eval_block,
                                           &pin, &bm, &bn);
    if (dfs_log_on(DFS_LOG_TRACE))
        dfs_log(DFS_LOG_TRACE, "%s: %s %lld x %lld x %lld on int8 tensor cores: %d moduli "
                "(%d bits and more per element)%s, blocks %lld x %lld, workspace %zu bytes",
                verify ? "repro" : "int8",
                pairs                  ? "zgemm (row pairs of parts)"
                : zk                   ? "zgemm (three products, Karatsuba), as the real"
                : tri == DFS_TRI_LOWER ? "dgemm, C's lower triangle only,"
                : tri == DFS_TRI_UPPER ? "dgemm, C's upper triangle only,"
                                       : "dgemm",
                (long long)m, (long long)n, (long long)k, N, dfs_crt_scale_bits(N, k > 0 ? k : 1),
                G == 2 ? " in each of two groups of the inner dimension" : "", (long long)bm,
                (long long)bn, need);
    if (!need)
        return DFS_STATUS_DECLINED;
    CUdeviceptr base = dfs_scratch_get(R->x->scratch, need, R->st);
    if (!base)
        return DFS_STATUS_DECLINED;
    layout l;
    carve(base, m, nq, kpq, bm, bn, PM, zk ? 2 : 1, fast, groups, &l);
    if (verify)
        dfs_oz_fb_note(DFS_OZ_FB_MODULI, R->x->device, seq, m * n, N, 1);

    /* 1. rows and columns; int32 1 and 0 for cuBLAS's device scalars (the rows kernel of op(A)
     * writes them), the counters zeroed (one memset) */
    int32_t *ione = (int32_t *)(l.c.consts + 2), *izero = ione + 1;
    int err = dfs_oz_zero_counters(&l.c, R->st);
    if (fast) { /* the call's number for the engine's feedback */
        const CUdeviceptr fs = (CUdeviceptr)(uintptr_t)l.fstats;
        err |= DFS_DRV(cuMemsetD32Async)(fs + offsetof(dfs_crt_fast_stats, seq),
                                         (unsigned)R->o->seq, 1, R->st) != CUDA_SUCCESS;
        err |= DFS_DRV(cuMemsetD32Async)(fs + offsetof(dfs_crt_fast_stats, seq) + 4,
                                         (unsigned)(R->o->seq >> 32), 1, R->st) != CUDA_SUCCESS;
    }
    /* beta 1: a row's need (no slices here) is its tau - low, maxneed the largest: the gate of
     * the classes (kgroups.h) */
    const int beta_bits = 1;
    const double *alpha_dev = dev_scalars ? c->alpha : NULL;
    const kgroups_ws *g = &l.g;
    if (groups == 2) /* the classes first: the rows passes take one group each */
        err |= launch_kgroups(R, g, A, ars, aqs, B, bqs, bcs, m, n, k, alpha_dev, NULL, fb);
    const signed char *kcls = G == 2 ? g->kcls : NULL; /* one group: every element */
    /* op(A)'s rows and op(B)'s columns in one launch (and group 1's in another) */
    const dfs_oz_rows_args rb0 = dfs_oz_rows_of(B, bcq, bqs, nq, k, l.c.tauB, l.c.needB, l.c.nrmB,
                                                l.c.ssB, l.c.maxneed + 1, beta_bits, NULL,
                                                alpha_dev, kcls, 0);
    err |= dfs_oz_launch_rows(R->k, R->st,
                              dfs_oz_rows_of(A, ars, aqs, m, k, l.c.tauA, l.c.needA, l.c.nrmA,
                                             l.c.ssA, l.c.maxneed, beta_bits, l.c.consts,
                                             alpha_dev, kcls, 0),
                              &rb0);
    if (G == 2) {
        const dfs_oz_call_ws *r1 = &g->r1;
        const dfs_oz_rows_args rb1 = dfs_oz_rows_of(B, bcs, bqs, n, k, r1->tauB, r1->needB,
                                                    r1->nrmB, r1->ssB, g->maxneed, beta_bits,
                                                    NULL, alpha_dev, kcls, 1);
        err |= dfs_oz_launch_rows(R->k, R->st,
                                  dfs_oz_rows_of(A, ars, aqs, m, k, r1->tauA, r1->needA, r1->nrmA,
                                                 r1->ssA, g->maxneed, beta_bits, NULL, alpha_dev,
                                                 kcls, 1),
                                  &rb1);
    }
    if (groups == 1) /* one group: the classes only for the next call's choice, on wide data */
        err |= launch_kgroups(R, g, A, ars, aqs, B, bqs, bcs, m, n, k, alpha_dev, l.c.maxneed,
                              fb);
    if (err)
        return CUBLAS_STATUS_EXECUTION_FAILED;

    dfs_crt_finish_args f;
    memset(&f, 0, sizeof f);
    dfs_crt_table_init(&f.step.tab, N);
    f.bitsA = l.bitsA;
    f.bitsB = l.bitsB;
    f.ssA = l.c.ssA;
    f.ssB = l.c.ssB;
    f.step.L = dfs_crt_bits(N);
    f.step.lower_L = verify && N > 1 ? dfs_crt_bits(N - 1) : 0;
    f.step.verify = verify;
    f.step.k = k;
    dfs_crt_step_bits(&f.step);
    f.Cl = l.Cl;
    f.fail = l.fail;
    f.fstats = l.fstats;
    f.vneed = l.vneed;
    dfs_oz_finish_ws_fields(&f.blk, &l.c, l.list, verify, seq);
    dfs_oz_finish_call_fields(&f.blk, R->x, c, A, B, C);
    f.blk.tri = tri;
    f.kgroups = G;
    f.zpairs = pairs;
    if (pairs && dev_scalars) {
        f.zalpha_d = R->o->zalpha;
        f.zbeta_d = R->o->zbeta;
    } else if (pairs) {
        memcpy(f.zalpha, R->o->zalpha, sizeof f.zalpha);
        memcpy(f.zbeta, R->o->zbeta, sizeof f.zbeta);
    }
    if (G == 2) {
        f.tauA1 = g->r1.tauA, f.tauB1 = g->r1.tauB, f.needA1 = g->r1.needA;
        f.needB1 = g->r1.needB, f.bitsA1 = g->bitsA, f.bitsB1 = g->bitsB;
        f.nrmA1 = g->r1.nrmA, f.nrmB1 = g->r1.nrmB, f.ssA1 = g->r1.ssA, f.ssB1 = g->r1.ssB;
    }

    const int32_t one = 1, zero = 0;
    const void *one_p = dev_scalars ? (const void *)ione : &one;
    const void *zero_p = dev_scalars ? (const void *)izero : &zero;
    /* op(A)'s residues carry y_l (dfs_crt_bcoefs), op(B)'s not; group 1's (two groups) in the
     * planes after group 0's */
    dfs_crt_residue_args ra = {.X = A, .rs = ars, .qs = aqs, .k = kq, .kp = kpq,
                               .tau = l.c.tauA, .need = l.c.needA, .ss = l.c.ssA,
                               .bits = l.bitsA, .L = f.step.L, .n = N, .kb = k, .mag_half = zk,
                               .fast = !verify, .R = l.RA, .kcls = kcls};
    dfs_crt_residue_args rb = {.X = B, .rs = bcq, .qs = bqs, .k = kq, .kp = kpq,
                               .tau = l.c.tauB, .need = l.c.needB, .ss = l.c.ssB,
                               .bits = l.bitsB, .L = f.step.L, .n = N, .kb = k, .mag_half = zk,
                               .fast = !verify, .R = l.RB, .kcls = kcls};
    dfs_crt_bcoefs(&f.step.tab, 1, residue_words(f.step.L), ra.bcoef);
    dfs_crt_bcoefs(&f.step.tab, 0, residue_words(f.step.L), rb.bcoef);
    /* zk: the imaginary parts, op(A)'s columns kq on, the rows kq on of op(B)'s column 2 j
     * (minus its imaginary part) */
    dfs_crt_residue_args rai = ra, rbi = rb;
    rai.X = A + kq * aqs;
    rbi.X = B + kq * bqs;
    dfs_crt_residue_args ra1 = ra, rb1 = rb;
    ra1.tau = g->r1.tauA, ra1.need = g->r1.needA, ra1.ss = g->r1.ssA, ra1.bits = g->bitsA;
    rb1.tau = g->r1.tauB, rb1.need = g->r1.needB, rb1.ss = g->r1.ssB, rb1.bits = g->bitsB;
    ra1.group = rb1.group = 1;
    /* one row block, one group: op(A)'s residues with op(B)'s first block's */
    const int ab = bm == m && !zk && G == 1;
    if (bm == m && zk) {
        err |= launch_zk_residues(R, &ra, &rai, 0, m, l.RA, P, 1);
    } else if (bm == m && !ab) {
        err |= launch_residues(R, &ra, 0, m, l.RA, 0);
        if (G == 2)
            err |= launch_residues(R, &ra1, 0, m, l.RA, N);
    }
    for (int64_t c0 = 0; c0 < nq && !err; c0 += bn) {
        const int64_t nb = nq - c0 < bn ? nq - c0 : bn;
        if (zk)
            err |= launch_zk_residues(R, &rb, &rbi, c0, nb, l.RB, P, 0);
        else if (ab && c0 == 0)
            err |= launch_residues_ab(R, &ra, m, l.RA, &rb, c0, nb, l.RB);
        else
            err |= launch_residues(R, &rb, c0, nb, l.RB, 0);
        if (G == 2)
            err |= launch_residues(R, &rb1, c0, nb, l.RB, N);
        for (int64_t r0 = 0; r0 < m && !err; r0 += bm) {
            const int64_t mb = m - r0 < bm ? m - r0 : bm;
            /* a triangle: the rows lo .. hi-1 of the block that hold some of its outputs in
             * these columns (lower: rows c0 on; upper: rows before c0 + nb), none: skipped */
            int64_t lo = r0, hi = r0 + mb;
            if (tri == DFS_TRI_LOWER && lo < c0)
                lo = c0;
            if (tri == DFS_TRI_UPPER && hi > c0 + nb)
                hi = c0 + nb;
            if (lo >= hi)
                continue;
            const int64_t mt = hi - lo;
            if (bm != m && zk) {
                err |= launch_zk_residues(R, &ra, &rai, r0, mb, l.RA, P, 1);
            } else if (bm != m) {
                err |= launch_residues(R, &ra, r0, mb, l.RA, 0);
                if (G == 2)
                    err |= launch_residues(R, &ra1, r0, mb, l.RA, N);
            }
            if (err)
                break;
            if (kpq > 0) {
                /* Cl_l = RA_l^T RB_l over rows lo .. hi-1, int8 in, exact int32 sums */
                /* one call per modulus on large blocks: cuBLAS picks faster tiles for it than
                 * for one strided batched call; small blocks in one batched call, whose GEMMs
                 * fill the GPU together (tuning.h, README.md: Measurements) */
                const signed char *ra0 = l.RA + (lo - r0) * kpq; /* planes mb * kpq apart */
                cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
                if (mt * nb <= pin.t->crt_batched_outputs)
                    s = DFS_REAL(cublasGemmStridedBatchedEx_64)(
                        R->x->handle, CUBLAS_OP_T, CUBLAS_OP_N, mt, nb, kpq, one_p, ra0,
                        CUDA_R_8I, kpq, mb * kpq, l.RB, CUDA_R_8I, kpq, nb * kpq, zero_p, l.Cl,
                        CUDA_R_32I, mt, mt * nb, PM, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
                else
                    for (int q = 0; q < PM && s == CUBLAS_STATUS_SUCCESS; q++)
                        s = DFS_REAL(cublasGemmEx_64)(
                            R->x->handle, CUBLAS_OP_T, CUBLAS_OP_N, mt, nb, kpq, one_p,
                            ra0 + q * mb * kpq, CUDA_R_8I, kpq, l.RB + q * nb * kpq, CUDA_R_8I,
                            kpq, zero_p, l.Cl + q * mt * nb, CUDA_R_32I, mt, CUBLAS_COMPUTE_32I,
                            CUBLAS_GEMM_DEFAULT);
                if (s != CUBLAS_STATUS_SUCCESS) {
                    dfs_log_once(DFS_LOG_ERROR, "crt-gemm-cublas", "%s: an int8 GEMM (cuBLAS) "
                                 "failed with status %d", verify ? "repro" : "int8", (int)s);
                    return s;
                }
            }
            if (dfs_oz_zero_count(&l.c, !r0 && !c0, R->st))
                return CUBLAS_STATUS_EXECUTION_FAILED;
            /* the block of real outputs (zk: columns 2 c0 on, both parts of each) */
            f.blk.bm = mt;
            f.blk.bn = zk ? 2 * nb : nb;
            f.blk.r0 = lo;
            f.blk.c0 = zk ? 2 * c0 : c0;
            /* the fast kernels for 13 to 20 moduli (three products: 14 to 16) have them as a
             * constant (loops the compiler unrolls; the generic one, for the other counts, is
             * slower: oz/README.md); four columns per block (crt_finish, kernels.cu) */
            const int fk = zk ? (N >= 14 && N <= 16 ? DFS_OZ_K_ZK_FAST14 + (N - 14)
                                                    : DFS_OZ_K_ZK_FAST)
                           : N >= 13 && N <= 20 ? DFS_OZ_K_CRT_FAST13 + (N - 13)
                                                : DFS_OZ_K_CRT_FAST;
            const int64_t gy = (nb + 3) / 4;
            /* and the verifying ones for 21 to 24 with one group (the counts correct rounding
             * takes on most data from n = 1024 on) */
            const int wide = N > DFS_CRT_FAST_MODULI;
            const int vk = pairs  ? (wide ? DFS_OZ_K_CRT_PAIRS_WIDE : DFS_OZ_K_CRT_PAIRS)
                           : wide ? DFS_OZ_K_CRT_VERIFY_WIDE
                           : N >= 21 && G == 1 ? DFS_OZ_K_CRT_VERIFY21 + (N - 21)
                                               : DFS_OZ_K_CRT_VERIFY;
            const int64_t threads_x = pairs ? mt / 2 : mt; /* a thread per pair of rows */
            err |= dfs_launch(R->k[verify ? vk : fk],
                              (unsigned)((threads_x + DFS_OZ_FINISH_THREADS - 1) /
                                         DFS_OZ_FINISH_THREADS),
                              (unsigned)(gy < 65535 ? gy : 65535), 1, DFS_OZ_FINISH_THREADS, 1,
                              R->st, &f);
            if (fast) /* the outputs that fail the contract's check, in FP64 */
                err |= dfs_launch(R->k[DFS_OZ_K_CRT_REPAIR],
                                  (unsigned)((mt + DFS_CRT_TILE - 1) / DFS_CRT_TILE),
                                  (unsigned)((f.blk.bn + DFS_CRT_TILE - 1) / DFS_CRT_TILE), 1,
                                  256, 1, R->st, &f);
            if (pairs)
                err |= dfs_launch(R->k[DFS_OZ_K_DIRECT_PAIRS], (unsigned)R->sms * 8, 1, 1,
                                  32 * DFS_OZ_ZPAIR_WARPS, 1, R->st, &f);
            else
                err |= dfs_launch(R->k[DFS_OZ_K_DIRECT], (unsigned)R->sms * 4, 1, 1,
                                  32 * DFS_OZ_DIRECT_WARPS, 1, R->st, &f.blk);
        }
    }
    if (err)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    /* the counters (and the call's number) back to the host for the next call's moduli: the
     * histogram first, so that it has landed when the number has (one stream) */
    if (fb && DFS_DRV(cuMemcpyDtoHAsync)((void *)fb->need_moduli, (CUdeviceptr)(uintptr_t)l.vneed,
                                         sizeof fb->need_moduli, R->st) != CUDA_SUCCESS)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    if (fb && DFS_DRV(cuMemcpyDtoHAsync)((void *)fb->stats, (CUdeviceptr)(uintptr_t)l.c.stats,
                                         4 * sizeof(unsigned long long), R->st) != CUDA_SUCCESS)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    if (fast && R->o->record &&
        DFS_DRV(cuMemcpyDtoHAsync)((void *)R->o->record, (CUdeviceptr)(uintptr_t)l.fstats,
                                   sizeof(dfs_crt_fast_stats), R->st) != CUDA_SUCCESS)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t dfs_crt_dgemm_gpu(const dfs_ctx *x, const dfs_gemm_call *c,
                                 const dfs_crt_gemm_opts *o)
{
    if (c->k >= DFS_CRT_MAX_K) /* int32 sums could overflow */
        return DFS_STATUS_DECLINED;
    if (o->zpairs && (!o->verify || c->m % 2)) /* pairs: repro's, whole pairs */
        return DFS_STATUS_DECLINED;
    run R;
    R.x = x;
    R.o = o;
    R.st = (CUstream)x->stream;
    R.k = dfs_oz_kernels();
    R.sms = dfs_sm_count(x->device);
    if (!R.k || !DFS_REAL(cublasGemmEx_64) || !DFS_REAL(cublasGemmStridedBatchedEx_64) ||
        !DFS_DRV(cuMemsetD32Async) ||
        !DFS_DRV(cuMemcpyDtoHAsync))
        return DFS_STATUS_DECLINED;
    pthread_mutex_lock(&x->scratch->lock);
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    for (int64_t i = 0; i < c->batch && s == CUBLAS_STATUS_SUCCESS; i++) {
        s = one_gemm(&R, c, c->A + i * c->strideA, c->B + i * c->strideB, c->C + i * c->strideC);
        if (s == DFS_STATUS_DECLINED && i > 0) {
            /* a later entry cannot get the workspace the first one had: cannot happen (the
             * same sizes), but never leave a batch half done */
            s = CUBLAS_STATUS_EXECUTION_FAILED;
        }
    }
    dfs_scratch_unlock(x->scratch);
    if (s == CUBLAS_STATUS_EXECUTION_FAILED)
        dfs_log_once(DFS_LOG_ERROR, "crt-gemm", "%s: a DGEMM kernel failed",
                     o->verify ? "repro" : "int8");
    return s;
}
