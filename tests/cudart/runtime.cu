// SPDX-License-Identifier: MIT
// The CUDA runtime calls that need more of the driver than basics.cu:
// capture state, host registration, pointer attributes, function
// attributes and cache preferences, occupancy, peer queries, copies whose
// direction the driver infers, and a device reset with work after it.
// It prints only what does not depend on the GPU (tests/cudart/expected/).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "cudart.h"
#include "../kernels/vec_add.cu"

// A call expected to fail: its error's name; the runtime's last error is
// cleared, so that a later cudaGetLastError() sees only what follows.
static const char *err(cudaError_t e)
{
	cudaGetLastError();
	return cudaGetErrorName(e);
}

#define ERR(x) err(x)

static const char *type_name(cudaMemoryType t)
{
	switch (t) {
	case cudaMemoryTypeUnregistered:
		return "unregistered";
	case cudaMemoryTypeHost:
		return "host";
	case cudaMemoryTypeDevice:
		return "device";
	case cudaMemoryTypeManaged:
		return "managed";
	}
	return "?";
}

static void capture(void)
{
	cudaStreamCaptureStatus st;
	cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
	unsigned long long id;
	cudaStream_t s;
	int dev;

	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaStreamIsCapturing(s, &st));
	printf("stream capturing: %s\n", yes(st != cudaStreamCaptureStatusNone));
	CHECK(cudaStreamIsCapturing(0, &st));
	printf("default stream capturing: %s\n", yes(st != cudaStreamCaptureStatusNone));
	CHECK(cudaStreamGetCaptureInfo(s, &st, &id));
	printf("capture info: %s\n", st == cudaStreamCaptureStatusNone ? "none" : "active");
	CHECK(cudaThreadExchangeStreamCaptureMode(&m));
	printf("capture mode was global: %s\n", yes(m == cudaStreamCaptureModeGlobal));
	CHECK(cudaThreadExchangeStreamCaptureMode(&m));
	printf("capture mode was relaxed: %s\n", yes(m == cudaStreamCaptureModeRelaxed));
	CHECK(cudaStreamGetDevice(s, &dev));
	printf("stream device: %d\n", dev);
	CHECK(cudaStreamDestroy(s));
}

static void memory(void)
{
	const size_t n = 1 << 16;
	cudaPointerAttributes a;
	char *reg = (char *)malloc(n), *plain = (char *)malloc(64), *pinned;
	float *d;

	if (!reg || !plain)
		exit(1);
	CHECK(cudaMalloc(&d, n));
	CHECK(cudaMallocHost(&pinned, n));
	CHECK(cudaHostRegister(reg, n, cudaHostRegisterDefault));
	printf("register twice: %s\n", ERR(cudaHostRegister(reg, n, cudaHostRegisterDefault)));

	CHECK(cudaPointerGetAttributes(&a, d));
	printf("device memory: %s, device %d, device pointer %s, host pointer %s\n",
	       type_name(a.type), a.device, yes(a.devicePointer == d), yes(a.hostPointer != NULL));
	CHECK(cudaPointerGetAttributes(&a, (char *)d + 100));
	printf("inside device memory: %s, device pointer %s\n", type_name(a.type),
	       yes(a.devicePointer == (char *)d + 100));
	CHECK(cudaPointerGetAttributes(&a, reg + 8));
	printf("registered memory: %s, device %d, host pointer %s\n", type_name(a.type),
	       a.device, yes(a.hostPointer == reg + 8));
	CHECK(cudaPointerGetAttributes(&a, pinned));
	printf("pinned memory: %s, host pointer %s\n", type_name(a.type),
	       yes(a.hostPointer == pinned));
	CHECK(cudaPointerGetAttributes(&a, plain));
	printf("ordinary memory: %s\n", type_name(a.type));

	CHECK(cudaHostUnregister(reg));
	printf("unregister twice: %s\n", ERR(cudaHostUnregister(reg)));
	CHECK(cudaPointerGetAttributes(&a, reg));
	printf("after unregister: %s\n", type_name(a.type));

	// Copies whose direction the driver infers from the addresses.
	for (size_t i = 0; i < n; i++)
		reg[i] = (char)(i * 7);
	CHECK(cudaMemcpy(d, reg, n, cudaMemcpyDefault));
	CHECK(cudaMemcpy((char *)d + n / 2, d, n / 2, cudaMemcpyDefault));
	CHECK(cudaMemcpyAsync(pinned, d, n, cudaMemcpyDefault, 0));
	CHECK(cudaStreamSynchronize(0));
	CHECK(cudaMemcpy(plain, pinned + 1, 64, cudaMemcpyDefault));
	{
		int bad = 0;

		for (size_t i = 0; i < n; i++)
			bad += pinned[i] != (char)((i % (n / 2)) * 7);
		for (size_t i = 0; i < 64; i++)
			bad += plain[i] != pinned[i + 1];
		printf("copies of inferred direction: %d bytes wrong\n", bad);
	}
	CHECK(cudaFree(d));
	CHECK(cudaFreeHost(pinned));
	free(reg);
	free(plain);
}

static void functions(void)
{
	cudaFuncAttributes fa;
	cudaFuncCache cc;
	cudaSharedMemConfig smc;
	int blocks, again;

	CHECK(cudaFuncGetAttributes(&fa, vec_add));
	printf("vec_add: max threads per block %d, dynamic shared memory %zu\n",
	       fa.maxThreadsPerBlock, (size_t)fa.maxDynamicSharedSizeBytes);
	CHECK(cudaFuncSetAttribute(vec_add, cudaFuncAttributeMaxDynamicSharedMemorySize, 2048));
	CHECK(cudaFuncGetAttributes(&fa, vec_add));
	printf("vec_add: dynamic shared memory now %zu\n", (size_t)fa.maxDynamicSharedSizeBytes);
	printf("too much dynamic shared memory: %s\n",
	       ERR(cudaFuncSetAttribute(vec_add, cudaFuncAttributeMaxDynamicSharedMemorySize,
					1 << 30)));
	CHECK(cudaFuncSetAttribute(vec_add, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
	CHECK(cudaFuncSetCacheConfig(vec_add, cudaFuncCachePreferShared));

	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, vec_add, 256, 0));
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&again, vec_add, 256, 0));
	printf("occupancy of 256-thread blocks: %s, the same again: %s\n",
	       blocks > 0 ? "some" : "none", yes(again == blocks));
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, vec_add, 2048, 0));
	printf("occupancy of 2048-thread blocks: %d\n", blocks);

	CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
	CHECK(cudaDeviceGetCacheConfig(&cc));
	printf("cache preference: %s\n", cc == cudaFuncCachePreferL1 ? "L1" : "other");
	CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));
	// Deprecated, yet still forwarded to the driver: it must keep working.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	CHECK(cudaDeviceGetSharedMemConfig(&smc));
#pragma GCC diagnostic pop
	printf("shared memory banks: %s\n",
	       smc == cudaSharedMemBankSizeFourByte ? "four bytes" : "other");
}

static void peers(void)
{
	int can = -1, v;

	CHECK(cudaDeviceCanAccessPeer(&can, 0, 0));
	printf("device 0 is its own peer: %s\n", yes(can));
	printf("peer attribute of device 0 with itself: %s\n",
	       ERR(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0)));
}

// A reset destroys the primary context: the runtime's state for it goes,
// and the next call makes a new one.
static void reset(void)
{
	const int n = 4096;
	float h[n], *a, *c;
	int bad = 0;

	CHECK(cudaMalloc(&a, n * sizeof(float)));
	CHECK(cudaDeviceReset());
	CHECK(cudaMalloc(&a, n * sizeof(float)));
	CHECK(cudaMalloc(&c, n * sizeof(float)));
	for (int i = 0; i < n; i++)
		h[i] = (float)i;
	CHECK(cudaMemcpy(a, h, sizeof(h), cudaMemcpyHostToDevice));
	vec_add<<<n / 128, 128>>>(a, a, c, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(h, c, sizeof(h), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		bad += h[i] != 2.0f * i;
	printf("after a device reset: %d elements wrong\n", bad);
	CHECK(cudaFree(a));
	CHECK(cudaFree(c));
}

int main()
{
	CHECK(cudaSetDevice(0));
	capture();
	memory();
	functions();
	peers();
	reset();
	CHECK(cudaDeviceSynchronize());
	printf("PASS\n");
	return 0;
}
