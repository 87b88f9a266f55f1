/* probe_dep.c — a dependency of probe_local, so only in probe_local's local scope. */
__attribute__((visibility("default"))) int dep_only(void)
{
    return 3;
}
