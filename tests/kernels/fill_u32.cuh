// SPDX-License-Identifier: MIT
// fill_u32 alone, so that a program can build it into its own module
// without the rest of misc.cu (tests/cudart/graphs.cu does).
// broker/sim_kernels.c mirrors it; keep the two in step.
#ifndef GLEAM_TEST_KERNEL_FILL_U32_CUH
#define GLEAM_TEST_KERNEL_FILL_U32_CUH

// p[0..n) = v, grid-stride: any 1-D launch fills the whole range.
extern "C" __global__ void fill_u32(unsigned int *p, unsigned int v,
				    unsigned long long n)
{
	unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x +
			       threadIdx.x;
	unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;

	for (; i < n; i += stride)
		p[i] = v;
}

#endif
