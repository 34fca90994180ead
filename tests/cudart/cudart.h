// SPDX-License-Identifier: MIT
// What the CUDA runtime test programs share: a check that names the failed
// call and exits, and yes/no for what they print.  The kernels they launch
// come from tests/kernels/, which the sim backend mirrors by name; each
// program includes only those it launches, so that its module holds no
// other.
#ifndef GLEAM_TEST_CUDART_H
#define GLEAM_TEST_CUDART_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)							\
	do {								\
		cudaError_t e_ = (x);					\
		if (e_ != cudaSuccess) {				\
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__,	\
				__LINE__, #x, cudaGetErrorString(e_));	\
			exit(1);					\
		}							\
	} while (0)

static inline const char *yes(bool b)
{
	return b ? "yes" : "no";
}

#endif
