// SPDX-License-Identifier: MIT
// The CUDA runtime's arrays and texture and surface objects, as a program
// writes them: cudaMallocArray, cudaMemcpy2DToArray and back, a texture
// object read by a kernel with point filtering, cudaMalloc3DArray with
// cudaMemcpy3D, and a surface object written by a kernel.  It prints only
// what does not depend on the GPU (tests/cudart/expected/).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "cudart.h"
#include "../kernels/textures_2d.cuh"

int main()
{
	const int W = 21, H = 6;
	float h[H][W], back[H][W + 2], *dout, got[H * W];
	cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
	cudaArray_t a, s3, sa;
	cudaTextureObject_t t;
	cudaSurfaceObject_t so;
	cudaResourceDesc rd = {};
	cudaTextureDesc td = {};
	int bad = 0;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			h[y][x] = (float)(y * 100 + x);
	CHECK(cudaMallocArray(&a, &fd, W, H));
	CHECK(cudaMemcpy2DToArray(a, 0, 0, h, sizeof(h[0]), W * sizeof(float), H,
				  cudaMemcpyHostToDevice));
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W + 2; x++)
			back[y][x] = -1.0f;
	CHECK(cudaMemcpy2DFromArray(back, sizeof(back[0]), a, 0, 0, W * sizeof(float), H,
				    cudaMemcpyDeviceToHost));
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W + 2; x++)
			bad += back[y][x] != (x < W ? h[y][x] : -1.0f);
	printf("cudaMemcpy2DToArray and back: %s\n", bad ? "wrong" : "ok");

	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = a;
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
	td.filterMode = cudaFilterModePoint;
	td.readMode = cudaReadModeElementType;
	CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
	CHECK(cudaMalloc(&dout, sizeof(got)));
	tex_read_2d<<<dim3(2, 2), dim3(16, 4)>>>(t, dout, W, H, 0);
	CHECK(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < W * H; i++)
		bad += got[i] != h[i / W][i % W];
	printf("a kernel reads the texture object: %s\n", bad ? "wrong" : "ok");
	CHECK(cudaDestroyTextureObject(t));

	{
		cudaExtent e = make_cudaExtent(7, 5, 3);
		float v[3][5][7], w[3][5][7];
		cudaMemcpy3DParms p = {};

		for (int i = 0; i < 105; i++)
			(&v[0][0][0])[i] = (float)i * 0.5f;
		CHECK(cudaMalloc3DArray(&s3, &fd, e));
		p.srcPtr = make_cudaPitchedPtr(v, 7 * sizeof(float), 7, 5);
		p.dstArray = s3;
		p.extent = e;
		p.kind = cudaMemcpyHostToDevice;
		CHECK(cudaMemcpy3D(&p));
		memset(&p, 0, sizeof(p));
		p.srcArray = s3;
		p.dstPtr = make_cudaPitchedPtr(w, 7 * sizeof(float), 7, 5);
		p.extent = e;
		p.kind = cudaMemcpyDeviceToHost;
		CHECK(cudaMemcpy3D(&p));
		printf("cudaMalloc3DArray and cudaMemcpy3D both ways: %s\n",
		       memcmp(v, w, sizeof(v)) ? "wrong" : "ok");
		CHECK(cudaFreeArray(s3));
	}

	{
		cudaChannelFormatDesc ud = cudaCreateChannelDesc<unsigned int>();
		unsigned int u[H][W];

		CHECK(cudaMallocArray(&sa, &ud, W, H, cudaArraySurfaceLoadStore));
		rd.res.array.array = sa;
		CHECK(cudaCreateSurfaceObject(&so, &rd));
		surf_write_2d<<<dim3(1, 2), dim3(32, 4)>>>(so, W, H, 500);
		CHECK(cudaMemcpy2DFromArray(u, sizeof(u[0]), sa, 0, 0, W * 4, H,
					    cudaMemcpyDeviceToHost));
		bad = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				bad += u[y][x] != 500u + y * W + x;
		printf("a kernel writes the surface object: %s\n", bad ? "wrong" : "ok");
		CHECK(cudaDestroySurfaceObject(so));
		CHECK(cudaFreeArray(sa));
	}
	CHECK(cudaFreeArray(a));
	CHECK(cudaFree(dout));
	printf("textures: done\n");
	return 0;
}
