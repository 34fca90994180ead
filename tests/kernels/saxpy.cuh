// SPDX-License-Identifier: MIT
// saxpy alone, so that a program can build it into its own module without
// the rest of misc.cu (tests/cudart/ do, with <<<>>>).  broker/sim_kernels.c
// mirrors it; keep the two in step.
#ifndef GLEAM_TEST_KERNEL_SAXPY_CUH
#define GLEAM_TEST_KERNEL_SAXPY_CUH

// y[i] = a * x[i] + y[i] for i < n over the launched threads (1-D).
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + y[i];
}

#endif
