// SPDX-License-Identifier: MIT
/*
 * threads: four host threads at once, each retaining the primary context,
 * making it current for itself and using its own stream for copies in and
 * out of pinned memory around a saxpy, checked each round.  A new thread
 * starts with no current context, and one thread's current context does
 * not change another's.  Inputs keep every result exact.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../lib/cuctx.h"
#include "util.h"

#define NTHREADS	4
#define ROUNDS		20
#define BLOCK		256

struct worker {
	pthread_t tid;
	int idx;
	int started_without_ctx;
	int rounds_ok;
};

static CUdevice dev;
static CUcontext primary;
static CUfunction f_saxpy;
static pthread_barrier_t start;

static void *work(void *arg)
{
	struct worker *w = arg;
	int n = 65536 + w->idx * 1000 + 1;
	float a = 0.5f * (float)(w->idx + 1);
	size_t bytes = (size_t)n * sizeof(float);
	CUdeviceptr dx, dy;
	CUcontext ctx, cur;
	float *x, *y;
	CUstream s;
	int r, i;

	CK(cuCtxGetCurrent(&cur));
	w->started_without_ctx = cur == NULL;
	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	if (ctx != primary)
		die("thread %d: another primary context", w->idx);
	CK(cuCtxSetCurrent(ctx));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemAllocHost((void **)&x, bytes));
	CK(cuMemAllocHost((void **)&y, bytes));
	CK(cuMemAlloc(&dx, bytes));
	CK(cuMemAlloc(&dy, bytes));
	pthread_barrier_wait(&start);

	for (r = 0; r < ROUNDS; r++) {
		void *args[] = { &a, &dx, &dy, &n };

		for (i = 0; i < n; i++) {
			x[i] = (float)(i % 97 + w->idx);
			y[i] = (float)(i % 13) * 0.25f + (float)r;
		}
		CK(cuMemcpyHtoDAsync(dx, x, bytes, s));
		CK(cuMemcpyHtoDAsync(dy, y, bytes, s));
		CK(cuLaunchKernel(f_saxpy, blocks_for(n, BLOCK), 1, 1, BLOCK,
				  1, 1, 0, s, args, NULL));
		CK(cuMemcpyDtoHAsync(y, dy, bytes, s));
		CK(cuStreamSynchronize(s));
		for (i = 0; i < n; i++) {
			float want = a * (float)(i % 97 + w->idx) +
				     (float)(i % 13) * 0.25f + (float)r;

			if (y[i] != want)
				die("thread %d round %d: y[%d] = %g, expected %g",
				    w->idx, r, i, y[i], want);
		}
		CK(cuCtxGetCurrent(&cur));
		if (cur != ctx)
			die("thread %d: current context changed", w->idx);
		w->rounds_ok++;
	}

	CK(cuMemFree(dx));
	CK(cuMemFree(dy));
	CK(cuMemFreeHost(x));
	CK(cuMemFreeHost(y));
	CK(cuStreamDestroy(s));
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));
	return NULL;
}

int main(void)
{
	struct worker w[NTHREADS];
	CUcontext cur;
	CUmodule mod;
	int i, err;

	CK(primary_ctx(&dev, &primary));
	mod = load_function("misc.ptx", "saxpy", &f_saxpy);
	/* The main thread keeps nothing current while the workers run. */
	CK(cuCtxSetCurrent(NULL));

	pthread_barrier_init(&start, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++) {
		w[i] = (struct worker){ .idx = i };
		err = pthread_create(&w[i].tid, NULL, work, &w[i]);
		if (err)
			die("pthread_create: error %d", err);
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(w[i].tid, NULL);
	pthread_barrier_destroy(&start);

	CK(cuCtxGetCurrent(&cur));
	if (cur)
		die("main thread: a worker's context became current here");
	for (i = 0; i < NTHREADS; i++) {
		if (!w[i].started_without_ctx)
			die("thread %d started with a current context", i);
		printf("thread %d: no context at start, %d rounds ok\n", i,
		       w[i].rounds_ok);
	}

	CK(cuCtxSetCurrent(primary));
	CK(cuModuleUnload(mod));
	CK(cuCtxSetCurrent(NULL));
	CK(cuDevicePrimaryCtxRelease(dev));
	printf("threads: PASS\n");
	return 0;
}
