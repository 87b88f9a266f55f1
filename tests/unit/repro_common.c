/* repro_common.c — what test_repro's tests share besides the MPFR reference (exact_ref.c): the
 * comparison that fails a test, and engine parameters. */
#include "repro_test.h"

/* ---------------- comparison and parameters ---------------- */

void expect(double got, double want, const char *what)
{
    if (!same(got, want))
        ck_abort_msg("%s: got %a, want %a", what, got, want);
}

dfs_oz_params params(int terms, int lanes)
{
    dfs_oz_params p = dfs_oz_default_params();
    p.terms = terms;
    p.lanes = lanes;
    return p;
}
