/* choice.c — choice.h: per (device, shape) a slot remembering the last call's moduli and number,
 * its pinned record, and how many calls are still to run natively; the rule itself: rule.c. */
#include "choice.h"

#include "../../core/gpu.h"
#include "../../core/log.h"
#include "../oz/crt.h"
#include "../oz/tuning.h"

#include <pthread.h>
#include <string.h>

#define SLOTS 64

typedef struct {
    int used, device, ta, tb;
    int tri; /* a triangle of C (dfs_gemm_call.tri): its own slot, about half the outputs */
    int64_t m, n, k;
    int moduli;                          /* the last call's (0: none yet) */
    unsigned long long seq, decided_seq; /* the last call's number; the record last read */
    int native_left, backoff;            /* calls still to run natively; the next pause */
    int confirmed; /* the last counts that landed chose int8 */
    volatile dfs_crt_fast_stats *rec;
    unsigned long long age;
} slot;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static slot slots[SLOTS];
static unsigned long long calls;

static slot *find(const dfs_ctx *x, const dfs_gemm_call *c)
{
    const int ta = c->transa != CUBLAS_OP_N, tb = c->transb != CUBLAS_OP_N;
    slot *oldest = &slots[0];
    for (int i = 0; i < SLOTS; i++) {
        slot *s = &slots[i];
        if (s->used && s->device == x->device && s->m == c->m && s->n == c->n && s->k == c->k &&
            s->ta == ta && s->tb == tb && s->tri == (int)c->tri)
            return s;
        if (!s->used || (oldest->used && s->age < oldest->age))
            oldest = s;
    }
    volatile dfs_crt_fast_stats *rec = oldest->rec;
    memset(oldest, 0, sizeof *oldest);
    oldest->rec = rec;
    oldest->used = 1;
    oldest->device = x->device;
    oldest->m = c->m;
    oldest->n = c->n;
    oldest->k = c->k;
    oldest->ta = ta;
    oldest->tb = tb;
    oldest->tri = (int)c->tri;
    oldest->backoff = DFS_INT8_BACKOFF_FIRST;
    if (!oldest->rec)
        oldest->rec = dfs_pinned_zeroed(sizeof(dfs_crt_fast_stats));
    return oldest;
}

void dfs_int8_choose(const dfs_ctx *x, const dfs_gemm_call *c, int option_moduli, double bmod,
                     dfs_int8_choice *out)
{
    const int64_t k = c->k > 0 ? c->k : 1;
    memset(out, 0, sizeof *out);
    if (option_moduli <= 0 && dfs_int8_shape_native(bmod, k)) {
        out->native = 1; /* native is faster by the cost model whatever the data: no trial */
        return;
    }
    pthread_mutex_lock(&lock);
    slot *s = find(x, c);
    s->age = ++calls;
    out->seq = calls;
    out->record = s->rec;
    if (option_moduli > 0) {
        out->moduli = dfs_crt_int8_moduli(option_moduli, k);
    } else if (s->native_left > 0) {
        s->native_left--;
        out->native = 1;
    } else {
        int moduli = s->moduli ? s->moduli : dfs_crt_int8_moduli(0, k);
        const int landed = s->rec && s->seq && s->rec->seq == s->seq;
        const int trial_pending = s->rec && s->seq && !landed && !s->confirmed;
        if (trial_pending) {
            /* a trial of int8 on this shape (the first call, or the one after a pause) is still
             * running: its counts decide; until they land the calls run natively, which is
             * never wrong, instead of repeating a trial that may repair most outputs */
            out->native = 1;
        } else if (landed && s->decided_seq != s->seq) {
            /* the last call's counters */
            dfs_crt_fast_stats r;
            memcpy(&r, (const void *)s->rec, sizeof r);
            int native;
            /* the outputs the call computed: a triangle's n (n + 1) / 2 */
            const unsigned long long outputs =
                c->tri != DFS_TRI_ALL ? (unsigned long long)(c->n * (c->n + 1) / 2)
                                      : (unsigned long long)(c->m * c->n);
            moduli = dfs_crt_fit_moduli(dfs_int8_next_moduli(&r, outputs, s->moduli, bmod, &native),
                                        k);
            s->decided_seq = s->seq;
            if (dfs_log_on(DFS_LOG_INFO))
                dfs_log(DFS_LOG_INFO, "int8: dgemm %lld x %lld x %lld with %d moduli: %llu of %llu "
                        "outputs repaired in FP64 (%llu tiles); next: %s%d moduli",
                        (long long)c->m, (long long)c->n, (long long)c->k, s->moduli, r.failed,
                        outputs, r.tiles, native ? "native, then " : "", moduli);
            s->confirmed = !native;
            if (native) {
                s->native_left = s->backoff - 1;
                s->backoff = s->backoff * 2 > DFS_INT8_BACKOFF_MAX ? DFS_INT8_BACKOFF_MAX
                                                                   : s->backoff * 2;
                out->native = 1;
            } else {
                s->backoff = DFS_INT8_BACKOFF_FIRST;
            }
        }
        if (!trial_pending)
            s->moduli = moduli;
        out->moduli = out->native ? 0 : moduli;
    }
    if (!out->native)
        s->seq = out->seq;
    pthread_mutex_unlock(&lock);
    if (!out->record)
        out->seq = 0;
}
