/* timing_exit — EXBLAS_TIMING's GPU times reach the exit summary for programs that never destroy
 * their handles (PyTorch, CuPy): the shim reads the finished event pairs at every timed call and,
 * at exit, those of the handles still alive, without waiting.
 *
 * The test runs this program again as a child (same LD_PRELOAD, EXBLAS_TIMING=1,
 * EXBLAS_SUMMARY=<file>) in three ways, each exiting without cublasDestroy, and reads the
 * summary's dgemm line:
 *   - 5 calls, the device synchronised after each: every call timed (the last one only by the
 *     exit flush: nothing harvests it before);
 *   - 150 calls (more than the ring of 64 slots), synchronised after each: every call timed;
 *   - 3 calls queued behind nothing, one synchronisation at the end: every call timed.
 * Each time calls = timed and gpu_ms > 0.  Runs in native mode (the timing is the shim's, not an
 * engine's).  A shim that reads pairs only when their slot comes round again (before this test)
 * times 0 of 5, 86 of 150 and 0 of 3. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 256

/* The child: `calls` DGEMMs of N^3 on one handle, synchronising after each one (each) or once
 * at the end; then exit without destroying anything. */
static int child(int calls, int each)
{
    cublasHandle_t h;
    if (cublasCreate_v2(&h) != CUBLAS_STATUS_SUCCESS)
        return 2;
    double *A = gt_dmalloc((size_t)N * N * 8), *B = gt_dmalloc((size_t)N * N * 8),
           *C = gt_dmalloc((size_t)N * N * 8);
    const double one = 1.0, zero = 0.0;
    for (int i = 0; i < calls; i++) {
        if (cublasDgemm_v2(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, A, N, B, N, &zero, C, N) !=
            CUBLAS_STATUS_SUCCESS)
            return 3;
        if (each && cudaDeviceSynchronize() != cudaSuccess)
            return 4;
    }
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 4;
}

/* Runs the child and checks the summary's dgemm line. */
static void run_case(int calls, int each)
{
    gt_case("%d DGEMMs, synchronised %s, handle never destroyed", calls,
            each ? "after each" : "once at the end");
    char path[] = "/tmp/dfshim-timing-exit-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0)
        gt_fatal("mkstemp failed");
    close(fd);
    const pid_t pid = fork();
    if (pid < 0)
        gt_fatal("fork failed");
    if (pid == 0) {
        char c[16], e[4];
        snprintf(c, sizeof c, "%d", calls);
        snprintf(e, sizeof e, "%d", each);
        setenv("EXBLAS_MODE", "native", 1);
        setenv("EXBLAS_TIMING", "1", 1);
        setenv("EXBLAS_SUMMARY", path, 1);
        execl("/proc/self/exe", "timing_exit", "child", c, e, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        gt_fail("the child failed (status %d)", status);
        unlink(path);
        return;
    }
    FILE *f = fopen(path, "r");
    char line[512];
    int found = 0;
    unsigned long long n = 0, declined = 0, timed = 0;
    double ms = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, "routine=dgemm engine=native") &&
            sscanf(strstr(line, "calls="), "calls=%llu declined=%llu timed=%llu gpu_ms=%lf", &n,
                   &declined, &timed, &ms) == 4)
            found = 1;
    if (f)
        fclose(f);
    unlink(path);
    if (!found) {
        gt_fail("no dgemm line in the summary");
        return;
    }
    gt_note("calls=%llu timed=%llu gpu_ms=%.3f", n, timed, ms);
    if (n != (unsigned long long)calls)
        gt_fail("calls=%llu, want %d", n, calls);
    if (timed != n)
        gt_fail("timed=%llu of %llu calls", timed, n);
    if (!(ms > 0))
        gt_fail("gpu_ms=%g", ms);
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "child"))
        return child(atoi(argv[2]), atoi(argv[3]));
    gt_init("timing_exit");
    gt_group("the exit summary's GPU times without cublasDestroy");
    run_case(5, 1);
    run_case(150, 1);
    run_case(3, 0);
    gt_end_group();
    return gt_finish();
}
