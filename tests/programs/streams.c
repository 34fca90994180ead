// SPDX-License-Identifier: MIT
/*
 * streams: order and synchronisation across streams and events.  Two
 * non-blocking streams (one created with the greatest priority) ordered by
 * cuStreamWaitEvent, cuEventSynchronize, cuEventQuery, cuStreamQuery,
 * cuEventElapsedTime around a timed spin, in-order execution of many
 * launches on one stream, and the legacy default stream waiting for a
 * blocking stream.  Results that depend on timing (a query of pending work
 * may say either CUDA_SUCCESS or CUDA_ERROR_NOT_READY) are checked, never
 * printed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../lib/cuctx.h"
#include "util.h"

#define NWORDS		(1u << 20)
#define SPIN_MS		50

static CUfunction f_spin, f_fill;
static CUdeviceptr buf;
static uint32_t *host;

static void spin(CUstream s, unsigned long long ms)
{
	unsigned long long ns = ms * 1000000ULL;
	void *args[] = { &ns };

	CK(cuLaunchKernel(f_spin, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
}

static void fill(CUstream s, unsigned int v)
{
	unsigned long long n = NWORDS;
	void *args[] = { &buf, &v, &n };

	CK(cuLaunchKernel(f_fill, 64, 1, 1, 256, 1, 1, 0, s, args, NULL));
}

static void expect_host(const char *what, uint32_t v)
{
	size_t i;

	for (i = 0; i < NWORDS; i++)
		if (host[i] != v)
			die("%s: word %zu is %#x, expected %#x", what, i,
			    host[i], v);
}

/* CUDA_SUCCESS or CUDA_ERROR_NOT_READY, depending on timing. */
static void pending_ok(const char *what, CUresult r)
{
	if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY)
		die("%s: %s", what, err_name(r));
}

int main(void)
{
	CUevent ev_start, ev_stop, ev_done, ev_never;
	CUstream s1, s2, s3;
	int least, greatest, prio;
	unsigned int flags, i;
	CUcontext ctx;
	CUmodule mod;
	CUdevice dev;
	float ms;

	CK(primary_ctx(&dev, &ctx));
	mod = load_function("misc.ptx", "spin_ns", &f_spin);
	CK(cuModuleGetFunction(&f_fill, mod, "fill_u32"));
	CK(cuMemAlloc(&buf, NWORDS * 4));
	CK(cuMemAllocHost((void **)&host, NWORDS * 4));

	CK(cuCtxGetStreamPriorityRange(&least, &greatest));
	if (greatest > least)
		die("priority range: greatest %d > least %d", greatest, least);
	printf("priority range ok\n");

	CK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreateWithPriority(&s2, CU_STREAM_NON_BLOCKING, greatest));
	CK(cuStreamGetPriority(s2, &prio));
	if (prio != greatest)
		die("cuStreamGetPriority: %d, expected %d", prio, greatest);
	CK(cuStreamGetFlags(s2, &flags));
	if (flags != CU_STREAM_NON_BLOCKING)
		die("cuStreamGetFlags: %#x", flags);
	{
		/* Out of range: clamped into it, as the driver documents. */
		CUstream s3, s4;
		int p3, p4, p1;
		unsigned int f3;

		CK(cuStreamCreateWithPriority(&s3, CU_STREAM_DEFAULT, greatest - 10));
		CK(cuStreamCreateWithPriority(&s4, CU_STREAM_NON_BLOCKING, least + 10));
		CK(cuStreamGetPriority(s3, &p3));
		CK(cuStreamGetPriority(s4, &p4));
		CK(cuStreamGetPriority(s1, &p1));
		CK(cuStreamGetFlags(s3, &f3));
		if (p3 != greatest || p4 != least || p1 != 0 || f3 != CU_STREAM_DEFAULT)
			die("clamped priorities %d %d (range %d..%d), default %d, flags %#x", p3, p4,
			    greatest, least, p1, f3);
		CK(cuStreamDestroy(s3));
		CK(cuStreamDestroy(s4));
	}
	printf("stream priority and flags ok\n");

	/* Ids: each stream its own, the same every time, NULL the legacy one's. */
	{
		unsigned long long id1, id2, id1b, idl, idn;

		CK(cuStreamGetId(s1, &id1));
		CK(cuStreamGetId(s2, &id2));
		CK(cuStreamGetId(s1, &id1b));
		CK(cuStreamGetId(CU_STREAM_LEGACY, &idl));
		CK(cuStreamGetId(NULL, &idn));
		if (id1 == id2 || id1 != id1b || idl != idn || idl == id1 || idl == id2)
			die("cuStreamGetId: %llu %llu %llu legacy %llu NULL %llu", id1, id2, id1b,
			    idl, idn);
		if (cuStreamGetId(s1, NULL) != CUDA_ERROR_INVALID_VALUE)
			die("cuStreamGetId with no place for the answer succeeded");
	}
	printf("stream ids ok\n");

	CK(cuEventCreate(&ev_start, CU_EVENT_DEFAULT));
	CK(cuEventCreate(&ev_stop, CU_EVENT_DEFAULT));
	CK(cuEventCreate(&ev_done, CU_EVENT_DISABLE_TIMING | CU_EVENT_BLOCKING_SYNC));
	CK(cuEventCreate(&ev_never, CU_EVENT_DEFAULT));

	/*
	 * s1 spins, then fills 0x11..; s2 waits for that through ev_stop and
	 * fills 0x22..: without the wait s2 would finish first and the
	 * result would be 0x11...
	 */
	CK(cuEventRecord(ev_start, s1));
	spin(s1, SPIN_MS);
	fill(s1, 0x11111111);
	CK(cuEventRecord(ev_stop, s1));
	CK(cuStreamWaitEvent(s2, ev_stop, 0));
	fill(s2, 0x22222222);
	CK(cuMemcpyDtoHAsync(host, buf, NWORDS * 4, s2));
	CK(cuEventRecord(ev_done, s2));
	pending_ok("cuEventQuery pending", cuEventQuery(ev_done));
	pending_ok("cuStreamQuery pending", cuStreamQuery(s2));
	CK(cuEventSynchronize(ev_done));
	expect_host("cross-stream wait", 0x22222222);
	printf("cross-stream wait ok\n");

	CK_EXPECT(cuEventQuery(ev_done), CUDA_SUCCESS);
	CK_EXPECT(cuEventQuery(ev_stop), CUDA_SUCCESS);
	printf("event query ok\n");
	CK(cuStreamSynchronize(s1));
	CK_EXPECT(cuStreamQuery(s1), CUDA_SUCCESS);
	CK_EXPECT(cuStreamQuery(s2), CUDA_SUCCESS);
	printf("stream query ok\n");

	CK(cuEventElapsedTime(&ms, ev_start, ev_stop));
	if (!(ms >= SPIN_MS / 2 && ms < 60000))
		die("cuEventElapsedTime: %f ms for a %d ms spin", ms, SPIN_MS);
	printf("elapsed ok\n");
	printf("elapsed with a DISABLE_TIMING event: %s\n",
	       CK_EXPECT(cuEventElapsedTime(&ms, ev_start, ev_done),
			 CUDA_ERROR_INVALID_HANDLE));
	printf("elapsed with a never recorded event: %s\n",
	       CK_EXPECT(cuEventElapsedTime(&ms, ev_never, ev_stop),
			 CUDA_ERROR_INVALID_HANDLE));

	/* Many launches on one stream run in order: the last value wins. */
	for (i = 1; i <= 100; i++)
		fill(s2, i);
	CK(cuMemcpyDtoHAsync(host, buf, NWORDS * 4, s2));
	CK(cuStreamSynchronize(s2));
	expect_host("in-order launches", 100);
	printf("in-order launches ok\n");

	/*
	 * The legacy default stream waits for work in blocking streams: the
	 * fill on stream 0 runs after s3's spin and fill.
	 */
	CK(cuStreamCreate(&s3, CU_STREAM_DEFAULT));
	spin(s3, SPIN_MS);
	fill(s3, 0x33333333);
	fill(NULL, 0x44444444);
	CK(cuMemcpyDtoH(host, buf, NWORDS * 4));
	expect_host("legacy stream", 0x44444444);
	printf("legacy stream order ok\n");

	/* An event recorded on stream 0 orders a non-blocking stream. */
	fill(NULL, 0x55555555);
	CK(cuEventRecord(ev_stop, NULL));
	CK(cuStreamWaitEvent(s1, ev_stop, 0));
	CK(cuMemcpyDtoHAsync(host, buf, NWORDS * 4, s1));
	CK(cuStreamSynchronize(s1));
	expect_host("event on stream 0", 0x55555555);
	printf("event on stream 0 ok\n");

	/* The same with cuEventRecordWithFlags' default (PyTorch records so). */
	fill(NULL, 0x66666666);
	CK(cuEventRecordWithFlags(ev_stop, NULL, CU_EVENT_RECORD_DEFAULT));
	CK(cuStreamWaitEvent(s1, ev_stop, 0));
	CK(cuMemcpyDtoHAsync(host, buf, NWORDS * 4, s1));
	CK(cuStreamSynchronize(s1));
	expect_host("event recorded with flags", 0x66666666);
	CK(cuEventSynchronize(ev_stop));
	printf("event recorded with flags ok\n");

	CK(cuEventDestroy(ev_start));
	CK(cuEventDestroy(ev_stop));
	CK(cuEventDestroy(ev_done));
	CK(cuEventDestroy(ev_never));
	CK(cuStreamDestroy(s1));
	CK(cuStreamDestroy(s2));
	CK(cuStreamDestroy(s3));
	CK(cuMemFreeHost(host));
	CK(cuMemFree(buf));
	CK(cuModuleUnload(mod));
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));
	printf("streams: PASS\n");
	return 0;
}
