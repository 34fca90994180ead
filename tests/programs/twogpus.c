// SPDX-License-Identifier: MIT
/*
 * twogpus: a program of two devices, as on a machine with two GPUs.  A
 * kernel on each (vec_add), peer copies both ways (cuMemcpyPeer, and
 * cuMemcpyPeerAsync on a stream of each side), copies between the two
 * devices' unified addresses (cuMemcpyDtoD, cuMemcpy), an event recorded
 * on device 0's stream that device 1's stream waits for before it copies
 * what device 0's kernel wrote, and what the devices say of each other
 * (cuDeviceCanAccessPeer, cuDeviceGetP2PAttribute) checked for agreement,
 * with peer access used where they say they can and refused where not.
 * Prints only what is the same whether or not the two reach each other.
 * With fewer than two devices it prints a SKIP line and exits 0.  An
 * argument runs it that many times, printing the first only (a longer
 * run, for a link cut in its middle); "2d" instead makes one cuMemcpy2D
 * from device 0's memory to device 1's and says what it returned (Gleam
 * does not carry those between servers: CUDA_ERROR_NOT_SUPPORTED there).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define N	(1 << 18)		/* floats per buffer: 1 MiB */
#define BYTES	(N * sizeof(float))

static float *host, *got;
static CUcontext ctx[2];
static CUfunction add[2];
static CUmodule mod[2];
static bool quiet;		/* a round after the first: checks only */

#define say(...)	do { if (!quiet) printf(__VA_ARGS__); } while (0)

static void fill(float *p, float base)
{
	for (int i = 0; i < N; i++)
		p[i] = base + (float)(i % 1000);
}

/* Dies unless device memory p (of the current context) holds base + i % 1000, times k. */
static void expect(CUdeviceptr p, float base, float k, const char *what)
{
	CK(cuMemcpyDtoH(got, p, BYTES));
	for (int i = 0; i < N; i++)
		if (got[i] != k * (base + (float)(i % 1000)))
			die("%s: element %d is %g, not %g", what, i, got[i],
			    k * (base + (float)(i % 1000)));
	say("%s ok\n", what);
}

static void launch_add(int d, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, CUstream s)
{
	int n = N;
	void *args[] = { &a, &b, &c, &n };

	CK(cuLaunchKernel(add[d], blocks_for(N, 256), 1, 1, 256, 1, 1, 0, s, args, NULL));
}

/* Device d's kernel adds a buffer to itself: 2 * (base + i % 1000) in out. */
static void kernel_on(int d, CUdeviceptr in, CUdeviceptr out, float base)
{
	char what[64];

	CK(cuCtxSetCurrent(ctx[d]));
	fill(host, base);
	CK(cuMemcpyHtoD(in, host, BYTES));
	launch_add(d, in, in, out, NULL);
	snprintf(what, sizeof(what), "device %d: vec_add", d);
	expect(out, base, 2.0f, what);
}

static void peer_copies(CUdeviceptr *buf)
{
	CUstream s[2];
	char what[96];

	for (int d = 0; d < 2; d++) {
		CK(cuCtxSetCurrent(ctx[d]));
		CK(cuStreamCreate(&s[d], CU_STREAM_NON_BLOCKING));
	}
	for (int from = 0; from < 2; from++) {
		int to = !from;

		CK(cuCtxSetCurrent(ctx[from]));
		fill(host, 10.0f + (float)from);
		CK(cuMemcpyHtoD(buf[from], host, BYTES));
		CK(cuMemcpyPeer(buf[to], ctx[to], buf[from], ctx[from], BYTES));
		CK(cuCtxSetCurrent(ctx[to]));
		snprintf(what, sizeof(what), "cuMemcpyPeer device %d to device %d", from, to);
		expect(buf[to], 10.0f + (float)from, 1.0f, what);

		/* On the source's stream, then on the destination's. */
		for (int on = 0; on < 2; on++) {
			int d = on ? to : from;

			CK(cuCtxSetCurrent(ctx[from]));
			fill(host, 20.0f + (float)(from * 2 + on));
			CK(cuMemcpyHtoD(buf[from], host, BYTES));
			CK(cuCtxSetCurrent(ctx[d]));
			CK(cuMemcpyPeerAsync(buf[to], ctx[to], buf[from], ctx[from], BYTES, s[d]));
			CK(cuStreamSynchronize(s[d]));
			CK(cuCtxSetCurrent(ctx[to]));
			snprintf(what, sizeof(what), "cuMemcpyPeerAsync device %d to device %d on "
				 "device %d's stream", from, to, d);
			expect(buf[to], 20.0f + (float)(from * 2 + on), 1.0f, what);
		}
	}
	for (int d = 0; d < 2; d++) {
		CK(cuCtxSetCurrent(ctx[d]));
		CK(cuStreamDestroy(s[d]));
	}
}

/* Unified addressing: the addresses say which device, whatever the context. */
static void unified_copies(CUdeviceptr *buf)
{
	CK(cuCtxSetCurrent(ctx[0]));
	fill(host, 30.0f);
	CK(cuMemcpyHtoD(buf[0], host, BYTES));
	CK(cuMemcpyDtoD(buf[1], buf[0], BYTES));
	/* No host-side synchronisation for a copy between device memory. */
	CK(cuCtxSynchronize());
	CK(cuCtxSetCurrent(ctx[1]));
	expect(buf[1], 30.0f, 1.0f, "cuMemcpyDtoD device 0 to device 1");
	fill(host, 31.0f);
	CK(cuMemcpyHtoD(buf[1], host, BYTES));
	CK(cuMemcpy(buf[0], buf[1], BYTES));
	CK(cuCtxSynchronize());
	CK(cuCtxSetCurrent(ctx[0]));
	expect(buf[0], 31.0f, 1.0f, "cuMemcpy device 1 to device 0");
}

/*
 * Device 0's kernel writes, an event is recorded after it on device 0's
 * stream, and device 1's stream waits for the event before it copies the
 * result over: the copy sees the kernel's output.
 */
static void event_wait(CUdeviceptr *in, CUdeviceptr *out)
{
	CUstream s0, s1;
	CUevent ev;

	CK(cuCtxSetCurrent(ctx[1]));
	CK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
	CK(cuCtxSetCurrent(ctx[0]));
	CK(cuStreamCreate(&s0, CU_STREAM_NON_BLOCKING));
	CK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	fill(host, 40.0f);
	CK(cuMemcpyHtoD(in[0], host, BYTES));
	CK(cuMemsetD32(out[0], 0, N));
	/* The legacy stream's fill and the non-blocking stream's kernel do not meet. */
	CK(cuCtxSynchronize());
	launch_add(0, in[0], in[0], out[0], s0);
	CK(cuEventRecord(ev, s0));
	CK(cuCtxSetCurrent(ctx[1]));
	CK(cuStreamWaitEvent(s1, ev, 0));
	CK(cuMemcpyPeerAsync(out[1], ctx[1], out[0], ctx[0], BYTES, s1));
	CK(cuStreamSynchronize(s1));
	expect(out[1], 40.0f, 2.0f, "device 1's stream waits for device 0's event");
	CK(cuStreamDestroy(s1));
	CK(cuCtxSetCurrent(ctx[0]));
	CK(cuStreamSynchronize(s0));
	CK(cuEventDestroy(ev));
	CK(cuStreamDestroy(s0));
}

/*
 * What the two say of each other must agree, whichever it is; where they
 * reach each other, device 1's kernel reads device 0's memory.
 */
static void peer_access(CUdeviceptr *in, CUdeviceptr *out)
{
	int can01, can10, acc, rank;
	CUresult r;

	CK(cuDeviceCanAccessPeer(&can01, 0, 1));
	CK(cuDeviceCanAccessPeer(&can10, 1, 0));
	CK(cuDeviceGetP2PAttribute(&acc, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
	CK(cuDeviceGetP2PAttribute(&rank, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, 0, 1));
	say("cuDeviceCanAccessPeer agrees both ways: %s\n", !can01 == !can10 ? "yes" : "no");
	say("P2P access attribute agrees with cuDeviceCanAccessPeer: %s\n",
	       !acc == !can01 ? "yes" : "no");
	say("P2P performance rank is not negative: %s\n", rank >= 0 ? "yes" : "no");
	say("a device and itself: %s\n",
	       CK_EXPECT(cuDeviceGetP2PAttribute(&acc, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED,
						 0, 0), CUDA_ERROR_INVALID_DEVICE));
	CK(cuCtxSetCurrent(ctx[1]));
	r = cuCtxEnablePeerAccess(ctx[0], 0);
	if (can10) {
		CK(r);
		fill(host, 50.0f);
		CK(cuCtxSetCurrent(ctx[0]));
		CK(cuMemcpyHtoD(in[0], host, BYTES));
		CK(cuCtxSetCurrent(ctx[1]));
		launch_add(1, in[0], in[0], out[1], NULL);
		CK(cuCtxSynchronize());
		expect(out[1], 50.0f, 2.0f, "peer access as the devices say");
		CK(cuCtxDisablePeerAccess(ctx[0]));
	} else if (r == CUDA_ERROR_PEER_ACCESS_UNSUPPORTED) {
		say("peer access as the devices say ok\n");
	} else {
		die("cuCtxEnablePeerAccess between devices that cannot reach each other: %s",
		    err_name(r));
	}
}

/* One cuMemcpy2D of 64 rows of 1 KiB from device 0's memory to device 1's. */
static int copy_2d(CUdeviceptr *in)
{
	CUDA_MEMCPY2D m = { .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = in[0],
			    .srcPitch = 4096, .dstMemoryType = CU_MEMORYTYPE_DEVICE,
			    .dstDevice = in[1], .dstPitch = 4096, .WidthInBytes = 1024,
			    .Height = 64 };
	const char *name = NULL;
	CUresult r;

	fill(host, 5.0f);
	CK(cuCtxSetCurrent(ctx[0]));
	CK(cuMemcpyHtoD(in[0], host, BYTES));
	CK(cuCtxSetCurrent(ctx[1]));
	CK(cuMemsetD8(in[1], 0, BYTES));
	r = cuMemcpy2D(&m);
	if (!r) {
		CK(cuCtxSynchronize());
		CK(cuMemcpyDtoH(got, in[1], BYTES));
		for (int row = 0; row < 64; row++)
			for (int i = 0; i < 256; i++)
				if (got[row * 1024 + i] != host[row * 1024 + i])
					die("cuMemcpy2D: row %d element %d is %g", row, i,
					    got[row * 1024 + i]);
	}
	cuGetErrorName(r, &name);
	printf("cuMemcpy2D from device 0 to device 1: %s\n", r ? name : "ok");
	return 0;
}

int main(int argc, char **argv)
{
	CUdeviceptr in[2], out[2];
	bool two_d = argc > 1 && !strcmp(argv[1], "2d");
	int n, rounds = argc > 1 && !two_d ? atoi(argv[1]) : 1;

	CK(cuInit(0));
	CK(cuDeviceGetCount(&n));
	if (n < 2) {
		printf("SKIP: twogpus needs two devices, this process sees %d\n", n);
		return 0;
	}
	host = malloc(BYTES);
	got = malloc(BYTES);
	if (!host || !got)
		die("out of memory");
	for (int d = 0; d < 2; d++) {
		CK(cuDevicePrimaryCtxRetain(&ctx[d], d));
		CK(cuCtxSetCurrent(ctx[d]));
		mod[d] = load_function("vec_add.ptx", "vec_add", &add[d]);
		CK(cuMemAlloc(&in[d], BYTES));
		CK(cuMemAlloc(&out[d], BYTES));
	}
	if (two_d)
		return copy_2d(in);
	for (int i = 0; i < rounds || !i; i++, quiet = true) {
		for (int d = 0; d < 2; d++)
			kernel_on(d, in[d], out[d], 1.0f + (float)d);
		peer_copies(in);
		unified_copies(in);
		event_wait(in, out);
		peer_access(in, out);
	}
	for (int d = 0; d < 2; d++) {
		CK(cuCtxSetCurrent(ctx[d]));
		CK(cuMemFree(in[d]));
		CK(cuMemFree(out[d]));
		CK(cuModuleUnload(mod[d]));
	}
	CK(cuCtxSetCurrent(NULL));
	for (int d = 0; d < 2; d++)
		CK(cuDevicePrimaryCtxRelease(d));
	free(host);
	free(got);
	printf("twogpus: PASS\n");
	return 0;
}
