// SPDX-License-Identifier: MIT
/*
 * graphs: stream capture, graphs and memory pools, as CUDA graphs and the
 * stream-ordered allocator use them.
 *
 * A capture on one stream, forked to a second stream and joined again, of
 * a fill, kernels and a device-to-device copy; the graph instantiated and
 * launched several times with new input copied in between, and on another
 * stream; an allocation made and freed inside a graph; the capture status
 * queries.  Then what a capture does not allow, with the driver's errors:
 * waiting for the capturing stream, a copy from pageable host memory, a
 * context synchronisation, cuMemAlloc in global mode (and allowed in
 * relaxed mode), the legacy stream beside a capturing blocking stream, a
 * query of an event recorded in the capture.  Last, memory pools: the
 * default pool, its attributes, allocations from it freed in stream
 * order, trimming, and a pool of the program's own as the device's
 * current one.  Where the driver documents no error code, the program
 * checks that the call failed and prints no name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cuctx.h"
#include "util.h"

#define N	(1u << 16)
#define MiB	(1u << 20)

static CUfunction f_saxpy, f_fill, f_vadd;

static const char *yes(int b)
{
	return b ? "yes" : "no";
}

static const char *status_name(CUstreamCaptureStatus st)
{
	switch (st) {
	case CU_STREAM_CAPTURE_STATUS_NONE:
		return "none";
	case CU_STREAM_CAPTURE_STATUS_ACTIVE:
		return "active";
	case CU_STREAM_CAPTURE_STATUS_INVALIDATED:
		return "invalidated";
	}
	return "?";
}

static const char *status(CUstream s)
{
	CUstreamCaptureStatus st;

	CK(cuStreamIsCapturing(s, &st));
	return status_name(st);
}

/* y = a * x + y over N floats. */
static CUresult try_saxpy(CUstream s, float a, CUdeviceptr x, CUdeviceptr y)
{
	int n = N;
	void *args[] = { &a, &x, &y, &n };

	return cuLaunchKernel(f_saxpy, blocks_for(N, 256), 1, 1, 256, 1, 1, 0, s, args, NULL);
}

static void saxpy(CUstream s, float a, CUdeviceptr x, CUdeviceptr y)
{
	CK(try_saxpy(s, a, x, y));
}

/* c = a + b over N floats. */
static void vadd(CUstream s, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c)
{
	int n = N;
	void *args[] = { &a, &b, &c, &n };

	CK(cuLaunchKernel(f_vadd, blocks_for(N, 256), 1, 1, 256, 1, 1, 0, s, args, NULL));
}

static void fill(CUstream s, CUdeviceptr p, unsigned int v, unsigned long long n)
{
	void *args[] = { &p, &v, &n };

	CK(cuLaunchKernel(f_fill, 64, 1, 1, 256, 1, 1, 0, s, args, NULL));
}

/* A capture whose verdict the driver leaves open: ended, its graph if any destroyed. */
static void end_any(CUstream s)
{
	CUgraph g = NULL;
	CUresult r = cuStreamEndCapture(s, &g);

	if (r != CUDA_SUCCESS && r != CUDA_ERROR_STREAM_CAPTURE_INVALIDATED)
		die("cuStreamEndCapture: %s", err_name(r));
	if (g)
		CK(cuGraphDestroy(g));
}

static cuuint64_t pool_u64(CUmemoryPool p, CUmemPool_attribute a)
{
	cuuint64_t v;

	CK(cuMemPoolGetAttribute(p, a, &v));
	return v;
}

static void pools(CUdevice dev, CUstream s)
{
	CUmemPoolProps props = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
				 .handleTypes = CU_MEM_HANDLE_TYPE_NONE,
				 .location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev } };
	CUmemoryPool dp, cp, mp, pp;
	CUdeviceptr p1, p2;
	unsigned int w[4];
	cuuint64_t v, zero = 0;
	int reuse;

	CK(cuDeviceGetDefaultMemPool(&dp, dev));
	CK(cuDeviceGetMemPool(&cp, dev));
	printf("default pool is the current pool: %s\n", yes(dp == cp));
	printf("release threshold: %llu\n",
	       (unsigned long long)pool_u64(dp, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD));
	CK(cuMemPoolGetAttribute(dp, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &reuse));
	printf("opportunistic reuse: %d\n", reuse);
	v = UINT64_MAX;
	CK(cuMemPoolSetAttribute(dp, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
	printf("release threshold set: %s\n",
	       yes(pool_u64(dp, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) == UINT64_MAX));

	/* Allocated, filled, copied, read back and freed, all in stream order. */
	CK(cuMemAllocFromPoolAsync(&p1, MiB, dp, s));
	CK(cuMemAllocFromPoolAsync(&p2, 3 * MiB, dp, s));
	CK(cuPointerGetAttribute(&pp, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p2 + MiB));
	printf("the memory's pool is the default one: %s\n", yes(pp == dp));
	CK(cuMemsetD32Async(p1, 0x11111111, MiB / 4, s));
	CK(cuMemsetD32Async(p2, 0x22222222, 3 * MiB / 4, s));
	CK(cuMemcpyDtoDAsync(p2 + MiB, p1, MiB, s));
	CK(cuMemcpyDtoHAsync(&w[0], p2, 4, s));
	CK(cuMemcpyDtoHAsync(&w[1], p2 + MiB, 4, s));
	CK(cuMemcpyDtoHAsync(&w[2], p2 + 2 * MiB - 4, 4, s));
	CK(cuMemcpyDtoHAsync(&w[3], p2 + 3 * MiB - 4, 4, s));
	CK(cuMemFreeAsync(p1, s));
	CK(cuMemFreeAsync(p2, s));
	CK(cuStreamSynchronize(s));
	if (pool_u64(dp, CU_MEMPOOL_ATTR_USED_MEM_HIGH) < 4 * MiB)
		die("used memory's high watermark below the 4 MiB allocated");
	if (w[0] != 0x22222222 || w[1] != 0x11111111 || w[2] != 0x11111111 || w[3] != 0x22222222)
		die("pool allocations: %#x %#x %#x %#x", w[0], w[1], w[2], w[3]);
	printf("pool allocations ok\n");
	printf("in use after the frees: %llu\n",
	       (unsigned long long)pool_u64(dp, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
	printf("kept after the frees: %s\n",
	       yes(pool_u64(dp, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT) > 0));
	CK(cuMemPoolTrimTo(dp, 0));
	printf("kept after trimming: %llu\n",
	       (unsigned long long)pool_u64(dp, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
	CK(cuMemPoolSetAttribute(dp, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &zero));
	CK(cuMemPoolSetAttribute(dp, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &zero));
	printf("high watermarks after reset: %llu %llu\n",
	       (unsigned long long)pool_u64(dp, CU_MEMPOOL_ATTR_USED_MEM_HIGH),
	       (unsigned long long)pool_u64(dp, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH));
	CK(cuMemPoolSetAttribute(dp, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &zero));

	/* A pool of the program's own, the device's current one for a while. */
	CK(cuMemPoolCreate(&mp, &props));
	CK(cuDeviceSetMemPool(dev, mp));
	CK(cuDeviceGetMemPool(&cp, dev));
	printf("own pool is the current pool: %s\n", yes(cp == mp));
	CK(cuMemAllocAsync(&p1, MiB, s));
	CK(cuStreamSynchronize(s));
	CK(cuPointerGetAttribute(&pp, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p1));
	printf("cuMemAllocAsync draws from it: %s\n",
	       yes(pool_u64(mp, CU_MEMPOOL_ATTR_USED_MEM_CURRENT) >= MiB && pp == mp));
	CK(cuMemFreeAsync(p1, s));
	CK(cuStreamSynchronize(s));
	CK(cuDeviceSetMemPool(dev, dp));
	CK(cuMemPoolDestroy(mp));
	CK(cuDeviceGetMemPool(&cp, dev));
	printf("default pool is current again: %s\n", yes(cp == dp));
	printf("default pool destroyed: %s\n", yes(cuMemPoolDestroy(dp) == CUDA_SUCCESS));
}

/*
 * Copies between pinned host memory and a graph: y = 3x + y, with x and y
 * copied in from host memory and y copied out again, launched three times
 * on two streams with new host input each time.  The graph reads and
 * writes the host memory when it runs; its own graph is destroyed before
 * the launches, which the executable graph outlives.
 */
static void host_graph(CUstream s, CUstream s2)
{
	float *hin, *hy, *hout;
	CUgraphExec exec;
	CUdeviceptr a, b;
	unsigned int i, launch;
	CUgraph g;
	int ok = 1;

	CK(cuMemAlloc(&a, N * 4));
	CK(cuMemAlloc(&b, N * 4));
	CK(cuMemAllocHost((void **)&hin, N * 4));
	CK(cuMemAllocHost((void **)&hy, N * 4));
	CK(cuMemAllocHost((void **)&hout, N * 4));
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CK(cuMemcpyHtoDAsync(a, hin, N * 4, s));
	CK(cuMemcpyHtoDAsync(b, hy, N * 4, s));
	saxpy(s, 3.0f, a, b);
	CK(cuMemcpyDtoHAsync(hout, b, N * 4, s));
	CK(cuStreamEndCapture(s, &g));
	CK(cuGraphInstantiate(&exec, g, 0));
	CK(cuGraphDestroy(g));
	for (launch = 0; launch < 3; launch++) {
		CUstream on = launch == 1 ? s2 : s;

		for (i = 0; i < N; i++) {
			hin[i] = (float)(launch + i % 7);
			hy[i] = 1.0f + (float)(launch * (i % 3));
			hout[i] = -1.0f;
		}
		CK(cuGraphLaunch(exec, on));
		CK(cuStreamSynchronize(on));
		for (i = 0; i < N; i++)
			if (hout[i] != 3.0f * hin[i] + hy[i])
				ok = 0;
	}
	CK(cuGraphExecDestroy(exec));
	CK(cuMemFreeHost(hin));
	CK(cuMemFreeHost(hy));
	CK(cuMemFreeHost(hout));
	CK(cuMemFree(a));
	CK(cuMemFree(b));
	printf("copies between pinned host memory and a graph, 3 launches on two streams: "
	       "each its own input and output: %s\n", yes(ok));
}

/*
 * A copy from pageable host memory during a capture.  Drivers may differ:
 * NVIDIA's (580 on an H200) captures it, and so does Gleam, through a
 * stage (Documentation/design.md); one that refuses it invalidates the
 * capture.  Either is right if whole: captured, the graph copies what the
 * memory holds when it is launched; refused, with
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, the capture ends invalidated.
 * stdout says only whether it was one of the two; stderr says which.
 */
static void pageable_capture(CUstream s, unsigned int *pageable)
{
	CUgraphExec exec;
	CUdeviceptr t;
	CUresult rc, re;
	CUgraph g = NULL;
	unsigned int i, *back;
	int ok, reach = -1;
	CUdevice dev;

	back = malloc(N * 4);
	if (!back)
		die("out of memory");
	CK(cuCtxGetDevice(&dev));
	CK(cuDeviceGetAttribute(&reach, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, dev));
	CK(cuMemAlloc(&t, N * 4));
	CK(cuMemsetD32(t, 0, N));
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	rc = cuMemcpyHtoDAsync(t, pageable, N * 4, s);
	re = cuStreamEndCapture(s, &g);
	fprintf(stderr, "pageable copy in a capture (pageable memory access %d): %s, then %s, %s\n",
		reach, err_name(rc), err_name(re), g ? "a graph" : "no graph");
	if (rc == CUDA_SUCCESS) {
		ok = re == CUDA_SUCCESS && g;
		if (ok) {
			/* What the memory holds at the launch, not at the capture. */
			for (i = 0; i < N; i++)
				pageable[i] = 0x5a5a0000u + i;
			CK(cuGraphInstantiate(&exec, g, 0));
			CK(cuGraphLaunch(exec, s));
			CK(cuStreamSynchronize(s));
			CK(cuMemcpyDtoH(back, t, N * 4));
			ok = !memcmp(back, pageable, N * 4);
			CK(cuGraphExecDestroy(exec));
		}
	} else {
		ok = rc == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED &&
		     re == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED && !g;
	}
	if (g)
		CK(cuGraphDestroy(g));
	CK(cuMemFree(t));
	free(back);
	printf("copy from pageable host memory during capture: captured and copied at the launch, "
	       "or refused and the capture invalidated: %s\n", yes(ok));
}

int main(void)
{
	CUstream s, s2, sb;
	CUevent e1, e2;
	CUgraph graph, g_out = NULL, g;
	CUgraphExec exec;
	CUstreamCaptureStatus st;
	cuuint64_t id1 = 0, id2 = 0, id3 = 0;
	CUdeviceptr x, y, z, w, tmp;
	CUmodule mod_misc, mod_vadd;
	CUcontext ctx;
	CUdevice dev;
	CUstreamCaptureMode mode;
	float *hx, *hw, one = 1.0f;
	unsigned int one_bits, *hu;
	size_t nodes;
	unsigned int *pageable;
	CUresult r;

	memcpy(&one_bits, &one, sizeof(one));
	CK(primary_ctx(&dev, &ctx));
	mod_misc = load_module("misc.ptx");
	mod_vadd = load_module("vec_add.ptx");
	CK(cuModuleGetFunction(&f_saxpy, mod_misc, "saxpy"));
	CK(cuModuleGetFunction(&f_fill, mod_misc, "fill_u32"));
	CK(cuModuleGetFunction(&f_vadd, mod_vadd, "vec_add"));
	CK(cuMemAlloc(&x, N * 4));
	CK(cuMemAlloc(&y, N * 4));
	CK(cuMemAlloc(&z, N * 4));
	CK(cuMemAlloc(&w, N * 4));
	CK(cuMemAllocHost((void **)&hx, N * 4));
	CK(cuMemAllocHost((void **)&hw, N * 4));
	hu = (unsigned int *)hw;
	pageable = calloc(N, 4);
	if (!pageable)
		die("out of memory");
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	CK(cuStreamCreate(&sb, CU_STREAM_DEFAULT));
	CK(cuEventCreate(&e1, CU_EVENT_DISABLE_TIMING));
	CK(cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING));

	/*
	 * w = 7x + 2: y = 1, y = 2x + y on s; forked to s2, z = y, z = 3x + z;
	 * joined again, w = y + z on s.
	 */
	printf("before capture: %s\n", status(s));
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	printf("capturing: %s\n", status(s));
	CK(cuStreamGetCaptureInfo(s, &st, &id1, &g_out, NULL, NULL, NULL));
	printf("capture info: %s, id %s\n", status_name(st), id1 ? "set" : "zero");
	CK(cuMemsetD32Async(y, one_bits, N, s));
	saxpy(s, 2.0f, x, y);
	CK(cuEventRecord(e1, s));
	CK(cuStreamWaitEvent(s2, e1, 0));
	CK(cuStreamGetCaptureInfo(s2, &st, &id2, NULL, NULL, NULL, NULL));
	printf("second stream joined the capture: %s\n",
	       yes(st == CU_STREAM_CAPTURE_STATUS_ACTIVE && id2 == id1));
	CK(cuMemcpyDtoDAsync(z, y, N * 4, s2));
	saxpy(s2, 3.0f, x, z);
	CK(cuEventRecord(e2, s2));
	CK(cuStreamWaitEvent(s, e2, 0));
	vadd(s, y, z, w);
	CK(cuStreamEndCapture(s, &graph));
	printf("the graph ended is the one captured into: %s\n", yes(graph == g_out));
	printf("after capture: %s %s\n", status(s), status(s2));
	CK(cuGraphGetNodes(graph, NULL, &nodes));
	printf("nodes: %zu\n", nodes);
	CK(cuGraphInstantiate(&exec, graph, 0));
	/* An executable graph does not need its graph. */
	CK(cuGraphDestroy(graph));

	for (unsigned int launch = 0; launch < 4; launch++) {
		for (unsigned int i = 0; i < N; i++)
			hx[i] = (float)(i % 1000 + launch * 10);
		CK(cuMemcpyHtoDAsync(x, hx, N * 4, s));
		CK(cuGraphLaunch(exec, s));
		CK(cuMemcpyDtoHAsync(hw, w, N * 4, s));
		CK(cuStreamSynchronize(s));
		for (unsigned int i = 0; i < N; i++)
			if (hw[i] != 7 * hx[i] + 2)
				die("launch %u: w[%u] = %g, expected %g", launch, i, hw[i],
				    7 * hx[i] + 2);
	}
	printf("4 launches with new input each: ok\n");
	for (unsigned int i = 0; i < N; i++)
		hx[i] = (float)(i % 77);
	CK(cuMemcpyHtoD(x, hx, N * 4));
	CK(cuGraphLaunch(exec, s2));
	CK(cuMemcpyDtoHAsync(hw, w, N * 4, s2));
	CK(cuStreamSynchronize(s2));
	for (unsigned int i = 0; i < N; i++)
		if (hw[i] != 7 * hx[i] + 2)
			die("launch on s2: w[%u] = %g", i, hw[i]);
	printf("launch on another stream: ok\n");
	CK(cuGraphExecDestroy(exec));

	/* Memory allocated and freed inside the graph, at every launch. */
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CK(cuStreamGetCaptureInfo(s, &st, &id3, NULL, NULL, NULL, NULL));
	CK(cuMemAllocAsync(&tmp, N * 4, s));
	fill(s, tmp, 0x600d, N);
	CK(cuMemcpyDtoDAsync(w, tmp, N * 4, s));
	CK(cuMemFreeAsync(tmp, s));
	CK(cuStreamEndCapture(s, &graph));
	CK(cuGraphGetNodes(graph, NULL, &nodes));
	CK(cuGraphInstantiate(&exec, graph, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
	CK(cuGraphDestroy(graph));
	for (unsigned int launch = 0; launch < 2; launch++) {
		CK(cuMemsetD32Async(w, 0, N, s));
		CK(cuGraphLaunch(exec, s));
		CK(cuMemcpyDtoHAsync(hu, w, N * 4, s));
		CK(cuStreamSynchronize(s));
		for (unsigned int i = 0; i < N; i++)
			if (hu[i] != 0x600d)
				die("graph allocation, launch %u: word %u is %#x", launch, i,
				    hu[i]);
	}
	CK(cuGraphExecDestroy(exec));
	printf("allocation inside a graph: %zu nodes, ok\n", nodes);
	printf("capture ids differ: %s\n", yes(id3 && id3 != id1));

	/* Waiting for a capturing stream: nothing there runs. */
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	saxpy(s, 1.0f, x, y);
	printf("cuStreamSynchronize during capture: %s\n", err_name(cuStreamSynchronize(s)));
	printf("status after it: %s\n", status(s));
	printf("launch after it: %s\n", err_name(try_saxpy(s, 1.0f, x, y)));
	g = NULL;
	r = cuStreamEndCapture(s, &g);
	printf("end of the capture: %s, %s\n", err_name(r), g ? "a graph" : "no graph");
	printf("status after the end: %s\n", status(s));

	pageable_capture(s, pageable);
	host_graph(s, s2);

	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	printf("cuCtxSynchronize during capture: %s\n", err_name(cuCtxSynchronize()));
	end_any(s);

	/* cuMemAlloc is potentially unsafe: cuThreadExchangeStreamCaptureMode's rules. */
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	printf("cuMemAlloc during capture, global mode: %s\n", err_name(cuMemAlloc(&tmp, 4096)));
	end_any(s);
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	mode = CU_STREAM_CAPTURE_MODE_RELAXED;
	CK(cuThreadExchangeStreamCaptureMode(&mode));
	printf("the thread's mode was global: %s\n", yes(mode == CU_STREAM_CAPTURE_MODE_GLOBAL));
	r = cuMemAlloc(&tmp, 4096);
	printf("cuMemAlloc during capture, relaxed thread: %s\n", err_name(r));
	CK(cuThreadExchangeStreamCaptureMode(&mode));
	r = cuStreamEndCapture(s, &graph);
	printf("end of that capture: %s\n", err_name(r));
	if (!r)
		CK(cuGraphDestroy(graph));
	CK(cuMemFree(tmp));
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
	r = cuMemAlloc(&tmp, 4096);
	printf("cuMemAlloc during a relaxed capture: %s\n", err_name(r));
	r = cuStreamEndCapture(s, &graph);
	printf("end of that capture: %s\n", err_name(r));
	if (!r)
		CK(cuGraphDestroy(graph));
	CK(cuMemFree(tmp));

	/* The legacy stream waits for blocking streams: not while one captures. */
	CK(cuStreamBeginCapture(sb, CU_STREAM_CAPTURE_MODE_GLOBAL));
	printf("legacy stream status beside a blocking capture: %s\n",
	       err_name(cuStreamIsCapturing(NULL, &st)));
	printf("launch on the legacy stream beside a blocking capture: %s\n",
	       err_name(try_saxpy(NULL, 1.0f, x, y)));
	end_any(sb);

	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	saxpy(s, 1.0f, x, y);
	CK(cuEventRecord(e1, s));
	printf("query of an event recorded in the capture: %s\n", err_name(cuEventQuery(e1)));
	end_any(s);
	CK(cuEventRecord(e1, s));
	CK(cuEventSynchronize(e1));

	/* What the driver refuses without naming an error: checked, not printed. */
	if (cuStreamEndCapture(s, &g) == CUDA_SUCCESS)
		die("cuStreamEndCapture without a capture succeeded");
	if (cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL) == CUDA_SUCCESS)
		die("a capture on the legacy stream began");
	CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	if (cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL) == CUDA_SUCCESS)
		die("a capture began on a capturing stream");
	end_any(s);
	printf("misuse refused: yes\n");

	pools(dev, s);

	free(pageable);
	CK(cuEventDestroy(e1));
	CK(cuEventDestroy(e2));
	CK(cuStreamDestroy(s));
	CK(cuStreamDestroy(s2));
	CK(cuStreamDestroy(sb));
	CK(cuMemFreeHost(hx));
	CK(cuMemFreeHost(hw));
	CK(cuMemFree(x));
	CK(cuMemFree(y));
	CK(cuMemFree(z));
	CK(cuMemFree(w));
	CK(cuModuleUnload(mod_misc));
	CK(cuModuleUnload(mod_vadd));
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));
	printf("graphs: PASS\n");
	return 0;
}
