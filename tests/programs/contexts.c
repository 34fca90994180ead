// SPDX-License-Identifier: MIT
/*
 * contexts: the per-thread context stack (cuCtxCreate, push, pop, set),
 * context queries (device, API version, flags, limits), module and memory
 * in two contexts, a pointer of one context used under push/pop from the
 * other, and the primary context's life cycle (get state, set flags,
 * retain, release, reset).  Contexts are printed by role, never by value.
 */
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

#define NWORDS 4096

static CUcontext c1, c2, pc;

static const char *role(CUcontext c)
{
	if (!c)
		return "none";
	if (c == c1)
		return "c1";
	if (c == c2)
		return "c2";
	if (pc && c == pc)
		return "primary";
	return "unknown";
}

static void expect_current(const char *step, CUcontext want)
{
	CUcontext cur;

	CK(cuCtxGetCurrent(&cur));
	if (cur != want)
		die("%s: current is %s, expected %s", step, role(cur),
		    role(want));
	printf("%s: current %s\n", step, role(cur));
}

static void expect_pop(const char *step, CUcontext want, CUcontext then)
{
	CUcontext p;

	CK(cuCtxPopCurrent(&p));
	if (p != want)
		die("%s: popped %s, expected %s", step, role(p), role(want));
	printf("%s: popped %s\n", step, role(p));
	expect_current(step, then);
}

static void primary_state(const char *step, CUdevice dev, int want_active)
{
	unsigned int flags;
	int active;

	CK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
	if (active != want_active)
		die("%s: primary active %d, expected %d", step, active,
		    want_active);
	printf("%s: primary active %d\n", step, active);
}

static void fill_and_check(CUdeviceptr p, CUfunction f, unsigned int v)
{
	unsigned long long n = NWORDS;
	void *args[] = { &p, &v, &n };
	uint32_t *h = malloc(NWORDS * 4);
	size_t i;

	if (!h)
		die("out of memory");
	CK(cuLaunchKernel(f, 4, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
	CK(cuCtxSynchronize());
	CK(cuMemcpyDtoH(h, p, NWORDS * 4));
	for (i = 0; i < NWORDS; i++)
		if (h[i] != v)
			die("word %zu is %#x, expected %#x", i, h[i], v);
	free(h);
}

static void check_words(CUdeviceptr p, unsigned int v)
{
	uint32_t *h = malloc(NWORDS * 4);
	size_t i;

	if (!h)
		die("out of memory");
	CK(cuMemcpyDtoH(h, p, NWORDS * 4));
	for (i = 0; i < NWORDS; i++)
		if (h[i] != v)
			die("word %zu is %#x, expected %#x", i, h[i], v);
	free(h);
}

static void limits(void)
{
	size_t v, before, c2_fifo, c2_after;
	CUcontext p;

	/* Limits belong to a context: setting c1's leaves c2's alone. */
	CK(cuCtxPushCurrent(c2));
	CK(cuCtxGetLimit(&c2_fifo, CU_LIMIT_PRINTF_FIFO_SIZE));
	CK(cuCtxPopCurrent(&p));

	CK(cuCtxGetLimit(&before, CU_LIMIT_STACK_SIZE));
	if (!before)
		die("stack size limit is 0");
	CK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
	CK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
	if (v < 4096)
		die("stack size limit %zu after setting 4096", v);
	CK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, c2_fifo + (4 << 20)));
	CK(cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
	if (v < c2_fifo + (4 << 20))
		die("printf fifo limit %zu after setting %zu", v,
		    c2_fifo + (4 << 20));
	CK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 << 20));
	CK(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
	if (v < 16 << 20)
		die("malloc heap limit %zu after setting 16 MiB", v);

	CK(cuCtxPushCurrent(c2));
	CK(cuCtxGetLimit(&c2_after, CU_LIMIT_PRINTF_FIFO_SIZE));
	CK(cuCtxPopCurrent(&p));
	if (c2_after != c2_fifo)
		die("c2's printf fifo limit changed with c1's");
	printf("limits ok\n");
}

int main(void)
{
	unsigned int flags, v1, v2;
	CUdeviceptr p1, p2, pp;
	CUfunction f1, f2;
	CUmodule m1, m2;
	CUdevice dev, d;
	CUcontext pc2;
	int active;

	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));

	/* The primary context, untouched so far, takes flags while inactive. */
	primary_state("start", dev, 0);
	CK(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_BLOCKING_SYNC));
	CK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
	if ((flags & CU_CTX_SCHED_MASK) != CU_CTX_SCHED_BLOCKING_SYNC || active)
		die("primary after set flags: flags %#x active %d", flags,
		    active);
	printf("primary set flags ok\n");

	/* The stack: create pushes, pop returns the top, set replaces it. */
	expect_current("start", NULL);
	CK(cuCtxCreate(&c1, NULL, 0, dev));
	expect_current("create c1", c1);
	CK(cuCtxCreate(&c2, NULL, CU_CTX_SCHED_SPIN, dev));
	expect_current("create c2", c2);
	CK(cuCtxGetFlags(&flags));
	if ((flags & CU_CTX_SCHED_MASK) != CU_CTX_SCHED_SPIN)
		die("c2 flags %#x", flags);
	printf("c2 flags ok\n");
	expect_pop("pop", c2, c1);
	CK(cuCtxPushCurrent(c2));
	expect_current("push c2", c2);
	CK(cuCtxSetCurrent(c1));
	expect_current("set c1", c1);
	expect_pop("pop", c1, c1);
	expect_pop("pop", c1, NULL);

	CK(cuCtxSetCurrent(c1));
	CK(cuCtxGetDevice(&d));
	if (d != dev)
		die("cuCtxGetDevice: %d, expected %d", d, dev);
	CK(cuCtxGetApiVersion(c1, &v1));
	CK(cuCtxGetApiVersion(c2, &v2));
	if (!v1 || v1 != v2)
		die("cuCtxGetApiVersion: %u and %u", v1, v2);
	printf("device and api version ok\n");
	limits();

	/* A module and an allocation in each context. */
	m1 = load_function("misc.ptx", "fill_u32", &f1);
	CK(cuMemAlloc(&p1, NWORDS * 4));
	fill_and_check(p1, f1, 0x11111111);
	CK(cuCtxSetCurrent(c2));
	m2 = load_function("misc.ptx", "fill_u32", &f2);
	CK(cuMemAlloc(&p2, NWORDS * 4));
	fill_and_check(p2, f2, 0x22222222);
	printf("module and memory in each context ok\n");

	/* c1's pointer, from c2, under push/pop. */
	CK(cuCtxPushCurrent(c1));
	check_words(p1, 0x11111111);
	CK(cuCtxSynchronize());
	/* cuCtxSynchronize_v2: a NULL context is the current one; another by name. */
	CK(cuCtxSynchronize_v2(NULL));
	CK(cuCtxSynchronize_v2(c2));
	expect_pop("c1 pointer under push", c1, c2);
	check_words(p2, 0x22222222);
	printf("pointers under push/pop ok\n");

	CK(cuMemFree(p2));
	CK(cuModuleUnload(m2));
	CK(cuCtxSetCurrent(c1));
	CK(cuMemFree(p1));
	CK(cuModuleUnload(m1));

	/* Primary context: retain, use, retain again, release, reset. */
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRetain(&pc, dev));
	primary_state("retain", dev, 1);
	if (pc == c1 || pc == c2)
		die("primary context is a created context");
	CK(cuCtxSetCurrent(pc));
	expect_current("set primary", pc);
	CK(cuCtxGetFlags(&flags));
	if ((flags & CU_CTX_SCHED_MASK) != CU_CTX_SCHED_BLOCKING_SYNC)
		die("primary context flags %#x", flags);
	printf("primary flags ok\n");
	CK(cuMemAlloc(&pp, NWORDS * 4));
	CK(cuMemsetD32(pp, 0x33333333, NWORDS));
	check_words(pp, 0x33333333);
	CK(cuMemFree(pp));
	printf("primary memory ok\n");
	CK(cuDevicePrimaryCtxRetain(&pc2, dev));
	if (pc2 != pc)
		die("second retain gave another context");
	printf("second retain: same context\n");
	CK(cuDevicePrimaryCtxRelease(dev));
	primary_state("release one of two", dev, 1);
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));
	primary_state("release two of two", dev, 0);

	CK(cuDevicePrimaryCtxRetain(&pc, dev));
	CK(cuCtxSetCurrent(pc));
	CK(cuMemAlloc(&pp, NWORDS * 4));
	CK(cuMemsetD32(pp, 0x44444444, NWORDS));
	check_words(pp, 0x44444444);
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxReset(dev));
	primary_state("reset", dev, 0);

	CK(cuCtxDestroy(c2));
	CK(cuCtxDestroy(c1));
	c1 = c2 = pc = NULL;
	expect_current("end", NULL);
	printf("contexts: PASS\n");
	return 0;
}
