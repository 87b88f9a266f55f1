/* run-report.c — exblas-run's results (run-report.h): the shim's summary file read, the table
 * and CSV printed. */
#include "run-report.h"

#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* ---------- the summary file ---------- */

static void parse_line(char *line, run_result *r)
{
    if (strncmp(line, "dfshim-summary ", 15))
        return;
    if (strstr(line, "no intercepted calls")) {
        if (r->summary == SUMMARY_MISSING)
            r->summary = SUMMARY_NONE;
        return;
    }
    entry e = {0};
    for (char *save = NULL, *tok = strtok_r(line + 15, " \t\n", &save); tok;
         tok = strtok_r(NULL, " \t\n", &save)) {
        char *v = strchr(tok, '=');
        if (!v)
            continue;
        *v++ = '\0';
        if (!strcmp(tok, "routine"))
            snprintf(e.routine, sizeof e.routine, "%s", v);
        else if (!strcmp(tok, "engine"))
            snprintf(e.engine, sizeof e.engine, "%s", v);
        else if (!strcmp(tok, "calls"))
            e.calls = strtoull(v, NULL, 10);
        else if (!strcmp(tok, "declined"))
            e.declined = strtoull(v, NULL, 10);
        else if (!strcmp(tok, "timed"))
            e.timed = strtoull(v, NULL, 10);
        else if (!strcmp(tok, "gpu_ms"))
            e.gpu_ms = strtod(v, NULL);
    }
    if (!e.routine[0])
        return;
    r->summary = SUMMARY_OK;
    /* several processes may report (a program that starts others): add them up */
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->e[i].routine, e.routine) && !strcmp(r->e[i].engine, e.engine)) {
            r->e[i].calls += e.calls;
            r->e[i].declined += e.declined;
            r->e[i].timed += e.timed;
            r->e[i].gpu_ms += e.gpu_ms;
            return;
        }
    if (r->n < MAX_ENTRIES)
        r->e[r->n++] = e;
}

void read_summary(const char *path, run_result *r)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f))
        parse_line(line, r);
    fclose(f);
}

static void status_text(int status, char *out, size_t len)
{
    if (WIFEXITED(status))
        snprintf(out, len, "exit %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(out, len, "signal %d", WTERMSIG(status));
    else
        snprintf(out, len, "?");
}

static double total_gpu_ms(const run_result *r)
{
    double s = 0;
    for (int i = 0; i < r->n; i++)
        s += r->e[i].gpu_ms;
    return s;
}


void print_table(char **modes, int nmodes, const run_result *runs, int nruns)
{
    for (int m = 0; m < nmodes; m++) {
        int any = 0;
        for (int i = 0; i < nruns; i++)
            any |= runs[i].mode == m;
        if (!any)
            continue; /* stopped before this mode */
        printf("\nmode %s\n", modes[m]);
        printf("  %-4s %10s  %-10s %-8s %-10s %10s %9s %10s %14s\n", "run", "wall_s", "status",
               "routine", "engine", "calls", "declined", "timed", "gpu_ms");
        for (int i = 0; i < nruns; i++) {
            const run_result *r = &runs[i];
            if (r->mode != m)
                continue;
            char st[32];
            status_text(r->status, st, sizeof st);
            printf("  %-4d %10.3f  %-10s ", r->rep + 1, r->wall_s, st);
            if (r->summary == SUMMARY_MISSING)
                printf("(no summary: the shim was not loaded, or the program did not exit)\n");
            else if (r->summary == SUMMARY_NONE)
                printf("(no intercepted calls)\n");
            for (int j = 0; j < r->n; j++)
                printf("%*s%-8s %-10s %10llu %9llu %10llu %14.3f\n", j ? 30 : 0, "",
                       r->e[j].routine, r->e[j].engine, r->e[j].calls, r->e[j].declined,
                       r->e[j].timed, r->e[j].gpu_ms);
        }
    }
    if (nmodes < 2 && nruns < 2)
        return;
    /* median over the runs of each mode, and the speed relative to the first mode */
    printf("\nsummary (median over the runs that exited 0; speedup = wall time of %s / wall "
           "time)\n", modes[0]);
    printf("  %-24s %5s %10s %14s %8s\n", "mode", "runs", "wall_s", "gpu_ms", "speedup");
    double first = 0, *wall = malloc(2 * (size_t)nruns * sizeof *wall), *gpu = wall + nruns;
    if (!wall)
        return;
    for (int m = 0; m < nmodes; m++) {
        int k = 0, tried = 0;
        for (int i = 0; i < nruns; i++)
            if (runs[i].mode == m) {
                tried++;
                if (!WIFEXITED(runs[i].status) || WEXITSTATUS(runs[i].status))
                    continue; /* failed: no time of it counts */
                wall[k] = runs[i].wall_s;
                gpu[k++] = total_gpu_ms(&runs[i]);
            }
        if (!tried)
            continue;
        if (!k) {
            printf("  %-24s %5d %10s %14s %8s\n", modes[m], 0, "failed", "-", "-");
            continue;
        }
        double w = dfs_median(wall, k), g = dfs_median(gpu, k);
        if (m == 0)
            first = w;
        printf("  %-24s %5d %10.3f %14.3f", modes[m], k, w, g);
        if (first > 0 && w > 0)
            printf(" %7.2fx", first / w);
        printf("\n");
    }
    free(wall);
    if (nruns <= nmodes)
        printf("  (one run per mode: the first mode's run also paid the program's cold start "
               "(file cache, JIT, autotuning); --repeat 3 gives medians of interleaved runs)\n");
}


void print_csv(char **modes, const run_result *runs, int nruns)
{
    static const char *const summary[] = {"missing", "none", "ok"};
    printf("mode,run,wall_s,exit,signal,summary,routine,engine,calls,declined,timed,gpu_ms\n");
    for (int i = 0; i < nruns; i++) {
        const run_result *r = &runs[i];
        for (int j = 0; j < (r->n ? r->n : 1); j++) {
            dfs_csv_field(modes[r->mode]);
            printf(",%d,%.6f,", r->rep + 1, r->wall_s);
            if (WIFEXITED(r->status))
                printf("%d,", WEXITSTATUS(r->status));
            else
                printf(",%d", WIFSIGNALED(r->status) ? WTERMSIG(r->status) : 0);
            printf(",%s,", summary[r->summary]);
            if (r->n)
                printf("%s,%s,%llu,%llu,%llu,%.6f\n", r->e[j].routine, r->e[j].engine,
                       r->e[j].calls, r->e[j].declined, r->e[j].timed, r->e[j].gpu_ms);
            else
                printf(",,,,,\n");
        }
    }
}

/* ---------- main ---------- */
