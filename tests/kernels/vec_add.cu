// SPDX-License-Identifier: MIT
// c[i] = a[i] + b[i] for the threads of a 1-D launch with i < n; no
// grid-stride loop, so a grid smaller than n leaves the tail untouched.
// broker/sim_kernels.c mirrors this kernel; keep the two in step.

extern "C" __global__ void vec_add(const float *a, const float *b, float *c,
				   int n)
{
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}
