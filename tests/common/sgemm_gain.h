/* sgemm_gain.h — the splits of the ozaki-sgemm engine that reach the paper's gains over binary32
 * GEMM (15x and 500x on its data, uniform in [-5, 5]) at k = 4096, per data, measured as the
 * largest |error| / sum |a b| (README.md, "ozaki-sgemm"): the unit test checks them on the CPU
 * model (8 x 8 outputs), the GPU test on the engine (256 outputs of 4096^3, whose rows of 4096
 * phi 4 values span more binades: 6 splits gave 310x there, 11000x on the CPU's 8 rows).  Data of wider range needs more splits: the slices are
 * cut relative to the largest element of each row, so small elements get fewer slice bits. */
#ifndef DFS_TESTS_SGEMM_GAIN_H
#define DFS_TESTS_SGEMM_GAIN_H

enum { SG_U5, SG_PHI0, SG_PHI1, SG_PHI2, SG_PHI4, SG_COUNT };

static const struct {
    double phi; /* < 0: uniform in [-5, 5] */
    const char *name;
    int for15, for500; /* the fewest splits for 15x and for 500x; 7: not with 6 splits */
} sgemm_gain[SG_COUNT] = {{-1, "U[-5,5]", 2, 3}, {0, "phi 0", 2, 3}, {1, "phi 1", 3, 4},
                          {2, "phi 2", 4, 5}, {4, "phi 4", 6, 7}};

/* The gain S splits must reach on data d. */
static inline double sgemm_gain_wanted(int d, int S)
{
    return S >= sgemm_gain[d].for500 ? 500 : S >= sgemm_gain[d].for15 ? 15 : 0;
}

#endif
