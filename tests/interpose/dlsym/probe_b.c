/* probe_b.c — the second library defining probe(). */
__attribute__((visibility("default"))) int probe(void)
{
    return 2;
}

/* Referenced by the test program so that the linker keeps this library (after probe_a). */
__attribute__((visibility("default"))) int probe_b_marker(void)
{
    return 0;
}
