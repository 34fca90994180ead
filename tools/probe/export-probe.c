// SPDX-License-Identifier: MIT
/*
 * export-probe: what NVIDIA's driver answers in the export-table slots
 * whose meaning Gleam has to learn (Documentation/export-tables.md), run
 * directly on a GPU machine.  It calls only slots whose arguments are
 * known from what cuBLAS passes (GLEAM_DEBUG prints them in the shim), with
 * buffers filled with 0xab so that what the driver writes shows, and reads
 * memory behind a returned pointer only through process_vm_readv, which
 * fails instead of crashing.  Prints one line per probe.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static void hex(const char *what, const void *p, size_t n)
{
	const unsigned char *b = p;

	printf("%s:", what);
	for (size_t i = 0; i < n; i++)
		printf(" %02x", b[i]);
	printf("\n");
}

/* Up to n bytes at addr, or a note that they cannot be read. */
static void peek(const char *what, uint64_t addr, size_t n)
{
	unsigned char buf[64];
	struct iovec l = { buf, n }, r = { (void *)(uintptr_t)addr, n };

	if (n > sizeof(buf))
		n = sizeof(buf);
	if (process_vm_readv(getpid(), &l, 1, &r, 1, 0) != (ssize_t)n) {
		printf("%s: %#llx is not readable memory\n", what, (unsigned long long)addr);
		return;
	}
	hex(what, buf, n);
}

static const void *const *table(const char *id)
{
	const void *const *t = NULL;
	CUuuid u;

	for (int i = 0; i < 16; i++) {
		unsigned int v;

		sscanf(id + 2 * i, "%2x", &v);
		u.bytes[i] = (char)v;
	}
	if (cuGetExportTable((const void **)&t, &u))
		return NULL;
	return t;
}

int main(void)
{
	CUresult (*s51)(CUcontext, CUstream, CUstream *);
	CUresult (*s39)(CUcontext, CUstream, void *);
	const void *const *tc;
	CUstream made, obj_legacy = NULL, obj_made = NULL;
	CUcontext ctx;
	CUdevice dev;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) ||
	    cuCtxSetCurrent(ctx)) {
		printf("no GPU\n");
		return 77;
	}
	tc = table("21318c60971432488ca641ff7324c8f2");
	if (!tc) {
		printf("no 21318c60 table\n");
		return 1;
	}
	s51 = (void *)tc[51];
	s39 = (void *)tc[39];
	cuStreamCreate(&made, CU_STREAM_NON_BLOCKING);
	printf("ctx %p, stream made %p\n", (void *)ctx, (void *)made);
	printf("21318c60[51](ctx, NULL) %d -> %p\n", s51(ctx, NULL, &obj_legacy), (void *)obj_legacy);
	printf("21318c60[51](ctx, made) %d -> %p\n", s51(ctx, made, &obj_made), (void *)obj_made);
	{
		CUstream pt = NULL;

		printf("21318c60[51](ctx, PER_THREAD) %d -> %p\n",
		       s51(ctx, CU_STREAM_PER_THREAD, &pt), (void *)pt);
	}
	for (int i = 0; i < 2; i++) {
		CUstream o = i ? obj_made : obj_legacy;
		unsigned char buf[32];
		uint64_t v;
		CUresult r;

		memset(buf, 0xab, sizeof(buf));
		r = s39(ctx, o, buf);
		printf("21318c60[39](ctx, %s object %p) %d, ", i ? "made" : "legacy", (void *)o, r);
		hex("wrote", buf, 16);
		memcpy(&v, buf, 8);
		if (v > 0x10000)
			peek("  memory there", v, 64);
	}
	{
		unsigned long long id = 0;
		int prio = 0;
		unsigned int flags = 0;

		cuStreamGetId(made, &id);
		cuStreamGetPriority(made, &prio);
		cuStreamGetFlags(made, &flags);
		printf("made: id %llu priority %d flags %u\n", id, prio, flags);
		id = 0;
		cuStreamGetId(CU_STREAM_LEGACY, &id);
		printf("legacy: id %llu\n", id);
	}
	peek("legacy object's memory", (uint64_t)(uintptr_t)obj_legacy, 64);
	peek("made object's memory", (uint64_t)(uintptr_t)obj_made, 64);
	return 0;
}
