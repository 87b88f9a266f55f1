/* ddblas_args.c — libddblas unit tests, part 4 (see test_ddblas.c): the argument rules.  Every
 * call of tests/common/ddblas_args.h gives its status; an invalid one writes nothing (no array
 * element, no result) and a valid one with NULL arrays touches none. */
#include "../common/ddblas_args.h"
#include "ddblas_test.h"

#include <math.h>
#include <string.h>

typedef struct {
    double hi[DDT_ARG_ELEMS];
    unsigned char lo[DDT_ARG_ELEMS * sizeof(double)];
} arg_array;

static ddblas_array arg_fill(arg_array *a, ddblas_format f, rng *r)
{
    const ddblas_array v = {f, a->hi, a->lo};
    memset(a, 0, sizeof *a);
    for (int i = 0; i < DDT_ARG_ELEMS; i++)
        ddblas_set(v, i, ddt_rand(r, 1, 0));
    return v;
}

START_TEST(argument_rules)
{
    static ddt_call calls[DDT_ARG_MAX];
    const int n = ddt_arg_calls(calls);
    ck_assert(n <= DDT_ARG_MAX);
    rng r = rng_seed(1500);
    int invalid = 0;
    for (int i = 0; i < n; i++) {
        static arg_array arr[3], before[3];
        ddt_operands o;
        o.A = arg_fill(&arr[0], DDBLAS_DD, &r);
        o.B = arg_fill(&arr[1], DDBLAS_DS, &r);
        o.C = arg_fill(&arr[2], DDBLAS_DI_NEAREST, &r);
        ddblas_dd result = {NAN, -1.0};
        o.result = &result;
        memcpy(before, arr, sizeof arr);
        const ddblas_status s = ddt_call_host(&calls[i], o);
        ck_assert_msg(s == calls[i].want, "%s: status %d, want %d", calls[i].what, (int)s,
                      (int)calls[i].want);
        ck_assert_msg(!memcmp(before, arr, 2 * sizeof arr[0]), "%s: an input was written",
                      calls[i].what);
        if (s == DDBLAS_INVALID_VALUE || (calls[i].nulls & DDT_NULL_C)) {
            invalid += s == DDBLAS_INVALID_VALUE;
            ck_assert_msg(!memcmp(before, arr, sizeof arr), "%s: an array was written",
                          calls[i].what);
            ck_assert_msg(isnan(result.hi) && result.lo == -1.0, "%s: result written",
                          calls[i].what);
        }
    }
    ck_assert(invalid > 40);
}
END_TEST

void add_arg_tests(TCase *t)
{
    tcase_add_test(t, argument_rules);
}
