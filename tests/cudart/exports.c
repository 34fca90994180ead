// SPDX-License-Identifier: MIT
/*
 * The runtime's private tables through the driver API, with real contexts:
 * their sizes, the primary context that CUDART_INTERFACE hands out without
 * retaining it, the context-local storage (keys taken, deleting, and the
 * destructors that run when a context is destroyed, reset or released for
 * the last time), and the integrity answer, checked against the algorithm
 * in Documentation/export-tables.md (libcuda-shim/md2.c, linked in).  What
 * it prints is what it prints on NVIDIA's driver (expected/exports.out).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>

#include "export.h"

#define CHECK(x)							\
	do {								\
		CUresult r_ = (x);					\
		if (r_ != CUDA_SUCCESS) {				\
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__,	\
				__LINE__, #x, name(r_));		\
			exit(1);					\
		}							\
	} while (0)

static const char *name(CUresult r)
{
	const char *s = NULL;

	cuGetErrorName(r, &s);
	return s ? s : "?";
}

static const char *yes(int b)
{
	return b ? "yes" : "no";
}

static const void *const *table(const char *hex)
{
	const void *t = NULL;
	CUuuid id;

	for (int i = 0; i < 16; i++) {
		unsigned int b;

		sscanf(hex + 2 * i, "%2x", &b);
		id.bytes[i] = (char)b;
	}
	CHECK(cuGetExportTable(&t, &id));
	return t;
}

typedef void (*cls_dtor)(CUcontext ctx, void *key, void *value);
static CUresult (*cls_put)(CUcontext ctx, void *key, void *value, cls_dtor dtor);
static CUresult (*cls_del)(CUcontext ctx, void *key);
static CUresult (*cls_get)(void **value, CUcontext ctx, void *key);

static int dtors;
static CUcontext dtor_ctx;
static void *dtor_key, *dtor_value;

static void dtor(CUcontext ctx, void *key, void *value)
{
	dtors++;
	dtor_ctx = ctx;
	dtor_key = key;
	dtor_value = value;
}

static int key1, key2, val1, val2, val3;

static void sizes(void)
{
	static const char *const sized[] = {
		"6bd5fb6c5bf4e74a8987d93912fd9df9", "42d85a8123f6cb478298f6e78a3aecdc",
		"a094798c2e742e7493f20800200c0a66", "263e88607cd2614392f6bbd5006dfa7e",
		"d4082055bde6704b8d34ba123c66e1f2",
	};
	const void *const *cls = table("c693336e1121df11a8c368f355d89593");
	const void *t = (void *)1;
	CUuuid none = { { 0 } };

	for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++)
		printf("table %.8s: %zu bytes\n", sized[i], (size_t)(uintptr_t)table(sized[i])[0]);
	printf("context-local storage: three functions then NULL: %s\n",
	       yes(cls[0] && cls[1] && cls[2] && !cls[3]));
	printf("unknown table: %s\n", name(cuGetExportTable(&t, &none)));
	cls_put = (void *)cls[0];
	cls_del = (void *)cls[1];
	cls_get = (void *)cls[2];
}

static void primary(void)
{
	CUresult (*get_primary)(CUcontext *, CUdevice) =
		(void *)table("6bd5fb6c5bf4e74a8987d93912fd9df9")[2];
	CUcontext handed = NULL, p = NULL;
	unsigned int flags;
	int active;
	void *v;

	CHECK(get_primary(&handed, 0));
	CHECK(cuDevicePrimaryCtxGetState(0, &flags, &active));
	printf("primary context handed out, active: %s\n", yes(active));
	CHECK(cuDevicePrimaryCtxRetain(&p, 0));
	printf("retain gives the same handle: %s\n", yes(p == handed));
	CHECK(cuCtxSetCurrent(p));

	printf("get of a missing key: %s\n", name(cls_get(&v, p, &key1)));
	CHECK(cls_put(p, &key1, &val1, dtor));
	CHECK(cls_get(&v, p, &key1));
	printf("get after put: %s\n", yes(v == &val1));
	printf("put of a key already there: %s\n", name(cls_put(p, &key1, &val2, dtor)));
	CHECK(cls_get(&v, NULL, &key1));
	printf("value kept, NULL is the current context: %s\n", yes(v == &val1));
	CHECK(cls_put(p, &key2, &val3, dtor));
	CHECK(cls_del(p, &key2));
	printf("get after delete: %s\n", name(cls_get(&v, p, &key2)));
	printf("destructors after delete: %d\n", dtors);

	CHECK(cuDevicePrimaryCtxRetain(&p, 0));
	CHECK(cuDevicePrimaryCtxRelease(0));
	printf("destructors after a release that is not the last: %d\n", dtors);
	CHECK(cuDevicePrimaryCtxRelease(0));
	printf("destructors after the last release: %d (context %s, key %s, value %s)\n", dtors,
	       yes(dtor_ctx == p), yes(dtor_key == &key1), yes(dtor_value == &val1));
	CHECK(cuCtxSetCurrent(NULL));

	CHECK(cuDevicePrimaryCtxRetain(&p, 0));
	CHECK(cuCtxSetCurrent(p));
	printf("get after the context's new start: %s\n", name(cls_get(&v, p, &key1)));
	CHECK(cls_put(p, &key1, &val1, dtor));
	CHECK(cuDevicePrimaryCtxReset(0));
	printf("destructors after a reset: %d (value %s)\n", dtors, yes(dtor_value == &val1));
	CHECK(cuCtxSetCurrent(NULL));
}

static void created(void)
{
	CUcontext c;
	void *v;

	CHECK(cuCtxCreate(&c, NULL, 0, 0));
	CHECK(cls_put(c, &key2, &val3, dtor));
	CHECK(cls_get(&v, NULL, &key2));
	printf("created context's value: %s\n", yes(v == &val3));
	CHECK(cuCtxDestroy(c));
	printf("destructors after cuCtxDestroy: %d (context %s, value %s)\n", dtors,
	       yes(dtor_ctx == c), yes(dtor_value == &val3));
}

static void checks(void)
{
	const void *const *chk = table("263e88607cd2614392f6bbd5006dfa7e");
	CUresult (*wrapped)(CUcontext, uint32_t *, CUcontext *) = (void *)chk[2];
	uint32_t (*check3)(void) = (void *)chk[3];
	uint32_t w = 7;
	CUcontext p, under = NULL;

	CHECK(cuDevicePrimaryCtxRetain(&p, 0));
	CHECK(wrapped(p, &w, &under));
	printf("context checks: wrapped %u, slot 3 answers %u\n", w, check3());
	CHECK(cuDevicePrimaryCtxRelease(0));
}

/* The answer, as Documentation/export-tables.md describes it, from what the driver reports. */
static void integrity(void)
{
	const void *const *cudart = table("6bd5fb6c5bf4e74a8987d93912fd9df9");
	const void *const *integ = table("d4082055bde6704b8d34ba123c66e1f2");
	CUresult (*check)(uint32_t, uint64_t, uint64_t *) = (void *)integ[1];
	struct shim_integrity_dev dev[64];
	struct shim_integrity_in in = { 0 };
	int n, v;

	CHECK(cuDriverGetVersion(&v));
	CHECK(cuDeviceGetCount(&n));
	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++) {
		CUuuid u;

		CHECK(cuDeviceGetUuid(&u, i));
		memcpy(dev[i].uuid, u.bytes, 16);
		CHECK(cuDeviceGetAttribute(&dev[i].pci_domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, i));
		CHECK(cuDeviceGetAttribute(&dev[i].pci_bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, i));
		CHECK(cuDeviceGetAttribute(&dev[i].pci_device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, i));
	}
	in.driver_version = (uint32_t)v;
	in.pid = (uint32_t)getpid();
	in.thread = (uint32_t)(uintptr_t)pthread_self();
	in.cudart_table = (uintptr_t)cudart;
	in.integrity_table = (uintptr_t)integ;
	in.integrity_fn = (uintptr_t)integ[1];
	in.seconds = (uint64_t)time(NULL);
	in.ndev = (unsigned int)n;
	in.dev = dev;
	for (uint32_t ver = 13000; ver <= 13002; ver++) {
		uint64_t got[2] = { 0 }, want[2];

		in.version = ver;
		CHECK(check(ver, in.seconds, got));
		shim_integrity_answer(&in, want);
		printf("integrity answer for %u: %s\n", ver,
		       yes(got[0] == want[0] && got[1] == want[1]));
	}
}

int main(void)
{
	CHECK(cuInit(0));
	sizes();
	primary();
	created();
	checks();
	integrity();
	printf("PASS\n");
	return 0;
}
