// SPDX-License-Identifier: MIT
/*
 * peers: copies between contexts (cuMemcpyPeer, cuMemcpyPeerAsync).  By
 * default within device 0, between its primary context and a context of
 * its own, which any machine can run; with "all", between every two
 * devices too, with peer access enabled where the devices say they can
 * reach each other (cuDeviceCanAccessPeer, cuDeviceGetP2PAttribute), a
 * kernel on one device reading the other's memory, and the errors of
 * enabling twice and disabling what was not enabled.  Prints only the
 * verdicts of its checks (and, with "all", how many devices).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define BYTES	(3 * 1024 * 1024 + 40)

static unsigned char *pat, *got;

static void check(CUdeviceptr p, unsigned int seed, const char *what)
{
	size_t bad;

	CK(cuMemcpyDtoH(got, p, BYTES));
	bad = pattern_check(got, BYTES, 0, seed);
	if (bad != BYTES)
		die("%s: byte %zu differs", what, bad);
	printf("%s ok\n", what);
}

/* Copies both ways between contexts a and b (the current context is a). */
static void copies(CUcontext a, CUcontext b, const char *between)
{
	CUdeviceptr pa, pb;
	CUstream s;
	char what[160];

	CK(cuCtxSetCurrent(b));
	CK(cuMemAlloc(&pb, BYTES));
	CK(cuCtxSetCurrent(a));
	CK(cuMemAlloc(&pa, BYTES));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	pattern_fill(pat, BYTES, 0, 3);
	CK(cuMemcpyHtoD(pa, pat, BYTES));
	CK(cuMemcpyPeer(pb, b, pa, a, BYTES));
	CK(cuCtxSetCurrent(b));
	snprintf(what, sizeof(what), "cuMemcpyPeer %s", between);
	check(pb, 3, what);
	CK(cuCtxSetCurrent(a));
	pattern_fill(pat, BYTES, 0, 9);
	CK(cuCtxSetCurrent(b));
	CK(cuMemcpyHtoD(pb, pat, BYTES));
	CK(cuCtxSetCurrent(a));
	CK(cuMemcpyPeerAsync(pa + 0, a, pb, b, BYTES, s));
	CK(cuStreamSynchronize(s));
	snprintf(what, sizeof(what), "cuMemcpyPeerAsync back %s", between);
	check(pa, 9, what);
	CK(cuStreamDestroy(s));
	CK(cuMemFree(pa));
	CK(cuCtxSetCurrent(b));
	CK(cuMemFree(pb));
	CK(cuCtxSetCurrent(a));
}

/* Device i's kernel reads device j's memory through peer access. */
static void peer_kernel(CUcontext ci, CUcontext cj)
{
	CUdeviceptr a, b, c;
	CUfunction f;
	CUmodule m;
	float host[1024], sum[1024];
	int n = 1024;

	CK(cuCtxSetCurrent(cj));
	CK(cuMemAlloc(&a, sizeof(host)));
	for (int k = 0; k < n; k++)
		host[k] = (float)k;
	CK(cuMemcpyHtoD(a, host, sizeof(host)));
	CK(cuCtxSetCurrent(ci));
	CK(cuMemAlloc(&b, sizeof(host)));
	CK(cuMemAlloc(&c, sizeof(host)));
	CK(cuMemcpyHtoD(b, host, sizeof(host)));
	m = load_function("vec_add.ptx", "vec_add", &f);
	{
		void *args[] = { &a, &b, &c, &n };

		CK(cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
	}
	CK(cuMemcpyDtoH(sum, c, sizeof(sum)));
	for (int k = 0; k < n; k++)
		if (sum[k] != 2.0f * (float)k)
			die("a kernel reading a peer's memory: element %d is %g", k, sum[k]);
	printf("a kernel reads its peer's memory ok\n");
	CK(cuModuleUnload(m));
	CK(cuMemFree(b));
	CK(cuMemFree(c));
	CK(cuCtxSetCurrent(cj));
	CK(cuMemFree(a));
	CK(cuCtxSetCurrent(ci));
}

static void all_devices(void)
{
	CUcontext ctx[8];
	int n, can, v;

	CK(cuDeviceGetCount(&n));
	if (n > 8)
		n = 8;
	printf("devices: %d\n", n);
	for (int i = 0; i < n; i++) {
		CUdevice d;

		CK(cuDeviceGet(&d, i));
		CK(cuDevicePrimaryCtxRetain(&ctx[i], d));
	}
	CK(cuDeviceCanAccessPeer(&can, 0, 0));
	printf("a device is its own peer: %s\n", can ? "yes" : "no");
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			char between[64];

			if (i == j)
				continue;
			CK(cuCtxSetCurrent(ctx[i]));
			snprintf(between, sizeof(between), "from device %d to device %d", i, j);
			copies(ctx[i], ctx[j], between);
			CK(cuDeviceCanAccessPeer(&can, i, j));
			printf("device %d reaches device %d: %s\n", i, j, can ? "yes" : "no");
			if (!can)
				continue;
			CK(cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, i, j));
			printf("  access supported: %d\n", v);
			CK(cuCtxEnablePeerAccess(ctx[j], 0));
			printf("  enabled twice: %s\n", CK_EXPECT(cuCtxEnablePeerAccess(ctx[j], 0),
							     CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED));
			peer_kernel(ctx[i], ctx[j]);
			CK(cuCtxDisablePeerAccess(ctx[j]));
			printf("  disabled twice: %s\n", CK_EXPECT(cuCtxDisablePeerAccess(ctx[j]),
							      CUDA_ERROR_PEER_ACCESS_NOT_ENABLED));
		}
	}
	CK(cuCtxSetCurrent(NULL));
	for (int i = 0; i < n; i++)
		CK(cuDevicePrimaryCtxRelease(i));
}

int main(int argc, char **argv)
{
	CUcontext prim, own;
	CUdevice dev;

	pat = malloc(BYTES);
	got = malloc(BYTES);
	if (!pat || !got)
		die("out of memory");
	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	if (argc > 1 && !strcmp(argv[1], "all")) {
		all_devices();
		printf("peers: PASS\n");
		return 0;
	}
	CK(cuDevicePrimaryCtxRetain(&prim, dev));
	CK(cuCtxCreate(&own, NULL, 0, dev));
	copies(own, prim, "between two contexts of one device");
	CK(cuCtxSetCurrent(prim));
	copies(prim, own, "the other way");
	CK(cuCtxSetCurrent(NULL));
	CK(cuCtxDestroy(own));
	CK(cuDevicePrimaryCtxRelease(dev));
	free(pat);
	free(got);
	printf("peers: PASS\n");
	return 0;
}
