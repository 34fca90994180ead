// SPDX-License-Identifier: MIT
// The first of two inputs JIT-linked by tests/programs/jitlink.c: a kernel
// that calls a function the second input defines.  Compiled relocatable
// (-rdc=true), as cuLinkAddData takes it.  broker/sim_kernels.c mirrors
// the linked kernel.

extern "C" __device__ float link_op(float x);

extern "C" __global__ void link_apply(float *v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		v[i] = link_op(v[i]);
}
