// SPDX-License-Identifier: MIT
// CUDA graphs and the stream-ordered allocator as a runtime program uses
// them: a capture with a fork and a join, instantiated and launched with
// new input each time; cudaMallocAsync inside a capture; capture status;
// the default memory pool, its attributes, allocations from it and from a
// pool of the program's own, trimming.  It prints only what does not
// depend on the GPU (tests/cudart/expected/).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "cudart.h"
#include "../kernels/vec_add.cu"
#include "../kernels/saxpy.cuh"
#include "../kernels/fill_u32.cuh"

static const int n = 1 << 16;
static const int blocks = (n + 255) / 256;

static const char *status(cudaStream_t s)
{
	cudaStreamCaptureStatus st;

	CHECK(cudaStreamIsCapturing(s, &st));
	return st == cudaStreamCaptureStatusNone ? "none" :
	       st == cudaStreamCaptureStatusActive ? "active" : "invalidated";
}

// w = 5x: y = 0, then y = 2x + y on s; forked to s2, z = y, then z = x + z;
// joined again, w = y + z on s.
static void graphs(void)
{
	float *x, *y, *z, *w, *hx, *hw;
	unsigned int *tmp, *hu;
	cudaStream_t s, s2;
	cudaEvent_t fork, join;
	cudaGraph_t g;
	cudaGraphExec_t e;
	unsigned long long id = 0;
	cudaStreamCaptureStatus st;
	size_t nodes;
	int bad = 0;

	CHECK(cudaMalloc(&x, n * sizeof(float)));
	CHECK(cudaMalloc(&y, n * sizeof(float)));
	CHECK(cudaMalloc(&z, n * sizeof(float)));
	CHECK(cudaMalloc(&w, n * sizeof(float)));
	CHECK(cudaMallocHost(&hx, n * sizeof(float)));
	CHECK(cudaMallocHost(&hw, n * sizeof(float)));
	hu = (unsigned int *)hw;
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
	CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

	printf("before capture: %s\n", status(s));
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CHECK(cudaStreamGetCaptureInfo(s, &st, &id));
	printf("capturing: %s, id %s\n", status(s), id ? "set" : "zero");
	CHECK(cudaMemsetAsync(y, 0, n * sizeof(float), s));
	saxpy<<<blocks, 256, 0, s>>>(2.0f, x, y, n);
	CHECK(cudaEventRecord(fork, s));
	CHECK(cudaStreamWaitEvent(s2, fork, 0));
	printf("second stream: %s\n", status(s2));
	CHECK(cudaMemcpyAsync(z, y, n * sizeof(float), cudaMemcpyDeviceToDevice, s2));
	saxpy<<<blocks, 256, 0, s2>>>(1.0f, x, z, n);
	CHECK(cudaEventRecord(join, s2));
	CHECK(cudaStreamWaitEvent(s, join, 0));
	vec_add<<<blocks, 256, 0, s>>>(y, z, w, n);
	CHECK(cudaGetLastError());
	CHECK(cudaStreamEndCapture(s, &g));
	printf("after capture: %s %s\n", status(s), status(s2));
	CHECK(cudaGraphGetNodes(g, NULL, &nodes));
	printf("nodes: %zu\n", nodes);
	CHECK(cudaGraphInstantiate(&e, g, 0));
	CHECK(cudaGraphDestroy(g));
	for (int launch = 0; launch < 3; launch++) {
		for (int i = 0; i < n; i++)
			hx[i] = (float)(i % 500 + launch);
		CHECK(cudaMemcpyAsync(x, hx, n * sizeof(float), cudaMemcpyHostToDevice, s));
		CHECK(cudaGraphLaunch(e, s));
		CHECK(cudaMemcpyAsync(hw, w, n * sizeof(float), cudaMemcpyDeviceToHost, s));
		CHECK(cudaStreamSynchronize(s));
		for (int i = 0; i < n; i++)
			bad += hw[i] != 5 * hx[i];
	}
	CHECK(cudaGraphExecDestroy(e));
	printf("3 launches: %d elements wrong\n", bad);

	// Allocated and freed inside the graph, at every launch.
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CHECK(cudaMallocAsync(&tmp, n * sizeof(unsigned int), s));
	fill_u32<<<64, 256, 0, s>>>(tmp, 0x600d, n);
	CHECK(cudaMemcpyAsync(w, tmp, n * sizeof(unsigned int), cudaMemcpyDeviceToDevice, s));
	CHECK(cudaFreeAsync(tmp, s));
	CHECK(cudaStreamEndCapture(s, &g));
	CHECK(cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
	CHECK(cudaGraphDestroy(g));
	bad = 0;
	for (int launch = 0; launch < 2; launch++) {
		CHECK(cudaMemsetAsync(w, 0, n * sizeof(float), s));
		CHECK(cudaGraphLaunch(e, s));
		CHECK(cudaMemcpyAsync(hu, w, n * sizeof(unsigned int), cudaMemcpyDeviceToHost, s));
		CHECK(cudaStreamSynchronize(s));
		for (int i = 0; i < n; i++)
			bad += hu[i] != 0x600d;
	}
	CHECK(cudaGraphExecDestroy(e));
	printf("allocation inside a graph: %d elements wrong\n", bad);

	CHECK(cudaEventDestroy(fork));
	CHECK(cudaEventDestroy(join));
	CHECK(cudaStreamDestroy(s));
	CHECK(cudaStreamDestroy(s2));
	CHECK(cudaFreeHost(hx));
	CHECK(cudaFreeHost(hw));
	CHECK(cudaFree(x));
	CHECK(cudaFree(y));
	CHECK(cudaFree(z));
	CHECK(cudaFree(w));
}

static uint64_t attr(cudaMemPool_t p, cudaMemPoolAttr a)
{
	uint64_t v;

	CHECK(cudaMemPoolGetAttribute(p, a, &v));
	return v;
}

static void pools(void)
{
	cudaMemPoolProps props = {};
	cudaMemPool_t dp, cp, mp;
	unsigned int *a, *b, h[2];
	uint64_t v = UINT64_MAX;
	cudaStream_t s;
	int supported, reuse;

	CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
	printf("memory pools supported: %s\n", yes(supported));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaDeviceGetDefaultMemPool(&dp, 0));
	CHECK(cudaDeviceGetMemPool(&cp, 0));
	printf("default pool is current: %s\n", yes(dp == cp));
	CHECK(cudaMemPoolSetAttribute(dp, cudaMemPoolAttrReleaseThreshold, &v));
	printf("release threshold kept: %s\n",
	       yes(attr(dp, cudaMemPoolAttrReleaseThreshold) == UINT64_MAX));
	CHECK(cudaMemPoolGetAttribute(dp, cudaMemPoolReuseFollowEventDependencies, &reuse));
	printf("reuse following events: %d\n", reuse);

	CHECK(cudaMallocAsync(&a, 1 << 20, s));
	CHECK(cudaMallocFromPoolAsync(&b, 1 << 20, dp, s));
	CHECK(cudaMemsetAsync(a, 0x5a, 1 << 20, s));
	CHECK(cudaMemcpyAsync(b, a, 1 << 20, cudaMemcpyDeviceToDevice, s));
	CHECK(cudaMemcpyAsync(h, b + (1 << 18) - 2, 8, cudaMemcpyDeviceToHost, s));
	CHECK(cudaFreeAsync(a, s));
	CHECK(cudaFreeAsync(b, s));
	CHECK(cudaStreamSynchronize(s));
	printf("stream-ordered allocations: %s\n", yes(h[0] == 0x5a5a5a5a && h[1] == 0x5a5a5a5a));
	printf("in use after the frees: %llu\n",
	       (unsigned long long)attr(dp, cudaMemPoolAttrUsedMemCurrent));
	CHECK(cudaMemPoolTrimTo(dp, 0));
	printf("kept after trimming: %llu\n",
	       (unsigned long long)attr(dp, cudaMemPoolAttrReservedMemCurrent));
	v = 0;
	CHECK(cudaMemPoolSetAttribute(dp, cudaMemPoolAttrReleaseThreshold, &v));

	props.allocType = cudaMemAllocationTypePinned;
	props.handleTypes = cudaMemHandleTypeNone;
	props.location.type = cudaMemLocationTypeDevice;
	props.location.id = 0;
	CHECK(cudaMemPoolCreate(&mp, &props));
	CHECK(cudaDeviceSetMemPool(0, mp));
	CHECK(cudaMallocAsync(&a, 1 << 20, s));
	CHECK(cudaStreamSynchronize(s));
	printf("cudaMallocAsync from the program's pool: %s\n",
	       yes(attr(mp, cudaMemPoolAttrUsedMemCurrent) >= (1 << 20)));
	CHECK(cudaFreeAsync(a, s));
	CHECK(cudaStreamSynchronize(s));
	CHECK(cudaDeviceSetMemPool(0, dp));
	CHECK(cudaMemPoolDestroy(mp));
	CHECK(cudaDeviceGetMemPool(&cp, 0));
	printf("default pool is current again: %s\n", yes(dp == cp));
	CHECK(cudaStreamDestroy(s));
}

int main()
{
	CHECK(cudaSetDevice(0));
	graphs();
	pools();
	CHECK(cudaDeviceSynchronize());
	printf("PASS\n");
	return 0;
}
