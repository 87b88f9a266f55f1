/* df_epilogue.h — the last step of DGEMM-DF(DF), shared by the kernel and the host
 * implementation: c = alpha*ab + beta*c in DF with the scheme's product and sum (beta = 0: c is
 * not read; alpha = 0: ab is not used). */
#ifndef DFS_DF_EPILOGUE_H
#define DFS_DF_EPILOGUE_H

#include "../common/df.h"
#include "df_gemm.h"

DFS_HD dfs_df dfs_df_axpby(int scheme, dfs_df alpha, dfs_df ab, dfs_df beta, const dfs_df *c)
{
    const int accurate = scheme == DFS_DF_MAD29;
    dfs_df r = dfs_df_make(0.0f, 0.0f);
    if (alpha.hi != 0.0f)
        r = accurate ? dfs_df_mul_accurate(alpha, ab) : dfs_df_mul_fast(alpha, ab);
    if (beta.hi != 0.0f) {
        dfs_df t = accurate ? dfs_df_mul_accurate(beta, *c) : dfs_df_mul_fast(beta, *c);
        r = accurate ? dfs_df_add_accurate(r, t) : dfs_df_add_sloppy(r, t);
    } else if (!accurate) {
        r = dfs_df_add_sloppy(r, dfs_df_make(0.0f, 0.0f)); /* renormalise the product */
    }
    return r;
}

#endif
