// SPDX-License-Identifier: MIT
/*
 * gleam-bench WORKLOAD [ARG]: one benchmark workload against whatever
 * libcuda.so.1 the loader finds (NVIDIA's, or Gleam's under gleam-run).
 * Prints one JSON object: the workload, its wall time, the bytes that had
 * to cross to the GPU and back, and the number of points where the program
 * truly waited for the GPU (for T_floor, Documentation/benchmarks.md).
 *
 *   launch-cost [N]      N asynchronous launches of an empty kernel: client time per launch
 *   sync-rtt [N]         N synchronisations of an idle stream (nothing to wait
 *                        for: no waits count towards the floor)
 *   wait-rtt [N]         N empty kernels, each waited for: N round trips
 *   htod BYTES [pageable] host-to-device copy throughput (pinned source, or
 *                        pageable memory from malloc)
 *   dtoh BYTES [pageable] device-to-host copy throughput (to pinned or pageable)
 *                        (GLEAM_BENCH_COPIES=N: N copies back to back, timed
 *                        together: a steady rate rather than a first copy's)
 *   launch-heavy [N]     N small kernels, a synchronisation every 100
 *   matmul [N]           tiled matrix multiply of N x N (default 2048), 5 times
 *   load MIB COPIES SEED a model's weights loaded: MIB MiB in COPIES copies of
 *                        varied sizes from pageable memory, each followed by a
 *                        synchronisation (as PyTorch's model.to("cuda") does);
 *                        the bytes depend on SEED only; with `each`, every
 *                        copy gets an allocation of its own, made just before
 *                        it (as PyTorch's caching allocator does for large
 *                        tensors), instead of one allocation for all
 *   load-bf16 MIB [SEED] a model's bf16 weights loaded as load does, at least
 *                        MIB MiB: drawn as trained weights are (normal, standard
 *                        deviation 0.02), in the tensors of a transformer of
 *                        width 1024 (an embedding of 32000 rows, then layers of
 *                        four 1024 x 1024 projections, two of 1024 x 4096 and
 *                        two norms); SEED 0 or none: bytes new on every run;
 *                        with `verify`, every byte is read back afterwards and
 *                        compared ("verified" in the report)
 *
 * Every other workload's bytes are new on every run (seeded by the process),
 * so that uploads by content never find them: those rows measure the link.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>

#include "../lib/cuctx.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define CK(call) \
	do { \
		CUresult _r = (call); \
		if (_r) { \
			const char *_n = "?"; \
			cuGetErrorName(_r, &_n); \
			fprintf(stderr, "gleam-bench: %s: %s\n", #call, _n); \
			exit(1); \
		} \
	} while (0)

/*
 * A word read back: the wait that proves what came before it is on the
 * device.  Through Gleam a synchronisation after uploads alone is answered
 * by the client at once (Documentation/design.md); a read cannot be.
 */
static void landed(CUdeviceptr d)
{
	unsigned int word;

	CK(cuMemcpyDtoH(&word, d, sizeof(word)));
}

static CUmodule load(const char *file)
{
	const char *dir = getenv("GLEAM_TEST_KERNELS");
	char path[4096];
	CUmodule m;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "build/tests/kernels", file);
	CK(cuModuleLoad(&m, path));
	return m;
}

/* Bytes no earlier run sent: xorshift from seed. */
static void fill(void *p, size_t n, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull | 1;
	unsigned char *b = p;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(b + i, &x, 8);
	}
	for (; i < n; i++)
		b[i] = (unsigned char)(x >> (8 * (i & 7)));
}

/* bf16 numbers, normal with standard deviation 0.02, from seed. */
static void fill_bf16(uint16_t *p, size_t n, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull | 1;

	for (size_t i = 0; i < n; i += 2) {
		double u[2], r, t;

		for (int k = 0; k < 2; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			u[k] = ((double)(x >> 11) + 1.0) / 9007199254740993.0;
		}
		r = 0.02 * sqrt(-2.0 * log(u[0]));
		t = 6.283185307179586 * u[1];
		for (int k = 0; k < 2 && i + k < n; k++) {
			float f = (float)(r * (k ? sin(t) : cos(t)));
			uint32_t b;

			memcpy(&b, &f, 4);
			/* Rounded to nearest even, as a cast to bf16 does. */
			p[i + k] = (uint16_t)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
		}
	}
}

static uint64_t fresh_seed(void)
{
	return (uint64_t)getpid() << 32 ^ (uint64_t)(now() * 1e9);
}

static void report(const char *w, double s, double bytes, long waits, const char *extra_k,
		   double extra_v)
{
	printf("{\"workload\":\"%s\",\"seconds\":%.6f,\"bytes\":%.0f,\"waits\":%ld", w, s, bytes,
	       waits);
	if (extra_k)
		printf(",\"%s\":%.6g", extra_k, extra_v);
	printf("}\n");
}

int main(int argc, char **argv)
{
	const char *w = argc > 1 ? argv[1] : "";
	long n = argc > 2 ? atol(argv[2]) : 0;
	CUcontext ctx;
	CUstream s;
	CUdevice dev;
	CUfunction nullk;
	double t0, t1;

	CK(primary_ctx(&dev, &ctx));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuModuleGetFunction(&nullk, load("misc.ptx"), "null_kernel"));
	/* Warm up: module load, the first launch and the first wait are not measured. */
	CK(cuLaunchKernel(nullk, 1, 1, 1, 32, 1, 1, 0, s, NULL, NULL));
	CK(cuStreamSynchronize(s));

	if (!strcmp(w, "launch-cost")) {
		n = n ? n : 20000;
		t0 = now();
		for (long i = 0; i < n; i++)
			CK(cuLaunchKernel(nullk, 1, 1, 1, 32, 1, 1, 0, s, NULL, NULL));
		t1 = now();
		CK(cuStreamSynchronize(s));
		report(w, t1 - t0, 0, 0, "us_per_call", (t1 - t0) / (double)n * 1e6);
	} else if (!strcmp(w, "sync-rtt")) {
		n = n ? n : 2000;
		t0 = now();
		for (long i = 0; i < n; i++)
			CK(cuStreamSynchronize(s));
		t1 = now();
		report(w, t1 - t0, 0, 0, "us_per_call", (t1 - t0) / (double)n * 1e6);
	} else if (!strcmp(w, "wait-rtt")) {
		n = n ? n : 2000;
		t0 = now();
		for (long i = 0; i < n; i++) {
			CK(cuLaunchKernel(nullk, 1, 1, 1, 32, 1, 1, 0, s, NULL, NULL));
			CK(cuStreamSynchronize(s));
		}
		t1 = now();
		report(w, t1 - t0, 0, n, "us_per_call", (t1 - t0) / (double)n * 1e6);
	} else if (!strcmp(w, "htod") || !strcmp(w, "dtoh")) {
		size_t bytes = n ? (size_t)n : (256u << 20);
		bool pageable = argc > 3 && !strcmp(argv[3], "pageable");
		long copies;
		CUdeviceptr d;
		void *h;

		if (pageable) {
			h = malloc(bytes);
			if (!h)
				return 1;
		} else {
			CK(cuMemAllocHost(&h, bytes));
		}
		fill(h, bytes, fresh_seed());
		CK(cuMemAlloc(&d, bytes));
		CK(cuMemcpyHtoD(d, h, bytes));
		CK(cuCtxSynchronize());
		/* The measured copy's bytes are not the warm-up's. */
		fill(h, bytes, fresh_seed() + 1);
		copies = getenv("GLEAM_BENCH_COPIES") ? atol(getenv("GLEAM_BENCH_COPIES")) : 1;
		if (copies < 1)
			copies = 1;
		t0 = now();
		for (long i = 0; i < copies; i++) {
			if (w[0] == 'h') {
				CK(cuMemcpyHtoDAsync(d, h, bytes, s));
				CK(cuStreamSynchronize(s));
			} else {
				CK(cuMemcpyDtoH(h, d, bytes));
			}
		}
		if (w[0] == 'h')
			landed(d);
		t1 = now();
		report(w, t1 - t0, (double)bytes * copies, copies, "gbytes_per_s",
		       (double)bytes * copies / (t1 - t0) / 1e9);
		CK(cuMemFree(d));
		if (pageable)
			free(h);
		else
			CK(cuMemFreeHost(h));
	} else if (!strcmp(w, "launch-heavy")) {
		n = n ? n : 10000;
		t0 = now();
		for (long i = 0; i < n; i++) {
			CK(cuLaunchKernel(nullk, 1, 1, 1, 32, 1, 1, 0, s, NULL, NULL));
			if (i % 100 == 99)
				CK(cuStreamSynchronize(s));
		}
		CK(cuStreamSynchronize(s));
		t1 = now();
		report(w, t1 - t0, 0, (n + 99) / 100, NULL, 0);
	} else if (!strcmp(w, "matmul")) {
		int dim = n ? (int)n : 2048;
		size_t bytes = (size_t)dim * dim * sizeof(float);
		CUfunction mm;
		CUdeviceptr a, b, c;
		float *h = malloc(bytes);
		void *args[] = { &a, &b, &c, &dim };

		if (!h)
			return 1;
		{
			uint64_t seed = fresh_seed();

			for (size_t i = 0; i < (size_t)dim * dim; i++) {
				seed ^= seed << 13;
				seed ^= seed >> 7;
				seed ^= seed << 17;
				h[i] = (float)(seed % 4096) / 1024.0f;
			}
		}
		CK(cuModuleGetFunction(&mm, load("matmul.ptx"), "matmul_tiled"));
		CK(cuMemAlloc(&a, bytes));
		CK(cuMemAlloc(&b, bytes));
		CK(cuMemAlloc(&c, bytes));
		t0 = now();
		for (int r = 0; r < 5; r++) {
			CK(cuMemcpyHtoD(a, h, bytes));
			CK(cuMemcpyHtoD(b, h, bytes));
			CK(cuLaunchKernel(mm, (unsigned int)(dim + 15) / 16, (unsigned int)(dim + 15) / 16,
					  1, 16, 16, 1, 0, NULL, args, NULL));
			CK(cuMemcpyDtoH(h, c, bytes));
		}
		t1 = now();
		report(w, t1 - t0, 15.0 * (double)bytes, 5, NULL, 0);
		free(h);
	} else if (!strcmp(w, "load")) {
		size_t total = (size_t)(n ? n : 498) << 20, done = 0;
		long copies = argc > 3 ? atol(argv[3]) : 148;
		uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
		bool each = argc > 5 && !strcmp(argv[5], "each");
		unsigned char *h = malloc(total);
		CUdeviceptr d = 0, last = 0, *dv = calloc((size_t)(copies > 0 ? copies : 1), sizeof(*dv));

		if (!h || !dv || copies < 1)
			return 1;
		fill(h, total, seed);
		if (!each)
			CK(cuMemAlloc(&d, total));
		t0 = now();
		/* Tensors of varied sizes, as a model has: the split follows the seed too. */
		for (long i = 0; i < copies; i++) {
			size_t left = total - done, k = (size_t)(copies - i);
			size_t sz = i == copies - 1 ? left :
				    (size_t)((double)left / (double)k *
					     (0.25 + 1.5 * (double)((seed + (uint64_t)i * 7919) % 1000) /
					      1000.0));

			sz = sz > left ? left : sz;
			if (each) {
				if (!sz)
					continue;
				CK(cuMemAlloc(&dv[i], sz));
				CK(cuMemcpyHtoDAsync(dv[i], h + done, sz, s));
				last = dv[i];
			} else {
				CK(cuMemcpyHtoDAsync(d + done, h + done, sz, s));
			}
			CK(cuStreamSynchronize(s));
			done += sz;
		}
		landed(each ? last : d);
		t1 = now();
		report(w, t1 - t0, (double)total, copies, "gbytes_per_s", (double)total / (t1 - t0) / 1e9);
		for (long i = 0; i < copies; i++)
			if (dv[i])
				CK(cuMemFree(dv[i]));
		if (d)
			CK(cuMemFree(d));
		free(dv);
		free(h);
	} else if (!strcmp(w, "load-bf16")) {
		size_t want = (size_t)(n ? n : 256) << 20, total = 0, ntens = 0, cap = 64;
		uint64_t seed = argc > 3 && strtoull(argv[3], NULL, 10) ? strtoull(argv[3], NULL, 10) :
				fresh_seed();
		static const size_t layer[] = { 1024 * 1024, 1024 * 1024, 1024 * 1024, 1024 * 1024,
						1024 * 4096, 4096 * 1024, 1024, 1024 };
		size_t *elems = malloc(cap * sizeof(*elems));
		uint16_t *h;
		CUdeviceptr d;

		if (!elems)
			return 1;
		elems[ntens++] = 32000 * 1024;
		total = 32000 * 1024 * 2;
		for (size_t i = 0; total < want; i++) {
			if (ntens == cap) {
				cap *= 2;
				elems = realloc(elems, cap * sizeof(*elems));
				if (!elems)
					return 1;
			}
			elems[ntens] = layer[i % (sizeof(layer) / sizeof(layer[0]))];
			total += elems[ntens++] * 2;
		}
		h = malloc(total);
		if (!h)
			return 1;
		fill_bf16(h, total / 2, seed);
		CK(cuMemAlloc(&d, total));
		t0 = now();
		for (size_t i = 0, off = 0; i < ntens; off += elems[i++] * 2) {
			CK(cuMemcpyHtoDAsync(d + off, (unsigned char *)h + off, elems[i] * 2, s));
			CK(cuStreamSynchronize(s));
		}
		landed(d);
		t1 = now();
		if (argc > 4 && !strcmp(argv[4], "verify")) {
			void *back = malloc(total);

			if (!back)
				return 1;
			CK(cuMemcpyDtoH(back, d, total));
			report(w, t1 - t0, (double)total, (long)ntens, "verified",
			       memcmp(back, h, total) ? 0 : 1);
			free(back);
		} else {
			report(w, t1 - t0, (double)total, (long)ntens, "gbytes_per_s",
			       (double)total / (t1 - t0) / 1e9);
		}
		CK(cuMemFree(d));
		free(h);
		free(elems);
	} else {
		fprintf(stderr, "usage: gleam-bench launch-cost|sync-rtt|wait-rtt|launch-heavy|matmul [N]\n"
				"       gleam-bench htod|dtoh BYTES [pageable]\n"
				"       gleam-bench load MIB COPIES SEED [each]\n"
				"       gleam-bench load-bf16 MIB [SEED [verify]]\n");
		return 2;
	}
	CK(cuStreamDestroy(s));
	CK(cuDevicePrimaryCtxRelease(dev));
	return 0;
}
