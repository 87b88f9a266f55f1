/* eft_t.h — the error-free transformations, written once for any binary floating-point type and
 * instantiated by eft.h for binary32 and binary64 (a template by macros; no include guard).
 *
 * Before including, define: EFT_T (the type), EFT_FN(name) (the function's full name),
 * EFT_ADD, EFT_SUB, EFT_MUL (a, b) and EFT_FMA (a, b, c): one IEEE operation each, rounded to
 * nearest even, never contracted or reassociated.  They are undefined at the end. */

/* s + e = a + b exactly (Knuth's TwoSum, 6 ops; any finite a, b without overflow). */
DFS_HD EFT_T EFT_FN(two_sum)(EFT_T a, EFT_T b, EFT_T *e)
{
    EFT_T s = EFT_ADD(a, b);
    EFT_T v = EFT_SUB(s, a);
    *e = EFT_ADD(EFT_SUB(a, EFT_SUB(s, v)), EFT_SUB(b, v));
    return s;
}

/* s + e = a + b exactly when exponent(a) >= exponent(b) (Fast2Sum, 3 ops). */
DFS_HD EFT_T EFT_FN(fast_two_sum)(EFT_T a, EFT_T b, EFT_T *e)
{
    EFT_T s = EFT_ADD(a, b);
    *e = EFT_SUB(b, EFT_SUB(s, a));
    return s;
}

/* p + e = a * b exactly, barring underflow (TwoProduct with FMA, 2 ops). */
DFS_HD EFT_T EFT_FN(two_prod)(EFT_T a, EFT_T b, EFT_T *e)
{
    EFT_T p = EFT_MUL(a, b);
    *e = EFT_FMA(a, b, -p);
    return p;
}

#undef EFT_T
#undef EFT_FN
#undef EFT_ADD
#undef EFT_SUB
#undef EFT_MUL
#undef EFT_FMA
