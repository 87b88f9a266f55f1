/* run-report.h — exblas-run's results: what one run of a program reported (the shim's summary
 * file, EXBLAS_SUMMARY) and the table or CSV printed after all runs (run-report.c). */
#ifndef DFS_RUN_REPORT_H
#define DFS_RUN_REPORT_H

#define MAX_ENTRIES 32 /* (routine, engine) pairs per run */

typedef struct {
    char routine[32], engine[32];
    unsigned long long calls, declined, timed;
    double gpu_ms;
} entry;

typedef enum { SUMMARY_MISSING, SUMMARY_NONE, SUMMARY_OK } summary_state;

typedef struct {
    int mode, rep;
    double wall_s;
    int status; /* as from waitpid */
    summary_state summary;
    int n;
    entry e[MAX_ENTRIES];
} run_result;

/* The shim's summary file at path into r (its entries added up over the processes that
 * reported; r->summary SUMMARY_NONE for "no intercepted calls"; untouched when absent). */
void read_summary(const char *path, run_result *r);
/* Per mode its runs' wall time, status and entries, then (with two modes or runs) the medians
 * over the runs that exited 0 and the speed-ups against the first mode. */
void print_table(char **modes, int nmodes, const run_result *runs, int nruns);
/* One CSV row per run and entry (the header first). */
void print_csv(char **modes, const run_result *runs, int nruns);

#endif
