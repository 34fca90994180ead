/* SPDX-License-Identifier: MIT */
#ifndef GLEAM_UNIT_H
#define GLEAM_UNIT_H

#include <check.h>

Suite *ring_suite(void);
Suite *table_suite(void);
Suite *image_suite(void);
Suite *shim_suite(void);
Suite *export_suite(void);
Suite *config_suite(void);
Suite *chunkstore_suite(void);
Suite *cubin_suite(void);
Suite *util_suite(void);
Suite *pack_suite(void);
Suite *memo_suite(void);

/*
 * The libcuda.so.1 under test ($GLEAM_SHIM, else build/lib/), opened and
 * closed around each test of a case by unit_shim_open and unit_shim_close
 * (a checked fixture), with no gleamd to reach.  unit_sym fails the test
 * if the library does not export name.
 */
extern void *unit_shim;
const char *unit_shim_path(void);
void unit_shim_open(void);
void unit_shim_close(void);
void *unit_sym(const char *name);

/*
 * A new test case of s named name, holding the tests of a NULL-terminated
 * list in its order; UNIT_TCASE(s, name, test, ...) writes the list.  The
 * caller sets fixtures and timeouts on what it returns.
 */
TCase *unit_tcase(Suite *s, const char *name, const TTest *const *tests);
#define UNIT_TCASE(s, name, ...) \
	unit_tcase((s), (name), (const TTest *const[]){ __VA_ARGS__, NULL })

/* name_suite(): the suite name, of one test case, tcase, of the tests listed. */
#define UNIT_SUITE(name, tcase, ...)				\
	Suite *name##_suite(void)				\
	{							\
		Suite *s = suite_create(#name);			\
								\
		UNIT_TCASE(s, tcase, __VA_ARGS__);		\
		return s;					\
	}

#endif
