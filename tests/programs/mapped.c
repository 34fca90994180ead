// SPDX-License-Identifier: MIT
/*
 * mapped: page-locked host memory mapped into the device's address space
 * (cuMemHostAlloc with CU_MEMHOSTALLOC_DEVICEMAP, cuMemHostRegister with
 * CU_MEMHOSTREGISTER_DEVICEMAP), read and written by kernels through the
 * device pointers the driver gives, and by this process in between: the
 * host writes, a kernel reads them; a kernel writes, the host reads after
 * each kind of point that makes the writes visible (a context or stream
 * synchronisation, an event's, a query that finds the stream done, a copy
 * to host memory that waited).  Every check compares with a host model
 * and prints only its verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define N	(300 * 1024)		/* floats: more than a megabyte, and a partial page */

static CUfunction f_vec_add, f_saxpy, f_fill;

static void vec_add(CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int n, CUstream s)
{
	void *args[] = { &a, &b, &c, &n };

	CK(cuLaunchKernel(f_vec_add, blocks_for((uint64_t)n, 256), 1, 1, 256, 1, 1, 0, s, args,
			  NULL));
}

static void check_u32(const uint32_t *got, uint32_t v, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (got[i] != v)
			die("%s: element %zu is %#x, expected %#x", what, i, got[i], v);
	printf("%s ok\n", what);
}

int main(void)
{
	float *a, *b, *c, *want;
	CUdeviceptr da, db, dc, dp, d_tmp;
	unsigned int flags, type;
	uint32_t *reg, word;
	CUcontext ctx;
	CUstream s;
	CUevent ev;
	CUdevice dev;
	CUresult q;
	size_t reg_bytes = 3 * 4096 * 10 + 512;
	int can;

	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDeviceGetAttribute(&can, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, dev));
	printf("mapping host memory: %s\n", can ? "supported" : "not supported");
	if (!can)
		return 0;
	CK(cuCtxCreate(&ctx, NULL, CU_CTX_MAP_HOST, dev));
	load_function("vec_add.ptx", "vec_add", &f_vec_add);
	{
		CUmodule misc = load_module("misc.ptx");

		CK(cuModuleGetFunction(&f_saxpy, misc, "saxpy"));
		CK(cuModuleGetFunction(&f_fill, misc, "fill_u32"));
	}
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));

	CK(cuMemHostAlloc((void **)&a, N * sizeof(float), CU_MEMHOSTALLOC_DEVICEMAP));
	CK(cuMemHostAlloc((void **)&b, N * sizeof(float), CU_MEMHOSTALLOC_DEVICEMAP));
	CK(cuMemHostAlloc((void **)&c, N * sizeof(float),
			  CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
	CK(cuMemHostGetFlags(&flags, c));
	printf("flags of a mapped allocation: %s\n",
	       flags == (CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE) ? "as allocated" : "other");
	CK(cuMemHostGetDevicePointer(&da, a, 0));
	CK(cuMemHostGetDevicePointer(&db, b, 0));
	CK(cuMemHostGetDevicePointer(&dc, c, 0));
	CK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)a));
	CK(cuPointerGetAttribute(&dp, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)(uintptr_t)a));
	printf("pointer attributes: %s memory, its device pointer %s\n",
	       type == CU_MEMORYTYPE_HOST ? "host" : "other",
	       dp == da ? "the one cuMemHostGetDevicePointer gives" : "another");
	{
		/* Page-locked memory not mapped yet: the range a pointer into it lies in. */
		CUdeviceptr start = 0;
		size_t rsz = 0;
		void *h;

		CK(cuMemAllocHost(&h, 3 * 4096 + 5));
		CK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
					 (CUdeviceptr)(uintptr_t)h + 4100));
		CK(cuPointerGetAttribute(&rsz, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
					 (CUdeviceptr)(uintptr_t)h + 4100));
		printf("the range of a pointer into page-locked memory: %s start, %s\n",
		       start == (uintptr_t)h ? "its allocation's" : "another",
		       rsz >= 3 * 4096 + 5 ? "at least its size" : "smaller");
		CK(cuMemFreeHost(h));
	}
	want = malloc(N * sizeof(float));
	if (!want)
		die("out of memory");

	/* The host writes, a kernel reads and writes, the host reads after a synchronisation. */
	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = (float)(2 * i + 1);
		want[i] = a[i] + b[i];
	}
	vec_add(da, db, dc, N, NULL);
	CK(cuCtxSynchronize());
	expect_floats(c, want, N, "a kernel's sums in mapped memory after cuCtxSynchronize");

	/* Some of the host's inputs change; a kernel on a stream; the stream synchronised. */
	for (int i = 0; i < N; i += 997) {
		a[i] = -3.0f;
		want[i] = a[i] + b[i];
	}
	vec_add(da, db, dc, N, s);
	CK(cuStreamSynchronize(s));
	expect_floats(c, want, N, "inputs changed by the host, read after cuStreamSynchronize");

	/* y = 2x + y in place, the host reads after the event the stream recorded. */
	launch_saxpy(f_saxpy, 2.0f, da, dc, N, s);
	CK(cuEventRecord(ev, s));
	CK(cuEventSynchronize(ev));
	for (int i = 0; i < N; i++)
		want[i] = 2.0f * a[i] + want[i];
	expect_floats(c, want, N, "a kernel's writes read after cuEventSynchronize");

	/* Read after a query that finds the stream done. */
	launch_fill(f_fill, dc, 0x40490fdbu, N, s);
	while ((q = cuStreamQuery(s)) == CUDA_ERROR_NOT_READY)
		;
	CK(q);
	check_u32((uint32_t *)c, 0x40490fdbu, N, "a kernel's fill read after cuStreamQuery");

	/* Read after a copy to host memory that waited, on the legacy stream. */
	CK(cuMemAlloc(&d_tmp, 4));
	launch_fill(f_fill, dc, 0x7u, N, NULL);
	CK(cuMemcpyDtoH(&word, d_tmp, 4));
	check_u32((uint32_t *)c, 0x7u, N, "a kernel's fill read after a copy to the host");

	/* Copies between device memory and mapped memory, in both directions. */
	for (int i = 0; i < N; i++)
		b[i] = (float)(N - i);
	CK(cuMemcpyHtoD(d_tmp, &b[5], 4));
	CK(cuMemcpyDtoH(&word, d_tmp, 4));
	printf("a copy from mapped memory: %s\n", !memcmp(&word, &b[5], 4) ? "as written" : "other");
	{
		CUdeviceptr d_big;

		CK(cuMemAlloc(&d_big, N * sizeof(float)));
		CK(cuMemcpyHtoD(d_big, b, N * sizeof(float)));
		CK(cuMemsetD32(d_big, 0x11223344u, 1024));
		CK(cuMemcpyDtoH(a, d_big, N * sizeof(float)));
		for (int i = 0; i < N; i++)
			memcpy(&want[i], i < 1024 ? &(uint32_t){ 0x11223344u } : (void *)&b[i], 4);
		expect_floats(a, want, N, "mapped memory through device memory and back");
		vec_add(da, da, dc, N, NULL);
		CK(cuCtxSynchronize());
		for (int i = 0; i < N; i++)
			want[i] = a[i] + a[i];
		expect_floats(c, want, N, "a kernel reads what a copy put in mapped memory");
		CK(cuMemFree(d_big));
	}

	/* Registered memory, mapped: a kernel fills it, the host reads, writes, a kernel reads. */
	reg = aligned_alloc(4096, reg_bytes + 4096 - reg_bytes % 4096);
	if (!reg)
		die("out of memory");
	memset(reg, 0, reg_bytes);
	CK(cuMemHostRegister(reg, reg_bytes, CU_MEMHOSTREGISTER_DEVICEMAP));
	CK(cuMemHostGetDevicePointer(&dp, reg, 0));
	launch_fill(f_fill, dp, 0xfeedbeefu, reg_bytes / 4, NULL);
	CK(cuCtxSynchronize());
	check_u32(reg, 0xfeedbeefu, reg_bytes / 4, "a kernel's fill of registered memory");
	for (size_t i = 0; i < reg_bytes / 4; i++)
		reg[i] = 0x3f800000u;	/* 1.0f */
	launch_saxpy(f_saxpy, 3.0f, dp, dc, (int)(reg_bytes / 4), NULL);
	CK(cuCtxSynchronize());
	for (size_t i = 0; i < reg_bytes / 4; i++)
		want[i] = 3.0f * 1.0f + want[i];
	expect_floats(c, want, reg_bytes / 4, "a kernel reads what the host wrote in registered memory");
	CK(cuMemHostUnregister(reg));
	free(reg);

	CK(cuMemFree(d_tmp));
	CK(cuMemFreeHost(a));
	CK(cuMemFreeHost(b));
	CK(cuMemFreeHost(c));
	free(want);
	CK(cuEventDestroy(ev));
	CK(cuStreamDestroy(s));
	CK(cuCtxDestroy(ctx));
	printf("mapped: PASS\n");
	return 0;
}
