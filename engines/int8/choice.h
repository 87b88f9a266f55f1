/* choice.h — the moduli an int8 DGEMM takes, or native, chosen from what earlier calls of the
 * same shape on the same device counted (choice.c).  No host synchronisation: a call's counters
 * (dfs_crt_fast_stats) come back asynchronously into pinned memory, and a later call reads them
 * once they have landed.  A shape's first call, and the first after a pause of native calls, is
 * a trial: until its counters land, the calls of that shape run natively (a trial on wide data
 * may repair most outputs; a second trial before the first is known would only repeat it).  The
 * choice changes only speed: every output meets the contract
 * whatever it is (the check and the repair, ../oz/crt_check.h). */
#ifndef DFS_INT8_CHOICE_H
#define DFS_INT8_CHOICE_H

#include "../engine.h"
#include "rule.h"

typedef struct {
    int native; /* 1: run this call natively */
    int moduli;
    volatile dfs_crt_fast_stats *record; /* where this call's counters go (NULL: nowhere) */
    unsigned long long seq;
} dfs_int8_choice;

/* The choice for call c; option_moduli > 0 fixes the moduli (never native then); bmod: the
 * shape's break-even moduli (dfs_int8_breakeven's, or dfs_int8_breakeven_z's for a complex
 * product by three products; DFS_INT8_NEVER_NATIVE: never native, the option native=never). */
void dfs_int8_choose(const dfs_ctx *x, const dfs_gemm_call *c, int option_moduli, double bmod,
                     dfs_int8_choice *out);

#endif
