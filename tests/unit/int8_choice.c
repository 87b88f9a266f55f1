/* int8_choice.c — unit tests (Check) of the int8 engine's choice of moduli over calls
 * (engines/int8/choice.c), with the device's counters simulated: pinned memory is plain memory
 * here (dfs_pinned_zeroed below), and a call's counters "land" when the test writes them and
 * their call number into the record, as the stream's copy would.  Checked: a shape's first call
 * is an int8 trial; until its counters land, the calls of the shape run natively (no second
 * trial); counters of narrow data keep it on int8 (and calls go on on int8 while later counters
 * are in flight); counters of wide data send it native for a pause of 4, then 8 calls, each
 * followed by one trial; a fixed moduli option never goes native; shapes and ops have their own
 * slots; shapes the cost model gives to native run natively from the first call (never with
 * native=never); a triangle of C has its own slot and its counters are read against the outputs
 * it computed.  Fails if the
 * trial rule is removed (a second trial while the first is in flight). */
#include "../../engines/int8/choice.h"
#include "../../core/gpu.h"
#include "../../core/log.h"
#include "../../engines/oz/crt.h"
#include "../../engines/oz/tuning.h"

#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- what choice.c takes from the core, on the CPU ---- */
void *dfs_pinned_zeroed(size_t bytes)
{
    return calloc(1, bytes);
}
int dfs_log_level_get(void)
{
    return 0;
}
void dfs_log(dfs_log_level level, const char *fmt, ...)
{
    (void)level;
    (void)fmt;
}

static const dfs_device h100 = {.cc_major = 9, .cc_minor = 0, .fp64_ratio = 2};

static dfs_ctx ctx(void)
{
    dfs_ctx x;
    memset(&x, 0, sizeof x);
    x.device = 0;
    x.dev = &h100;
    return x;
}

static dfs_gemm_call shape(int64_t m, int64_t n, int64_t k, cublasOperation_t ta)
{
    dfs_gemm_call c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.n = n;
    c.k = k;
    c.transa = ta;
    c.transb = CUBLAS_OP_N;
    c.batch = 1;
    return c;
}

/* The engine's choice for a real DGEMM (engine.c): its break-even moduli by the device's cost
 * model, or never native (prefer_native 0, the option native=never). */
static void choose(const dfs_ctx *x, const dfs_gemm_call *c, int option_moduli, int prefer_native,
                   dfs_int8_choice *out)
{
    dfs_int8_choose(x, c, option_moduli,
                    prefer_native ? dfs_int8_device_breakeven(x->dev, c->m, c->n,
                                                              c->k > 0 ? c->k : 1)
                                  : DFS_INT8_NEVER_NATIVE,
                    out);
}

/* The counters of a call land: every output needing `need` moduli (25: none suffices). */
static void land(const dfs_int8_choice *ch, const dfs_gemm_call *c, int need)
{
    volatile dfs_crt_fast_stats *r = ch->record;
    ck_assert_ptr_nonnull((void *)r);
    for (int i = 0; i < DFS_CRT_NEED_BINS; i++)
        r->need[i] = 0;
    r->need[need] = (unsigned long long)(c->m * c->n);
    r->failed = need > ch->moduli ? (unsigned long long)(c->m * c->n) : 0;
    r->seq = ch->seq;
}

START_TEST(trial_then_native_until_landed)
{
    const dfs_ctx x = ctx();
    const dfs_gemm_call c = shape(16384, 16384, 16384, CUBLAS_OP_N);
    dfs_int8_choice t, ch;
    choose(&x, &c, 0, 1, &t);
    ck_assert_int_eq(t.native, 0); /* the trial */
    ck_assert_int_gt(t.moduli, 0);
    for (int i = 0; i < 5; i++) { /* its counters in flight: native, no second trial */
        choose(&x, &c, 0, 1, &ch);
        ck_assert_msg(ch.native, "call %d while the trial's counters are in flight ran on int8",
                      i + 2);
    }
    /* narrow data land: int8 from now on, also while later counters are in flight */
    land(&t, &c, 13);
    for (int i = 0; i < 4; i++) {
        choose(&x, &c, 0, 1, &ch);
        ck_assert_int_eq(ch.native, 0);
        ck_assert_int_ge(ch.moduli, 13);
        ck_assert_int_le(ch.moduli, t.moduli);
    }
}
END_TEST

START_TEST(wide_data_pause_and_retry)
{
    const dfs_ctx x = ctx();
    const dfs_gemm_call c = shape(8192, 8192, 8192, CUBLAS_OP_T);
    dfs_int8_choice t, ch;
    choose(&x, &c, 0, 1, &t);
    ck_assert_int_eq(t.native, 0);
    land(&t, &c, DFS_CRT_FAST_MODULI + 1); /* nothing suffices: the repair would take everything */
    for (int pause = 4; pause <= 8; pause *= 2) {
        for (int i = 0; i < pause; i++) {
            choose(&x, &c, 0, 1, &ch);
            ck_assert_msg(ch.native, "pause of %d: call %d ran on int8", pause, i + 1);
        }
        choose(&x, &c, 0, 1, &t); /* the trial after the pause */
        ck_assert_msg(!t.native, "no trial after a pause of %d", pause);
        choose(&x, &c, 0, 1, &ch); /* in flight: native */
        ck_assert(ch.native);
        land(&t, &c, DFS_CRT_FAST_MODULI + 1);
    }
}
END_TEST

START_TEST(fixed_moduli_and_own_slots)
{
    const dfs_ctx x = ctx();
    const dfs_gemm_call c = shape(8192, 8192, 8192, CUBLAS_OP_N);
    dfs_int8_choice ch;
    for (int i = 0; i < 6; i++) { /* fixed moduli: int8 always, those moduli */
        choose(&x, &c, 17, 1, &ch);
        ck_assert_int_eq(ch.native, 0);
        ck_assert_int_eq(ch.moduli, dfs_crt_int8_moduli(17, c.k));
    }
    /* another shape, and the same shape with another op, start with their own trials */
    const dfs_gemm_call d = shape(8192, 8192, 8193, CUBLAS_OP_N),
                        e = shape(8192, 8192, 8192, CUBLAS_OP_T);
    choose(&x, &d, 0, 1, &ch);
    ck_assert_int_eq(ch.native, 0);
    choose(&x, &e, 0, 1, &ch);
    ck_assert_int_eq(ch.native, 0);
    choose(&x, &e, 0, 1, &ch);
    ck_assert_int_eq(ch.native, 1);
    /* so does the same shape as a triangle of C (a SYRK's) */
    dfs_gemm_call f = shape(8192, 8192, 8192, CUBLAS_OP_T);
    f.tri = DFS_TRI_LOWER;
    choose(&x, &f, 0, 1, &ch);
    ck_assert_int_eq(ch.native, 0);
}
END_TEST

/* A triangle's counters are read against the outputs it computed, n (n + 1) / 2: 3000 outputs
 * needing one modulus more than the trial's are above 2^-16 of those (2048 at n = 16384), so
 * the next call takes one more; against the whole square (4096) they would not. */
START_TEST(triangle_outputs)
{
    const dfs_ctx x = ctx();
    dfs_gemm_call c = shape(16384, 16384, 16384, CUBLAS_OP_N);
    c.tri = DFS_TRI_UPPER;
    dfs_int8_choice t, ch;
    choose(&x, &c, 0, 0, &t);
    ck_assert_int_eq(t.native, 0);
    volatile dfs_crt_fast_stats *r = t.record;
    for (int i = 0; i < DFS_CRT_NEED_BINS; i++)
        r->need[i] = 0;
    const unsigned long long outputs = 16384ull * 16385ull / 2;
    r->need[t.moduli + 1] = 3000;
    r->need[13] = outputs - 3000;
    r->failed = 3000;
    r->seq = t.seq;
    choose(&x, &c, 0, 0, &ch);
    ck_assert_int_eq(ch.native, 0);
    ck_assert_int_eq(ch.moduli, t.moduli + 1);
}
END_TEST

/* Shapes where native is faster by the cost model whatever the moduli (4096^3: int8 would need
 * fewer than 13; a k of 1024 under 16384^2 outputs): native from the first call, no trial, no
 * slot; unless the moduli are fixed.  On FP64-starved parts the same shapes try int8. */
START_TEST(model_native_without_trial)
{
    const dfs_ctx x = ctx();
    const dfs_gemm_call c[2] = {shape(4096, 4096, 4096, CUBLAS_OP_N),
                                shape(16384, 16384, 1024, CUBLAS_OP_N)};
    dfs_int8_choice ch;
    for (int s = 0; s < 2; s++) {
        for (int i = 0; i < 3; i++) {
            choose(&x, &c[s], 0, 1, &ch);
            ck_assert_msg(ch.native, "shape %d call %d tried int8", s, i + 1);
            ck_assert_ptr_null((void *)ch.record);
        }
        choose(&x, &c[s], 15, 1, &ch);
        ck_assert_int_eq(ch.native, 0);
    }
    static const dfs_device starved = {.cc_major = 9, .cc_minor = 0, .fp64_ratio = 64};
    dfs_ctx y = ctx();
    y.dev = &starved;
    const dfs_gemm_call d = shape(4096, 4096, 4095, CUBLAS_OP_N); /* a slot of its own */
    choose(&y, &d, 0, 1, &ch);
    ck_assert_int_eq(ch.native, 0);
    /* native=never: int8 on such a shape too, and after counters of wide data */
    const dfs_gemm_call e = shape(4096, 4096, 4094, CUBLAS_OP_N);
    dfs_int8_choice t;
    choose(&x, &e, 0, 0, &t);
    ck_assert_int_eq(t.native, 0);
    land(&t, &e, DFS_CRT_FAST_MODULI + 1);
    for (int i = 0; i < 3; i++) {
        choose(&x, &e, 0, 0, &ch);
        ck_assert_msg(!ch.native, "native=never: call %d after wide data ran natively", i + 2);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("int8_choice");
    TCase *t = tcase_create("all");
    tcase_add_test(t, trial_then_native_until_landed);
    tcase_add_test(t, wide_data_pause_and_retry);
    tcase_add_test(t, fixed_moduli_and_own_slots);
    tcase_add_test(t, model_native_without_trial);
    tcase_add_test(t, triangle_outputs);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
