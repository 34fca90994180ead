// SPDX-License-Identifier: MIT
// print_hello alone, so that a program can build it into its own module
// without the rest of printf.cu (tests/cudart/ do, with <<<>>>).
// broker/sim_kernels.c mirrors it; keep the two in step.
#ifndef GLEAM_TEST_KERNEL_PRINT_HELLO_CUH
#define GLEAM_TEST_KERNEL_PRINT_HELLO_CUH

#include <stdio.h>

// One line from one thread.
extern "C" __global__ void print_hello(int tag)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		printf("hello from the GPU, tag %d\n", tag);
}

#endif
