/* devices.c — the device table: compute capability -> FP32:FP64 throughput ratio.
 * Data, not logic (see ../shared/design/ENGINES.md section 4 for the sources).  The policy
 * selects engines by class ("full": FP64 at half the FP32 rate; "starved": 1/32 or less). */
#include "config.h"

#include <stdio.h>
#include <string.h>

static const struct {
    int major, minor; /* minor -1 = every minor of that major not listed before */
    int ratio;
} table[] = {
    {6, 0, 2},   /* P100 */
    {7, 0, 2},   /* V100 */
    {7, 2, 2},   /* Xavier */
    {7, 5, 32},  /* Turing: RTX 20xx, T4 */
    {8, 0, 2},   /* A100, A30 */
    {8, 6, 64},  /* GA10x: RTX 30xx, A10, A40 */
    {8, 7, 64},  /* Jetson Orin */
    {8, 9, 64},  /* Ada: RTX 40xx, L4, L40 */
    {9, 0, 2},   /* H100, H200, GH200 */
    {10, 0, 2},  /* B200, GB200 */
    {10, 3, 64}, /* B300, GB300: FP64 cut to about 1/64 */
    {12, 0, 64}, /* RTX 50xx, RTX PRO 6000 Blackwell */
    {12, 1, 64}, /* GB10 */
    {5, -1, 32}, /* Maxwell */
    {6, -1, 32}, /* Pascal GeForce (6.1), Tegra X2 (6.2) */
};

int dfs_device_fp64_ratio(int major, int minor)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].major == major && (table[i].minor == minor || table[i].minor < 0))
            return table[i].ratio;
    return 0;
}

const char *dfs_device_class(const dfs_device *d)
{
    if (!d || d->fp64_ratio == 0)
        return "unknown";
    return d->fp64_ratio <= 2 ? "full" : "starved";
}

void dfs_device_describe(dfs_device *d, int ordinal, int major, int minor, const char *name)
{
    memset(d, 0, sizeof *d);
    d->ordinal = ordinal;
    d->cc_major = major;
    d->cc_minor = minor;
    d->fp64_ratio = dfs_device_fp64_ratio(major, minor);
    snprintf(d->name, sizeof d->name, "%s", name ? name : "");
}
