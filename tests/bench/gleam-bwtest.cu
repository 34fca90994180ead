// SPDX-License-Identifier: MIT
/*
 * Copy bandwidth measured the way CUDA programs commonly measure it: with
 * the runtime API, page-locked buffers from cudaHostAlloc timed by events
 * recorded around a loop of cudaMemcpyAsync on the legacy stream, pageable
 * buffers from malloc timed by the host's clock around a loop of
 * cudaMemcpy.  What such a program reports is what a user of Gleam sees,
 * so this measures Gleam from the program's side, with nothing of Gleam's
 * own in it.
 *
 *   gleam-bwtest [MIB [ITERATIONS]]     (default 16 MiB, 20 copies)
 *
 * Prints one line per cell and, last, one JSON line.  The bytes are
 * checked after each way: the device's copy against the host's pattern,
 * and what came back against the device's.  Exit 1 on a CUDA error or a
 * wrong byte.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                            \
	do {                                                                   \
		cudaError_t e_ = (call);                                       \
		if (e_ != cudaSuccess) {                                       \
			fprintf(stderr, "gleam-bwtest: %s: %s\n", #call,       \
				cudaGetErrorString(e_));                       \
			exit(1);                                               \
		}                                                              \
	} while (0)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A pattern that differs from byte to byte and from one round to the next. */
static void fill(unsigned char *p, size_t n, unsigned int round)
{
	uint64_t x = 0x9e3779b97f4a7c15ull * (round + 1);

	for (size_t i = 0; i + 8 <= n; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(p + i, &x, 8);
	}
}

/*
 * Where the first wrong bytes came from, as far as can be told: the
 * pattern is different at every 8-byte word, so a word found at another
 * offset of what was sent (or of the other kind's pattern, sent before)
 * names the bytes that took its place.
 */
static void origin(const unsigned char *got, const unsigned char *want, size_t n, size_t first)
{
	size_t w = first & ~(size_t)7;
	uint64_t v;

	if (w + 16 > n)
		return;
	w += 8;		/* a whole word past the first wrong byte */
	memcpy(&v, got + w, 8);
	if (!v) {
		fprintf(stderr, "gleam-bwtest: the word at %zu is zero\n", w);
		return;
	}
	for (size_t i = 0; i + 8 <= n; i += 8)
		if (!memcmp(want + i, &v, 8)) {
			fprintf(stderr, "gleam-bwtest: the word at %zu is the one sent at %zu (%+lld bytes)\n",
				w, i, (long long)i - (long long)w);
			return;
		}
	for (unsigned int round = 0; round < 2; round++) {
		unsigned char *other = (unsigned char *)malloc(n);

		if (!other)
			return;
		fill(other, n, round);
		for (size_t i = 0; i + 8 <= n; i += 8)
			if (!memcmp(other + i, &v, 8)) {
				fprintf(stderr, "gleam-bwtest: the word at %zu is pattern %u's at %zu\n",
					w, round, i);
				free(other);
				return;
			}
		free(other);
	}
	fprintf(stderr, "gleam-bwtest: the word at %zu (0x%016llx) was never sent\n", w,
		(unsigned long long)v);
}

/*
 * Whether got holds want; if not, says where they differ: the first and
 * last wrong byte, and how many 4 KiB pages hold one.
 */
static bool same(const unsigned char *got, const unsigned char *want, size_t n, const char *what)
{
	size_t first = n, last = 0, pages = 0;

	if (!memcmp(got, want, n))
		return true;
	for (size_t pg = 0; pg < n; pg += 4096) {
		size_t k = n - pg < 4096 ? n - pg : 4096;

		if (!memcmp(got + pg, want + pg, k))
			continue;
		pages++;
		for (size_t i = pg; i < pg + k; i++)
			if (got[i] != want[i]) {
				if (first == n)
					first = i;
				last = i;
			}
	}
	fprintf(stderr, "gleam-bwtest: %s: wrong bytes from offset %zu (0x%zx) to %zu (0x%zx), in %zu pages of 4 KiB\n",
		what, first, first, last, last, pages);
	origin(got, want, n, first);
	return false;
}

/* Seconds for iters copies of n bytes one way, as such programs time them. */
static double timed(bool pinned, bool htod, void *host, void *dev, size_t n, int iters)
{
	cudaEvent_t start, stop;
	float ms = 0;
	double t0;

	if (!pinned) {
		CHECK(cudaDeviceSynchronize());
		t0 = now_s();
		for (int i = 0; i < iters; i++) {
			if (htod)
				CHECK(cudaMemcpy(dev, host, n, cudaMemcpyHostToDevice));
			else
				CHECK(cudaMemcpy(host, dev, n, cudaMemcpyDeviceToHost));
		}
		CHECK(cudaDeviceSynchronize());
		return now_s() - t0;
	}
	CHECK(cudaEventCreate(&start));
	CHECK(cudaEventCreate(&stop));
	CHECK(cudaEventRecord(start, 0));
	for (int i = 0; i < iters; i++) {
		if (htod)
			CHECK(cudaMemcpyAsync(dev, host, n, cudaMemcpyHostToDevice, 0));
		else
			CHECK(cudaMemcpyAsync(host, dev, n, cudaMemcpyDeviceToHost, 0));
	}
	CHECK(cudaEventRecord(stop, 0));
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaEventElapsedTime(&ms, start, stop));
	CHECK(cudaEventDestroy(start));
	CHECK(cudaEventDestroy(stop));
	return ms / 1e3;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 16;
	int iters = argc > 2 ? atoi(argv[2]) : 20;
	size_t n = mib << 20;
	double gbps[2][2];
	unsigned char *ref, *back;
	void *dev;
	int bad = 0;

	if (!mib || mib > 4096 || iters < 1 || iters > 10000) {
		fprintf(stderr, "usage: gleam-bwtest [MIB (1 to 4096) [ITERATIONS (1 to 10000)]]\n");
		return 2;
	}
	ref = (unsigned char *)malloc(n);
	back = (unsigned char *)malloc(n);
	if (!ref || !back) {
		fprintf(stderr, "gleam-bwtest: no memory for %zu MiB\n", mib);
		return 1;
	}
	CHECK(cudaMalloc(&dev, n));
	for (int k = 0; k < 2; k++) {
		bool pinned = k == 0;
		unsigned char *host;

		if (pinned)
			CHECK(cudaHostAlloc((void **)&host, n, cudaHostAllocDefault));
		else if (!(host = (unsigned char *)malloc(n))) {
			fprintf(stderr, "gleam-bwtest: no memory for %zu MiB\n", mib);
			return 1;
		}
		/* To the device: the bytes of the last copy are what the device holds. */
		fill(host, n, k);
		memcpy(ref, host, n);
		gbps[k][0] = (double)n * iters / timed(pinned, true, host, dev, n, iters) / 1e9;
		CHECK(cudaMemcpy(back, dev, n, cudaMemcpyDeviceToHost));
		if (!same(back, ref, n, pinned ? "pinned copies to the device" :
					   "pageable copies to the device")) {
			/* A second read says whether the device holds those bytes. */
			unsigned char *again = (unsigned char *)malloc(n);

			bad = 1;
			if (again) {
				CHECK(cudaMemcpy(again, dev, n, cudaMemcpyDeviceToHost));
				fprintf(stderr, "gleam-bwtest: a second read of the device %s\n",
					memcmp(again, back, n) ? "differs from the first" :
								 "gives the same bytes");
				free(again);
			}
		}
		/* To the host: every copy brings the device's bytes back. */
		memset(host, 0, n);
		gbps[k][1] = (double)n * iters / timed(pinned, false, host, dev, n, iters) / 1e9;
		if (!same(host, ref, n, pinned ? "pinned copies to the host" :
					   "pageable copies to the host"))
			bad = 1;
		printf("%-8s to the device %8.3f GB/s   to the host %8.3f GB/s   (%zu MiB x %d)\n",
		       pinned ? "pinned" : "pageable", gbps[k][0], gbps[k][1], mib, iters);
		if (pinned)
			CHECK(cudaFreeHost(host));
		else
			free(host);
	}
	CHECK(cudaFree(dev));
	printf("{\"mib\":%zu,\"iterations\":%d,\"pinned_htod\":%.4f,\"pinned_dtoh\":%.4f,"
	       "\"pageable_htod\":%.4f,\"pageable_dtoh\":%.4f,\"ok\":%s}\n",
	       mib, iters, gbps[0][0], gbps[0][1], gbps[1][0], gbps[1][1], bad ? "false" : "true");
	free(ref);
	free(back);
	return bad;
}
