// SPDX-License-Identifier: MIT
/*
 * vmm: virtual memory management.  A reservation mapped in pieces (two
 * allocations side by side, a granule left unmapped), access set over
 * both at once, a kernel that fills across the seam, copies and fills
 * across it, one allocation mapped at a second address and seen through
 * both, the handle behind an address, handles released while mapped,
 * unmapping and mapping a new allocation in the same place, and the
 * errors the driver gives at the call for mappings it cannot make.  Every
 * check compares bytes with a host model and prints only its verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static CUdevice dev;
static size_t gran;
static CUfunction f_fill, f_saxpy;

static CUmemAllocationProp prop(void)
{
	CUmemAllocationProp p;

	memset(&p, 0, sizeof(p));
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = dev;
	return p;
}

static CUmemGenericAllocationHandle create(size_t size)
{
	CUmemAllocationProp p = prop();
	CUmemGenericAllocationHandle h;

	CK(cuMemCreate(&h, size, &p, 0));
	return h;
}

static void access_rw(CUdeviceptr p, size_t size)
{
	CUmemAccessDesc d;

	memset(&d, 0, sizeof(d));
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = dev;
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	CK(cuMemSetAccess(p, size, &d, 1));
}

static void fill(CUdeviceptr p, uint32_t v, size_t bytes)
{
	unsigned long long n = bytes / 4;
	void *args[] = { &p, &v, &n };

	CK(cuLaunchKernel(f_fill, 64, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
}

/* Bytes [0, n) of dev at p equal model's, or the program dies naming what. */
static void compare(CUdeviceptr p, const void *model, size_t n, const char *what)
{
	unsigned char *got = malloc(n);

	if (!got)
		die("out of memory");
	CK(cuMemcpyDtoH(got, p, n));
	for (size_t i = 0; i < n; i++)
		if (got[i] != ((const unsigned char *)model)[i])
			die("%s: byte %zu is %#x, expected %#x", what, i, got[i],
			    ((const unsigned char *)model)[i]);
	free(got);
	printf("%s ok\n", what);
}

static void model_u32(unsigned char *m, size_t off, uint32_t v, size_t bytes)
{
	for (size_t i = 0; i < bytes; i += 4)
		memcpy(m + off + i, &v, 4);
}

int main(void)
{
	CUmemGenericAllocationHandle h1, h2, h3, back;
	CUmemAllocationProp p = prop(), q;
	CUdeviceptr base, alias;
	unsigned long long flags;
	size_t rec, total;
	unsigned char *model, *pat;
	CUcontext ctx;
	CUmodule mod;
	float a = 2.0f;
	int n, vmm;

	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev));
	printf("virtual memory management: %s\n", vmm ? "supported" : "not supported");
	if (!vmm)
		return 0;
	CK(cuCtxCreate(&ctx, NULL, 0, dev));
	mod = load_function("misc.ptx", "fill_u32", &f_fill);
	CK(cuModuleGetFunction(&f_saxpy, mod, "saxpy"));

	CK(cuMemGetAllocationGranularity(&gran, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	CK(cuMemGetAllocationGranularity(&rec, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
	if (!gran || (gran & (gran - 1)) || rec % gran)
		die("granularity %zu, recommended %zu", gran, rec);
	printf("granularity: a power of two, the recommended one a multiple of it\n");

	/* Four granules reserved: two of one allocation, one of another, one left unmapped. */
	total = 3 * gran;
	CK(cuMemAddressReserve(&base, 4 * gran, 0, 0, 0));
	h1 = create(2 * gran);
	h2 = create(gran);
	CK(cuMemGetAllocationPropertiesFromHandle(&q, h2));
	printf("properties of a handle: %s\n",
	       q.type == CU_MEM_ALLOCATION_TYPE_PINNED && q.location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
	       q.location.id == dev ? "as created" : "different");
	CK(cuMemMap(base, 2 * gran, 0, h1, 0));
	CK(cuMemMap(base + 2 * gran, gran, 0, h2, 0));
	printf("mapped two allocations side by side\n");
	printf("a mapping over a mapping: %s\n",
	       CK_EXPECT(cuMemMap(base + gran, gran, 0, h2, 0), CUDA_ERROR_INVALID_VALUE));
	printf("a mapping of part of a granule: %s\n",
	       CK_EXPECT(cuMemMap(base + 3 * gran, gran / 2, 0, h2, 0), CUDA_ERROR_NOT_SUPPORTED));
	access_rw(base, total);
	CK(cuMemGetAccess(&flags, &p.location, base + 2 * gran + 64));
	printf("access: %s\n", flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE ? "read and write" : "other");

	/* A kernel fills across the seam between the two allocations. */
	model = malloc(total);
	pat = malloc(2 * 65536);
	if (!model || !pat)
		die("out of memory");
	fill(base, 0x5eed0001u, total);
	model_u32(model, 0, 0x5eed0001u, total);
	compare(base, model, total, "a kernel's fill across two mappings");

	/* Copies and fills that cross the seam. */
	pattern_fill(pat, 2 * 65536, 0, 7);
	CK(cuMemcpyHtoD(base + 2 * gran - 65536, pat, 2 * 65536));
	memcpy(model + 2 * gran - 65536, pat, 2 * 65536);
	CK(cuMemsetD32(base + 2 * gran - 4096, 0xabcdef01u, 2048));
	model_u32(model, 2 * gran - 4096, 0xabcdef01u, 8192);
	CK(cuMemcpyDtoD(base + 100 * 4, base + 2 * gran + 8192, 4096));
	memmove(model + 100 * 4, model + 2 * gran + 8192, 4096);
	compare(base, model, total, "copies and fills across the seam");

	/* The second allocation mapped again elsewhere: one memory, two addresses. */
	CK(cuMemAddressReserve(&alias, gran, 0, 0, 0));
	CK(cuMemMap(alias, gran, 0, h2, 0));
	access_rw(alias, gran);
	fill(alias, 0x0a11a5edu, gran / 2);
	model_u32(model, 2 * gran, 0x0a11a5edu, gran / 2);
	compare(base, model, total, "one allocation written at one address, read at another");

	/* The handle behind an address is the one mapped there, held once more. */
	CK(cuMemRetainAllocationHandle(&back, (void *)(uintptr_t)(base + 2 * gran + 12345)));
	printf("handle behind an address: %s\n", back == h2 ? "the one mapped" : "another");
	CK(cuMemRelease(back));

	/* Released while mapped, the memory stays until it is unmapped. */
	CK(cuMemRelease(h1));
	CK(cuMemRelease(h2));
	fill(base, 0x3f800000u, total);		/* 1.0f: 2 * x + x is exact */
	model_u32(model, 0, 0x3f800000u, total);
	n = (int)(total / 4);
	{
		void *args[] = { &a, &base, &base, &n };

		CK(cuLaunchKernel(f_saxpy, (unsigned int)blocks_for((uint64_t)n, 256), 1, 1, 256, 1, 1, 0,
				  NULL, args, NULL));
	}
	for (size_t i = 0; i < total; i += 4) {
		float v;

		memcpy(&v, model + i, 4);
		v = a * v + v;
		memcpy(model + i, &v, 4);
	}
	compare(base, model, total, "a kernel through mappings of released handles");

	printf("unmapping part of a mapping: %s\n",
	       CK_EXPECT(cuMemUnmap(base, gran), CUDA_ERROR_INVALID_VALUE));
	CK(cuMemUnmap(alias, gran));
	CK(cuMemUnmap(base, 2 * gran));
	CK(cuMemUnmap(base + 2 * gran, gran));
	CK(cuMemAddressFree(alias, gran));
	printf("unmapped\n");

	/* A new allocation where the first was. */
	h3 = create(2 * gran);
	CK(cuMemMap(base + gran, 2 * gran, 0, h3, 0));
	access_rw(base + gran, 2 * gran);
	CK(cuMemsetD8(base + gran, 0x3c, 2 * gran));
	memset(model, 0x3c, 2 * gran);
	compare(base + gran, model, 2 * gran, "a new allocation mapped where the old ones were");
	CK(cuMemUnmap(base + gran, 2 * gran));
	CK(cuMemRelease(h3));
	printf("freeing a reservation by another size: %s\n",
	       CK_EXPECT(cuMemAddressFree(base, gran), CUDA_ERROR_INVALID_VALUE));
	CK(cuMemAddressFree(base, 4 * gran));

	free(model);
	free(pat);
	CK(cuModuleUnload(mod));
	CK(cuCtxDestroy(ctx));
	printf("vmm: PASS\n");
	return 0;
}
