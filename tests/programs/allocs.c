// SPDX-License-Identifier: MIT
/*
 * allocs: many device allocations of mixed sizes, as an allocator-heavy
 * program (PyTorch's caching allocator) makes them.  Each gets bytes of its
 * own; neighbours must never overlap or touch each other's bytes, through
 * frees and new allocations in the holes; each is aligned to 256 bytes at
 * least, as the driver promises; cuMemGetAddressRange names
 * each allocation; a pointer freed is refused; after everything is freed
 * the device's free memory is back where it started; and a context that
 * ends takes its allocations with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

#define N	96
#define MiB	(1024ULL * 1024)

static size_t size_of(unsigned int i)
{
	/* 1 byte to 7 MiB, in no order, the same every run. */
	static const size_t sz[] = { 1, 100, 512, 513, 4096, 65537, 1 * MiB, 2 * MiB - 1,
				     2 * MiB, 2 * MiB + 1, 3 * MiB + 5, 7 * MiB };

	return sz[(i * 7 + i / 5) % ARRAY_SIZE(sz)];
}

static void fill(CUdeviceptr d, size_t n, unsigned int seed, unsigned char *h)
{
	pattern_fill(h, n, 0, seed);
	CK(cuMemcpyHtoD(d, h, n));
}

static void check(CUdeviceptr d, size_t n, unsigned int seed, unsigned char *h, unsigned int i)
{
	size_t bad;

	CK(cuMemcpyDtoH(h, d, n));
	bad = pattern_check(h, n, 0, seed);
	if (bad != n)
		die("allocation %u (%zu bytes): byte %zu is not its own", i, n, bad);
}

int main(void)
{
	CUdeviceptr d[N], base;
	size_t free0, free1, total, range;
	unsigned char *h = malloc(8 * MiB);
	CUcontext ctx, other;
	CUdevice dev;
	unsigned int i, j;

	if (!h)
		die("out of host memory");
	CK(primary_ctx(&dev, &ctx));
	CK(cuMemGetInfo(&free0, &total));

	for (i = 0; i < N; i++) {
		size_t n = size_of(i);

		CK(cuMemAlloc(&d[i], n));
		if (d[i] % 256)
			die("allocation %u of %zu bytes is aligned to less than 256 bytes", i, n);
		CK(cuMemGetAddressRange(&base, &range, d[i] + n - 1));
		if (base != d[i] || range != n)
			die("allocation %u: cuMemGetAddressRange names %zu bytes at another base", i,
			    range);
		fill(d[i], n, i, h);
	}
	for (i = 0; i < N; i++)
		for (j = i + 1; j < N; j++)
			if (d[i] < d[j] + size_of(j) && d[j] < d[i] + size_of(i))
				die("allocations %u and %u overlap", i, j);
	for (i = 0; i < N; i++)
		check(d[i], size_of(i), i, h, i);
	printf("%u allocations of 1 byte to 7 MiB: aligned, apart, each its own bytes\n", N);

	/* Holes: every third freed, then filled again with other sizes. */
	for (i = 0; i < N; i += 3)
		CK(cuMemFree(d[i]));
	CK_EXPECT(cuMemFree(d[0]), CUDA_ERROR_INVALID_VALUE);
	CK_EXPECT(cuMemsetD8(d[0], 0, 1), CUDA_ERROR_INVALID_VALUE);
	for (i = 0; i < N; i += 3) {
		CK(cuMemAlloc(&d[i], size_of(i + 1)));
		fill(d[i], size_of(i + 1), 1000 + i, h);
	}
	for (i = 0; i < N; i++)
		check(d[i], size_of(i % 3 ? i : i + 1), i % 3 ? i : 1000 + i, h, i);
	printf("freed and allocated again in the holes: nothing touched its neighbours\n");

	/* A kernel-sized use between frees: a fill of each, checked. */
	for (i = 0; i < N; i++)
		CK(cuMemsetD8(d[i], (unsigned char)i, size_of(i % 3 ? i : i + 1)));
	for (i = 0; i < N; i++) {
		size_t n = size_of(i % 3 ? i : i + 1);

		CK(cuMemcpyDtoH(h, d[i], n));
		for (j = 0; j < n; j++)
			if (h[j] != (unsigned char)i)
				die("allocation %u: byte %u of the fill is %#x", i, j, h[j]);
	}
	printf("fills of every allocation stayed inside it\n");

	for (i = 0; i < N; i++)
		CK(cuMemFree(d[i]));
	CK(cuMemGetInfo(&free1, &total));
	if (free1 + 64 * MiB < free0)
		die("after every free the device has %zu MiB less free than at the start",
		    (size_t)((free0 - free1) / MiB));
	printf("every allocation freed: the device's free memory is back\n");

	/* A context of its own: its allocations end with it. */
	CK(cuCtxCreate(&other, NULL, 0, dev));
	for (i = 0; i < 8; i++) {
		CK(cuMemAlloc(&d[i], size_of(i)));
		fill(d[i], size_of(i), 77 + i, h);
	}
	check(d[7], size_of(7), 84, h, 7);
	CK(cuCtxDestroy(other));
	CK(cuCtxSetCurrent(ctx));
	CK_EXPECT(cuMemsetD8(d[3], 0, 1), CUDA_ERROR_INVALID_VALUE);
	CK(cuMemAlloc(&d[0], 5 * MiB));
	fill(d[0], 5 * MiB, 5, h);
	check(d[0], 5 * MiB, 5, h, 0);
	CK(cuMemFree(d[0]));
	printf("a destroyed context's allocations went with it; its device serves the next\n");

	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));
	free(h);
	printf("allocs: PASS\n");
	return 0;
}
