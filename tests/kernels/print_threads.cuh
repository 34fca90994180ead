// SPDX-License-Identifier: MIT
// print_threads alone, so that a program can build it into its own module
// without the rest of printf.cu (tests/cudart/ do, with <<<>>>).
// broker/sim_kernels.c mirrors it; keep the two in step.
#ifndef GLEAM_TEST_KERNEL_PRINT_THREADS_CUH
#define GLEAM_TEST_KERNEL_PRINT_THREADS_CUH

#include <stdio.h>

// Every thread of one block prints a line, in the order of their index.
extern "C" __global__ void print_threads(int tag)
{
	for (unsigned int i = 0; i < blockDim.x; i++) {
		if (threadIdx.x == i)
			printf("kernel %d: thread %u of %u\n", tag, i, blockDim.x);
		__syncthreads();
	}
}

#endif
