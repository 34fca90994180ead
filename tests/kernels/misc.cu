// SPDX-License-Identifier: MIT
// Small kernels for the test programs.  broker/sim_kernels.c mirrors each
// of them; keep the two in step.

#include "saxpy.cuh"
#include "fill_u32.cuh"

static __device__ __forceinline__ unsigned long long globaltimer(void)
{
	unsigned long long t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

// Busy-waits about ns nanoseconds of wall time, for event timing tests.
extern "C" __global__ void spin_ns(unsigned long long ns)
{
	unsigned long long start = globaltimer();

	while (globaltimer() - start < ns)
		;
}

extern "C" __global__ void null_kernel(void)
{
}

// Parameters of every size and alignment, to test their marshalling.
extern "C" __global__ void mixed_args(char c, double d, short s, float *out,
				      long long ll, int i)
{
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		out[0] = (float)c;
		out[1] = (float)d;
		out[2] = (float)s;
		out[3] = (float)ll;
		out[4] = (float)i;
	}
}
