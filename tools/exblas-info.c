/* exblas-info — what dfshim would do here: the CUDA devices with their FP64 class, the engines
 * with their options (values, default, meaning), the configuration read from the environment
 * (EXBLAS_MODE, EXBLAS_MODE_<ROUTINE>, EXBLAS_POLICY) with what is wrong in it (engine options
 * included) and, per device and routine, the engine a call of a given size would use.
 * Needs no GPU: without one it says so and still prints the policy. */
#include "../config/config.h"
#include "../config/env.h"
#include "../engines/engine.h"

#include <cuda.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEV 64

typedef struct {
    dfs_device dev;
    int sms, clock_khz;
} device_info;

static void usage(FILE *f)
{
    fputs("usage: exblas-info [--policy] [--dgemm M,N,K] [--dgemv M,N] [--ddot N] [--zgemm M,N,K]\n"
          "                   [--zdot N] [--zgemv M,N] [--syrk N,K] [--syr2k N,K] [--symm M,N]\n"
          "                   [--trmm M,N] [--trsm M,N]\n"
          "  --policy        print the text of the policy in use (embedded or EXBLAS_POLICY)\n"
          "  --dgemm M,N,K   sizes for the per-routine decision (default 1024,1024,1024)\n"
          "  --dgemv M,N     (default 1024,1024)\n"
          "  --ddot N        (default 1048576)\n"
          "  --zgemm M,N,K   (default 1024,1024,1024)\n"
          "  --zdot N        (default 1048576)\n"
          "  --zgemv M,N     (default 1024,1024)\n"
          "  --syrk N,K      (also --syr2k; default 1024,1024)\n"
          "  --symm M,N      (also --trmm, --trsm: A on the left; default 1024,1024)\n"
          "Reads EXBLAS_MODE, EXBLAS_MODE_<ROUTINE> (DGEMM, DGEMV, DDOT, ZGEMM, ZDOT, ZGEMV,\n"
          "SYRK, SYR2K, SYMM, TRMM, TRSM) and EXBLAS_POLICY like libdfshim.so.\n",
          f);
}

/* Devices through the driver API, loaded at run time so that this works without a driver. */
static int list_devices(device_info *out, char *why, size_t whylen)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, whylen, "no CUDA driver (libcuda.so.1 cannot be loaded)");
        return 0;
    }
    CUresult (*init)(unsigned);
    CUresult (*count)(int *);
    CUresult (*get)(CUdevice *, int);
    CUresult (*name)(char *, int, CUdevice);
    CUresult (*attr)(int *, CUdevice_attribute, CUdevice);
    *(void **)&init = dlsym(h, "cuInit");
    *(void **)&count = dlsym(h, "cuDeviceGetCount");
    *(void **)&get = dlsym(h, "cuDeviceGet");
    *(void **)&name = dlsym(h, "cuDeviceGetName");
    *(void **)&attr = dlsym(h, "cuDeviceGetAttribute");
    int n = 0;
    if (!init || !count || !get || !name || !attr) {
        snprintf(why, whylen, "the CUDA driver lacks the device query functions");
        return 0;
    }
    CUresult r = init(0);
    if (r != CUDA_SUCCESS || count(&n) != CUDA_SUCCESS || n == 0) {
        snprintf(why, whylen, "the CUDA driver reports no usable GPU (cuInit error %d)", (int)r);
        return 0;
    }
    if (n > MAX_DEV)
        n = MAX_DEV;
    for (int i = 0; i < n; i++) {
        CUdevice d;
        char nm[96] = "";
        int major = 0, minor = 0;
        get(&d, i);
        name(nm, sizeof nm, d);
        attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
        attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
        attr(&out[i].sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d);
        attr(&out[i].clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, d);
        dfs_device_describe(&out[i].dev, i, major, minor, nm);
    }
    return n;
}

/* An engine's options: key, values and default, meaning. */
static void print_options(const dfs_option_table *t)
{
    if (!t || !t->spec || !t->spec->key) {
        printf("%14s(no options)\n", "");
        return;
    }
    for (const dfs_option_spec *s = t->spec; s->key; s++) {
        char values[256];
        dfs_option_describe(s, values, sizeof values);
        printf("%14soption %s: %s\n%14s  %s\n", "", s->key, values, "", s->meaning);
    }
}

static void diag(const char *line)
{
    printf("  ! %s\n", line);
}

/* The capability an engine needs for each Level-3 routine (as the shim's dispatch asks). */
static const unsigned l3_cap[DFS_R_COUNT] = {[DFS_R_SYRK] = DFS_CAP_SYRK,
                                             [DFS_R_SYR2K] = DFS_CAP_SYR2K,
                                             [DFS_R_SYMM] = DFS_CAP_SYMM,
                                             [DFS_R_TRMM] = DFS_CAP_TRMM,
                                             [DFS_R_TRSM] = DFS_CAP_TRSM};

static void print_decision(const dfs_config *cfg, const dfs_device *dev,
                           int64_t dims[DFS_R_COUNT][3])
{
#define MNK "m=%" PRId64 " n=%" PRId64 " k=%" PRId64
#define MN "m=%" PRId64 " n=%" PRId64
#define NK "n=%" PRId64 " k=%" PRId64
    static const char *const shape[DFS_R_COUNT] = {MNK, MN, "n=%" PRId64, MNK, "n=%" PRId64, MN,
                                                   NK,  NK, MN,           MN,  MN};
#undef MNK
#undef MN
#undef NK
    for (int r = 0; r < DFS_R_COUNT; r++) {
        dfs_rule rule;
        dfs_config_rule(cfg, dev, (dfs_routine)r, &rule);
        int64_t mind = dims[r][0];
        double products = 1;
        const int gemm = r == DFS_R_DGEMM || r == DFS_R_ZGEMM;
        const int gemv = r == DFS_R_DGEMV || r == DFS_R_ZGEMV;
        const int l3 = r >= DFS_R_SYRK;
        for (int i = 0; i < (gemm ? 3 : gemv || l3 ? 2 : 1); i++) { /* ddot, zdot: n */
            mind = dims[r][i] < mind ? dims[r][i] : mind;
            products *= (double)dims[r][i];
        }
        /* the Level-3 routines as the shim sizes them: a GEMM of n x n x k (SYRK, SYR2K) or of
         * m x n x m (SYMM, TRMM, TRSM with A on the left) */
        if (l3)
            products *= (double)dims[r][0];
        const int below = dfs_rule_below(&rule, mind, products);
        int e = below ? rule.below_engine : rule.engine;
        const char *note = below ? " (below min_dim)" : "";
        if (e != 0 && dev && !dfs_engines[e]->can_run(dev)) {
            e = 0;
            note = below ? " (below min_dim; its engine cannot run on this device)"
                         : " (engine cannot run on this device)";
        }
        const dfs_engine *en = dfs_engines[e];
        if (e != 0 && !(r == DFS_R_DGEMM   ? en->gemm != NULL
                        : r == DFS_R_ZGEMM ? en->gemm != NULL && (en->caps & DFS_CAP_COMPLEX)
                        : r == DFS_R_ZDOT  ? en->ddot != NULL && (en->caps & DFS_CAP_ZDOT)
                        : r == DFS_R_ZGEMV ? en->dgemv != NULL && (en->caps & DFS_CAP_ZGEMV)
                        : r == DFS_R_DGEMV ? en->dgemv != NULL
                        : l3 ? (en->level3 != NULL && (en->caps & l3_cap[r])) ||
                                   en->gemm != NULL
                             : en->ddot != NULL)) {
            e = 0;
            note = " (the engine does not compute this routine)";
        } else if (e != 0 && l3 && !(en->level3 != NULL && (en->caps & l3_cap[r]))) {
            /* the shim's decomposition (shim/l3_mm.h, l3_trsm.h): complex data too where the
             * engine has a complex GEMM */
            const char *types = en->caps & DFS_CAP_COMPLEX ? "double and complex" : "double";
            const char *rest = en->caps & DFS_CAP_COMPLEX ? "" : "; complex natively";
            static char via[192];
            if (r == DFS_R_TRSM)
                snprintf(via, sizeof via, " (%s in blocks of %d through its GEMM%s%s)", types,
                         en->trsm_nb > 0 ? en->trsm_nb : DFS_TRSM_NB,
                         en->trsm_native_parts ? "; its leaves, and the parts native does "
                                                 "faster, on cuBLAS's TRSM"
                                               : "",
                         rest);
            else if (r == DFS_R_SYMM)
                snprintf(via, sizeof via, " (%s through its GEMM%s)", types, rest);
            else if (r != DFS_R_TRMM && (en->caps & DFS_CAP_TRIANGLE))
                /* a real triangle of output as one GEMM of it where the engine takes it */
                snprintf(via, sizeof via, " (double as one GEMM of the triangle where the "
                         "engine takes it, else in %d panels, through its GEMM%s)",
                         en->l3_panels > 0 ? en->l3_panels : DFS_L3_PANELS,
                         en->caps & DFS_CAP_COMPLEX ? "; complex in panels too" : rest);
            else /* a triangle of output, or TRMM's blocks, in the engine's panels */
                snprintf(via, sizeof via, " (%s in %d panels through its GEMM%s)", types,
                         en->l3_panels > 0 ? en->l3_panels : DFS_L3_PANELS, rest);
            note = via;
        }
        if (e != 0 && gemm && dev && en->gemm_prefers_native) {
            dfs_gemm_call c;
            memset(&c, 0, sizeof c);
            c.m = dims[r][0];
            c.n = dims[r][1];
            c.k = dims[r][2];
            c.batch = 1;
            c.type = r == DFS_R_ZGEMM ? DFS_C64 : DFS_R64;
            if (en->gemm_prefers_native(dev, &c, below ? &rule.below_options : &rule.options)) {
                e = 0;
                note = " (by the engine's cost model: native is faster at this shape)";
            }
        }
        char sz[96];
        snprintf(sz, sizeof sz, shape[r], dims[r][0], dims[r][1], dims[r][2]);
        char below_eng[96] = "";
        if (rule.below_engine != 0 && rule.tiny_products > 0)
            snprintf(below_eng, sizeof below_eng, " (below: %s; at most %" PRId64 " products: %s)",
                     dfs_engines[rule.below_engine]->name, rule.tiny_products,
                     dfs_engines[rule.engine]->name);
        else if (rule.below_engine != 0)
            snprintf(below_eng, sizeof below_eng, " (below: %s)",
                     dfs_engines[rule.below_engine]->name);
        if (rule.fallback_engine != 0) {
            const size_t used = strlen(below_eng);
            snprintf(below_eng + used, sizeof below_eng - used, " (what it declines: %s)",
                     dfs_engines[rule.fallback_engine]->name);
        }
        printf("    %-6s %-28s -> %s%s   [rule: %s -> %s, min_dim %" PRId64 "%s, from %s]\n",
               dfs_routine_names[r], sz, dfs_engines[e]->name, note, dfs_config_mode(cfg, (dfs_routine)r),
               dfs_engines[rule.engine]->name, rule.min_dim, below_eng, rule.source);
        for (int i = 0; i < rule.options.nbase; i++)
            printf("           option %s = %s (%s)\n", rule.options.base[i].key,
                   rule.options.base[i].value, rule.options.base[i].where);
        for (int i = 0; i < rule.options.noverride; i++)
            printf("           option %s = %s (%s)\n", rule.options.override[i].key,
                   rule.options.override[i].value, rule.options.override[i].where);
    }
}

/* The routine of a Level-3 option's name (syrk...trsm), or -1. */
static int level3_option(const char *name)
{
    for (int r = DFS_R_SYRK; r < DFS_R_COUNT; r++)
        if (!strcmp(name, dfs_routine_names[r]))
            return r;
    return -1;
}

static int parse_dims(const char *s, int64_t *d, int n)
{
    for (int i = 0; i < n; i++) {
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s || v < 0 || (i < n - 1 ? *end != ',' : *end != '\0'))
            return -1;
        d[i] = v;
        s = end + 1;
    }
    return 0;
}

static int print_policy_text(const char *path)
{
    if (!path || !*path) {
        fputs(dfs_default_policy_text, stdout);
        return 0;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("(cannot open %s)\n", path);
        return 1;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, stdout);
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    int show_policy = 0;
    int64_t dims[DFS_R_COUNT][3] = {
        {1024, 1024, 1024}, {1024, 1024, 0}, {1048576, 0, 0}, {1024, 1024, 1024}, {1048576, 0, 0},
        {1024, 1024, 0},    {1024, 1024, 0}, {1024, 1024, 0}, {1024, 1024, 0},    {1024, 1024, 0},
        {1024, 1024, 0}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int ok = 1;
        if (!strcmp(a, "--policy"))
            show_policy = 1;
        else if (!strcmp(a, "--dgemm") && i + 1 < argc)
            ok = !parse_dims(argv[++i], dims[0], 3);
        else if (!strcmp(a, "--dgemv") && i + 1 < argc)
            ok = !parse_dims(argv[++i], dims[1], 2);
        else if (!strcmp(a, "--zgemm") && i + 1 < argc)
            ok = !parse_dims(argv[++i], dims[3], 3);
        else if (!strcmp(a, "--zdot") && i + 1 < argc)
            ok = !parse_dims(argv[++i], dims[4], 1);
        else if (!strcmp(a, "--zgemv") && i + 1 < argc)
            ok = !parse_dims(argv[++i], dims[5], 2);
        else if (!strcmp(a, "--ddot") && i + 1 < argc)
            ok = !parse_dims(argv[++i], dims[2], 1);
        else if (!strncmp(a, "--", 2) && i + 1 < argc && level3_option(a + 2) >= 0)
            ok = !parse_dims(argv[++i], dims[level3_option(a + 2)], 2);
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else
            ok = 0;
        if (!ok) {
            usage(stderr);
            return 2;
        }
    }

    printf("dfshim exblas-info\n\nDevices:\n");
    static device_info devs[MAX_DEV];
    char why[160] = "";
    int ndev = list_devices(devs, why, sizeof why);
    if (!ndev)
        printf("  none: %s.\n  The decisions below are those for an unknown device.\n", why);
    for (int i = 0; i < ndev; i++) {
        const dfs_device *d = &devs[i].dev;
        printf("  %d: %s, cc %d.%d, %d SMs at %d MHz, FP32:FP64 = %s%d (class %s)\n", i, d->name,
               d->cc_major, d->cc_minor, devs[i].sms, devs[i].clock_khz / 1000,
               d->fp64_ratio ? "" : "unknown ", d->fp64_ratio ? d->fp64_ratio : 0,
               dfs_device_class(d));
    }

    printf("\nEngines:\n");
    for (int e = 0; e < dfs_engine_count; e++) {
        printf("  %-11s %s", dfs_engines[e]->name, dfs_engines[e]->summary);
        for (int i = 0; i < ndev; i++)
            if (!dfs_engines[e]->can_run(&devs[i].dev))
                printf(" [cannot run on device %d]", i);
        printf("\n");
        print_options(dfs_engines[e]->options);
    }

    printf("\nConfiguration:\n");
    for (int i = 0; i < DFS_ENV_COUNT; i++) {
        const char *v = getenv(dfs_env_table[i].name);
        printf("  %-24s %s\n", dfs_env_table[i].name, v ? v : "(unset)");
    }
    dfs_config_set_option_tables(dfs_engine_option_table);
    dfs_config *cfg = dfs_config_from_env(dfs_engine_find, diag);
    if (!cfg) {
        printf("  out of memory\n");
        return 1;
    }
    printf("  policy in use: %s\n", dfs_config_policy_source(cfg));

    printf("\nDecisions:\n");
    if (!ndev) {
        printf("  unknown device:\n");
        print_decision(cfg, NULL, dims);
    }
    for (int i = 0; i < ndev; i++) {
        printf("  device %d (%s, class %s):\n", i, devs[i].dev.name, dfs_device_class(&devs[i].dev));
        print_decision(cfg, &devs[i].dev, dims);
    }
    if (show_policy) {
        const char *src = dfs_config_policy_source(cfg);
        printf("\nPolicy text (%s):\n", src);
        print_policy_text(strcmp(src, "embedded") ? src : NULL);
    }
    dfs_config_free(cfg);
    return 0;
}
