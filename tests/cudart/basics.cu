// SPDX-License-Identifier: MIT
// An ordinary CUDA runtime program, built with nvcc and run unmodified:
// device properties, allocations, copies (synchronous, asynchronous, to
// and from pinned memory), fills, streams, events and two kernels launched
// with <<<>>>.  It prints only what does not depend on the GPU, so that
// NVIDIA's driver and Gleam print the same (tests/cudart/expected/).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "cudart.h"
#include "../kernels/vec_add.cu"
#include "../kernels/saxpy.cuh"

int main()
{
	const int n = 1 << 20;
	const size_t bytes = n * sizeof(float);
	float *ha, *hb, *hc, *da, *db, *dc;
	cudaStream_t s;
	cudaEvent_t e0, e1;
	cudaDeviceProp p;
	int count, v, bad;
	double sum;
	float ms;

	CHECK(cudaGetDeviceCount(&count));
	printf("devices: %s\n", count >= 1 ? "at least one" : "none");
	CHECK(cudaDriverGetVersion(&v));
	printf("driver supports CUDA 13.0: %s\n", yes(v >= 13000));
	CHECK(cudaGetDeviceProperties(&p, 0));
	printf("name set: %s\n", yes(p.name[0] != 0));
	printf("warp size: %d\n", p.warpSize);
	printf("max threads per block: %d\n", p.maxThreadsPerBlock);
	printf("compute capability 7.5 or later: %s\n",
	       yes(p.major * 10 + p.minor >= 75));
	printf("global memory of 1 GiB or more: %s\n",
	       yes(p.totalGlobalMem >= (1ull << 30)));
	printf("unified addressing: %s\n", yes(p.unifiedAddressing));
	CHECK(cudaGetDevice(&v));
	printf("current device: %d\n", v);

	CHECK(cudaMallocHost(&ha, bytes));
	hb = (float *)malloc(bytes);
	hc = (float *)malloc(bytes);
	if (!hb || !hc)
		return 1;
	for (int i = 0; i < n; i++) {
		ha[i] = (float)(i % 1000);
		hb[i] = (float)(i % 7);
	}
	CHECK(cudaMalloc(&da, bytes));
	CHECK(cudaMalloc(&db, bytes));
	CHECK(cudaMalloc(&dc, bytes));
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaEventCreate(&e0));
	CHECK(cudaEventCreate(&e1));

	CHECK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpyAsync(db, hb, bytes, cudaMemcpyHostToDevice, s));
	CHECK(cudaMemsetAsync(dc, 0xff, bytes, s));
	CHECK(cudaEventRecord(e0, s));
	vec_add<<<(n + 255) / 256, 256, 0, s>>>(da, db, dc, n);
	CHECK(cudaGetLastError());
	saxpy<<<(n + 127) / 128, 128, 0, s>>>(2.0f, da, dc, n);
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(e1, s));
	CHECK(cudaEventSynchronize(e1));
	CHECK(cudaEventElapsedTime(&ms, e0, e1));
	printf("event time measured: %s\n", yes(ms >= 0.0f));
	CHECK(cudaMemcpyAsync(ha, dc, bytes, cudaMemcpyDeviceToHost, s));
	CHECK(cudaStreamSynchronize(s));
	CHECK(cudaStreamQuery(s));

	bad = 0;
	sum = 0;
	for (int i = 0; i < n; i++) {
		float want = 3.0f * (float)(i % 1000) + (float)(i % 7);

		bad += ha[i] != want;
		sum += ha[i];
	}
	printf("vec_add then saxpy: %d of %d elements wrong, sum %.0f\n", bad, n, sum);

	CHECK(cudaMemset(dc, 0, bytes));
	CHECK(cudaMemcpy(dc, db, bytes / 2, cudaMemcpyDeviceToDevice));
	CHECK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < n; i++)
		bad += hc[i] != (i < n / 2 ? (float)(i % 7) : 0.0f);
	printf("memset and device copy: %d elements wrong\n", bad);

	CHECK(cudaEventDestroy(e0));
	CHECK(cudaEventDestroy(e1));
	CHECK(cudaStreamDestroy(s));
	CHECK(cudaFree(da));
	CHECK(cudaFree(db));
	CHECK(cudaFree(dc));
	CHECK(cudaFreeHost(ha));
	free(hb);
	free(hc);
	CHECK(cudaDeviceSynchronize());
	printf("PASS\n");
	return 0;
}
