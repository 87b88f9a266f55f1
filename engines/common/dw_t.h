/* dw_t.h — double-word arithmetic (a value carried as the unevaluated sum hi + lo of two words),
 * written once and instantiated by df.h (binary32 words: double-float) and dd.h (binary64 words:
 * double-double).  A template by macros; no include guard.  u is the word's unit roundoff
 * (2^-24, 2^-53).  References: Joldes, Muller, Popescu (JMP), "Tight and rigorous error bounds
 * for basic building blocks of double-word arithmetic", ACM TOMS 2017.
 *
 * Before including, define: DW_T (the word type), DW (the struct type, fields hi and lo),
 * DW_FN(name) (a function's full name), DW_ADD, DW_MUL (a, b), DW_FMA (a, b, c) and the EFTs
 * DW_TWO_SUM, DW_FAST_TWO_SUM, DW_TWO_PROD (eft.h's for that type).  Undefined at the end. */

DFS_HD DW DW_FN(make)(DW_T hi, DW_T lo)
{
    DW r;
    r.hi = hi;
    r.lo = lo;
    return r;
}

/* QD sloppy add (JMP Alg. 5), 11 ops: no bound under cancellation. */
DFS_HD DW DW_FN(add_sloppy)(DW a, DW b)
{
    DW_T e;
    DW_T s = DW_TWO_SUM(a.hi, b.hi, &e);
    DW_T t = DW_ADD(e, DW_ADD(a.lo, b.lo));
    DW_T hi = DW_FAST_TWO_SUM(s, t, &e);
    return DW_FN(make)(hi, e);
}

/* AccurateDWPlusDW (JMP Alg. 6, QD ieee_add), 20 ops, relative error <= 3u^2 + 13u^3. */
DFS_HD DW DW_FN(add_accurate)(DW a, DW b)
{
    DW_T t, s = DW_TWO_SUM(a.hi, b.hi, &t);
    DW_T w, v = DW_TWO_SUM(a.lo, b.lo, &w);
    DW_T c = DW_ADD(t, v);
    DW_T e, hi = DW_FAST_TWO_SUM(s, c, &e);
    w = DW_ADD(w, e);
    hi = DW_FAST_TWO_SUM(hi, w, &e);
    return DW_FN(make)(hi, e);
}

/* DWTimesDW3 (JMP Alg. 12), 9 ops (TwoProdFMA counted as 2), relative error < 4u^2. */
DFS_HD DW DW_FN(mul_accurate)(DW a, DW b)
{
    DW_T cl2, ch = DW_TWO_PROD(a.hi, b.hi, &cl2);
    DW_T tl0 = DW_MUL(a.lo, b.lo);
    DW_T tl1 = DW_FMA(a.hi, b.lo, tl0);
    DW_T cl1 = DW_FMA(a.lo, b.hi, tl1);
    DW_T cl3 = DW_ADD(cl2, cl1);
    DW_T e, hi = DW_FAST_TWO_SUM(ch, cl3, &e);
    return DW_FN(make)(hi, e);
}

#undef DW_T
#undef DW
#undef DW_FN
#undef DW_ADD
#undef DW_MUL
#undef DW_FMA
#undef DW_TWO_SUM
#undef DW_FAST_TWO_SUM
#undef DW_TWO_PROD
