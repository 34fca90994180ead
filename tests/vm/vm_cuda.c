// SPDX-License-Identifier: MIT
/*
 * A driver-API program for the vm-check VM (tests/vm/gleam.sh), built
 * against the stub libcuda and run on Gleam's libcuda.so.1.
 *
 *   vm_cuda wait SECONDS     two threads make synchronous calls until one
 *                            fails; exit 0 if every failure, and a call
 *                            after them, is CUDA_ERROR_DEVICE_UNAVAILABLE;
 *                            2 if nothing failed within SECONDS
 *   vm_cuda rtt N FILE       time N empty synchronous calls
 *                            (cuCtxSynchronize, after warm-up) and append
 *                            the nanoseconds to FILE, one a line
 *   vm_cuda report A B R     percentiles of the samples in FILE A (through
 *                            /dev/vgpuN) and B (the socket), written in R
 *                            rounds of equal size, and the ratios
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>

#define MIB		(1u << 20)
#define MAX_SAMPLES	100000

static CUcontext ctx;
static uint64_t deadline;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static const char *name(CUresult r)
{
	const char *s = NULL;

	return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "(unknown)";
}

static int setup(void)
{
	CUdevice dev;
	CUresult r;

	r = cuInit(0);
	if (!r)
		r = cuDeviceGet(&dev, 0);
	if (!r)
		r = cuDevicePrimaryCtxRetain(&ctx, dev);
	if (!r)
		r = cuCtxSetCurrent(ctx);
	if (r) {
		fprintf(stderr, "vm_cuda: setup: %s\n", name(r));
		return -1;
	}
	return 0;
}

struct worker {
	pthread_t th;
	unsigned long calls;
	CUresult err;
	int ready;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

/* Calls that wait for their reply, so that the thread sleeps in the shim. */
static void *worker(void *arg)
{
	struct worker *w = arg;
	unsigned char *buf = malloc(MIB);
	CUdeviceptr d = 0;
	CUresult r;

	r = buf ? cuCtxSetCurrent(ctx) : CUDA_ERROR_OUT_OF_MEMORY;
	if (!r)
		r = cuMemAlloc(&d, MIB);
	while (!r && now_ns() < deadline) {
		r = cuMemsetD8(d, (unsigned char)w->calls, MIB);
		if (!r)
			r = cuMemcpyDtoH(buf, d, MIB);
		if (!r)
			r = cuCtxSynchronize();
		if (r)
			break;
		if (buf[MIB - 1] != (unsigned char)w->calls) {
			fprintf(stderr, "vm_cuda: wrong data\n");
			r = CUDA_ERROR_UNKNOWN;
			break;
		}
		w->calls++;
		pthread_mutex_lock(&lock);
		w->ready = 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	w->err = r;
	w->ready = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&lock);
	free(buf);
	return NULL;
}

static int cmd_wait(int seconds)
{
	struct worker w[2];
	CUresult later;
	int i, ok = 1;

	memset(w, 0, sizeof(w));
	if (setup())
		return 1;
	deadline = now_ns() + (uint64_t)seconds * 1000000000ull;
	for (i = 0; i < 2; i++)
		pthread_create(&w[i].th, NULL, worker, &w[i]);
	pthread_mutex_lock(&lock);
	while (!w[0].ready || !w[1].ready)
		pthread_cond_wait(&cv, &lock);
	pthread_mutex_unlock(&lock);
	printf("vm_cuda: ready\n");
	fflush(stdout);
	for (i = 0; i < 2; i++)
		pthread_join(w[i].th, NULL);
	if (!w[0].err && !w[1].err) {
		printf("vm_cuda: nothing failed in %d s\n", seconds);
		return 2;
	}
	later = cuCtxSynchronize();
	for (i = 0; i < 2; i++) {
		printf("vm_cuda: thread %d: %s after %lu rounds\n", i, name(w[i].err),
		       w[i].calls);
		ok &= w[i].err == CUDA_ERROR_DEVICE_UNAVAILABLE;
	}
	printf("vm_cuda: a later call: %s\n", name(later));
	ok &= later == CUDA_ERROR_DEVICE_UNAVAILABLE;
	return ok ? 0 : 1;
}

static int cmd_rtt(unsigned int n, const char *path)
{
	FILE *f;
	uint64_t t;
	CUresult r;
	unsigned int i;

	if (setup())
		return 1;
	f = fopen(path, "a");
	if (!f) {
		perror(path);
		return 1;
	}
	for (i = 0; i < n + n / 10; i++) {
		t = now_ns();
		r = cuCtxSynchronize();
		t = now_ns() - t;
		if (r) {
			fprintf(stderr, "vm_cuda: cuCtxSynchronize: %s\n", name(r));
			fclose(f);
			return 1;
		}
		if (i >= n / 10)
			fprintf(f, "%llu\n", (unsigned long long)t);
	}
	fclose(f);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The samples in file order (rounds one after the other). */
static unsigned int load(const char *path, uint64_t *v)
{
	FILE *f = fopen(path, "r");
	unsigned long long x;
	unsigned int n = 0;

	if (!f)
		return 0;
	while (n < MAX_SAMPLES && fscanf(f, "%llu", &x) == 1)
		v[n++] = x;
	fclose(f);
	return n;
}

/* Percentile p of n samples, in microseconds; sorts them. */
static double pct(uint64_t *v, unsigned int n, unsigned int p)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[(uint64_t)(n - 1) * p / 100] / 1000.0;
}

static int cmd_report(const char *a, const char *b, unsigned int rounds)
{
	static uint64_t va[MAX_SAMPLES], vb[MAX_SAMPLES];
	unsigned int na = load(a, va), nb = load(b, vb), ka, kb;
	double r, lo = 1e9, hi = 0;

	if (!na || !nb || !rounds || na % rounds || nb % rounds) {
		fprintf(stderr, "vm_cuda: no samples, or not %u rounds\n", rounds);
		return 1;
	}
	/* Each round's ratio of medians: how much the machine's load moved. */
	ka = na / rounds;
	kb = nb / rounds;
	for (unsigned int i = 0; i < rounds; i++) {
		r = pct(va + i * ka, ka, 50) / pct(vb + i * kb, kb, 50);
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
	}
	printf("  BENCH gleam vgpu   n=%u median=%.1f us p90=%.1f us p99=%.1f us\n",
	       na, pct(va, na, 50), pct(va, na, 90), pct(va, na, 99));
	printf("  BENCH gleam socket n=%u median=%.1f us p90=%.1f us p99=%.1f us\n",
	       nb, pct(vb, nb, 50), pct(vb, nb, 90), pct(vb, nb, 99));
	printf("  BENCH gleam ratio vgpu/socket: median %.2f p90 %.2f; per round %.2f..%.2f\n",
	       pct(va, na, 50) / pct(vb, nb, 50), pct(va, na, 90) / pct(vb, nb, 90), lo, hi);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "wait"))
		return cmd_wait(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "rtt"))
		return cmd_rtt((unsigned int)atoi(argv[2]), argv[3]);
	if (argc == 5 && !strcmp(argv[1], "report"))
		return cmd_report(argv[2], argv[3], (unsigned int)atoi(argv[4]));
	fprintf(stderr, "usage: vm_cuda wait SECONDS | rtt N FILE | report A B ROUNDS\n");
	return 2;
}
