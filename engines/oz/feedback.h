/* feedback.h — what a verifying DGEMM of the reproducible engine (../repro/gemm.c, crt_gemm.c)
 * learns for the next one on the same device, without host synchronisation: the device copies
 * its counters back asynchronously into pinned memory, and the next call reads them once they
 * have landed (a call's number comes back with them).  A wrong guess costs time, never bits: outputs that the guessed level
 * cannot decide are computed directly.
 *
 * A level is what the call takes: for the binary64 slice products (../repro/gemm.c) the bits of the
 * slice pairs, (d + 1) beta; for the integer tensor cores (crt_gemm.c) the moduli.  Too many
 * outputs undecided (more than 1/64 of them for pairs, 1/16384 for moduli, which cost far
 * less) is worth one step more; if one step fewer would have left few (1/256, 1/65536), one
 * step fewer. */
#ifndef DFS_OZ_FEEDBACK_H
#define DFS_OZ_FEEDBACK_H

#include <stdint.h>

enum { DFS_OZ_FB_PAIRS, DFS_OZ_FB_MODULI, DFS_OZ_FB_KINDS };

/* What the device copies back (pinned): the largest needs of the rows of op(A) and the columns
 * of op(B) (slice products only), then the finish kernels' counters: undecided outputs, those
 * one step fewer would have left undecided, the call's number, the outputs listed for the
 * direct path. */
typedef struct {
    int need[2];
    unsigned long long stats[4];
} dfs_oz_fb_dev;

/* The pinned record of this kind on this device (NULL if it cannot be had). */
volatile dfs_oz_fb_dev *dfs_oz_fb_slot(int kind, int device);

/* The level for a verifying call: the last landed call's level adjusted by its counters, or
 * `first` on a device's first call; a fresh call number in *seq. */
int dfs_oz_fb_choose(int kind, int device, int first, unsigned long long *seq);

/* Remembers the verifying call seq: its outputs and the level it took. */
void dfs_oz_fb_note(int kind, int device, unsigned long long seq, int64_t outputs, int level,
                    int step);

#endif
