// SPDX-License-Identifier: MIT
/*
 * memops [max_bytes]: every memcpy (HtoD, DtoH, DtoD and their Async forms)
 * and memset (D8, D16, D32 and their Async forms) at sizes from 1 byte up
 * to max_bytes (default 64 MiB), with pageable, cuMemAllocHost and
 * cuMemHostAlloc host buffers; unaligned offsets; the documented
 * synchronisation of asynchronous copies with pageable memory.  Contents
 * are checked against patterns and a host model.  One line per size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

#define MiB (1024ULL * 1024)

static CUstream stream;

static void expect_pattern(const char *what, size_t n, const void *buf,
			   size_t len, uint64_t first, unsigned int seed)
{
	size_t bad = pattern_check(buf, len, first, seed);

	if (bad != len)
		die("size %zu: %s: byte %zu differs", n, what, bad);
}

static void expect_model(const char *what, size_t n, const void *buf,
			 const void *model)
{
	const uint8_t *a = buf, *b = model;
	size_t i;

	if (!memcmp(a, b, n))
		return;
	for (i = 0; a[i] == b[i]; i++)
		;
	die("size %zu: %s: byte %zu is %#x, expected %#x", n, what, i, a[i],
	    b[i]);
}

static void model_set16(uint8_t *m, size_t count, uint16_t v)
{
	size_t i;

	for (i = 0; i < count; i++)
		memcpy(m + 2 * i, &v, 2);
}

static void model_set32(uint8_t *m, size_t count, uint32_t v)
{
	size_t i;

	for (i = 0; i < count; i++)
		memcpy(m + 4 * i, &v, 4);
}

static void copies(size_t n, uint8_t *src, uint8_t *dst, uint8_t *ph,
		   uint8_t *pa, CUdeviceptr d1, CUdeviceptr d2)
{
	/* Synchronous, pageable both ways. */
	pattern_fill(src, n, 0, 1);
	CK(cuMemcpyHtoD(d1, src, n));
	memset(dst, 0, n);
	CK(cuMemcpyDtoH(dst, d1, n));
	expect_pattern("HtoD/DtoH pageable", n, dst, n, 0, 1);

	/* Device to device, then into cuMemAllocHost memory. */
	CK(cuMemcpyDtoD(d2, d1, n));
	memset(ph, 0, n);
	CK(cuMemcpyDtoH(ph, d2, n));
	expect_pattern("DtoD/DtoH pinned", n, ph, n, 0, 1);

	/* Unaligned offsets on both sides: d2[1 .. n-2) = d1[3 .. n). */
	if (n > 3) {
		CK(cuMemcpyDtoD(d2 + 1, d1 + 3, n - 3));
		CK(cuMemcpyDtoH(dst, d2, n));
		expect_pattern("DtoD offset head", n, dst, 1, 0, 1);
		expect_pattern("DtoD offset", n, dst + 1, n - 3, 3, 1);
		expect_pattern("DtoD offset tail", n, dst + n - 2, 2, n - 2, 1);
	}

	/* Asynchronous through cuMemHostAlloc and cuMemAllocHost memory. */
	pattern_fill(pa, n, 0, 2);
	memset(ph, 0, n);
	CK(cuMemcpyHtoDAsync(d1, pa, n, stream));
	CK(cuMemcpyDtoDAsync(d2, d1, n, stream));
	CK(cuMemcpyDtoHAsync(ph, d2, n, stream));
	CK(cuStreamSynchronize(stream));
	expect_pattern("async pinned", n, ph, n, 0, 2);

	/*
	 * Asynchronous with pageable memory.  The driver copies a pageable
	 * source before HtoDAsync returns, so the buffer may be reused at
	 * once; DtoHAsync to pageable memory returns only once the copy has
	 * completed.
	 */
	pattern_fill(src, n, 0, 3);
	CK(cuMemcpyHtoDAsync(d1, src, n, stream));
	memset(src, 0, n);
	memset(dst, 0, n);
	CK(cuMemcpyDtoHAsync(dst, d1, n, stream));
	expect_pattern("async pageable before sync", n, dst, n, 0, 3);
	CK(cuStreamSynchronize(stream));
	expect_pattern("async pageable", n, dst, n, 0, 3);
}

/* model is scratch of n bytes (src, free again by now). */
static void memsets(size_t n, uint8_t *model, uint8_t *dst, uint8_t *ph,
		    CUdeviceptr d1, CUdeviceptr d2)
{
	size_t c16 = n / 2, c32 = n / 4;

	/* Synchronous on d1; each later memset leaves the tail alone. */
	CK(cuMemsetD8(d1, 0xa5, n));
	memset(model, 0xa5, n);
	if (c16) {
		CK(cuMemsetD16(d1, 0x1234, c16));
		model_set16(model, c16, 0x1234);
	}
	if (c32) {
		CK(cuMemsetD32(d1, 0xdeadbeef, c32));
		model_set32(model, c32, 0xdeadbeef);
	}
	CK(cuMemcpyDtoH(dst, d1, n));
	expect_model("memset D8/D16/D32", n, dst, model);

	/* Asynchronous on d2 (pattern seed 2 from copies()), at offsets. */
	pattern_fill(model, n, 0, 2);
	CK(cuMemsetD8Async(d2, 0x5a, n, stream));
	memset(model, 0x5a, n);
	if (n > 2) {
		CK(cuMemsetD8Async(d2 + 1, 0x77, n - 2, stream));
		memset(model + 1, 0x77, n - 2);
	}
	if (n >= 4) {
		CK(cuMemsetD16Async(d2 + 2, 0xbeef, (n - 2) / 2, stream));
		model_set16(model + 2, (n - 2) / 2, 0xbeef);
	}
	if (n >= 12) {
		CK(cuMemsetD32Async(d2 + 4, 0xc0ffee11, (n - 8) / 4, stream));
		model_set32(model + 4, (n - 8) / 4, 0xc0ffee11);
	}
	memset(ph, 0, n);
	CK(cuMemcpyDtoHAsync(ph, d2, n, stream));
	CK(cuStreamSynchronize(stream));
	expect_model("memset Async", n, ph, model);
}

static void one_size(size_t n)
{
	uint8_t *src = malloc(n), *dst = malloc(n);
	void *ph, *pa;
	CUdeviceptr d1, d2;

	if (!src || !dst)
		die("out of memory for %zu bytes", n);
	CK(cuMemAllocHost(&ph, n));
	CK(cuMemHostAlloc(&pa, n, CU_MEMHOSTALLOC_PORTABLE));
	CK(cuMemAlloc(&d1, n));
	CK(cuMemAlloc(&d2, n));

	copies(n, src, dst, ph, pa, d1, d2);
	memsets(n, src, dst, ph, d1, d2);

	CK(cuMemFree(d1));
	CK(cuMemFree(d2));
	CK(cuMemFreeHost(ph));
	CK(cuMemFreeHost(pa));
	free(src);
	free(dst);
	printf("size %zu: copies ok, memsets ok\n", n);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const size_t base[] = { 1, 3, 4096, 65537, MiB + 7, 16 * MiB };
	unsigned long long max = 64 * MiB, s;
	size_t free_b, total_b, last = 0;
	CUcontext ctx;
	CUdevice dev;
	char *end;
	unsigned int i;

	if (argc > 1) {
		max = strtoull(argv[1], &end, 0);
		if (*end || !max)
			die("usage: memops [max_bytes]");
	}

	CK(primary_ctx(&dev, &ctx));
	CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

	CK(cuMemGetInfo(&free_b, &total_b));
	if (!total_b || !free_b || free_b > total_b)
		die("cuMemGetInfo: free %zu total %zu", free_b, total_b);
	printf("meminfo ok\n");

	for (i = 0; i < ARRAY_SIZE(base) && base[i] <= max; i++)
		one_size(last = base[i]);
	for (s = 64 * MiB; s < max; s *= 4)
		if (s > last)
			one_size(last = s);
	if (max > last)
		one_size(max);

	/* Stream-ordered: allocated, filled, read back and freed in stream order. */
	{
		unsigned int w[4] = { 0 };
		CUdeviceptr d;

		CK(cuMemAllocAsync(&d, MiB, stream));
		CK(cuMemsetD32Async(d, 0x600d, MiB / 4, stream));
		CK(cuMemcpyDtoHAsync(w, d + MiB - sizeof(w), sizeof(w), stream));
		CK(cuMemFreeAsync(d, stream));
		CK(cuStreamSynchronize(stream));
		for (i = 0; i < ARRAY_SIZE(w); i++)
			if (w[i] != 0x600d)
				die("stream-ordered allocation: word %u is %#x", i, w[i]);
		printf("stream-ordered allocation ok\n");
	}

	CK(cuStreamDestroy(stream));
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));
	printf("memops: PASS\n");
	return 0;
}
