/* feedback.h — what a verifying DGEMM of the reproducible engine (../repro/gemm.c, crt_gemm.c)
 * learns for the next one on the same device, without host synchronisation: the device copies
 * its counters back asynchronously into pinned memory, and the next call reads them once they
 * have landed (a call's number comes back with them).  A wrong guess costs time, never bits: outputs that the guessed level
 * cannot decide are computed directly.
 *
 * A level is what the call takes: for the binary64 slice products (../repro/gemm.c) the bits of the
 * slice pairs, (d + 1) beta; for the integer tensor cores (crt_gemm.c) the moduli.  Too many
 * outputs undecided (more than 1/64 of them for pairs, 1/2048 for moduli, which cost far
 * less) is worth one step more; if one step fewer would have left few (1/256, 1/8192), one
 * step fewer. */
#ifndef DFS_OZ_FEEDBACK_H
#define DFS_OZ_FEEDBACK_H

#include "crt.h"

#include <stdint.h>

enum { DFS_OZ_FB_PAIRS, DFS_OZ_FB_MODULI, DFS_OZ_FB_KINDS };

/* What the device copies back (pinned): the largest needs of the rows of op(A) and the columns
 * of op(B) (slice products only), then the finish kernels' counters: undecided outputs, those
 * one step fewer would have left undecided, the call's number, the outputs listed for the
 * direct path; and (moduli only) per count n of moduli the undecided outputs that n would have
 * decided (dfs_crt_verify_need; n = DFS_CRT_MODULI + 1: none), and the gap and split of the
 * classes of the inner dimension (dfs_oz_kgroups_args's out). */
typedef struct {
    int need[2];
    int kgroups[2]; /* moduli only: the last call's split of its inner dimension (kgroups.h) */
    unsigned long long stats[4];
    unsigned long long need_moduli[DFS_CRT_MODULI + 2];
} dfs_oz_fb_dev;

/* The moduli after a verifying call that took `level` and left `und` of `outputs` undecided,
 * need[n] of them decidable with n moduli (n = DFS_CRT_MODULI + 1: with none): the fewest above
 * level that would have left at most outputs / per of the decidable ones undecided, at most
 * DFS_CRT_MODULI; level itself when the decidable ones are that few already (the rest, such as
 * the outputs of a 'mixed' matrix that one group of the inner dimension cannot carry, no count of
 * moduli decides: more would only cost).  (The rule of the other steps, one level up or down,
 * is feedback.c's.) */
static inline int dfs_oz_fb_moduli_up(const volatile unsigned long long *need,
                                      unsigned long long outputs, int level,
                                      unsigned long long per)
{
    /* left: the decidable undecided outputs n moduli would leave (those needing more than n) */
    unsigned long long left = 0;
    for (int b = DFS_CRT_MODULI; b > level; b--)
        left += need[b];
    if (left * per <= outputs)
        return level;
    for (int n = level + 1; n < DFS_CRT_MODULI; n++) {
        left -= need[n];
        if (left * per <= outputs)
            return n;
    }
    return DFS_CRT_MODULI;
}

/* The pinned record of this kind on this device (NULL if it cannot be had). */
volatile dfs_oz_fb_dev *dfs_oz_fb_slot(int kind, int device);

/* The level for a verifying call: the last landed call's level adjusted by its counters, or
 * `first` on a device's first call; a fresh call number in *seq. */
int dfs_oz_fb_choose(int kind, int device, int first, unsigned long long *seq);

/* Remembers the verifying call seq: its outputs and the level it took. */
void dfs_oz_fb_note(int kind, int device, unsigned long long seq, int64_t outputs, int level,
                    int step);

#endif
