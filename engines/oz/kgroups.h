/* kgroups.h — the inner dimension of a verifying DGEMM in two groups (crt_gemm.c, R3 of
 * ../../../shared/design/RANGE.md): host and device alike.  One scale per row cannot carry a row
 * whose elements lie ~2000 binades apart by column (the 'mixed' matrix: a few columns near
 * 1e300 among columns near 1e-300); grouping the columns q of op(A) (and the rows q of op(B)) by
 * s_q = tA[q] + tB[q], the sum of their top exponents, and scaling each group's part of every
 * row on its own keeps both parts' bits.  The split is at the largest gap between the values s_q
 * takes (ties: the higher one), when it spans at least DFS_OZ_KGAP binades. */
#ifndef DFS_OZ_KGROUPS_H
#define DFS_OZ_KGROUPS_H

#include "args.h"
#include "steps.h"

/* The classes are sought (auto) only where some row of op(A) or column of op(B) has tau - low
 * (its rows pass with beta 1: top exponent to lowest set bit) above DFS_OZ_KGATE bits, as an
 * element with a full significand DFS_OZ_KGAP binades or more below its row's top has.  A split
 * helps an output only through a row or column whose elements lie that far apart: one scale per
 * row leaves an element 64 binades below its row's top 64 bits fewer, which more moduli give
 * back.  On narrower data (uniform, phi up to about 6) the classes' two passes and block are
 * not worth their time (about 5% of a 2048^3 call); a skip where a split would have helped costs
 * time (more outputs direct, more moduli), never bits. */
#define DFS_OZ_KGATE (DFS_OZ_KGAP + 53)

/* Whether the classes are not sought: span[0], span[1] the largest tau - low over op(A)'s rows
 * and op(B)'s columns (0 for zeros; rows holding Inf or NaN left out), neither above the gate. */
DFS_HD int dfs_oz_kgate_closed(const int *span)
{
    return span[0] <= DFS_OZ_KGATE && span[1] <= DFS_OZ_KGATE;
}

/* s_q's bins: tau of a finite nonzero double is in [-1073, 1024], so s_q in [-2146, 2048] */
#define DFS_OZ_KS_LO (-2146)
#define DFS_OZ_KS_BINS 4195

/* s_q, or DFS_OZ_NONE_TAU when the products of index q are all zero. */
DFS_HD int dfs_oz_ks(int ta, int tb)
{
    return ta == DFS_OZ_NONE_TAU || tb == DFS_OZ_NONE_TAU ? DFS_OZ_NONE_TAU : ta + tb;
}

/* kcls[q] from s_q and the split (thr: the lowest s of group 1; split = 0: one group). */
DFS_HD signed char dfs_oz_kclass(int s, int split, int thr)
{
    return s == DFS_OZ_NONE_TAU ? (signed char)-1 : (signed char)(split && s >= thr);
}

#if !defined(__CUDACC__)
/* The split of s[0 .. k-1] (serial; the GPU's dfs_oz_kgroups finds the same): *gap the largest
 * gap (0: fewer than two values), *thr the value above it; returns whether to split. */
static inline int dfs_oz_ksplit_host(const int *s, int64_t k, int *gap, int *thr)
{
    unsigned char present[DFS_OZ_KS_BINS];
    int prev = -1;
    *gap = 0;
    *thr = 0;
    for (int i = 0; i < DFS_OZ_KS_BINS; i++)
        present[i] = 0;
    for (int64_t q = 0; q < k; q++)
        if (s[q] != DFS_OZ_NONE_TAU)
            present[s[q] - DFS_OZ_KS_LO] = 1;
    for (int i = 0; i < DFS_OZ_KS_BINS; i++) {
        if (!present[i])
            continue;
        if (prev >= 0 && i - prev >= *gap) {
            *gap = i - prev;
            *thr = i + DFS_OZ_KS_LO;
        }
        prev = i;
    }
    return *gap >= DFS_OZ_KGAP;
}
#endif

#endif
