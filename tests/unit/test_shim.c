// SPDX-License-Identifier: MIT
/*
 * libcuda.so.1 as a program sees it: every driver symbol is there, the
 * version script hides everything else, cuGetProcAddress hands out the
 * right ABI version, and what Gleam lacks says so instead of pretending.
 */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "unit.h"

static void *lib;

static void setup(void)
{
	const char *path = getenv("GLEAM_SHIM");

	/* No gleamd here: cuInit must fail cleanly, not hang. */
	setenv("GLEAM_SOCKET", "/nonexistent/gleam/socket", 1);
	lib = dlopen(path ? path : "build/lib/libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	ck_assert_msg(lib != NULL, "dlopen: %s", dlerror());
}

static void teardown(void)
{
	dlclose(lib);
}

static void *sym(const char *name)
{
	void *p = dlsym(lib, name);

	ck_assert_msg(p != NULL, "%s is not exported", name);
	return p;
}

START_TEST(test_every_driver_symbol)
{
	const char *path = getenv("GLEAM_DRIVER_SYMBOLS");
	FILE *f = fopen(path ? path : "uapi/driver-symbols.txt", "r");
	char line[256];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!*line)
			continue;
		sym(line);
		n++;
	}
	fclose(f);
	ck_assert_int_gt(n, 600);
	/* Nothing of the shim's own leaks out. */
	ck_assert_ptr_null(dlsym(lib, "shim_call"));
	ck_assert_ptr_null(dlsym(lib, "gl_ring_reserve"));
	ck_assert_ptr_null(dlsym(lib, "gl_fn_table"));
}
END_TEST

typedef CUresult (*gpa_v2_fn)(const char *, void **, int, cuuint64_t,
			      CUdriverProcAddressQueryResult *);
typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t);

static void *lookup(const char *name, int version, cuuint64_t flags, CUresult *r,
		    CUdriverProcAddressQueryResult *st)
{
	gpa_v2_fn gpa = (gpa_v2_fn)sym("cuGetProcAddress_v2");
	void *p = (void *)1;

	*r = gpa(name, &p, version, flags, st);
	return p;
}

START_TEST(test_proc_address_versions)
{
	CUdriverProcAddressQueryResult st;
	CUresult r;

	ck_assert_ptr_eq(lookup("cuMemAlloc", 3020, 0, &r, &st), sym("cuMemAlloc_v2"));
	ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_SUCCESS);
	ck_assert_ptr_eq(lookup("cuCtxGetDevice", 12000, 0, &r, &st), sym("cuCtxGetDevice"));
	ck_assert_ptr_eq(lookup("cuCtxGetDevice", 13000, 0, &r, &st), sym("cuCtxGetDevice_v2"));
	ck_assert_ptr_eq(lookup("cuEventElapsedTime", 12000, 0, &r, &st), sym("cuEventElapsedTime"));
	ck_assert_ptr_eq(lookup("cuEventElapsedTime", 12080, 0, &r, &st),
			 sym("cuEventElapsedTime_v2"));
	ck_assert_ptr_eq(lookup("cuCtxCreate", 3020, 0, &r, &st), sym("cuCtxCreate_v2"));
	ck_assert_ptr_eq(lookup("cuGetProcAddress", 12000, 0, &r, &st), sym("cuGetProcAddress_v2"));
}
END_TEST

START_TEST(test_proc_address_per_thread)
{
	CUdriverProcAddressQueryResult st;
	CUresult r;

	ck_assert_ptr_eq(lookup("cuMemcpyHtoD", 7000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&r, &st), sym("cuMemcpyHtoD_v2_ptds"));
	ck_assert_ptr_eq(lookup("cuMemcpyHtoD", 7000, 0, &r, &st), sym("cuMemcpyHtoD_v2"));
	ck_assert_ptr_eq(lookup("cuLaunchKernel", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&r, &st), sym("cuLaunchKernel_ptsz"));
	/* A function with no per-thread form gets its plain one. */
	ck_assert_ptr_eq(lookup("cuMemAlloc", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&r, &st), sym("cuMemAlloc_v2"));
}
END_TEST

START_TEST(test_proc_address_missing)
{
	gpa_fn gpa1 = (gpa_fn)sym("cuGetProcAddress");
	CUdriverProcAddressQueryResult st;
	void *p = (void *)1;
	CUresult r;

	ck_assert_ptr_null(lookup("cuNoSuchFunction", 13000, 0, &r, &st));
	ck_assert_int_eq(r, CUDA_SUCCESS);
	ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
	ck_assert_ptr_null(lookup("cuLaunchKernelEx", 11000, 0, &r, &st));
	ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
	ck_assert_int_eq(gpa1("cuNoSuchFunction", &p, 13000, 0), CUDA_ERROR_NOT_FOUND);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(gpa1("cuMemAlloc", &p, 13000, 1u << 20), CUDA_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(test_unsupported_says_so)
{
	CUresult (*f)(void) = (CUresult (*)(void))sym("cuGraphCreate");

	ck_assert_int_eq(f(), CUDA_ERROR_NOT_SUPPORTED);
	ck_assert_int_eq(f(), CUDA_ERROR_NOT_SUPPORTED);
}
END_TEST

START_TEST(test_error_names)
{
	CUresult (*name)(CUresult, const char **) = (void *)sym("cuGetErrorName");
	CUresult (*str)(CUresult, const char **) = (void *)sym("cuGetErrorString");
	const char *s;

	ck_assert_int_eq(name(CUDA_ERROR_ILLEGAL_ADDRESS, &s), CUDA_SUCCESS);
	ck_assert_str_eq(s, "CUDA_ERROR_ILLEGAL_ADDRESS");
	ck_assert_int_eq(str(CUDA_ERROR_INVALID_VALUE, &s), CUDA_SUCCESS);
	ck_assert_str_eq(s, "invalid argument");
	ck_assert_int_eq(name((CUresult)9999, &s), CUDA_ERROR_INVALID_VALUE);
	ck_assert_ptr_null(s);
}
END_TEST

START_TEST(test_without_gleamd)
{
	CUresult (*init)(unsigned int) = (void *)sym("cuInit");
	CUresult (*count)(int *) = (void *)sym("cuDeviceGetCount");
	CUresult (*ver)(int *) = (void *)sym("cuDriverGetVersion");
	int n = -1, v = 0;

	ck_assert_int_eq(count(&n), CUDA_ERROR_NOT_INITIALIZED);
	ck_assert_int_eq(ver(&v), CUDA_SUCCESS);
	ck_assert_int_ge(v, 12000);
	ck_assert_int_eq(init(1), CUDA_ERROR_INVALID_VALUE);
	ck_assert_int_eq(init(0), CUDA_ERROR_NO_DEVICE);
	/* The first answer stays: a later cuInit does not hang or change it. */
	ck_assert_int_eq(init(0), CUDA_ERROR_NO_DEVICE);
	ck_assert_int_eq(count(&n), CUDA_ERROR_NOT_INITIALIZED);
}
END_TEST

Suite *shim_suite(void)
{
	Suite *s = suite_create("shim");
	TCase *t = tcase_create("exports");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_every_driver_symbol);
	tcase_add_test(t, test_proc_address_versions);
	tcase_add_test(t, test_proc_address_per_thread);
	tcase_add_test(t, test_proc_address_missing);
	tcase_add_test(t, test_unsupported_says_so);
	tcase_add_test(t, test_error_names);
	tcase_add_test(t, test_without_gleamd);
	suite_add_tcase(s, t);
	return s;
}
