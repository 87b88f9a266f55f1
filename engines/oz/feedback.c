/* feedback.c — feedback.h: per kind and device, the pinned record and what the host remembers
 * of the last verifying call. */
#include "feedback.h"

#include "tuning.h"
#include "../../core/gpu.h"
#include "../../core/log.h"

#include <pthread.h>

#define MAX_DEVICES 64

/* undecided * more > outputs: one step more; undecided one step fewer * fewer <= outputs: one
 * step fewer (tuning.h). */
static const unsigned long long more[DFS_OZ_FB_KINDS] = DFS_OZ_FB_MORE;
static const unsigned long long fewer[DFS_OZ_FB_KINDS] = DFS_OZ_FB_FEWER;

typedef struct {
    volatile dfs_oz_fb_dev *dev;
    unsigned long long seq, outputs;
    int level, step;
} feedback;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static feedback fbs[DFS_OZ_FB_KINDS][MAX_DEVICES];
static unsigned long long calls;
static const char *const what[DFS_OZ_FB_KINDS] = {"bits of slice pairs", "moduli"};

volatile dfs_oz_fb_dev *dfs_oz_fb_slot(int kind, int device)
{
    if (device < 0 || device >= MAX_DEVICES || kind < 0 || kind >= DFS_OZ_FB_KINDS)
        return NULL;
    pthread_mutex_lock(&lock);
    feedback *f = &fbs[kind][device];
    if (!f->dev)
        f->dev = dfs_pinned_zeroed(sizeof(dfs_oz_fb_dev));
    volatile dfs_oz_fb_dev *d = f->dev;
    pthread_mutex_unlock(&lock);
    return d;
}

int dfs_oz_fb_choose(int kind, int device, int first, unsigned long long *seq)
{
    int level = first;
    pthread_mutex_lock(&lock);
    *seq = ++calls;
    if (device >= 0 && device < MAX_DEVICES && kind >= 0 && kind < DFS_OZ_FB_KINDS) {
        feedback *f = &fbs[kind][device];
        if (f->level > 0) {
            level = f->level;
            /* the counters are the last verifying call's only once its copy has landed */
            if (f->dev && f->dev->stats[2] == f->seq) {
                const unsigned long long und = f->dev->stats[0], low = f->dev->stats[1];
                if (dfs_log_on(DFS_LOG_TRACE))
                    dfs_log(DFS_LOG_TRACE, "repro: the last dgemm (%d %s) went direct for %llu "
                            "of %llu outputs, %llu undecided (one step fewer: %llu)", f->level,
                            what[kind], f->dev->stats[3], f->outputs, und, low);
                if (und * more[kind] > f->outputs)
                    level = kind == DFS_OZ_FB_MODULI
                                ? dfs_oz_fb_moduli_up(f->dev->need_moduli, f->outputs, level,
                                                      more[kind])
                                : level + f->step;
                else if (low * fewer[kind] <= f->outputs && level > f->step)
                    level -= f->step;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    return level;
}

void dfs_oz_fb_note(int kind, int device, unsigned long long seq, int64_t outputs, int level,
                    int step)
{
    if (device < 0 || device >= MAX_DEVICES || kind < 0 || kind >= DFS_OZ_FB_KINDS)
        return;
    pthread_mutex_lock(&lock);
    feedback *f = &fbs[kind][device];
    f->seq = seq;
    f->outputs = (unsigned long long)outputs;
    f->level = level;
    f->step = step;
    pthread_mutex_unlock(&lock);
}
