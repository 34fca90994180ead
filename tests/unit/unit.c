// SPDX-License-Identifier: MIT
/*
 * What several unit suites share: the built libcuda.so.1, opened as a
 * program would open it (test_shim.c and test_export.c look at what it
 * exports), and a test case made from one list of its tests.
 */
#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>

#include "unit.h"

void *unit_shim;

const char *unit_shim_path(void)
{
	const char *path = getenv("GLEAM_SHIM");

	return path ? path : "build/lib/libcuda.so.1";
}

void unit_shim_open(void)
{
	/* No gleamd here: cuInit must fail cleanly, not hang. */
	setenv("GLEAM_SOCKET", "/nonexistent/gleam/socket", 1);
	unit_shim = dlopen(unit_shim_path(), RTLD_NOW | RTLD_LOCAL);
	ck_assert_msg(unit_shim != NULL, "dlopen: %s", dlerror());
}

void unit_shim_close(void)
{
	dlclose(unit_shim);
}

void *unit_sym(const char *name)
{
	void *p = dlsym(unit_shim, name);

	ck_assert_msg(p != NULL, "%s is not exported", name);
	return p;
}

TCase *unit_tcase(Suite *s, const char *name, const TTest *const *tests)
{
	TCase *tc = tcase_create(name);

	for (; *tests; tests++)
		tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	return tc;
}
