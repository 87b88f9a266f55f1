/* test_config.c — configuration through the real shim: what it prints, and that the calls keep
 * working whatever the configuration says.
 *
 * The parent runs this program as children with chosen EXBLAS_* variables, captures their stdout
 * and stderr, and checks them line by line:
 *   - no EXBLAS_* variable (or only valid ones): nothing at all on stdout or stderr;
 *   - a bad mode (EXBLAS_MODE, EXBLAS_MODE_<ROUTINE>), a bad EXBLAS_LOG or EXBLAS_LOG_FILE: one
 *     line per problem naming the variable and value, however many calls of several routines;
 *   - a bad EXBLAS_POLICY (malformed: FILE:LINE:; a routine that does not exist; a routine set
 *     twice; a 1 MB line; a 4 MB file; directory; missing; unreadable; FIFO; binary): one line
 *     each, and the program neither stops nor hangs;
 *   - an engine option that the engine does not take (an unknown key, a bad value; in a mode
 *     string or a policy file): one line at the first call, however many calls follow, naming
 *     the option, the value and what is used instead; the rest stays in force (an engine named
 *     by the mode stays chosen: its "cannot run" line, no GPU here, says so; a policy with such
 *     an option stays in use);
 *   - EXBLAS_REREAD=1 with setenv() between calls: each change takes effect at the next call
 *     (its one line appears right after the phase marker the child prints), and switching back
 *     works; without EXBLAS_REREAD the first configuration stays.
 * Every child checks every result against a reference and exits non-zero on a wrong one. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------- the children: calls of every routine ---------- */

static cublasHandle_t handle;

static void check_d(const char *what, cublasStatus_t st, const double *got, const double *want,
                    size_t n)
{
    CHECK(st == CUBLAS_STATUS_SUCCESS, "%s: status %d", what, (int)st);
    long d = first_diff(got, want, n);
    CHECK(d < 0, "%s: element %ld is %g, expected %g", what, d, got[d < 0 ? 0 : d],
          want[d < 0 ? 0 : d]);
}

/* One round: each routine family, valid, quick and invalid forms. */
static void round_of_calls(unsigned seed)
{
    double A[64], B[64], C[64], R[64], x[16], y[16], yr[16], al = 2, be = -1, r = 0;
    fill_ints(A, 64, seed), fill_ints(B, 64, seed + 1), fill_ints(C, 64, seed + 2);
    fill_ints(x, 16, seed + 3), fill_ints(y, 16, seed + 4);

    memcpy(R, C, sizeof R);
    ref_dgemm(CUBLAS_OP_N, CUBLAS_OP_T, 4, 3, 5, al, A, 4, B, 3, be, R, 4);
    check_d("cublasDgemm_v2",
            cublasDgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_T, 4, 3, 5, &al, A, 4, B, 3, &be, C, 4),
            C, R, 64);
    ref_dgemm(CUBLAS_OP_T, CUBLAS_OP_N, 3, 3, 4, al, A, 4, B, 4, be, R, 5);
    check_d("cublasDgemm_v2_64",
            cublasDgemm_v2_64(handle, CUBLAS_OP_T, CUBLAS_OP_N, 3, 3, 4, &al, A, 4, B, 4, &be, C,
                              5),
            C, R, 64);
    for (int b = 0; b < 2; b++)
        ref_dgemm(CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, al, A + 10 * b, 2, B + 8 * b, 3, be,
                  R + 20 * b, 2);
    check_d("cublasDgemmStridedBatched",
            cublasDgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, &al, A, 2, 10, B,
                                      3, 8, &be, C, 2, 20, 2),
            C, R, 64);
    ref_dgemm(CUBLAS_OP_C, CUBLAS_OP_N, 3, 2, 2, al, A, 2, B, 2, be, R, 3);
    check_d("cublasGemmEx",
            cublasGemmEx(handle, CUBLAS_OP_C, CUBLAS_OP_N, 3, 2, 2, &al, A, CUDA_R_64F, 2, B,
                         CUDA_R_64F, 2, &be, C, CUDA_R_64F, 3, CUBLAS_COMPUTE_64F,
                         CUBLAS_GEMM_DEFAULT),
            C, R, 64);

    memcpy(yr, y, sizeof y);
    ref_dgemv(CUBLAS_OP_N, 4, 3, al, A, 4, x, 2, be, yr, -1);
    check_d("cublasDgemv_v2",
            cublasDgemv_v2(handle, CUBLAS_OP_N, 4, 3, &al, A, 4, x, 2, &be, y, -1), y, yr, 16);
    ref_dgemv(CUBLAS_OP_T, 4, 3, al, A, 5, x, -1, be, yr, 3);
    check_d("cublasDgemv_v2_64",
            cublasDgemv_v2_64(handle, CUBLAS_OP_T, 4, 3, &al, A, 5, x, -1, &be, y, 3), y, yr, 16);

    double want = ref_ddot(7, x, 2, y, -2);
    CHECK(cublasDdot_v2(handle, 7, x, 2, y, -2, &r) == CUBLAS_STATUS_SUCCESS && r == want,
          "cublasDdot_v2: %g, expected %g", r, want);
    want = ref_ddot(5, x, 1, y, 3);
    CHECK(cublasDdot_v2_64(handle, 5, x, 1, y, 3, &r) == CUBLAS_STATUS_SUCCESS && r == want,
          "cublasDdot_v2_64: %g, expected %g", r, want);

    /* quick returns and invalid calls: the stand-in's statuses */
    CHECK(cublasDdot_v2(handle, 0, x, 1, y, 1, &r) == CUBLAS_STATUS_SUCCESS && r == 0,
          "cublasDdot_v2 n=0");
    CHECK(cublasDgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &al, A, 1, B, 2, &be, C, 1) ==
              CUBLAS_STATUS_INVALID_VALUE,
          "cublasDgemm_v2 m=-1");
    CHECK(cublasDgemv_v2(NULL, CUBLAS_OP_N, 2, 2, &al, A, 2, x, 1, &be, y, 1) ==
              CUBLAS_STATUS_NOT_INITIALIZED,
          "cublasDgemv_v2 without a handle");
}

static void calls(int rounds)
{
    for (int i = 0; i < rounds; i++)
        round_of_calls((unsigned)i);
}

static int child_work(void)
{
    require_shim("cublasDgemm_v2");
    CHECK(cublasCreate_v2(&handle) == CUBLAS_STATUS_SUCCESS, "cublasCreate_v2 failed");
    calls(25);
    CHECK(cublasDestroy_v2(handle) == CUBLAS_STATUS_SUCCESS, "cublasDestroy_v2 failed");
    return 0;
}

/* Phases separated by markers on stderr (the shim writes its lines there too, in order). */
static void phase(int n)
{
    fprintf(stderr, "phase %d\n", n);
    calls(5);
}

static void set(const char *name, const char *value)
{
    if (value)
        CHECK(!setenv(name, value, 1), "setenv");
    else
        CHECK(!unsetenv(name), "unsetenv");
}

static int child_phases(const char *bad_policy)
{
    require_shim("cublasDgemm_v2");
    CHECK(cublasCreate_v2(&handle) == CUBLAS_STATUS_SUCCESS, "cublasCreate_v2 failed");
    phase(0);
    set("EXBLAS_MODE", "bogus1");
    phase(1);
    set("EXBLAS_MODE", "native");
    phase(2);
    set("EXBLAS_MODE", "bogus2");
    phase(3);
    set("EXBLAS_MODE", NULL);
    set("EXBLAS_POLICY", bad_policy);
    phase(4);
    set("EXBLAS_POLICY", NULL);
    set("EXBLAS_MODE_DDOT", "bogus3");
    phase(5);
    set("EXBLAS_MODE_DDOT", "auto");
    phase(6);
    fprintf(stderr, "end\n");
    CHECK(cublasDestroy_v2(handle) == CUBLAS_STATUS_SUCCESS, "cublasDestroy_v2 failed");
    return 0;
}

/* ---------- the parent ---------- */

static char *self, *dir, *out_path, *err_path;
static int failures;

/* One expected stderr line: it contains every non-NULL needle. */
typedef struct {
    const char *needle[3];
} want_line;

static int line_matches(const char *line, const want_line *w)
{
    for (int i = 0; i < 3; i++)
        if (w->needle[i] && !strstr(line, w->needle[i]))
            return 0;
    return 1;
}

static void show(const char *what, const char *why, const char *out, const char *err)
{
    fprintf(stderr, "FAIL %s: %s\n--- stdout:\n%s--- stderr:\n%s---\n", what, why, out, err);
    failures++;
}

static char *envs(const char *k, const char *v)
{
    size_t n = strlen(k) + strlen(v) + 2;
    char *s = malloc(n);
    CHECK(s, "out of memory");
    snprintf(s, n, "%s=%s", k, v);
    return s;
}

/* Runs the "work" child with env; its stderr must be exactly the n lines of w, in any order,
 * each starting "dfshim: " (n == 0: nothing), and its stdout empty. */
static void expect(const char *what, const char *const env[], int n, const want_line *w)
{
    char *argv[] = {self, "work", NULL};
    int rc = run_self(argv, env, out_path, err_path, 20);
    char *out = read_file(out_path, NULL), *err = read_file(err_path, NULL);
    char why[256];
    if (rc) {
        snprintf(why, sizeof why, "the child exited with status %d%s", rc,
                 rc == 128 + 14 ? " (killed after 20 s: it hung)" : "");
        show(what, why, out, err);
        return;
    }
    if (*out) {
        show(what, "the child printed on stdout", out, err);
        return;
    }
    int lines = count_lines(err);
    if (lines != n) {
        snprintf(why, sizeof why, "%d stderr line(s), expected %d", lines, n);
        show(what, why, out, err);
        return;
    }
    int used[8] = {0};
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int l = 0; l < lines && !found; l++) {
            char *text = nth_line(err, l);
            if (!used[l] && !strncmp(text, "dfshim: ", 8) && line_matches(text, &w[i]))
                used[l] = found = 1;
            free(text);
        }
        if (!found) {
            snprintf(why, sizeof why, "no 'dfshim: ' line containing '%s'%s%s%s%s",
                     w[i].needle[0], w[i].needle[1] ? "' and '" : "",
                     w[i].needle[1] ? w[i].needle[1] : "", w[i].needle[2] ? "' and '" : "",
                     w[i].needle[2] ? w[i].needle[2] : "");
            show(what, why, out, err);
            return;
        }
    }
    free(out), free(err);
}

#define NONE 0, NULL
#define ONE(...) 1, (const want_line[]){{{__VA_ARGS__}}}

/* The phases child: stderr must be exactly `lines` (NULL-terminated; "=X" means a dfshim line
 * containing X, anything else an exact line). */
static void expect_phases(const char *what, const char *const env[], const char *bad_policy,
                          const char *const lines[])
{
    char *argv[] = {self, "phases", (char *)bad_policy, NULL};
    int rc = run_self(argv, env, out_path, err_path, 20);
    char *out = read_file(out_path, NULL), *err = read_file(err_path, NULL);
    char why[512];
    if (rc) {
        snprintf(why, sizeof why, "the child exited with status %d", rc);
        show(what, why, out, err);
        return;
    }
    if (*out) {
        show(what, "the child printed on stdout", out, err);
        return;
    }
    int n = 0;
    for (; lines[n]; n++) {
        char *l = nth_line(err, n);
        int ok = l && (lines[n][0] == '='
                           ? !strncmp(l, "dfshim: ", 8) && strstr(l, lines[n] + 1)
                           : !strcmp(l, lines[n]));
        if (!ok) {
            snprintf(why, sizeof why, "stderr line %d is '%s', expected %s'%s'", n + 1,
                     l ? l : "(missing)", lines[n][0] == '=' ? "a dfshim line containing " : "",
                     lines[n] + (lines[n][0] == '='));
            free(l);
            show(what, why, out, err);
            return;
        }
        free(l);
    }
    if (count_lines(err) != n) {
        snprintf(why, sizeof why, "%d stderr lines, expected %d", count_lines(err), n);
        show(what, why, out, err);
        return;
    }
    free(out), free(err);
}

static char *file_in_dir(const char *name, const char *text, size_t len)
{
    char *p = path_join(dir, name);
    write_file(p, text, len);
    return p;
}

static int parent(void)
{
    require_shim("cublasDgemm_v2");
    dir = make_temp_dir("config");
    out_path = path_join(dir, "out");
    err_path = path_join(dir, "err");
    CHECK(!chdir(dir), "chdir %s", dir); /* where a stray file written by the shim would land */

    /* ---- nothing to say ---- */
    expect("no EXBLAS_* variable", NULL, NONE);
    const char *q1[] = {"EXBLAS_MODE=auto", "EXBLAS_LOG=error", "EXBLAS_SUMMARY=0", NULL};
    expect("valid settings", q1, NONE);
    const char *q2[] = {"EXBLAS_MODE=native", "EXBLAS_MODE_DGEMV=auto", "EXBLAS_REREAD=1", NULL};
    expect("valid settings, rereading", q2, NONE);
    const char *good = "# a policy of our own\n[mode auto]\nall = native\n[mode fast]\n"
                       "dgemm = native min_dim=64\nddot = native\n";
    char *good_path = file_in_dir("good.policy", good, strlen(good));
    char *gp = envs("EXBLAS_POLICY", good_path);
    const char *q3[] = {gp, "EXBLAS_MODE=fast", NULL};
    expect("a valid policy file", q3, NONE);

    /* ---- modes ---- */
    const char *m1[] = {"EXBLAS_MODE=bogus", NULL};
    expect("EXBLAS_MODE=bogus", m1, ONE("EXBLAS_MODE=bogus", "native"));
    const char *m2[] = {"EXBLAS_MODE=auto:", NULL};
    expect("EXBLAS_MODE=auto: (malformed)", m2, ONE("EXBLAS_MODE=auto:", "native"));
    const char *m3[] = {"EXBLAS_MODE_DDOT=nope", NULL};
    expect("EXBLAS_MODE_DDOT=nope", m3, ONE("EXBLAS_MODE_DDOT=nope", "native"));
    const char *m4[] = {"EXBLAS_MODE=bogus", "EXBLAS_MODE_DGEMM=bogus_dgemm", NULL};
    expect("EXBLAS_MODE and EXBLAS_MODE_DGEMM both bad", m4, 2,
           (const want_line[]){{{"EXBLAS_MODE=bogus:", "native"}},
                               {{"EXBLAS_MODE_DGEMM=bogus_dgemm", "native"}}});
    const char *m5[] = {"EXBLAS_MODE=bogus\nforged line", NULL};
    expect("a newline in EXBLAS_MODE", m5, ONE("EXBLAS_MODE=bogus", "forged line", "native"));

    /* ---- engine options: one line each at the first call, the option dropped ---- */
    static const struct {
        const char *env, *says, *engine;
    } opt[] = {
        {"EXBLAS_MODE=df:shceme=paper",
         "EXBLAS_MODE: df: no option 'shceme' (df takes scheme, workspace_mb, tile, small); "
         "shceme=paper ignored", "df"},
        {"EXBLAS_MODE=df:scheme=bogus,tile=64x64",
         "EXBLAS_MODE: df: scheme=bogus is not paper (16), fused (15), accurate (29) or lazy (12); "
         "using fused", "df"},
        {"EXBLAS_MODE=repro:max_splits=-5",
         "EXBLAS_MODE: repro: max_splits=-5 is not a number from 1 to 16; using 12", "repro"},
        {"EXBLAS_MODE=int8:moduli=999",
         "EXBLAS_MODE: int8: moduli=999 is not 0 (from the data) or a number from 2 to 24; using 0 (from the data)",
         "int8"},
        {"EXBLAS_MODE=ozaki:sum=fixed", "EXBLAS_MODE: ozaki: sum=fixed needs splits; using sum=exact",
         "ozaki"},
    };
    for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++) {
        char ran[128];
        snprintf(ran, sizeof ran, "engine %s (from EXBLAS_MODE=%s) cannot run", opt[i].engine,
                 opt[i].engine);
        const char *e[] = {opt[i].env, NULL};
        expect(opt[i].env, e, 2, (const want_line[]){{{opt[i].says}}, {{ran, "using native"}}});
    }
    /* a mode of the policy (native on this unknown device): nothing else to say */
    const char *o1[] = {"EXBLAS_MODE=auto:scheme=bogus", NULL};
    expect("EXBLAS_MODE=auto:scheme=bogus", o1,
           ONE("EXBLAS_MODE: df: scheme=bogus is not paper (16), fused (15), accurate (29) or "
               "lazy (12); using fused"));

    /* ---- logging ---- */
    const char *l1[] = {"EXBLAS_LOG=loud", NULL};
    expect("EXBLAS_LOG=loud", l1, ONE("EXBLAS_LOG=loud"));
    char *lf = envs("EXBLAS_LOG_FILE", dir); /* a directory: cannot be opened for writing */
    const char *l2[] = {lf, NULL};
    expect("EXBLAS_LOG_FILE=<a directory>", l2, ONE("EXBLAS_LOG_FILE=", dir));

    /* ---- policy files ---- */
    const char *bad = "[mode auto]\ndgemm = native\nthis line has no equals sign\n";
    char *bad_path = file_in_dir("bad.policy", bad, strlen(bad));
    char bad_at[4200], *bp = envs("EXBLAS_POLICY", bad_path);
    snprintf(bad_at, sizeof bad_at, "EXBLAS_POLICY: %s:3: ", bad_path);
    const char *p1[] = {bp, NULL};
    expect("a malformed policy", p1, ONE(bad_at, "using the embedded default policy"));
    const char *p2[] = {bp, "EXBLAS_MODE=bogus", NULL};
    expect("a malformed policy and a bad mode", p2, 2,
           (const want_line[]){{{bad_at}}, {{"EXBLAS_MODE=bogus", "native"}}});

    const char *unk = "[mode auto]\nall = native\n[mode x]\ndgemm = warp9\n";
    char *unk_path = file_in_dir("unknown-engine.policy", unk, strlen(unk));
    char unk_at[4200], *up = envs("EXBLAS_POLICY", unk_path);
    snprintf(unk_at, sizeof unk_at, "EXBLAS_POLICY: %s:4: ", unk_path);
    const char *p3[] = {up, NULL};
    expect("a policy naming an unknown engine", p3, ONE(unk_at, "warp9"));

    /* policies that parse line by line but say something wrong: one line naming file:line */
    static const struct {
        const char *what, *file, *text, *says;
        int line;
    } wrong[] = {
        {"an unknown routine", "routine.policy", "[mode auto]\nall = native\nfrobnicate = native\n",
         "unknown routine 'frobnicate'", 3},
        {"conflicting rules", "twice.policy", "[mode auto]\ndgemm = native\ndgemm = df\n",
         "set twice", 3},
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        char *path = file_in_dir(wrong[i].file, wrong[i].text, strlen(wrong[i].text));
        char at[4200];
        snprintf(at, sizeof at, "EXBLAS_POLICY: %s:%d: ", path, wrong[i].line);
        const char *e[] = {envs("EXBLAS_POLICY", path), NULL};
        expect(wrong[i].what, e, ONE(at, wrong[i].says, "using the embedded default policy"));
    }
    /* engine options that the engine does not take: dropped, the policy stays in use (were it
     * replaced by the embedded one, EXBLAS_MODE=mine would name no mode: a second line) */
    static const struct {
        const char *what, *file, *text, *says;
        int line;
    } dropped[] = {
        {"a policy with an unknown engine option", "option.policy",
         "[engine df]\nshceme = paper\n[mode mine]\nall = native\n",
         "df: no option 'shceme' (df takes scheme, workspace_mb, tile, small); shceme=paper "
         "ignored", 2},
        {"a policy with a bad engine option value", "value.policy",
         "[mode mine]\nall = native\n[mode mine class=starved]\ndgemm = df scheme=bogus\n",
         "df: scheme=bogus is not paper (16), fused (15), accurate (29) or lazy (12); using fused",
         4},
    };
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++) {
        char *path = file_in_dir(dropped[i].file, dropped[i].text, strlen(dropped[i].text));
        char at[4200];
        snprintf(at, sizeof at, "EXBLAS_POLICY: %s:%d: ", path, dropped[i].line);
        const char *e[] = {envs("EXBLAS_POLICY", path), "EXBLAS_MODE=mine", NULL};
        expect(dropped[i].what, e, ONE(at, dropped[i].says));
    }
    /* a line of nearly 1 MB (the file just within the 1 MiB limit), and a 4 MB file (beyond it:
     * the loader reads no more than the limit) */
    const size_t mb = (size_t)1 << 20;
    char *big = malloc(4 * mb + 64);
    CHECK(big != NULL, "out of memory");
    size_t bl = (size_t)snprintf(big, 64, "[mode auto]\n# ");
    memset(big + bl, 'x', mb - 64);
    big[bl + mb - 64] = '\n';
    char *long_path = file_in_dir("longline.policy", big, bl + mb - 63);
    char long_at[4200];
    snprintf(long_at, sizeof long_at, "EXBLAS_POLICY: %s:2: ", long_path);
    const char *e1[] = {envs("EXBLAS_POLICY", long_path), NULL};
    expect("a 1 MB line", e1, ONE(long_at, "longer than", "using the embedded default policy"));
    for (size_t i = 0; i < 4 * mb; i += 64) {
        memset(big + i, '#', 63);
        big[i + 63] = '\n';
    }
    char *huge_path = file_in_dir("huge.policy", big, 4 * mb);
    snprintf(long_at, sizeof long_at, "EXBLAS_POLICY: %s", huge_path);
    const char *e2[] = {envs("EXBLAS_POLICY", huge_path), NULL};
    expect("a 4 MB policy file", e2, ONE(long_at, "larger than", "using the embedded default policy"));
    free(big);

    struct unusable_path {
        const char *what, *path;
    } unusable[7];
    int nu = 0;
    char *sub = path_join(dir, "subdir");
    CHECK(!mkdir(sub, 0700), "mkdir");
    unusable[nu++] = (struct unusable_path){"a directory as policy", sub};
    unusable[nu++] = (struct unusable_path){"a missing policy file", path_join(dir, "missing")};
    unusable[nu++] = (struct unusable_path){"a policy path through a file",
                                           path_join(good_path, "x")};
    char *fifo = path_join(dir, "fifo");
    CHECK(!mkfifo(fifo, 0600), "mkfifo");
    unusable[nu++] = (struct unusable_path){"a FIFO as policy (no writer)", fifo};
    /* a regular file that cannot be read, even by root: reading /proc/self/mem at 0 fails */
    unusable[nu++] = (struct unusable_path){"a policy file whose read fails", "/proc/self/mem"};
    if (geteuid() != 0) { /* root reads a mode-000 file */
        char *locked = file_in_dir("locked.policy", good, strlen(good));
        CHECK(!chmod(locked, 0), "chmod");
        unusable[nu++] = (struct unusable_path){"an unreadable policy file", locked};
    }
    for (int i = 0; i < nu; i++) {
        char prefix[4200];
        snprintf(prefix, sizeof prefix, "EXBLAS_POLICY: %s", unusable[i].path);
        const char *e[] = {envs("EXBLAS_POLICY", unusable[i].path), NULL};
        expect(unusable[i].what, e, ONE(prefix, "using the embedded default policy"));
    }

    /* binary content: with NUL bytes, and without (high bytes, escape sequences) */
    unsigned char bin[512];
    for (size_t i = 0; i < sizeof bin; i++)
        bin[i] = (unsigned char)(i * 37 + 11);
    char *bin_path = file_in_dir("binary.policy", (const char *)bin, sizeof bin);
    char bin_at[4200];
    snprintf(bin_at, sizeof bin_at, "EXBLAS_POLICY: %s:", bin_path);
    const char *b1[] = {envs("EXBLAS_POLICY", bin_path), NULL};
    expect("a binary policy file", b1, ONE(bin_at, "using the embedded default policy"));
    const char hi[] = "\x7f" "ELF\xff\xfe\x80 [mode\x1b[2J]\n";
    char *hi_path = file_in_dir("garbage.policy", hi, sizeof hi - 1);
    snprintf(bin_at, sizeof bin_at, "EXBLAS_POLICY: %s:1: ", hi_path);
    const char *b2[] = {envs("EXBLAS_POLICY", hi_path), NULL};
    expect("a garbage policy file without NUL bytes", b2,
           ONE(bin_at, "using the embedded default policy"));

    /* ---- changing the environment while running ---- */
    char bad3[4300];
    snprintf(bad3, sizeof bad3, "=%s", bad_at);
    const char *r1[] = {"EXBLAS_REREAD=1", NULL};
    expect_phases("EXBLAS_REREAD=1 with setenv between calls", r1, bad_path,
                  (const char *const[]){"phase 0", "phase 1", "=EXBLAS_MODE=bogus1", "phase 2",
                                        "phase 3", "=EXBLAS_MODE=bogus2", "phase 4", bad3,
                                        "phase 5", "=EXBLAS_MODE_DDOT=bogus3", "phase 6", "end",
                                        NULL});
    expect_phases("setenv between calls without EXBLAS_REREAD", NULL, bad_path,
                  (const char *const[]){"phase 0", "phase 1", "phase 2", "phase 3", "phase 4",
                                        "phase 5", "phase 6", "end", NULL});
    const char *r3[] = {"EXBLAS_REREAD=0", NULL};
    expect_phases("EXBLAS_REREAD=0", r3, bad_path,
                  (const char *const[]){"phase 0", "phase 1", "phase 2", "phase 3", "phase 4",
                                        "phase 5", "phase 6", "end", NULL});

    expect_only_entries(dir, (const char *const[]){"out", "err", "good.policy", "bad.policy",
                                                    "unknown-engine.policy", "subdir", "fifo",
                                                    "locked.policy", "binary.policy",
                                                    "garbage.policy", "option.policy",
                                                    "value.policy",
                                                    "routine.policy", "twice.policy",
                                                    "longline.policy", "huge.policy", NULL});
    if (failures) {
        fprintf(stderr, "%d configuration check(s) failed (files kept in %s)\n", failures, dir);
        return 1;
    }
    CHECK(!chdir("/"), "chdir /");
    remove_tree(dir);
    printf("ok: configuration diagnostics, one line each; rereading honoured\n");
    return 0;
}

int main(int argc, char **argv)
{
    self = argv[0];
    if (argc == 1)
        return parent();
    if (!strcmp(argv[1], "work"))
        return child_work();
    if (!strcmp(argv[1], "phases") && argc == 3)
        return child_phases(argv[2]);
    FAIL("unknown mode %s", argv[1]);
}
