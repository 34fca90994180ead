// SPDX-License-Identifier: MIT
// Kernels of varied resources for the occupancy program and occdiff:
// registers, static and dynamic
// shared memory, local memory, launch bounds, named barriers, clusters,
// parameters of every size and alignment, and variables of each kind.
// They are compiled several ways (occdiff.mk) and only loaded, never run.
#include <cuda_fp16.h>

struct Big {
	char b[300];
};

struct Odd {
	char c;
	double d;
	short s;
};

/* Clusters exist from sm_90; the fat binary's sm_80 code has the kernels without. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CLUSTER(x, y, z) __cluster_dims__(x, y, z)
#else
#define CLUSTER(x, y, z)
#endif

__device__ int dev_array[100];
__device__ double dev_scalar;
__constant__ float const_table[64];
__device__ __managed__ int managed_word;

extern "C" __global__ void few_regs(float *p)
{
	p[threadIdx.x] = 1.0f;
}

// Enough live values to need many registers.
template <int N>
__device__ void heavy_body(float *p, float x)
{
	float v[N];

#pragma unroll
	for (int i = 0; i < N; i++)
		v[i] = p[i * blockDim.x + threadIdx.x] * x + i;
#pragma unroll
	for (int k = 0; k < 4; k++)
#pragma unroll
		for (int i = 0; i < N; i++)
			v[i] = v[i] * v[(i + k + 1) % N] + x;
	float s = 0;
#pragma unroll
	for (int i = 0; i < N; i++)
		s += v[i];
	p[threadIdx.x] = s;
}

extern "C" __global__ void regs_48(float *p, float x) { heavy_body<40>(p, x); }
extern "C" __global__ void regs_72(float *p, float x) { heavy_body<64>(p, x); }
extern "C" __global__ void regs_100(float *p, float x) { heavy_body<96>(p, x); }
extern "C" __global__ void regs_160(float *p, float x) { heavy_body<150>(p, x); }
extern "C" __global__ void regs_max(float *p, float x) { heavy_body<250>(p, x); }

extern "C" __global__ void __launch_bounds__(256, 2) bounded(float *p, float x)
{
	heavy_body<120>(p, x);
}

extern "C" __global__ void __launch_bounds__(96) bounded_96(float *p, float x)
{
	heavy_body<64>(p, x);
}

extern "C" __global__ void __launch_bounds__(1024, 1) bounded_1024(float *p, float x)
{
	heavy_body<60>(p, x);
}

extern "C" __global__ void static_smem_4k(float *p)
{
	__shared__ float s[1000];

	s[threadIdx.x] = p[threadIdx.x];
	__syncthreads();
	p[threadIdx.x] = s[999 - threadIdx.x];
}

extern "C" __global__ void static_smem_40k(float *p)
{
	__shared__ float s[10000];

	s[threadIdx.x] = p[threadIdx.x];
	__syncthreads();
	p[threadIdx.x] = s[9999 - threadIdx.x];
}

extern "C" __global__ void static_smem_48k(float *p)
{
	__shared__ float s[12288];

	s[threadIdx.x] = p[threadIdx.x];
	__syncthreads();
	p[threadIdx.x] = s[12287 - threadIdx.x];
}

extern "C" __global__ void dynamic_smem(float *p, int n)
{
	extern __shared__ float d[];

	d[threadIdx.x] = p[threadIdx.x];
	__syncthreads();
	p[threadIdx.x] = d[(threadIdx.x + 1) % n];
}

extern "C" __global__ void local_memory(float *p, int k)
{
	float a[256];

	for (int i = 0; i < 256; i++)
		a[i] = p[i];
	p[threadIdx.x] = a[(k + threadIdx.x) & 255];
}

extern "C" __global__ void uses_constant(float *p)
{
	p[threadIdx.x] = const_table[threadIdx.x & 63] + dev_array[threadIdx.x & 63] + dev_scalar +
			 managed_word;
}

// Named barriers: bar.sync with ids up to 15.
extern "C" __global__ void barriers_4(float *p)
{
	p[threadIdx.x] += 1;
	asm volatile("bar.sync 3, 64;");
	p[threadIdx.x] += 1;
}

extern "C" __global__ void barriers_16(float *p)
{
	p[threadIdx.x] += 1;
	asm volatile("bar.sync 15, 64;");
	p[threadIdx.x] += 1;
}

extern "C" __global__ void CLUSTER(2, 1, 1) cluster_2(float *p)
{
	p[threadIdx.x] += 1;
}

extern "C" __global__ void CLUSTER(2, 2, 2) cluster_8(float *p)
{
	p[threadIdx.x] += 1;
}

extern "C" __global__ void params(float *a, int n, double d, char c, Big b, short s, float2 v,
				  double2 w, Odd o, __half h, long long ll)
{
	a[n] = d + c + b.b[3] + s + v.x + w.y + o.d + __half2float(h) + ll;
}

extern "C" __global__ void no_params(void)
{
}

__global__ void mangled_kernel(int *p, Big b)
{
	p[threadIdx.x] = b.b[threadIdx.x];
}

template <typename T, int K>
__global__ void templated(T *p)
{
	p[threadIdx.x] *= K;
}

template __global__ void templated<float, 2>(float *);
template __global__ void templated<double, 3>(double *);

__device__ __noinline__ float helper(float x)
{
	return x * x + 1;
}

extern "C" __global__ void calls_helper(float *p)
{
	p[threadIdx.x] = helper(p[threadIdx.x]);
}
