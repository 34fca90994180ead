// SPDX-License-Identifier: MIT
/*
 * upload SEED [MIB [BIGSEED]]: copies to the device of every size around the chunk
 * boundaries (1 MiB) and the naming threshold (64 KiB), from unaligned and
 * aligned, pageable and page-locked host memory, synchronous and
 * asynchronous, each read back and compared; then MIB MiB (default 8)
 * uploaded twice into two buffers.  The bytes depend on SEED only (the big
 * buffer's on BIGSEED, SEED by default), so a second run with the same
 * seeds uploads the same content.  Then a module image of 2.5 MiB (the test
 * kernel vec_add's PTX, padded with comments; from $GLEAM_TEST_KERNELS or
 * build/tests/kernels) is loaded as a module and as a library, and its
 * kernel looked up in each.  Prints one line per copy and exits 0 when
 * every copy came back intact and the image loaded.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"

#define CK(x)								\
	do {								\
		CUresult r_ = (x);					\
		if (r_) {						\
			const char *n_ = NULL;				\
			cuGetErrorName(r_, &n_);			\
			printf("%s: %s\n", #x, n_ ? n_ : "?");		\
			exit(1);					\
		}							\
	} while (0)

static void fill(unsigned char *p, size_t n, uint64_t seed, uint64_t salt)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull ^ salt * 0xc2b2ae3d27d4eb4full ^ 1;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)x;
	}
}

static int one(CUstream s, size_t n, unsigned int k, uint64_t seed, int mode)
{
	unsigned char *host, *src, *back;
	CUdeviceptr d;
	int bad;

	/* mode: 0 pageable unaligned sync, 1 page-locked async, 2 pageable async */
	if (mode == 1) {
		CK(cuMemHostAlloc((void **)&host, n + 8, 0));
		src = host;
	} else {
		host = malloc(n + 8);
		src = host + 3;
	}
	back = malloc(n ? n : 1);
	if (!host || !back)
		return 1;
	fill(src, n, seed, k);
	CK(cuMemAlloc(&d, n ? n : 1));
	if (mode == 0)
		CK(cuMemcpyHtoD(d, src, n));
	else
		CK(cuMemcpyHtoDAsync(d, src, n, s));
	/* The copy took the bytes when it returned: changing them now changes nothing. */
	memset(src, 0xee, n);
	CK(cuStreamSynchronize(s));
	CK(cuMemcpyDtoH(back, d, n));
	fill(src, n, seed, k);
	bad = memcmp(back, src, n) != 0;
	printf("%9zu bytes, %s: %s\n", n,
	       mode == 0 ? "pageable+3, sync " : mode == 1 ? "page-locked, async" :
	       "pageable+3, async", bad ? "DIFFERENT" : "ok");
	CK(cuMemFree(d));
	if (mode == 1)
		CK(cuMemFreeHost(host));
	else
		free(host);
	free(back);
	return bad;
}

/* vec_add's PTX with 2.5 MiB of comments: an image sent in pieces. */
static int big_image(void)
{
	const char *dir = getenv("GLEAM_TEST_KERNELS");
	char path[4096];
	size_t n = 0, cap = (5u << 19) + (1u << 20);
	char *img = malloc(cap);
	CUmodule m;
	CUlibrary l;
	CUfunction f;
	CUkernel k;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/vec_add.ptx", dir ? dir : "build/tests/kernels");
	fp = fopen(path, "r");
	if (!fp || !img) {
		printf("image: cannot read %s\n", path);
		return 1;
	}
	n = fread(img, 1, cap / 2, fp);
	fclose(fp);
	for (unsigned int i = 0; n + 80 < cap - 1 && n < (5u << 19); i++)
		n += (size_t)snprintf(img + n, cap - n, "// padding line %u of a large image\n", i);
	img[n] = 0;
	CK(cuModuleLoadData(&m, img));
	CK(cuModuleGetFunction(&f, m, "vec_add"));
	CK(cuModuleUnload(m));
	CK(cuLibraryLoadData(&l, img, NULL, NULL, 0, NULL, NULL, 0));
	CK(cuLibraryGetKernel(&k, l, "vec_add"));
	CK(cuLibraryUnload(l));
	printf("%9zu bytes of image, as a module and as a library: ok\n", n + 1);
	free(img);
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = {
		1, 4095, 65535, 65536, 65537, (1 << 20) - 1, 1 << 20, (1 << 20) + 1,
		(2 << 20) + 4097, (3 << 20) + 17,
	};
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
	size_t big = (argc > 2 ? strtoull(argv[2], NULL, 10) : 8) << 20;
	uint64_t bigseed = argc > 3 ? strtoull(argv[3], NULL, 10) : seed;
	unsigned char *h, *b1, *b2;
	CUdeviceptr d1, d2;
	CUcontext ctx;
	CUdevice dev;
	CUstream s;
	int bad = 0;
	unsigned int k = 0;

	CK(primary_ctx(&dev, &ctx));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (int mode = 0; mode < 3; mode++)
			bad |= one(s, sizes[i], k++, seed, mode);
	/* The same bytes twice in one run: the second crosses as names. */
	h = malloc(big);
	b1 = malloc(big);
	b2 = malloc(big);
	if (!h || !b1 || !b2)
		return 1;
	fill(h, big, bigseed, 1000);
	CK(cuMemAlloc(&d1, big));
	CK(cuMemAlloc(&d2, big));
	CK(cuMemcpyHtoD(d1, h, big));
	CK(cuMemcpyHtoDAsync(d2, h, big, s));
	CK(cuStreamSynchronize(s));
	CK(cuMemcpyDtoH(b1, d1, big));
	CK(cuMemcpyDtoH(b2, d2, big));
	bad |= memcmp(b1, h, big) || memcmp(b2, h, big);
	printf("%9zu bytes twice: %s\n", big, memcmp(b1, h, big) || memcmp(b2, h, big) ?
	       "DIFFERENT" : "ok");
	CK(cuMemFree(d1));
	CK(cuMemFree(d2));
	bad |= big_image();
	CK(cuStreamDestroy(s));
	CK(cuDevicePrimaryCtxRelease(dev));
	free(h);
	free(b1);
	free(b2);
	printf("upload: %s\n", bad ? "FAIL" : "PASS");
	return bad;
}
