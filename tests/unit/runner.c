// SPDX-License-Identifier: MIT
/* One runner for every unit suite; passes under valgrind with CK_FORK=no. */
#include <check.h>
#include <stdlib.h>

#include "unit.h"

int main(void)
{
	SRunner *sr = srunner_create(ring_suite());
	int failed;

	srunner_add_suite(sr, table_suite());
	srunner_add_suite(sr, image_suite());
	srunner_add_suite(sr, shim_suite());
	srunner_add_suite(sr, export_suite());
	srunner_add_suite(sr, chunkstore_suite());
	srunner_add_suite(sr, cubin_suite());
	srunner_add_suite(sr, util_suite());
	srunner_add_suite(sr, pack_suite());
	srunner_add_suite(sr, memo_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
