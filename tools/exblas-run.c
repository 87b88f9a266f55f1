/* exblas-run — runs an unchanged program once per EXBLAS_MODE (R times each) with libdfshim.so
 * preloaded and its timing on, and prints, after all runs, the wall time, the exit status and the
 * shim's per-routine, per-engine counts and GPU times of each run.  Plain C and libc: it needs no
 * CUDA library itself and works with any program, GPU or not.
 *
 * Usage:
 *   exblas-run [--shim PATH] [--modes M1,M2,...] [--mode M]... [--repeat R] [--csv]
 *              [--dlsym auto|on|off] [--xla auto|on|off] [--] PROG ARGS...
 *     --shim PATH   the libdfshim.so to preload (default ../shim/libdfshim.so next to this
 *                   executable, i.e. the build tree; else the installed one)
 *     --dlsym W     also preload the dlsym companion, libdfshim-dlsym.so next to the shim, in
 *                   front of it (for programs that look cuBLAS up with dlsym: XLA/JAX,
 *                   TensorFlow): on, off, or auto (default: on for Python programs, i.e. PROG
 *                   is a python interpreter or a script whose #! line names one)
 *     --xla W       append --xla_gpu_enable_triton_gemm=false to XLA_FLAGS (else XLA's own
 *                   Triton GEMMs take JAX's FP64 products past cuBLAS), unless XLA_FLAGS
 *                   already sets that flag: on, off, or auto (default: as --dlsym's auto)
 *     --modes LIST  comma-separated modes (default native,auto)
 *     --mode M      one mode, taken whole (for modes with options, NAME:key=v,key=v); repeatable,
 *                   and adds to --modes
 *     --repeat R    runs per mode (default 1), in rounds: every mode once per round
 *     --csv         machine-readable output instead of the table, one row per run and
 *                   routine/engine: mode,run,wall_s,exit,signal,summary,routine,engine,calls,
 *                   declined,timed,gpu_ms  (summary: ok, none = no intercepted calls, missing =
 *                   no summary written: the shim was not loaded or the program did not exit)
 *   Each run gets LD_PRELOAD=[<companion>:]<shim>[:<existing LD_PRELOAD>], EXBLAS_MODE=<mode>,
 *   EXBLAS_TIMING=1
 *   and EXBLAS_SUMMARY=<a temporary file, removed after the run>; the rest of the environment,
 *   stdin, stdout and stderr are the program's.  Wall time is CLOCK_MONOTONIC from fork to exit.
 *   "gpu_ms" sums the GPU time of the calls the shim could time ("timed" of "calls"; calls still
 *   running at exit are not timed, nor calls recorded while the handle's 64 timings were all
 *   still running).  "declined" counts calls an engine handed back to native
 *   (those are counted under native as well).
 * Examples:
 *   exblas-run -- ./build/tools/dgemm-demo
 *   exblas-run --modes native,auto --repeat 3 --csv -- ./my_solver input.dat > runs.csv
 *
 * A program that cannot be found or executed: one line on stderr, exit 127, nothing run.  The
 * summary's medians and speed-ups count only the runs that exited 0; a mode without one shows
 * "failed", and no speed-up is computed against or for it.
 * Exit status: 0 when every run exited 0; otherwise that of the last run that did not (128 + N
 * for a run killed by signal N); 127: the program cannot be executed; 2 usage or setup error
 * (no shim, no companion with --dlsym on, no temporary file).  SIGINT/SIGQUIT go to the program; a run killed by SIGINT, or a
 * SIGTERM/SIGHUP to exblas-run (passed on to the program), stops the remaining runs; the
 * table of the runs done is still printed. */
#include "common.h"
#include "run-report.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_MODES 32

static volatile sig_atomic_t stop_signal, child_pid;

static void usage(FILE *f)
{
    fputs("usage: exblas-run [--shim PATH] [--modes M1,M2,...] [--mode M]... [--repeat R] [--csv]\n"
          "                  [--dlsym auto|on|off] [--xla auto|on|off] [--] PROG ARGS...\n"
          "Runs PROG once per mode (R times each; default modes native,auto) with libdfshim.so\n"
          "preloaded, EXBLAS_MODE=<mode>, EXBLAS_TIMING=1 and EXBLAS_SUMMARY=<temp file>, then\n"
          "prints wall time, exit status and the shim's calls / declined / timed / GPU ms per\n"
          "routine and engine.  --shim defaults to ../shim/libdfshim.so next to this executable.\n"
          "--dlsym: also preload libdfshim-dlsym.so (programs that look cuBLAS up with dlsym,\n"
          "such as JAX); --xla: add --xla_gpu_enable_triton_gemm=false to XLA_FLAGS; auto (the\n"
          "default of both): on for Python programs, off for others.  Any LD_PRELOAD is kept.\n",
          f);
}

static void on_signal(int sig)
{
    stop_signal = sig;
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---------- one run ---------- */

typedef struct {
    const char *preload; /* [companion:]shim, the caller's LD_PRELOAD after it */
    const char *xla_flags; /* XLA_FLAGS for the runs, or NULL: unchanged */
} launch;

static void run_once(const launch *L, const char *mode, char **cmd, run_result *r)
{
    const char *tmpdir = getenv("TMPDIR");
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s/exblas-run-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0 && tmpdir) {
        snprintf(tmp, sizeof tmp, "/tmp/exblas-run-XXXXXX");
        fd = mkstemp(tmp);
    }
    if (fd < 0) {
        fprintf(stderr, "exblas-run: cannot create a temporary file: %s\n", strerror(errno));
        exit(2);
    }
    close(fd);

    fflush(NULL);
    struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int); /* the terminal sends them to the program too */
    sigaction(SIGQUIT, &ign, &old_quit);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        setenv("LD_PRELOAD", L->preload, 1);
        if (L->xla_flags)
            setenv("XLA_FLAGS", L->xla_flags, 1);
        setenv("EXBLAS_MODE", mode, 1);
        setenv("EXBLAS_TIMING", "1", 1);
        setenv("EXBLAS_SUMMARY", tmp, 1);
        execvp(cmd[0], cmd);
        fprintf(stderr, "exblas-run: cannot run %s: %s\n", cmd[0], strerror(errno));
        _exit(127);
    }
    if (pid < 0) {
        fprintf(stderr, "exblas-run: fork: %s\n", strerror(errno));
        unlink(tmp);
        exit(2);
    }
    child_pid = pid;
    if (stop_signal)
        kill(pid, stop_signal);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    r->wall_s = now_s() - t0;
    child_pid = 0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    r->status = status;
    read_summary(tmp, r);
    unlink(tmp);
}

/* ---------- what to launch ---------- */

/* Whether PROG can be run as execvp would find it: *path gets its path.  0: yes; else errno. */
static int find_program(const char *prog, char *path, size_t len)
{
    struct stat st;
    if (strchr(prog, '/')) {
        snprintf(path, len, "%s", prog);
        if (access(path, X_OK))
            return errno;
        return !stat(path, &st) && S_ISREG(st.st_mode) ? 0 : EACCES;
    }
    const char *p = getenv("PATH");
    if (!p || !*p)
        p = "/usr/local/bin:/usr/bin:/bin";
    int err = ENOENT;
    while (*p) {
        const char *colon = strchr(p, ':');
        const size_t n = colon ? (size_t)(colon - p) : strlen(p);
        snprintf(path, len, "%.*s%s%s", (int)n, p, n ? "/" : "", prog);
        if (!access(path, X_OK)) {
            if (!stat(path, &st) && S_ISREG(st.st_mode))
                return 0;
            err = EACCES;
        } else if (errno != ENOENT && errno != ENOTDIR) {
            err = errno;
        }
        p += n + (colon != NULL);
    }
    return err;
}

/* Whether the program at path is Python: a python interpreter, or a script whose #! line names
 * one (directly or through env). */
static int is_python(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (!strncmp(base, "python", 6))
        return 1;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256] = "";
    const int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (!ok || strncmp(line, "#!", 2))
        return 0;
    line[strcspn(line, "\n")] = '\0';
    for (char *save = NULL, *tok = strtok_r(line + 2, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        const char *b = strrchr(tok, '/');
        if (!strncmp(b ? b + 1 : tok, "python", 6))
            return 1;
    }
    return 0;
}

/* auto, on, off -> -1, 1, 0; else -2 */
static int tristate(const char *v)
{
    return !strcmp(v, "auto") ? -1 : !strcmp(v, "on") ? 1 : !strcmp(v, "off") ? 0 : -2;
}

/* ---------- output ---------- */

static int add_modes(char **modes, int *n, char *list, int split)
{
    for (char *save = NULL, *m = split ? strtok_r(list, ",", &save) : list; m;
         m = split ? strtok_r(NULL, ",", &save) : NULL) {
        if (!*m)
            continue;
        if (*n == MAX_MODES)
            return -1;
        modes[(*n)++] = m;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *shim_arg = NULL;
    char *modes[MAX_MODES];
    int nmodes = 0, repeat = 1, csv = 0, i = 1, want_dlsym = -1, want_xla = -1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--shim") && more) {
            shim_arg = argv[++i];
        } else if (!strcmp(a, "--modes") && more) {
            if (add_modes(modes, &nmodes, argv[++i], 1))
                goto too_many;
        } else if (!strcmp(a, "--mode") && more) {
            if (add_modes(modes, &nmodes, argv[++i], 0))
                goto too_many;
        } else if (!strcmp(a, "--repeat") && more) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 10000) {
                fprintf(stderr, "exblas-run: --repeat wants an integer in 1..10000\n");
                return 2;
            }
            repeat = (int)v;
        } else if (!strcmp(a, "--csv")) {
            csv = 1;
        } else if ((!strcmp(a, "--dlsym") || !strcmp(a, "--xla")) && more) {
            const int v = tristate(argv[++i]);
            if (v == -2) {
                fprintf(stderr, "exblas-run: %s wants auto, on or off, not %s\n", a, argv[i]);
                return 2;
            }
            *(a[2] == 'd' ? &want_dlsym : &want_xla) = v;
        } else if (a[0] == '-') {
            fprintf(stderr, "exblas-run: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else {
            break;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    char **cmd = argv + i;
    char prog[PATH_MAX + 256];
    const int perr = find_program(cmd[0], prog, sizeof prog);
    if (perr) {
        fprintf(stderr, "exblas-run: %s: %s\n", cmd[0],
                perr == ENOENT && !strchr(cmd[0], '/') ? "command not found" : strerror(perr));
        return 127;
    }
    if (!nmodes) {
        static char native[] = "native", autom[] = "auto";
        modes[nmodes++] = native;
        modes[nmodes++] = autom;
    }

    char path[PATH_MAX + 32] = "", shim[PATH_MAX];
    if (shim_arg)
        snprintf(path, sizeof path, "%s", shim_arg);
    else
        dfs_default_shim(path, sizeof path);
    if (!realpath(path, shim)) {
        fprintf(stderr, "exblas-run: no shim at %s (build it with ninja, or give --shim PATH)\n",
                path);
        return 2;
    }
    if (strpbrk(shim, ": ")) {
        fprintf(stderr, "exblas-run: %s: LD_PRELOAD cannot name a path with ':' or ' '\n", shim);
        return 2;
    }
    /* the companion and XLA's flag: for Python programs unless told */
    const int python = is_python(prog);
    const int dlsym_on = want_dlsym == -1 ? python : want_dlsym;
    const int xla_on = want_xla == -1 ? python : want_xla;
    char companion[PATH_MAX + 32] = "";
    if (dlsym_on) {
        snprintf(companion, sizeof companion, "%s", shim);
        char *slash = strrchr(companion, '/');
        snprintf(slash + 1, sizeof companion - (size_t)(slash + 1 - companion),
                 "libdfshim-dlsym.so");
        if (access(companion, R_OK)) {
            if (want_dlsym == 1) {
                fprintf(stderr, "exblas-run: no %s (the dlsym companion is built on x86-64 "
                                "only)\n", companion);
                return 2;
            }
            companion[0] = '\0'; /* auto: go without it */
        }
    }
    const char *old = getenv("LD_PRELOAD");
    const size_t plen = strlen(companion) + strlen(shim) + (old ? strlen(old) : 0) + 3;
    char *preload = malloc(plen);
    if (!preload)
        return 2;
    snprintf(preload, plen, "%s%s%s%s%s", companion, companion[0] ? ":" : "", shim,
             old && *old ? ":" : "", old ? old : "");
    static const char triton[] = "--xla_gpu_enable_triton_gemm=false";
    const char *xold = getenv("XLA_FLAGS");
    char *xla = NULL;
    if (xla_on && !(xold && strstr(xold, "xla_gpu_enable_triton_gemm"))) {
        const size_t xlen = sizeof triton + (xold ? strlen(xold) + 1 : 0);
        xla = malloc(xlen);
        if (!xla)
            return 2;
        snprintf(xla, xlen, "%s%s%s", xold && *xold ? xold : "", xold && *xold ? " " : "",
                 triton);
    }
    const launch L = {preload, xla};

    static const char *const overrides[] = {"EXBLAS_MODE_DGEMM", "EXBLAS_MODE_DGEMV",
                                            "EXBLAS_MODE_DDOT", "EXBLAS_MODE_ZGEMM",
                                            "EXBLAS_MODE_ZDOT", "EXBLAS_MODE_ZGEMV",
                                            "EXBLAS_MODE_SYRK", "EXBLAS_MODE_SYR2K",
                                            "EXBLAS_MODE_SYMM", "EXBLAS_MODE_TRMM",
                                            "EXBLAS_MODE_TRSM"};
    for (size_t k = 0; k < sizeof overrides / sizeof overrides[0]; k++) {
        const char *v = getenv(overrides[k]);
        if (v && *v)
            fprintf(stderr, "exblas-run: note: %s=%s is set and overrides EXBLAS_MODE for that "
                            "routine in every run\n", overrides[k], v);
    }

    struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: waitpid returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    int total = nmodes * repeat, done = 0, rc = 0;
    run_result *runs = calloc((size_t)total, sizeof *runs);
    if (!runs)
        return 2;
    /* round by round, every mode once a round: drift and warm caches favour no mode */
    for (int r = 0; r < repeat && !stop_signal; r++)
        for (int m = 0; m < nmodes && !stop_signal; m++) {
            run_result *res = &runs[done++];
            res->mode = m;
            res->rep = r;
            run_once(&L, modes[m], cmd, res);
            int st = res->status;
            if (WIFEXITED(st) && WEXITSTATUS(st))
                rc = WEXITSTATUS(st);
            else if (WIFSIGNALED(st)) {
                rc = 128 + WTERMSIG(st);
                if (WTERMSIG(st) == SIGINT)
                    stop_signal = SIGINT;
            }
        }

    fflush(NULL);
    if (csv) {
        print_csv(modes, runs, done);
    } else {
        printf("\nexblas-run: %s", cmd[0]);
        for (char **p = cmd + 1; *p; p++)
            printf(" %s", *p);
        printf("\npreload: %s\n", preload);
        if (xla)
            printf("XLA_FLAGS: %s\n", xla);
        print_table(modes, nmodes, runs, done);
    }
    if (stop_signal && stop_signal != SIGINT)
        fprintf(stderr, "exblas-run: stopped by signal %d after %d of %d runs\n", (int)stop_signal,
                done, total);
    else if (stop_signal)
        fprintf(stderr, "exblas-run: interrupted after %d of %d runs\n", done, total);
    free(runs);
    free(preload);
    free(xla);
    if (stop_signal && !rc)
        rc = 128 + stop_signal;
    return rc;

too_many:
    fprintf(stderr, "exblas-run: at most %d modes\n", MAX_MODES);
    return 2;
}
