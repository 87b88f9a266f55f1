/* common.c — see common.h. */
#include "common.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

void fail_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(NULL);
    exit(1);
}

/* ---------- reference BLAS ---------- */

#define OPEL(X, op, i, l, ld) ((op) == CUBLAS_OP_N ? (X)[(i) + (l) * (ld)] : (X)[(l) + (i) * (ld)])

void ref_dgemm(cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
               double alpha, const double *A, int64_t lda, const double *B, int64_t ldb,
               double beta, double *C, int64_t ldc)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double s = 0;
            for (int64_t l = 0; l < k; l++)
                s += OPEL(A, ta, i, l, lda) * OPEL(B, tb, l, j, ldb);
            double *c = &C[i + j * ldc];
            *c = beta == 0 ? alpha * s : alpha * s + beta * *c;
        }
}

void ref_sgemm(cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
               float alpha, const float *A, int64_t lda, const float *B, int64_t ldb, float beta,
               float *C, int64_t ldc)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            float s = 0;
            for (int64_t l = 0; l < k; l++)
                s += OPEL(A, ta, i, l, lda) * OPEL(B, tb, l, j, ldb);
            float *c = &C[i + j * ldc];
            *c = beta == 0 ? alpha * s : alpha * s + beta * *c;
        }
}

/* Element i of a vector of length len and increment inc (negative: from the end). */
static int64_t at(int64_t i, int64_t len, int64_t inc)
{
    return inc >= 0 ? i * inc : (len - 1 - i) * -inc;
}

void ref_dgemv(cublasOperation_t t, int64_t m, int64_t n, double alpha, const double *A,
               int64_t lda, const double *x, int64_t incx, double beta, double *y, int64_t incy)
{
    int64_t lenx = t == CUBLAS_OP_N ? n : m, leny = t == CUBLAS_OP_N ? m : n;
    if (m == 0 || n == 0)
        return;
    for (int64_t i = 0; i < leny; i++) {
        double s = 0;
        for (int64_t l = 0; l < lenx; l++)
            s += (t == CUBLAS_OP_N ? A[i + l * lda] : A[l + i * lda]) * x[at(l, lenx, incx)];
        double *yi = &y[at(i, leny, incy)];
        *yi = beta == 0 ? alpha * s : alpha * s + beta * *yi;
    }
}

double ref_ddot(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += x[at(i, n, incx)] * y[at(i, n, incy)];
    return s;
}

void fill_ints(double *x, size_t n, unsigned seed)
{
    unsigned s = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        x[i] = (double)((int)((s >> 16) % 9u) - 4);
    }
}

void fill_ints_f(float *x, size_t n, unsigned seed)
{
    unsigned s = seed * 2654435761u + 777u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        x[i] = (float)((int)((s >> 16) % 9u) - 4);
    }
}

long first_diff(const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(a[i] == b[i] || (a[i] != a[i] && b[i] != b[i])))
            return (long)i;
    return -1;
}

/* ---------- files ---------- */

char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        FAIL("cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            FAIL("out of memory");
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    if (ferror(f))
        FAIL("cannot read %s", path);
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f))
        FAIL("cannot write %s: %s", path, strerror(errno));
}

char *make_temp_dir(const char *tag)
{
    const char *t = getenv("TMPDIR");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/dfshim-%s-XXXXXX", t && *t ? t : "/tmp", tag);
    if (!mkdtemp(buf))
        FAIL("mkdtemp %s: %s", buf, strerror(errno));
    return strdup(buf);
}

void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = path_join(dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            chmod(p, 0700);
            remove_tree(p);
        } else {
            unlink(p);
        }
        free(p);
    }
    closedir(d);
    rmdir(dir);
}

void expect_only_entries(const char *dir, const char *const names[])
{
    DIR *d = opendir(dir);
    CHECK(d, "opendir %s: %s", dir, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d))) {
        int known = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
        for (int i = 0; names[i] && !known; i++)
            known = !strcmp(e->d_name, names[i]);
        CHECK(known, "unexpected file %s/%s", dir, e->d_name);
    }
    closedir(d);
}

char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p)
        FAIL("out of memory");
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        if (*s == '\n' || s[1] == '\0')
            n++;
    return n;
}

char *nth_line(const char *s, int i)
{
    for (; i > 0 && *s; i--) {
        const char *nl = strchr(s, '\n');
        if (!nl)
            return NULL;
        s = nl + 1;
    }
    if (!*s)
        return NULL;
    size_t n = strcspn(s, "\n");
    char *l = malloc(n + 1);
    if (!l)
        FAIL("out of memory");
    memcpy(l, s, n);
    l[n] = '\0';
    return l;
}

/* ---------- the shim's log ---------- */

char *log_take(log_cursor *c)
{
    struct stat st;
    if (stat(c->path, &st) != 0)
        return strdup(""); /* the shim has not opened it yet */
    size_t len;
    char *all = read_file(c->path, &len);
    if (len < c->offset)
        FAIL("log %s shrank", c->path);
    char *s = strdup(all + c->offset);
    c->offset = len;
    free(all);
    /* Drop the shim's info line about the missing CUDA driver: this machine has none, and the
     * shim looks for it (once) to learn the device of a handle under the default mode. */
    static const char driver[] = "dfshim: cannot find the real cu";
    for (char *l = s; (l = strstr(l, driver));) {
        char *e = strchr(l, '\n');
        memmove(l, e ? e + 1 : l + strlen(l), strlen(e ? e + 1 : l + strlen(l)) + 1);
    }
    return s;
}

void log_expect_line_at(const char *file, int line, log_cursor *c, const char *expected)
{
    char *s = log_take(c);
    size_t n = strlen(expected);
    if (strncmp(s, expected, n) || s[n] != '\n' || s[n + 1] != '\0')
        fail_at(file, line, "expected exactly one new log line\n  expected: %s\n  found:    %s",
                expected, *s ? s : "(nothing)\n");
    free(s);
}

void log_expect_nothing_at(const char *file, int line, log_cursor *c)
{
    char *s = log_take(c);
    if (*s)
        fail_at(file, line, "expected no new log line, found:\n%s", s);
    free(s);
}

/* ---------- the shim ---------- */

/* LD_PRELOAD with absolute paths, so that children started in another directory load the
 * same shim. */
static void absolute_preload(void)
{
    const char *v = getenv("LD_PRELOAD");
    if (!v || !*v)
        return;
    size_t entries = 1;
    for (const char *c = v; *c; c++)
        entries += *c == ':' || *c == ' ';
    char *copy = strdup(v), *out = calloc(entries, 4097 + strlen(v)); /* each at most PATH_MAX */
    CHECK(copy && out, "out of memory");
    for (char *save = NULL, *t = strtok_r(copy, ": ", &save); t; t = strtok_r(NULL, ": ", &save)) {
        char buf[4096];
        const char *p = strchr(t, '/') && realpath(t, buf) ? buf : t;
        if (*out)
            strcat(out, ":");
        strcat(out, p);
    }
    setenv("LD_PRELOAD", out, 1);
    free(copy);
    free(out);
}

void require_shim(const char *symbol)
{
    absolute_preload();
    void *p = dlsym(RTLD_DEFAULT, symbol);
    Dl_info info;
    if (!p || !dladdr(p, &info) || !info.dli_fname)
        FAIL("%s is not defined in this process", symbol);
    const char *base = strrchr(info.dli_fname, '/');
    base = base ? base + 1 : info.dli_fname;
    if (strcmp(base, "libdfshim.so"))
        FAIL("%s resolves to %s, not libdfshim.so: run with LD_PRELOAD=<path>/libdfshim.so",
             symbol, info.dli_fname);
}

/* ---------- children ---------- */

int run_self(char *const argv[], const char *const env[], const char *out_path,
             const char *err_path, unsigned timeout_s)
{
    size_t n = 0, extra = 0;
    while (environ[n])
        n++;
    while (env && env[extra])
        extra++;
    char **envp = calloc(n + extra + 1, sizeof *envp);
    if (!envp)
        FAIL("out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "EXBLAS_", 7))
            envp[k++] = environ[i];
    for (size_t i = 0; i < extra; i++)
        envp[k++] = (char *)env[i];
    envp[k] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        FAIL("fork: %s", strerror(errno));
    if (pid == 0) {
        const char *paths[2] = {out_path, err_path};
        for (int fd = 1; fd <= 2; fd++) {
            if (!paths[fd - 1])
                continue;
            int f = open(paths[fd - 1], O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (f < 0 || dup2(f, fd) < 0)
                _exit(126);
            close(f);
        }
        alarm(timeout_s);
        execve("/proc/self/exe", argv, envp);
        _exit(127);
    }
    free(envp);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            FAIL("waitpid: %s", strerror(errno));
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}
