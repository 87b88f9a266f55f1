/* check_main.h — the unit tests' main(): runs one Check suite and exits 0 when every test
 * passed, 1 otherwise.  A test program defines `static Suite *suite(void)` and includes this. */
#ifndef DFS_CHECK_MAIN_H
#define DFS_CHECK_MAIN_H

#include <check.h>

static Suite *suite(void);

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}

#endif
