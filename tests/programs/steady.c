// SPDX-License-Identifier: MIT
/*
 * steady copy|launch [seconds] [MiB]: a steady stream of work for at least
 * the given seconds (default 3), every result checked, for the tests that
 * break the link under a program (tests/integration/outage.sh).
 *
 *   copy    MiB (default 32) to the device, across it and back, bytes new
 *           to every round and every run (uploads by content never find
 *           them), checked byte for byte
 *   launch  saxpy adding 1 to every element of y, on one stream, with a
 *           read of y every 100 launches: a launch lost, replayed twice or
 *           run out of order shows as a wrong count
 *
 * What it prints does not depend on timing: one line, then PASS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/cuctx.h"
#include "util.h"

#define MiB		(1024ULL * 1024)
#define LAUNCH_N	(1u << 16)
#define LAUNCH_BLOCK	256
#define READ_EVERY	100

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Word i of the bytes seeded by seed: splitmix64. */
static uint64_t word(uint64_t seed, uint64_t i)
{
	uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill(uint64_t *p, size_t words, uint64_t seed)
{
	for (size_t i = 0; i < words; i++)
		p[i] = word(seed, i);
}

/* The first word that differs, or words. */
static size_t check(const uint64_t *p, size_t words, uint64_t seed)
{
	for (size_t i = 0; i < words; i++)
		if (p[i] != word(seed, i))
			return i;
	return words;
}

static void copies(double secs, size_t n)
{
	/* Bytes no earlier run sent: seeded by this run, and new every round. */
	uint64_t base = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL) ^
			(uint64_t)(seconds_now() * 1e9);
	uint64_t *src = malloc(n), *dst = malloc(n);
	size_t words = n / 8;
	double t0 = seconds_now();
	CUdeviceptr d1, d2;
	unsigned int round;

	if (!src || !dst)
		die("out of memory");
	CK(cuMemAlloc(&d1, n));
	CK(cuMemAlloc(&d2, n));
	for (round = 0; !round || seconds_now() - t0 < secs; round++) {
		uint64_t seed = base + round;
		size_t bad;

		fill(src, words, seed);
		CK(cuMemcpyHtoD(d1, src, n));
		CK(cuMemcpyDtoD(d2, d1, n));
		memset(dst, 0, n);
		CK(cuMemcpyDtoH(dst, d2, n));
		bad = check(dst, words, seed);
		if (bad != words)
			die("round %u: word %zu of %zu differs", round, bad, words);
	}
	CK(cuMemFree(d1));
	CK(cuMemFree(d2));
	free(src);
	free(dst);
	fprintf(stderr, "steady copy: %u rounds of %zu bytes\n", round, n);
	printf("steady copy: every round intact\n");
}

/* Every element of y must have been counted exactly want times. */
static void expect_count(CUdeviceptr y, float *h, unsigned long long want)
{
	CK(cuMemcpyDtoH(h, y, LAUNCH_N * sizeof(float)));
	for (unsigned int i = 0; i < LAUNCH_N; i++)
		if (h[i] != (float)want)
			die("after %llu launches, y[%u] is %.0f", want, i, h[i]);
}

static void launches(double secs)
{
	float *h = malloc(LAUNCH_N * sizeof(float)), a = 1.0f;
	int n = LAUNCH_N;
	double t0 = seconds_now();
	unsigned long long count = 0;
	CUdeviceptr x, y;
	CUfunction saxpy;
	CUmodule mod;
	CUstream s;
	void *args[] = { &a, &x, &y, &n };

	if (!h)
		die("out of memory");
	mod = load_function("misc.ptx", "saxpy", &saxpy);
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemAlloc(&x, LAUNCH_N * sizeof(float)));
	CK(cuMemAlloc(&y, LAUNCH_N * sizeof(float)));
	CK(cuMemsetD32Async(x, 0x3f800000u, LAUNCH_N, s));	/* 1.0f */
	CK(cuMemsetD32Async(y, 0, LAUNCH_N, s));
	/* Sums of ones are exact far past any count reached here (2^24). */
	while (!count || seconds_now() - t0 < secs) {
		for (int i = 0; i < READ_EVERY; i++)
			CK(cuLaunchKernel(saxpy, blocks_for(LAUNCH_N, LAUNCH_BLOCK), 1, 1,
					  LAUNCH_BLOCK, 1, 1, 0, s, args, NULL));
		count += READ_EVERY;
		CK(cuStreamSynchronize(s));
		expect_count(y, h, count);
	}
	CK(cuStreamDestroy(s));
	CK(cuMemFree(x));
	CK(cuMemFree(y));
	CK(cuModuleUnload(mod));
	free(h);
	fprintf(stderr, "steady launch: %llu launches\n", count);
	printf("steady launch: every launch counted once\n");
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	double secs = argc > 2 ? atof(argv[2]) : 3.0;
	size_t mib = argc > 3 ? strtoul(argv[3], NULL, 0) : 32;
	CUcontext ctx;
	CUdevice dev;

	if ((strcmp(what, "copy") && strcmp(what, "launch")) || !mib) {
		fprintf(stderr, "usage: steady copy|launch [seconds] [MiB]\n");
		return 2;
	}
	CK(primary_ctx(&dev, &ctx));
	if (!strcmp(what, "copy"))
		copies(secs, mib * MiB);
	else
		launches(secs);
	CK(cuDevicePrimaryCtxRelease(dev));
	printf("steady: PASS\n");
	return 0;
}
