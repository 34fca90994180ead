// SPDX-License-Identifier: MIT
// Managed memory and mapped page-locked memory through the CUDA runtime,
// as programs write them: cudaMallocManaged arrays that kernels launched
// with <<<>>> and this process update in turn, with cudaDeviceSynchronize
// between; cudaHostAlloc(cudaHostAllocMapped) buffers that a kernel reads
// and writes through cudaHostGetDevicePointer's pointers; a prefetch and
// the pointer attributes.  Prints only the verdicts.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "cudart.h"
#include "../kernels/vec_add.cu"
#include "../kernels/saxpy.cuh"

static bool same(const float *a, const float *b, int n)
{
	return !memcmp(a, b, n * sizeof(float));
}

int main()
{
	const int n = (1 << 18) + 3;
	float *x, *y, *want, *ha, *hb, *hc, *da, *db, *dc;
	cudaPointerAttributes pa;
	int managed, bad = 0;

	CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
	printf("managed memory: %s\n", yes(managed));
	if (!managed)
		return 0;
	want = (float *)malloc(n * sizeof(float));
	if (!want)
		return 1;

	CHECK(cudaMallocManaged(&x, n * sizeof(float)));
	CHECK(cudaMallocManaged(&y, n * sizeof(float)));
	for (int i = 0; i < n; i++) {
		x[i] = (float)(i % 100);
		y[i] = 1.0f;
		want[i] = 1.0f;
	}
	for (int r = 0; r < 4; r++) {
		saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
		CHECK(cudaGetLastError());
		CHECK(cudaDeviceSynchronize());
		for (int i = 0; i < n; i++)
			want[i] = 2.0f * x[i] + want[i];
		bad += !same(y, want, n);
		for (int i = r; i < n; i += 1001)
			x[i] = (float)(r + 2);
	}
	printf("four rounds of kernel and host on managed memory: %s\n", bad ? "wrong" : "ok");
	CHECK(cudaPointerGetAttributes(&pa, y));
	printf("a managed pointer's type is managed: %s\n", yes(pa.type == cudaMemoryTypeManaged));
	CHECK(cudaMemPrefetchAsync(y, n * sizeof(float), cudaMemLocation{ cudaMemLocationTypeDevice, 0 },
				   0, 0));
	vec_add<<<(n + 255) / 256, 256>>>(x, y, y, n);
	CHECK(cudaStreamSynchronize(0));
	for (int i = 0; i < n; i++)
		want[i] = x[i] + want[i];
	printf("a kernel after a prefetch, read after cudaStreamSynchronize: %s\n",
	       same(y, want, n) ? "ok" : "wrong");
	CHECK(cudaFree(x));
	CHECK(cudaFree(y));

	CHECK(cudaHostAlloc(&ha, n * sizeof(float), cudaHostAllocMapped));
	CHECK(cudaHostAlloc(&hb, n * sizeof(float), cudaHostAllocMapped));
	CHECK(cudaHostAlloc(&hc, n * sizeof(float), cudaHostAllocMapped));
	CHECK(cudaHostGetDevicePointer(&da, ha, 0));
	CHECK(cudaHostGetDevicePointer(&db, hb, 0));
	CHECK(cudaHostGetDevicePointer(&dc, hc, 0));
	for (int i = 0; i < n; i++) {
		ha[i] = (float)i;
		hb[i] = (float)(3 * i);
		want[i] = ha[i] + hb[i];
	}
	vec_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
	CHECK(cudaDeviceSynchronize());
	printf("a kernel's sums in mapped memory: %s\n", same(hc, want, n) ? "ok" : "wrong");
	CHECK(cudaPointerGetAttributes(&pa, hc));
	printf("mapped memory is host memory, reached through its device pointer: %s\n",
	       yes(pa.type == cudaMemoryTypeHost && pa.devicePointer == dc));
	for (int i = 0; i < n; i += 3) {
		hb[i] = -1.0f;
		want[i] = ha[i] + hb[i];
	}
	vec_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
	CHECK(cudaDeviceSynchronize());
	printf("inputs the host changed, read by a kernel: %s\n", same(hc, want, n) ? "ok" : "wrong");
	CHECK(cudaFreeHost(ha));
	CHECK(cudaFreeHost(hb));
	CHECK(cudaFreeHost(hc));
	free(want);
	return 0;
}
