// SPDX-License-Identifier: MIT
/* What the generator made of uapi/api.tbl. */
#include <check.h>
#include <stddef.h>
#include <string.h>

#include "gleam_api_gen.h"
#include "unit.h"

START_TEST(test_numbers_and_names)
{
	unsigned int named = 0;

	ck_assert_ptr_null(gl_fn_table[0].name);	/* 0 is the pad record */
	for (unsigned int i = 1; i < GL_FN_LIMIT; i++) {
		if (!gl_fn_table[i].name)
			continue;
		named++;
		/* Driver functions, and the few messages of Gleam's own (no symbol). */
		ck_assert(!strncmp(gl_fn_table[i].name, "cu", 2) ||
			  !strncmp(gl_fn_table[i].name, "gleam", 5));
		ck_assert_uint_le(gl_fn_table[i].cls, GL_SYNC);
		for (unsigned int j = 1; j < i; j++)
			if (gl_fn_table[j].name)
				ck_assert_str_ne(gl_fn_table[i].name, gl_fn_table[j].name);
	}
	ck_assert_uint_gt(named, 80);
	ck_assert_str_eq(gl_fn_name(GL_FN_cuLaunchKernel), "cuLaunchKernel");
	ck_assert_str_eq(gl_fn_name(60000), "?");
}
END_TEST

START_TEST(test_fixed_numbers)
{
	/* Numbers are for ever: these must never move. */
	ck_assert_int_eq(GL_FN_cuInit, 1);
	ck_assert_int_eq(GL_FN_cuMemAlloc, 60);
	ck_assert_int_eq(GL_FN_cuMemcpyHtoD, 70);
	ck_assert_int_eq(GL_FN_cuLaunchKernel, 110);
	ck_assert_int_eq(GL_FN_cuStreamSynchronize, 123);
}
END_TEST

START_TEST(test_classes)
{
	ck_assert_int_eq(gl_fn_table[GL_FN_cuLaunchKernel].cls, GL_ASYNC);
	ck_assert_int_eq(gl_fn_table[GL_FN_cuMemcpyDtoH].cls, GL_SYNC);
	ck_assert_int_eq(gl_fn_table[GL_FN_cuCtxGetDevice].cls, GL_LOCAL);
	ck_assert_int_eq(gl_fn_table[GL_FN_cuStreamSynchronize].cls, GL_SYNC);
	ck_assert_int_eq(gl_fn_table[GL_FN_cuMemsetD8Async].cls, GL_ASYNC);
}
END_TEST

START_TEST(test_arg_blocks)
{
	/* Argument blocks are whole 64-bit words: the wire has no padding holes. */
	ck_assert_uint_eq(sizeof(struct gl_a_cuMemcpyHtoD), 16);
	ck_assert_uint_eq(sizeof(struct gl_a_cuMemcpyHtoDAsync), 24);
	ck_assert_uint_eq(offsetof(struct gl_a_cuMemcpyHtoDAsync, hStream), 16);
	ck_assert_uint_eq(sizeof(struct gl_a_cuLaunchKernel), 9 * 8);
	for (unsigned int i = 1; i < GL_FN_LIMIT; i++) {
		if (!gl_fn_table[i].name || gl_fn_table[i].cls == GL_LOCAL)
			continue;
		if (gl_fn_args_size[i])
			ck_assert_uint_eq(gl_fn_args_size[i] % 8, 0);
	}
}
END_TEST

UNIT_SUITE(table, "generated", test_numbers_and_names, test_fixed_numbers, test_classes,
	   test_arg_blocks);
