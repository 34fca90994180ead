// SPDX-License-Identifier: MIT
/*
 * managed: managed memory (cuMemAllocManaged) used by kernels and by this
 * process in turn, with a synchronisation between (as a device without
 * concurrent managed access requires): rounds of host writes and kernels
 * on two streams, copies and fills to and from it, the hints (advice,
 * prefetches) and what cuMemRangeGetAttribute says of them, a stream
 * association, pointer attributes.  Every check compares with a host
 * model and prints only its verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define N	(256 * 1024 + 77)	/* floats, not a whole number of pages */
#define ROUNDS	6

static CUfunction f_saxpy, f_fill;

static int range_int(CUmem_range_attribute attr, CUdeviceptr p, size_t n)
{
	int v;

	CK(cuMemRangeGetAttribute(&v, sizeof(v), attr, p, n));
	return v;
}

static void hints(CUdeviceptr x, CUdevice dev, CUstream s)
{
	CUmemLocation here = { CU_MEM_LOCATION_TYPE_DEVICE, dev };
	CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 };
	size_t bytes = N * sizeof(float);
	int by[3];

	printf("before any hint: read mostly %d, preferred %d, last prefetch %d\n",
	       range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, x, bytes),
	       range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, x, bytes),
	       range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, x, bytes));
	CK(cuMemAdvise(x, bytes, CU_MEM_ADVISE_SET_READ_MOSTLY, here));
	CK(cuMemAdvise(x, bytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, here));
	CK(cuMemAdvise(x, bytes, CU_MEM_ADVISE_SET_ACCESSED_BY, here));
	CK(cuMemRangeGetAttribute(by, sizeof(by), CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, x, bytes));
	printf("advised: read mostly %d, preferred device %s, accessed by %s, then %d and %d\n",
	       range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, x, bytes),
	       range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, x, bytes) == dev ? "this" : "other",
	       by[0] == dev ? "this device" : "other", by[1], by[2]);
	CK(cuMemPrefetchAsync(x, bytes, here, 0, s));
	printf("prefetched to the device: last prefetch %s\n",
	       range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, x, bytes) == dev ? "this device" :
	       "other");
	CK(cuMemPrefetchAsync(x, bytes, host, 0, s));
	printf("prefetched to the host: last prefetch %d\n",
	       range_int(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, x, bytes));
	CK(cuStreamSynchronize(s));
	CK(cuMemAdvise(x, bytes, CU_MEM_ADVISE_UNSET_READ_MOSTLY, here));
	CK(cuMemAdvise(x, bytes, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, here));
	CK(cuMemAdvise(x, bytes, CU_MEM_ADVISE_UNSET_ACCESSED_BY, here));
	printf("advice taken back: read mostly %d, preferred %d\n",
	       range_int(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, x, bytes),
	       range_int(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, x, bytes));
}

int main(void)
{
	CUdeviceptr dx, dy, d;
	unsigned int managed;
	float *x, *y, *want;
	CUstream s[2];
	CUcontext ctx;
	CUmodule mod;
	CUdevice dev;
	int supported;

	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, dev));
	printf("managed memory: %s\n", supported ? "supported" : "not supported");
	if (!supported)
		return 0;
	CK(cuCtxCreate(&ctx, NULL, 0, dev));
	mod = load_function("misc.ptx", "saxpy", &f_saxpy);
	CK(cuModuleGetFunction(&f_fill, mod, "fill_u32"));
	CK(cuStreamCreate(&s[0], CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreate(&s[1], CU_STREAM_NON_BLOCKING));

	CK(cuMemAllocManaged(&dx, N * sizeof(float), CU_MEM_ATTACH_GLOBAL));
	CK(cuMemAllocManaged(&dy, N * sizeof(float), CU_MEM_ATTACH_GLOBAL));
	x = (float *)(uintptr_t)dx;
	y = (float *)(uintptr_t)dy;
	CK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, dx));
	printf("a managed pointer says it is managed: %s\n", managed ? "yes" : "no");
	want = malloc(N * sizeof(float));
	if (!want)
		die("out of memory");

	/* The host writes, a kernel updates, the host reads and writes again, in rounds. */
	for (int i = 0; i < N; i++) {
		x[i] = (float)(i % 1000);
		y[i] = 1.0f;
		want[i] = y[i];
	}
	for (int r = 0; r < ROUNDS; r++) {
		CUstream st = s[r % 2];

		launch_saxpy(f_saxpy, 2.0f, dx, dy, N, st);
		CK(r % 3 == 2 ? cuCtxSynchronize() : cuStreamSynchronize(st));
		for (int i = 0; i < N; i++)
			want[i] = 2.0f * x[i] + want[i];
		expect_floats(y, want, N, "a kernel's update of managed memory, read by the host");
		/* The host changes a few of the inputs and the outputs before the next round. */
		for (int i = r; i < N; i += 4099) {
			x[i] = (float)(r + 1);
			y[i] = (float)(10 * r);
			want[i] = y[i];
		}
	}
	printf("%d rounds of host and kernel in turn\n", ROUNDS);

	/* Copies and fills with managed memory at either end. */
	CK(cuMemAlloc(&d, N * sizeof(float)));
	CK(cuMemcpy(d, dy, N * sizeof(float)));
	CK(cuMemsetD32(dy, 0, N));
	for (int i = 0; i < 16; i++)
		if (y[i] != 0.0f)
			die("managed memory after a fill: element %d is %g", i, y[i]);
	printf("a fill of managed memory, read by the host ok\n");
	CK(cuMemcpy(dy, d, N * sizeof(float)));
	expect_floats(y, want, N, "device memory copied into managed memory, read by the host");
	for (int i = 0; i < N; i++) {
		y[i] = (float)(i & 7);
		want[i] = y[i];
	}
	CK(cuMemcpyDtoH(want, dy, N * sizeof(float)));
	expect_floats(y, want, N, "managed memory the host wrote, copied to the host");
	CK(cuMemcpyHtoD(dx, want, N * sizeof(float)));
	expect_floats(x, want, N, "host memory copied into managed memory, read by the host");
	launch_fill(f_fill, dx, 0x3f800000u, N, s[1]);
	CK(cuMemcpyDtoDAsync(d, dx, N * sizeof(float), s[1]));
	CK(cuStreamSynchronize(s[1]));
	CK(cuMemcpyDtoH(want, d, N * sizeof(float)));
	expect_floats(x, want, N, "a kernel's fill of managed memory, copied on the device and read");

	/* Association with a stream, accepted as on a device with concurrent access or not. */
	CK(cuStreamAttachMemAsync(s[0], dy, 0, CU_MEM_ATTACH_SINGLE));
	CK(cuStreamSynchronize(s[0]));
	printf("managed memory attached to a stream\n");

	hints(dx, dev, s[0]);

	CK(cuMemFree(d));
	CK(cuMemFree(dx));
	CK(cuMemFree(dy));
	free(want);
	CK(cuStreamDestroy(s[0]));
	CK(cuStreamDestroy(s[1]));
	CK(cuCtxDestroy(ctx));
	printf("managed: PASS\n");
	return 0;
}
