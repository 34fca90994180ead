// SPDX-License-Identifier: MIT
// The 2D texture read and surface write of textures.cu alone, so that a
// program can build them into its own module without the rest (the
// tests/cudart/ programs do, with <<<>>>).  broker/sim_kernels.c mirrors
// them; keep the two in step.
#ifndef GLEAM_TEST_KERNEL_TEXTURES_2D_CUH
#define GLEAM_TEST_KERNEL_TEXTURES_2D_CUH

// out[y * (w + 2 pad) + x] = the texel at (x - pad, y - pad), for the
// launched threads within (w + 2 pad) by (h + 2 pad): the pad shows the
// address mode.
extern "C" __global__ void tex_read_2d(unsigned long long t, float *out, int w, int h, int pad)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int ow = w + 2 * pad;

	if (x < ow && y < h + 2 * pad)
		out[y * ow + x] = tex2D<float>(t, x - pad + 0.5f, y - pad + 0.5f);
}

// Element (x, y) of a 2D array of unsigned ints becomes base + y * w + x,
// written through a surface object (x in bytes).
extern "C" __global__ void surf_write_2d(unsigned long long s, int w, int h, unsigned int base)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x < w && y < h)
		surf2Dwrite<unsigned int>(base + y * w + x, s, x * 4, y);
}

#endif
