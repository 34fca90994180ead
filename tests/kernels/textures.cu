// SPDX-License-Identifier: MIT
// Kernels that read texture objects and write surface objects, for
// tests/programs/arrays.c.  Point filtering at the centres of elements
// (integer coordinates plus one half), so that every result is an element
// as stored or the border, exactly.  broker/sim_kernels.c mirrors each of
// them; keep the two in step.

#include "textures_2d.cuh"

// out[i] = element i of linear memory, i < n (1-D launch).
extern "C" __global__ void tex_read_1d(unsigned long long t, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = tex1Dfetch<float>(t, i);
}

// out[(z * h + y) * w + x] = the texel at (x, y) of layer z (grid z: layers).
extern "C" __global__ void tex_read_layered(unsigned long long t, float *out, int w, int h,
					    int layers)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int z = blockIdx.z;

	if (x < w && y < h && z < layers)
		out[(z * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, z);
}

// out[(z * h + y) * w + x] = the texel at (x, y, z) of a 3D array (grid z: depth).
extern "C" __global__ void tex_read_3d(unsigned long long t, float *out, int w, int h, int d)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int z = blockIdx.z;

	if (x < w && y < h && z < d)
		out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}
