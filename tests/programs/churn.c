// SPDX-License-Identifier: MIT
/*
 * churn [seconds [threads [big]]]: allocates, copies, launches and
 * synchronises in a loop for that long (default 60 s) on that many threads
 * (default 2), each with a stream of its own, keeping a few allocations
 * alive across rounds and checking every result.  Every big-th round
 * (default 16) also loads a module and copies 24 MiB each way, more than
 * a session ring holds.
 * For tests that kill a part of Gleam under it (tests/integration/kill.sh).
 *
 * Exit status: 0 when the time is up, 3 when a CUDA call fails (what a
 * program sees when its GPU goes away; the call and its error on stderr),
 * 1 when a result is wrong.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

#define KEEP		4		/* allocations alive across rounds */
#define MAX_WORDS	(1u << 18)	/* 1 MiB */
#define BIG		(24u << 20)	/* bytes: more than a 4 MiB ring */

static CUcontext ctx;
static CUfunction f_fill, f_saxpy;
static void *ptx;
static unsigned int big_every = 16;
static double until;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A failed CUDA call: what a program sees when its GPU goes away. */
#define CU(call) cu_check((call), #call, __LINE__)

static void cu_check(CUresult r, const char *what, int line)
{
	if (r == CUDA_SUCCESS)
		return;
	pthread_mutex_lock(&out_lock);
	fprintf(stderr, "churn: line %d: %s: %s\n", line, what, err_name(r));
	fflush(stderr);
	exit(3);
}

struct thread {
	pthread_t tid;
	unsigned int idx;
	unsigned long rounds;
};

/* A module loaded and unloaded, and a copy that fills the ring many times over. */
static void big(struct thread *t, CUstream s)
{
	CUdeviceptr d;
	CUmodule m;
	CUfunction f;
	uint8_t *h = malloc(BIG), *b = malloc(BIG);
	size_t bad;

	if (!h || !b)
		die("out of memory");
	CU(cuModuleLoadData(&m, ptx));
	CU(cuModuleGetFunction(&f, m, "fill_u32"));
	CU(cuModuleUnload(m));
	pattern_fill(h, BIG, 0, t->idx);
	CU(cuMemAlloc(&d, BIG));
	CU(cuMemcpyHtoDAsync(d, h, BIG, s));
	CU(cuMemcpyDtoHAsync(b, d, BIG, s));
	CU(cuStreamSynchronize(s));
	bad = pattern_check(b, BIG, 0, t->idx);
	if (bad != BIG)
		die("thread %u round %lu: byte %zu of the big copy differs", t->idx, t->rounds, bad);
	CU(cuMemFree(d));
	free(h);
	free(b);
}

static void *run(void *arg)
{
	struct thread *t = arg;
	CUdeviceptr keep[KEEP] = { 0 };
	unsigned int seed = 12345u + t->idx * 7919u;
	uint32_t *host, *back;
	CUstream s;
	CUevent ev;

	CU(cuCtxSetCurrent(ctx));
	CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CU(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	CU(cuMemAllocHost((void **)&host, MAX_WORDS * 4));
	back = malloc(MAX_WORDS * 4);
	if (!back)
		die("out of memory");
	while (now() < until) {
		unsigned int words = 1024 + rand_r(&seed) % (MAX_WORDS - 1024);
		unsigned long long n = words;
		uint32_t v = rand_r(&seed);
		float a = 2.0f;
		int nf = (int)words;
		CUdeviceptr x, y;
		void *fill_args[] = { &y, &v, &n };
		void *saxpy_args[] = { &a, &x, &y, &nf };
		unsigned int slot = t->rounds % KEEP;

		CU(cuMemAlloc(&x, words * 4));
		CU(cuMemAlloc(&y, words * 4));
		/* x: small floats, exact when doubled; y: v, then 0, then 2x + y. */
		for (unsigned int i = 0; i < words; i++) {
			float f = (float)(i % 251);

			memcpy(&host[i], &f, 4);
		}
		CU(cuMemcpyHtoDAsync(x, host, words * 4, s));
		CU(cuLaunchKernel(f_fill, 32, 1, 1, 256, 1, 1, 0, s, fill_args, NULL));
		CU(cuMemsetD32Async(y, 0, words, s));
		CU(cuLaunchKernel(f_saxpy, blocks_for(words, 256), 1, 1, 256, 1, 1, 0, s, saxpy_args,
				  NULL));
		CU(cuEventRecord(ev, s));
		CU(cuMemcpyDtoHAsync(back, y, words * 4, s));
		if (t->rounds % 3 == 0)
			CU(cuEventSynchronize(ev));
		CU(cuStreamSynchronize(s));
		for (unsigned int i = 0; i < words; i += 97) {
			float f;

			memcpy(&f, &back[i], 4);
			if (f != 2.0f * (float)(i % 251))
				die("thread %u round %lu: word %u is %g, expected %g", t->idx,
				    t->rounds, i, f, 2.0f * (float)(i % 251));
		}
		/* One allocation stays for a few rounds, the other goes now. */
		CU(cuMemcpyDtoD(y, x, words * 4));
		CU(cuMemFree(x));
		if (keep[slot])
			CU(cuMemFree(keep[slot]));
		keep[slot] = y;
		if (t->rounds % 8 == 7)
			CU(cuCtxSynchronize());
		if (t->rounds % big_every == big_every - 1)
			big(t, s);
		t->rounds++;
	}
	for (unsigned int i = 0; i < KEEP; i++)
		if (keep[i])
			CU(cuMemFree(keep[i]));
	CU(cuMemFreeHost(host));
	CU(cuEventDestroy(ev));
	CU(cuStreamDestroy(s));
	free(back);
	return NULL;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 60;
	unsigned int nthreads = argc > 2 ? (unsigned int)atoi(argv[2]) : 2;
	struct thread t[16];
	unsigned long rounds = 0;
	CUmodule mod;
	CUdevice dev;

	if (argc > 3)
		big_every = (unsigned int)atoi(argv[3]);
	if (nthreads < 1 || nthreads > 16 || big_every < 1)
		die("threads: 1 to 16; big: 1 or more");
	CU(cuInit(0));
	CU(cuDeviceGet(&dev, 0));
	CU(cuDevicePrimaryCtxRetain(&ctx, dev));
	CU(cuCtxSetCurrent(ctx));
	ptx = read_file(kernel_path("misc.ptx"), NULL);
	CU(cuModuleLoadData(&mod, ptx));
	CU(cuModuleGetFunction(&f_fill, mod, "fill_u32"));
	CU(cuModuleGetFunction(&f_saxpy, mod, "saxpy"));
	printf("churn: started\n");
	until = now() + seconds;
	for (unsigned int i = 0; i < nthreads; i++) {
		t[i].idx = i;
		t[i].rounds = 0;
		if (pthread_create(&t[i].tid, NULL, run, &t[i]))
			die("pthread_create");
	}
	for (unsigned int i = 0; i < nthreads; i++) {
		pthread_join(t[i].tid, NULL);
		rounds += t[i].rounds;
	}
	CU(cuModuleUnload(mod));
	CU(cuDevicePrimaryCtxRelease(dev));
	free(ptx);
	printf("churn: %lu rounds\n", rounds);
	return 0;
}
