// SPDX-License-Identifier: MIT
// Small kernels for the test programs.  broker/sim_kernels.c mirrors each
// of them; keep the two in step.

// y[i] = a * x[i] + y[i] for i < n over the launched threads (1-D).
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
	long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + y[i];
}

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
